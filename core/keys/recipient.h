// Public-key recipients and the identities that open them: parsing of the text forms users already have
// (age1… / AGE-SECRET-KEY-1… from age-keygen or `pcrypt keygen --identity`, the post-quantum age1pq1… /
// AGE-SECRET-KEY-PQ-1… of age 1.3 and `pcrypt keygen --pq`, ssh-ed25519 public keys and unencrypted OpenSSH
// private keys). Errors are core::Error(usage) naming the input; see docs/FORMAT.md §10.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/aes/secret_bytes.h"
#include "core/keys/ssh_rsa.h"
#include "core/pq/mlkem768p256.h"
#include "core/pq/p256.h"
#include "core/pq/xwing.h"

namespace pcrypt::core {

using PublicKey32 = std::array<std::uint8_t, 32>;

// An age / pcrypt X25519 recipient (slot kind 3).
struct X25519Recipient {
  PublicKey32 public_key;
};
// An SSH ed25519 recipient (slot kind 4): the key converted to X25519 plus the SSH public key blob it binds.
struct SshEd25519Recipient {
  PublicKey32 public_key;          // crypto_sign_ed25519_pk_to_curve25519(ed25519 key)
  std::vector<std::uint8_t> blob;  // SSH wire blob: string "ssh-ed25519" || string key (51 bytes)
};
// An age 1.3 hybrid post-quantum recipient (slot kind 5): an MLKEM768-X25519 public key.
struct HybridRecipient {
  pq::xwing::PublicKey public_key;
};
// An SSH RSA recipient (slot kind 6): the checked public key (blob and modulus length).
struct SshRsaRecipient {
  ssh_rsa::PublicKey key;
};
// An age tag recipient (age1tag1…, c2sp.org/age p256tag): a P-256 public key whose identity lives in a
// hardware token. Age format only (pcrypt files have no slot kind for it).
struct TagRecipient {
  std::array<std::uint8_t, pq::p256::compressed_size> compressed;  // the recipient's encoding, hashed in tags
  pq::p256::Point point;                                           // the same point, uncompressed (HPKE pkR)
};
// An age hybrid tag recipient (age1tagpq1…, mlkem768p256tag): an MLKEM768-P256 public key. Age format only.
struct HybridTagRecipient {
  std::array<std::uint8_t, pq::mlkem768p256::public_key_size> public_key;
};
// An age plugin's recipient (age1NAME1…, C2SP age-plugin.md), for the age format only: its text goes to the
// program age-plugin-NAME (core/age/plugin.h), which alone knows what it holds.
// Encrypting to a plugin's identity (`age -e -i FILE`, `age -e -j NAME`) hands the plugin the identity itself
// (age-plugin.md's `add-identity` in recipient-v1): `identity` is then true and `encoding` the uppercase
// AGE-PLUGIN-NAME-1… text.
struct PluginRecipient {
  std::string plugin;     // NAME
  std::string encoding;   // the whole age1NAME1… string, lowercase (or the identity, below)
  bool identity = false;  // encoding is an AGE-PLUGIN-NAME-1… identity, wrapped to by the plugin
};
using Recipient = std::variant<X25519Recipient, SshEd25519Recipient, HybridRecipient, SshRsaRecipient,
                               TagRecipient, HybridTagRecipient, PluginRecipient>;

// Post-quantum recipients must not share a file with classical ones (docs/FORMAT.md §3.2, kind 5 Why). A
// plugin's recipient counts as classical: pcrypt cannot know what it is (age 1.3 treats plugins without the
// "postquantum" label the same way).
inline bool is_post_quantum(const Recipient& r) {
  return std::holds_alternative<HybridRecipient>(r) || std::holds_alternative<HybridTagRecipient>(r);
}
// Tag recipients exist only in the age format.
inline bool is_tag_recipient(const Recipient& r) {
  return std::holds_alternative<TagRecipient>(r) || std::holds_alternative<HybridTagRecipient>(r);
}

// An identity: the X25519 secret (scalar) and its public key; for SSH also the public key blob; for RSA the
// private key; for the post-quantum hybrid the seed and the expanded key; for an age plugin's identity
// (AGE-PLUGIN-NAME-1…) its text and the plugin's name.
struct Identity {
  enum class Kind { x25519, ssh_ed25519, mlkem768_x25519, ssh_rsa, plugin };
  Kind kind = Kind::x25519;
  // 32-byte X25519 secret key (x25519, ssh_ed25519); the seed (mlkem768_x25519); the uppercase
  // AGE-PLUGIN-NAME-1… text (plugin).
  SecretBytes secret;
  PublicKey32 public_key{};        // crypto_scalarmult_base(secret) for x25519; converted ed25519 key for SSH
  std::vector<std::uint8_t> blob;  // SSH public key blob (ssh_ed25519, ssh_rsa)
  std::shared_ptr<const ssh_rsa::PrivateKey> rsa;       // ssh_rsa only
  std::shared_ptr<const pq::xwing::PrivateKey> hybrid;  // mlkem768_x25519 only: the expanded key, once
  std::string plugin;                                   // plugin only: NAME, of the program age-plugin-NAME
  // A passphrase-protected OpenSSH key: kind, public_key and blob are filled from its public part (so tags
  // can be compared and `pcrypt recipient` works), the secret parts are empty, and `unlock` returns the
  // complete identity, asking for the passphrase the first time it is called (FORMAT.md §10.8). Empty for
  // every other identity.
  std::function<const Identity&()> unlock;
};

// Asks for the passphrase of an encrypted OpenSSH key; the argument names the key for the prompt.
using SshPassphrasePrompt = std::function<SecretBytes(const std::string& key_name)>;

// One recipient string: "age1…" (X25519, age1pq1… hybrid, age1tag1… / age1tagpq1… tag, or age1NAME1… a
// plugin's) or "ssh-ed25519 AAAA… [comment]". Throws core::Error(usage) naming it.
Recipient parse_recipient(std::string_view text);
// A recipients file (`-R`): one recipient per line; blank lines and lines starting with '#' are ignored, CRLF
// accepted; an authorized_keys line with leading options (`from="…",command="a b" ssh-ed25519 AAAA…`, the
// grammar of core/keys/authorized_keys.h) is accepted, the options ignored. An SSH key of a type pcrypt
// cannot encrypt to (ecdsa-sha2-*, sk-*, ssh-dss, …) is skipped, and one line per skipped key is appended to
// `ignored` when given ("ignoring unsupported SSH key of type \"T\" at line N"), as age does, so a
// GitHub key list works. `name` (the file name) appears in errors with the line number. Throws if no
// recipient is found, or for any malformed line.
std::vector<Recipient> parse_recipients_file(std::string_view content, std::string_view name,
                                             std::vector<std::string>* ignored = nullptr);
// An identity file (`-i`): age-keygen/pcrypt files (AGE-SECRET-KEY-1…, AGE-SECRET-KEY-PQ-1… and plugins'
// AGE-PLUGIN-NAME-1… lines, '#' comments, CRLF, several identities) or an OpenSSH private key (ed25519 or
// RSA). A public key (age1…, ssh-ed25519 …) gives a clear usage error. A passphrase-protected OpenSSH key
// needs `prompt`: its identity asks through it only when unlocked (a slot with its tag is found); without
// `prompt` such a key is a usage error.
// A PEM private key (PKCS#1 RSA, PKCS#8 Ed25519 or RSA: core/keys/pem_key.h) is read as age reads it; one
// protected by a passphrase has no readable public part, so its .pub file's line comes as `public_key_line`
// (from the caller, who reads files; empty: Error(usage)), and a key that turns out not to be that public
// key's is refused when unlocked ("mismatched private and public SSH key").
std::vector<Identity> parse_identity_file(std::string_view content, std::string_view name,
                                          const SshPassphrasePrompt& prompt = {},
                                          std::string_view public_key_line = {});

// Text forms of pcrypt's own identities (age's encoding, so age and pcrypt share keys).
std::string format_x25519_recipient(const PublicKey32& public_key);  // age1…
std::string format_x25519_identity(const SecretBytes& secret);       // AGE-SECRET-KEY-1…
Identity generate_x25519_identity();
std::string format_hybrid_recipient(const pq::xwing::PublicKey& public_key);  // age1pq1…
std::string format_hybrid_identity(const SecretBytes& seed);                  // AGE-SECRET-KEY-PQ-1…
std::string format_tag_recipient(const TagRecipient& recipient);              // age1tag1…
std::string format_tag_recipient(const HybridTagRecipient& recipient);        // age1tagpq1…
Identity generate_hybrid_identity();
Identity hybrid_identity_from_seed(const SecretBytes& seed);
Identity x25519_identity_from_secret(const SecretBytes& secret);
// Error(usage) for a plugin's identity, whose recipient only its plugin knows.
Recipient recipient_of(const Identity& identity);
// What encrypting "to an identity" means (`age -e -i`, `-e -j`): recipient_of, except that a plugin's
// identity is handed to its plugin (PluginRecipient with `identity` set), which wraps to it itself.
Recipient encryption_target_of(const Identity& identity);
// The identity `age -j NAME` means: plugin NAME's default identity (AGE-PLUGIN-NAME-1 with no data).
Identity default_plugin_identity(std::string_view plugin);
// Whether two recipients are the same key: same type, same public key (X25519, hybrid) or SSH public key
// blob.
bool same_recipient(const Recipient& a, const Recipient& b);

}  // namespace pcrypt::core
