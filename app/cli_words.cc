#include "app/cli_words.h"

#include <array>

namespace pcrypt::app {

namespace {

// Applied in order: a phrase that contains another comes before it. Hints' wording as the CLI printed it
// before the library had its own words (tests/cli/ assert the flags in them).
constexpr std::array kPhrases{
    // limits an opened file may ask for
    CliPhrase{"raise the scrypt work-factor limit (log2 N) to {}",
              "raise the limit with --max-work-factor {}", ""},
    CliPhrase{"raise the Argon2id memory and passes limits",
              "raise the limit with --max-kdf-memory / --max-kdf-ops", ""},
    // what a new age file can be made with
    CliPhrase{"key files cannot be used in the age format", "-k cannot be used with --format age", ""},
    CliPhrase{"encrypt to a recipient (age1..., an identity's recipient) or with a passphrase",
              "encrypt to a recipient (-r age1..., made by 'pcrypt keygen --identity') or with -p", ""},
    CliPhrase{"use a passphrase alone, or recipients alone, in the age format",
              "use -p alone, or recipients (-r/-R) alone, with --format age",
              "use -p alone, or recipients (-r/-R) alone"},
    CliPhrase{"encrypt in the age format", "encrypt with --format age", ""},
    CliPhrase{"encrypt again in the age format", "encrypt again with --format age", ""},
    // what opens a file
    CliPhrase{"give the matching AGE-SECRET-KEY-PQ-1... identity",
              "give the matching AGE-SECRET-KEY-PQ-1... identity with -i",
              "give the matching AGE-SECRET-KEY-PQ-1... identity with -i"},
    CliPhrase{"check the identity files, or give a passphrase for a passphrase-encrypted file",
              "check the -i identity file, or -p for a passphrase-encrypted file",
              "check the -i identity file, or -p for a passphrase-encrypted file"},
    // key and identity files
    CliPhrase{"create a new key file at {}", "create one with 'pcrypt keygen -o {}'", ""},
    CliPhrase{"create a new identity at {}", "create one with 'pcrypt keygen --identity -o {}'", ""},
    CliPhrase{"create a new key file", "create a key file with `pcrypt keygen`", ""},
    CliPhrase{"the file's description lists", "'pcrypt info FILE' lists", ""},
    CliPhrase{"open it as the encrypted file, with its key file among the key files",
              "give it as the FILE to decrypt, and its key file with -k KEYFILE", ""},
    CliPhrase{"the recipients file \"-\" reads", "-R - reads", "-R - reads"},
    CliPhrase{"give it as a key file (key_files)", "give a key file with -k KEYFILE", ""},
    CliPhrase{"use it as a key file (key_files) to encrypt or decrypt",
              "use it with -k to encrypt or decrypt; 'pcrypt info' describes encrypted files", ""},
    CliPhrase{
        "use it as an identity file (identity_files) to decrypt files encrypted to it (or to encrypt to "
        "yourself); its recipient is its public key",
        "use it with -i to decrypt files encrypted to it (or to encrypt to yourself); 'pcrypt recipient "
        "FILE' prints its public key",
        "use it with -i to decrypt files encrypted to it (or to encrypt to yourself)"},
    CliPhrase{"use it as an identity file (identity_files) to decrypt files encrypted to its public key; its "
              "recipient is that public key",
              "use it with -i to decrypt files encrypted to its public key; 'pcrypt recipient FILE' prints "
              "that public key",
              "use it with -i to decrypt files encrypted to its public key"},
    CliPhrase{
        "encrypt to it (recipients, recipient_files); decrypting needs the private key (identity_files)",
        "encrypt to it with -R FILE or -r \"ssh-... AAAA...\"; decrypting needs the private key (-i)",
        "encrypt to it with -R FILE or -r \"ssh-... AAAA...\"; decrypting needs the private key (-i)"},
    CliPhrase{"encrypt to it (recipients, recipient_files)", "encrypt to it with -r age1... or -R FILE",
              "encrypt to it with -r age1... or -R FILE"},
    CliPhrase{"open it as the encrypted file (pcrypt reads age files)",
              "give it as the FILE to 'pcrypt decrypt' (pcrypt reads age files)", ""},
    CliPhrase{"an identity file is the secret key file (e.g. a new identity's file or age-keygen's,",
              "-i needs the secret key file (e.g. the file from pcrypt keygen --identity or age-keygen,",
              "-i needs the secret key file (e.g. the file from age-keygen,"},
    CliPhrase{"give the public key instead (the identity's recipient,",
              "give the public key instead (pcrypt recipient FILE,", ""},
    // rekey
    CliPhrase{"add a stanza (add_recipients, add_passphrase) or remove one (remove_slots)",
              "add a stanza with --add-recipient/--add-passphrase, or remove one with --remove-slot N", ""},
    CliPhrase{"add a slot (add_key_files, add_passphrase) or remove one (remove_slots)",
              "add a slot with --add-key/--add-passphrase, or remove one with --remove-slot N", ""},
    CliPhrase{"add another credential in the same rekey (add_key_files, add_passphrase)",
              "add another credential in the same run (--add-key, --add-passphrase)", ""},
    CliPhrase{"remove slots (remove_slots) in the same rekey",
              "remove slots with --remove-slot N in the same run", ""},
    CliPhrase{"remove a passphrase slot (remove_slots) in the same rekey",
              "remove a passphrase slot with --remove-slot N in the same run", ""},
    CliPhrase{"in the same rekey (remove_slots)", "in the same run (--remove-slot N)", ""},
    CliPhrase{"; remove_slots removes one by number", "; --remove-slot N removes one by number", ""},
    CliPhrase{"given in remove_identity_files", "given with --remove-key", ""},
    CliPhrase{"give the identity instead (remove_identity_files)",
              "give the identity instead: --remove-key IDENTITY-FILE", ""},
    CliPhrase{"given in remove_recipients", "given with --remove-recipient", ""},
    CliPhrase{"given in add_key_files is also one that opens the file",
              "given with --add-key is also given with -k", ""},
    CliPhrase{"given in add_key_files", "given with --add-key", ""},
    CliPhrase{"given in add_recipients", "given with --add-recipient", ""},
    // the credentials that open a file's slots ("it opens with ..."), last: phrases above contain them
    CliPhrase{"a key file (key_files)", "-k KEYFILE", ""},
    CliPhrase{"the passphrase (passphrase)", "-p", ""},
    CliPhrase{"an X25519 identity (identity_files)", "-i IDENTITY (an X25519 identity)", ""},
    CliPhrase{"a post-quantum identity (identity_files)", "-i IDENTITY (a post-quantum identity)", ""},
    CliPhrase{"the SSH ed25519 key{} (identity_files)", "-i SSH-KEY (the ed25519 key{})", ""},
    CliPhrase{"the SSH RSA key{} (identity_files)", "-i SSH-KEY (the RSA key{})", ""},
    // engines
    CliPhrase{"describe_engines lists the engines this CPU supports",
              "'pcrypt --version' lists the engines this CPU supports", ""},
};

// Replaces each occurrence of `from` (with at most one `{}`) in `text` by `to`, the `{}` text carried over.
std::string replaced(std::string text, std::string_view from, std::string_view to) {
  const std::size_t hole = from.find("{}");
  const std::string_view head = from.substr(0, hole);
  const std::string_view tail = hole == std::string_view::npos ? std::string_view{} : from.substr(hole + 2);
  std::size_t at = 0;
  while ((at = text.find(head, at)) != std::string::npos) {
    std::size_t end = at + head.size();
    std::string carried;
    if (hole != std::string_view::npos) {
      const std::size_t tail_at = tail.empty() ? text.size() : text.find(tail, end);
      if (tail_at == std::string::npos) {
        at = end;
        continue;
      }
      carried = text.substr(end, tail_at - end);
      end = tail_at + tail.size();
    }
    std::string words(to);
    if (const std::size_t to_hole = words.find("{}"); to_hole != std::string::npos)
      words.replace(to_hole, 2, carried);
    text.replace(at, end - at, words);
    at += words.size();
  }
  return text;
}

}  // namespace

std::span<const CliPhrase> cli_phrases() {
  return kPhrases;
}

std::string in_cli_words(std::string_view text, CliPersonality personality) {
  std::string out(text);
  for (const CliPhrase& phrase : kPhrases) {
    const std::string_view words = personality == CliPersonality::pcrypt ? phrase.pcrypt : phrase.age;
    if (!words.empty()) out = replaced(std::move(out), phrase.library, words);
  }
  return out;
}

}  // namespace pcrypt::app
