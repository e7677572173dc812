#include "app/error_words.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <string_view>
#include <vector>

namespace pcrypt::app {

namespace {

using Who = CliPersonality;

std::optional<pcrypt_file_kind> file_field(const Error& e, ErrorField which) {
  const std::optional<std::uint64_t> value = e.field(which);
  if (!value) return std::nullopt;
  return static_cast<pcrypt_file_kind>(*value);
}

bool has_type(const Error& e, std::string_view type) {
  const std::vector<std::string>& types = e.stanza_types();
  return std::find(types.begin(), types.end(), type) != types.end();
}

// The options that open a file with these slot (pcrypt) or stanza (age) types, cheapest first as the library
// tries them: "-k KEYFILE or -p". Types the CLI has no option for (a plugin's stanzas) are left out.
std::string options_for_types(const Error& e) {
  constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kOptions{{
      {"key-file", "-k KEYFILE"},
      {"X25519", "-i IDENTITY (an X25519 identity)"},
      {"ssh-ed25519", "-i SSH-KEY (the ed25519 key)"},
      {"mlkem768x25519", "-i IDENTITY (a post-quantum identity)"},
      {"ssh-rsa", "-i SSH-KEY (the RSA key)"},
      {"passphrase", "-p"},
      {"scrypt", "-p"},
  }};
  std::string out;
  for (const auto& [type, option] : kOptions) {
    if (!has_type(e, type) || out.find(option) != std::string::npos) continue;
    out += (out.empty() ? "" : " or ") + std::string(option);
  }
  return out;
}

// What to do with a file given where another kind belongs: by what the file really is.
std::optional<std::string> use_instead(pcrypt_file_kind is, Who who) {
  const bool age = who == Who::age;
  switch (is) {
    case PCRYPT_FILE_KEY_FILE:
      if (age) return std::nullopt;
      return "use it with -k to encrypt or decrypt; 'pcrypt info' describes encrypted files";
    case PCRYPT_FILE_IDENTITY:
      return age ? "use it with -i to decrypt files encrypted to it (or to encrypt to yourself)"
                 : "use it with -i to decrypt files encrypted to it (or to encrypt to yourself); 'pcrypt "
                   "recipient FILE' prints its public key";
    case PCRYPT_FILE_SSH_PRIVATE_KEY:
      return age ? "use it with -i to decrypt files encrypted to its public key"
                 : "use it with -i to decrypt files encrypted to its public key; 'pcrypt recipient FILE' "
                   "prints that public key";
    case PCRYPT_FILE_RECIPIENT:
      return "encrypt to it with -r age1... or -R FILE";
    case PCRYPT_FILE_SSH_PUBLIC_KEY:
      return "encrypt to it with -R FILE or -r \"ssh-... AAAA...\"; decrypting needs the private key (-i)";
    case PCRYPT_FILE_AGE_ENCRYPTED:
      if (age) return std::nullopt;
      return "give it as the FILE to 'pcrypt decrypt' (pcrypt reads age files)";
    case PCRYPT_FILE_PCRYPT_ENCRYPTED:
      if (age) return std::nullopt;
      return "give it as the FILE to decrypt, and its key file with -k KEYFILE";
  }
  return std::nullopt;
}

std::optional<std::string> pcrypt_hint(const Error& e) {
  const std::optional<pcrypt_file_kind> role = file_field(e, PCRYPT_FIELD_FILE_ROLE);
  const std::optional<pcrypt_file_kind> is = file_field(e, PCRYPT_FIELD_FILE_KIND);
  const bool age_file = is == PCRYPT_FILE_AGE_ENCRYPTED;
  switch (e.code()) {
    case PCRYPT_E_IO:
      if (e.error_number() != ENOENT || !role) return std::nullopt;
      // The library gives the role where a new file would do (a key file to encrypt with, an identity):
      // decrypting, a new key opens nothing, and its own hint says to check the path.
      if (role == PCRYPT_FILE_KEY_FILE) return "create one with 'pcrypt keygen -o " + e.path() + "'";
      if (role == PCRYPT_FILE_IDENTITY)
        return "create one with 'pcrypt keygen --identity -o " + e.path() + "'";
      return std::nullopt;
    case PCRYPT_E_EXCESSIVE_SCRYPT_WORK:
      return "if you trust this file, raise the limit with --max-work-factor " +
             std::to_string(e.field(PCRYPT_FIELD_SCRYPT_LOG2_ASKED).value_or(0));
    case PCRYPT_E_EXCESSIVE_ARGON2ID_WORK:
      return "if you trust this file, raise the limit with --max-kdf-memory / --max-kdf-ops";
    case PCRYPT_E_CREDENTIAL_MIX:
      if (role == PCRYPT_FILE_KEY_FILE)
        return "encrypt to a recipient (-r age1..., made by 'pcrypt keygen --identity') or with -p";
      if (age_file) return "use -p alone, or recipients (-r/-R) alone, with --format age";
      return std::nullopt;
    // app/ssh_key_passphrase.cc's own words: its CliError comes back through the library's passphrase
    // callback as a library failure.
    case PCRYPT_E_PASSPHRASE_REQUIRED:
      return "give its passphrase with --ssh-key-passphrase-file FILE or $PCRYPT_SSH_KEY_PASSPHRASE, or run "
             "pcrypt from a terminal";
    // A rekey's (the file it changes is its kind) or a new file's.
    case PCRYPT_E_TOO_MANY_SLOTS:
      if (is == PCRYPT_FILE_PCRYPT_ENCRYPTED)
        return "remove slots with --remove-slot N in the same run; for a larger team, decrypt and encrypt "
               "again with --format age, which has no such limit";
      return "the age format has no such limit: encrypt with --format age (recipients only; key files have "
             "no age form)";
    case PCRYPT_E_TOO_MANY_PASSPHRASES:
      if (is == PCRYPT_FILE_PCRYPT_ENCRYPTED)
        return "remove a passphrase slot with --remove-slot N in the same run";
      return std::nullopt;
    case PCRYPT_E_NOTHING_TO_CHANGE:
      return age_file
                 ? "add a stanza with --add-recipient/--add-passphrase, or remove one with --remove-slot N"
                 : "add a slot with --add-key/--add-passphrase, or remove one with --remove-slot N";
    case PCRYPT_E_LAST_SLOT:
      return age_file ? "add another recipient (--add-recipient) or a passphrase (--add-passphrase) in the "
                        "same run"
                      : "add another credential in the same run (--add-key, --add-passphrase)";
    case PCRYPT_E_BAD_SLOT:
      return "'pcrypt info FILE' lists them";
    case PCRYPT_E_NOT_IN_FILE:
      return "'pcrypt info FILE' lists them (with the tags of SSH ones); --remove-slot N removes one by "
             "number";
    case PCRYPT_E_ANONYMOUS_RECIPIENT:
      return "give the identity instead: --remove-key IDENTITY-FILE";
    case PCRYPT_E_ALREADY_IN_FILE:
      if (const std::optional<std::uint64_t> slot = e.field(PCRYPT_FIELD_SLOT))
        return "remove the old one in the same run (--remove-slot " + std::to_string(*slot) +
               ") to replace it";
      return "give the key file with -k or with --add-key, not both: one that opens the file keeps opening "
             "it";
    case PCRYPT_E_UNKNOWN_ENGINE:
      return "'pcrypt --version' lists the engines this CPU supports";
    case PCRYPT_E_NO_CREDENTIAL:
      return "'pcrypt info FILE' lists the file's key slots";
    case PCRYPT_E_COMMITMENT_MISMATCH:
      return "check --raw-key and --context (or --context-file): both must be the ones it was encrypted with";
    case PCRYPT_E_UNHANDLED_STANZA:
    case PCRYPT_E_NO_IDENTITY_MATCHED: {
      // An age file's post-quantum stanzas: the identity's own prefix says which file to look for.
      if (age_file && has_type(e, "mlkem768x25519"))
        return "its mlkem768x25519 stanzas are for post-quantum recipients: give the matching "
               "AGE-SECRET-KEY-PQ-1... identity with -i";
      const std::string options = options_for_types(e);
      if (options.empty()) return std::nullopt;
      return "it opens with " + options;
    }
    case PCRYPT_E_NOT_A_KEY_FILE:
    case PCRYPT_E_NOT_AN_IDENTITY:
    case PCRYPT_E_NOT_A_RECIPIENT:
    case PCRYPT_E_NOT_ENCRYPTED:
      if (e.code() == PCRYPT_E_NOT_AN_IDENTITY && is == PCRYPT_FILE_KEY_FILE)
        return "give a key file with -k KEYFILE";
      if (e.code() == PCRYPT_E_NOT_AN_IDENTITY &&
          (is == PCRYPT_FILE_RECIPIENT || is == PCRYPT_FILE_SSH_PUBLIC_KEY))
        return "-i needs the secret key file (e.g. the file from pcrypt keygen --identity or age-keygen, or "
               "~/.ssh/id_ed25519 rather than id_ed25519.pub)";
      if (e.code() == PCRYPT_E_NOT_A_RECIPIENT && is == PCRYPT_FILE_IDENTITY)
        return "give the public key instead (pcrypt recipient FILE, or age-keygen -y FILE); keep the "
               "identity secret";
      if (is) return use_instead(*is, Who::pcrypt);
      if (e.code() == PCRYPT_E_NOT_A_KEY_FILE) return "create a key file with `pcrypt keygen`";
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

std::optional<std::string> age_hint(const Error& e) {
  const std::optional<pcrypt_file_kind> is = file_field(e, PCRYPT_FIELD_FILE_KIND);
  switch (e.code()) {
    case PCRYPT_E_CREDENTIAL_MIX:
      if (is != PCRYPT_FILE_AGE_ENCRYPTED) return std::nullopt;
      return "use -p alone, or recipients (-r/-R) alone";
    case PCRYPT_E_UNHANDLED_STANZA:
    case PCRYPT_E_NO_IDENTITY_MATCHED:
      if (has_type(e, "mlkem768x25519")) return "give the matching AGE-SECRET-KEY-PQ-1... identity with -i";
      return "check the -i identity file, or -p for a passphrase-encrypted file";
    case PCRYPT_E_NOT_AN_IDENTITY:
      if (is == PCRYPT_FILE_RECIPIENT || is == PCRYPT_FILE_SSH_PUBLIC_KEY)
        return "-i needs the secret key file (e.g. the file from age-keygen, or ~/.ssh/id_ed25519 rather "
               "than id_ed25519.pub)";
      return is ? use_instead(*is, Who::age) : std::nullopt;
    case PCRYPT_E_NOT_A_KEY_FILE:
    case PCRYPT_E_NOT_ENCRYPTED:
      return is ? use_instead(*is, Who::age) : std::nullopt;
    default:
      return std::nullopt;
  }
}

}  // namespace

std::optional<std::string> cli_hint(const Error& e, CliPersonality personality) {
  return personality == CliPersonality::age ? age_hint(e) : pcrypt_hint(e);
}

std::string hint_for(const Error& e, CliPersonality personality) {
  if (dynamic_cast<const CliError*>(&e) != nullptr) return e.hint();
  return cli_hint(e, personality).value_or(e.hint());
}

}  // namespace pcrypt::app
