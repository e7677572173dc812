#include "core/door/credential_files.h"

#include <sodium.h>

#include <algorithm>
#include <string_view>

#include <cstring>

#include "core/aes/secret_bytes.h"
#include "core/door/encrypted_file.h"
#include "core/door/secret_file.h"
#include "core/error.h"
#include "core/keys/key_file.h"
#include "core/keys/pem_key.h"
#include "core/pcrypt/file_description.h"
#include "core/pcrypt/format.h"
#include "io/memory_stream.h"

namespace pcrypt::core::door {
namespace {

// Identity and recipients files are small text files; a bigger one is a mistake (a data file given by
// accident), reported by the parser as whatever it finds in the first part.
constexpr std::size_t kTextFileLimit = 1 << 20;

std::string source_path(const std::string& path) {
  return path == "-" ? std::string("/dev/stdin") : path;
}

std::string_view as_text(const SecretBytes& buf, std::size_t len) {
  return {reinterpret_cast<const char*>(buf.data()), len};
}

// Key files are tiny (FORMAT.md §7 caps them at 4 KiB); reading a little more lets the parser report the
// oversize instead of us silently truncating.
constexpr std::size_t kKeyFileReadLimit = std::size_t{64} * 1024;

// A missing key file: encrypting, a new one can be made; decrypting, a new key opens nothing.
std::string missing_key_file_hint(const std::string& path, KeyFileUse use) {
  if (use == KeyFileUse::encrypt) return "create a new key file at " + path;
  return "check the path: only the key file the data was encrypted with opens it (the file's description "
         "lists what does)";
}

// The passphrase of a protected OpenSSH key, from the caller (as age asks on the terminal), or a refusal.
std::function<SecretBytes(const std::string&)> ssh_passphrase_source(const CredentialReading& reading) {
  if (reading.ssh_key_passphrase) return reading.ssh_key_passphrase;
  return [](const std::string& key_name) -> SecretBytes { refuse_protected_ssh_key(key_name); };
}

// An identity file that is itself an age file encrypted with a passphrase (age's encrypted identity files,
// made with `age-keygen | age -p -o key.age`): binary or armored.
bool is_age_file(std::string_view text) {
  const std::size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return false;
  text.remove_prefix(start);
  return text.starts_with("age-encryption.org/") || text.starts_with("-----BEGIN AGE ENCRYPTED FILE-----");
}

// Its identities: the file decrypted in memory with the passphrase asked through the caller (as a protected
// SSH key's is), then read as any identity file. Not an age file with a passphrase: Error(usage).
std::vector<core::Identity> encrypted_identity_file(std::span<const std::uint8_t> bytes,
                                                    const std::string& path,
                                                    const CredentialReading& reading) {
  io::MemoryReader in(bytes);
  EncryptedFile file(in);
  if (file.description().format != Format::age || file.description().passphrase_slots == 0)
    throw Error(
        PCRYPT_E_NOT_AN_IDENTITY,
        path +
            " is an age-encrypted file, not an identity (an identity file may be an age file only "
            "when encrypted with a passphrase, age -p)",
        "it is an encrypted file: decrypt it with an identity that opens it",
        ErrorFields().at_path(path).taken_as(PCRYPT_FILE_IDENTITY).found_to_be(PCRYPT_FILE_AGE_ENCRYPTED));
  Credential passphrase;
  passphrase.kind = Credential::Kind::passphrase;
  passphrase.secret = ssh_passphrase_source(reading)(path);
  if (passphrase.secret.size() == 0)
    throw Error(PCRYPT_E_EMPTY_PASSPHRASE, "identity file " + path + ": the passphrase is empty", {},
                ErrorFields().at_path(path));
  std::vector<Credential> credentials;
  credentials.push_back(std::move(passphrase));
  file.unlock(credentials, UnlockLimits{});
  io::MemoryWriter plain;
  file.decrypt(plain, RunOptions{1, {}});
  const SecretBytes text{std::span<const std::uint8_t>(plain.data())};
  // (the writer's copy is wiped here; the identities keep theirs in guarded memory)
  sodium_memzero(const_cast<std::uint8_t*>(plain.data().data()), plain.data().size());
  if (is_age_file(as_text(text, text.size())))
    throw Error(PCRYPT_E_NOT_AN_IDENTITY,
                "identity file " + path + " holds another encrypted file, not identities", {},
                ErrorFields().at_path(path));
  return core::parse_identity_file(as_text(text, text.size()), path, ssh_passphrase_source(reading));
}

}  // namespace

void refuse_protected_ssh_key(const std::string& key_name) {
  throw Error(PCRYPT_E_PASSPHRASE_REQUIRED,
              "SSH key " + key_name + " is protected by a passphrase and none was given",
              "answer with its passphrase (ssh_key_passphrase), or decrypt a copy of the key: cp KEY copy && "
              "ssh-keygen -p -N '' -f copy",
              ErrorFields().at_path(key_name));
}

Credential read_key_file(const std::string& path, KeyFileUse use) {
  SecretBytes text(kKeyFileReadLimit);
  const std::size_t len =
      read_secret_file(path, "key file", text.data(), text.size(), missing_key_file_hint(path, use),
                       use == KeyFileUse::encrypt ? std::optional(PCRYPT_FILE_KEY_FILE) : std::nullopt);
  // `-k secret.pcrypt` (the file to decrypt given as the key) is a common slip; say so plainly.
  if (len >= kMagic.size() && std::memcmp(text.data(), kMagic.data(), kMagic.size()) == 0)
    throw Error(
        PCRYPT_E_NOT_A_KEY_FILE, path + " is an encrypted pcrypt file, not a key file",
        "open it as the encrypted file, with its key file among the key files",
        ErrorFields().at_path(path).taken_as(PCRYPT_FILE_KEY_FILE).found_to_be(PCRYPT_FILE_PCRYPT_ENCRYPTED));
  // An identity, a public key or an age file given to -k: name it and the option that takes it.
  if (const auto other = recognise_other_file(text.span().first(len));
      other && other->kind != OtherFile::Kind::pcrypt_key_file)
    throw Error(
        PCRYPT_E_NOT_A_KEY_FILE, path + " is " + other->what + ", not a pcrypt key file", other->hint,
        ErrorFields().at_path(path).taken_as(PCRYPT_FILE_KEY_FILE).found_to_be(file_kind_of(other->kind)));
  return parse_key_file(key_file_text(text).substr(0, len), path);
}

Credential read_raw_key_file(const std::string& path, std::vector<std::uint8_t> context) {
  SecretBytes key(33);  // one byte more than the longest key, to tell a longer file
  const std::size_t len = read_secret_file(path, "raw key file", key.data(), key.size(),
                                           "make one with `pcrypt keygen --raw 16 -o " + path + "`");
  if (len != 16 && len != 32)
    throw Error(PCRYPT_E_BAD_ARGUMENT,
                "raw key file " + path + " holds " + (len > 32 ? "more than 32" : std::to_string(len)) +
                    " bytes; a raw key is exactly 16 bytes (cobblestone-128) or 32 (cobblestone-256)",
                "make one with `pcrypt keygen --raw 16 -o FILE` (the file holds the key's bytes alone, no "
                "newline)",
                ErrorFields().at_path(path));
  return Credential{Credential::Kind::raw_key, SecretBytes(key.span().first(len)), std::nullopt, std::nullopt,
                    std::move(context)};
}

std::vector<Credential> read_key_or_identity_file(const std::string& path, const CredentialReading& reading) {
  SecretBytes text(kKeyFileReadLimit);
  const std::size_t len = read_secret_file(path, "key or identity file", text.data(), text.size());
  const auto other = recognise_other_file(text.span().first(len));
  if (other && (other->kind == OtherFile::Kind::identity || other->kind == OtherFile::Kind::ssh_private_key))
    return gather_identities({path}, reading);
  std::vector<Credential> out;
  out.push_back(read_key_file(path, KeyFileUse::decrypt));
  return out;
}

std::vector<core::Credential> gather_recipients(const std::vector<std::string>& recipients,
                                                const std::vector<std::string>& recipient_files,
                                                const std::vector<std::string>& identity_files,
                                                const CredentialReading& reading) {
  std::vector<core::Recipient> all;
  all.reserve(recipients.size());
  for (const std::string& text : recipients) all.push_back(core::parse_recipient(text));
  for (const std::string& path : recipient_files) {
    SecretBytes buf(kTextFileLimit);
    const std::size_t len = read_secret_file(source_path(path), "recipients file", buf.data(), buf.size());
    const std::string name = path == "-" ? std::string("standard input") : path;
    std::vector<std::string> ignored;
    for (core::Recipient& r : core::parse_recipients_file(as_text(buf, len), name, &ignored))
      all.push_back(std::move(r));
    if (reading.warn)
      for (const std::string& line : ignored) reading.warn(std::string(name).append(": ").append(line));
  }
  for (const core::Identity& id : read_identity_files(identity_files, reading))
    all.push_back(core::encryption_target_of(id));
  std::vector<core::Credential> out;
  std::vector<core::Recipient> seen;
  for (core::Recipient& r : all) {
    if (std::any_of(seen.begin(), seen.end(),
                    [&r](const core::Recipient& s) { return core::same_recipient(s, r); }))
      continue;  // one slot per key is enough; a second would only grow the header
    seen.push_back(r);
    out.push_back(core::Credential::of(std::move(r)));
  }
  return out;
}

std::vector<core::Identity> read_identity_files(const std::vector<std::string>& paths,
                                                const CredentialReading& reading) {
  std::vector<core::Identity> out;
  for (const std::string& path : paths) {
    SecretBytes buf(kTextFileLimit);
    const std::size_t len = read_secret_file(source_path(path), "identity file", buf.data(), buf.size(),
                                             "create a new identity at " + path, PCRYPT_FILE_IDENTITY);
    if (is_age_file(as_text(buf, len))) {
      for (core::Identity& id : encrypted_identity_file(buf.span().first(len), path, reading))
        out.push_back(std::move(id));
      continue;
    }
    // A key file given to -i: name it and the option that takes it.
    const auto other = core::recognise_other_file(buf.span().first(len));
    if (other && other->kind == core::OtherFile::Kind::pcrypt_key_file)
      throw core::Error(
          PCRYPT_E_NOT_AN_IDENTITY, path + " is a pcrypt key file, not an identity",
          "give it as a key file (key_files)",
          core::ErrorFields().at_path(path).taken_as(PCRYPT_FILE_IDENTITY).found_to_be(PCRYPT_FILE_KEY_FILE));
    if (other && other->kind == core::OtherFile::Kind::age_file)
      throw core::Error(PCRYPT_E_NOT_AN_IDENTITY, path + " is " + other->what + ", not an identity",
                        other->hint,
                        core::ErrorFields()
                            .at_path(path)
                            .taken_as(PCRYPT_FILE_IDENTITY)
                            .found_to_be(PCRYPT_FILE_AGE_ENCRYPTED));
    // A protected PEM key's public key is in KEY.pub (age's rule; the key itself shows none).
    std::string public_key_line;
    if (core::pem_private_key_encrypted(as_text(buf, len))) {
      SecretBytes pub(kTextFileLimit);
      std::size_t pub_len = 0;
      try {
        pub_len = read_secret_file(path + ".pub", "public key file", pub.data(), pub.size());
      } catch (const core::Error& e) {
        std::string message = "failed to obtain the public key of the protected SSH key ";
        message.append(path).append(": ").append(e.what());
        std::string hint = "make sure \"";
        hint.append(path).append(
            ".pub\" exists, or convert the key to OpenSSH's format: ssh-keygen -p -m RFC4716 -f ");
        hint.append(path);
        throw core::Error(PCRYPT_E_NOT_AN_IDENTITY, message, hint, core::ErrorFields().at_path(path));
      }
      const std::string_view pub_text = as_text(pub, pub_len);
      public_key_line.assign(pub_text.substr(0, pub_text.find('\n')));  // its first line
    }
    for (core::Identity& id :
         core::parse_identity_file(as_text(buf, len), path, ssh_passphrase_source(reading), public_key_line))
      out.push_back(std::move(id));
  }
  return out;
}

std::vector<core::Credential> gather_identities(const std::vector<std::string>& paths,
                                                const CredentialReading& reading) {
  std::vector<core::Credential> out;
  for (core::Identity& id : read_identity_files(paths, reading))
    out.push_back(core::Credential::of(std::move(id)));
  return out;
}

std::string recipient_text(const core::Identity& identity) {
  if (identity.kind == core::Identity::Kind::plugin)
    core::recipient_of(identity);  // throws: only the plugin knows
  if (identity.kind == core::Identity::Kind::x25519)
    return core::format_x25519_recipient(identity.public_key);
  if (identity.kind == core::Identity::Kind::mlkem768_x25519)
    return core::format_hybrid_recipient(identity.hybrid->public_key());
  const std::vector<std::uint8_t>& blob = identity.blob;
  std::string b64(sodium_base64_ENCODED_LEN(blob.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
  sodium_bin2base64(b64.data(), b64.size(), blob.data(), blob.size(), sodium_base64_VARIANT_ORIGINAL);
  b64.pop_back();  // the terminating NUL
  return (identity.kind == core::Identity::Kind::ssh_rsa ? "ssh-rsa " : "ssh-ed25519 ") + b64;
}

NewIdentity generate_identity(bool post_quantum) {
  const Identity identity = post_quantum ? generate_hybrid_identity() : generate_x25519_identity();
  const std::string recipient = recipient_text(identity);
  const std::string secret =
      post_quantum ? format_hybrid_identity(identity.secret) : format_x25519_identity(identity.secret);
  return NewIdentity{"# public key: " + recipient + "\n" + secret + "\n", recipient};
}

}  // namespace pcrypt::core::door
