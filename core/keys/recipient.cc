// Recipient and identity text parsing (formats in docs/FORMAT.md §10).
#include "core/keys/recipient.h"

#include <sodium.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include "core/counted.h"
#include "core/error.h"
#include "core/keys/authorized_keys.h"
#include "core/keys/bech32.h"
#include "core/keys/openssh_key.h"
#include "core/keys/pem_key.h"
#include "core/keys/plugin_host.h"
#include "core/keys/ssh_wire.h"
#include "core/pq/mlkem768.h"

namespace pcrypt::core {
namespace {

constexpr std::string_view recipient_hrp = "age";
constexpr std::string_view identity_hrp = "age-secret-key-";
constexpr std::string_view hybrid_recipient_hrp = "age1pq";
constexpr std::string_view hybrid_identity_hrp = "age-secret-key-pq-";
constexpr std::string_view tag_recipient_hrp = "age1tag";
constexpr std::string_view hybrid_tag_recipient_hrp = "age1tagpq";

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool starts_with_ci(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != prefix[i]) return false;
  }
  return true;
}

// Text given by a user or read from a file, as a message may show it: at most `limit` bytes, each one that is
// not printable ASCII written as \xNN, so that escape sequences, NUL bytes and other control bytes never
// reach a terminal (nor cut the message short).
std::string escaped(std::string_view text, std::size_t limit) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i == limit) return out + "...";
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string shown(std::string_view text) {
  return escaped(text, 77);
}

// The most of a recipients file's line a message shows: the start of what looks like a recipient or an SSH
// key, to say which one is meant; nothing of any other line, which may be data (`age -R /dev/stdin` given
// the plaintext) or a secret key.
constexpr std::size_t kShownLineBytes = 20;
// An SSH key type pcrypt skips is shown whole: it matched the shape of a key type (is_ssh_key_type), and the
// longest OpenSSH names ("ecdsa-sha2-nistp256-cert-v01@openssh.com") are 40 bytes, so this bound only stops
// a hostile one.
constexpr std::size_t kShownKeyTypeBytes = 64;

std::vector<std::uint8_t> decode_key(std::string_view text, std::string_view hrp, const std::string& what,
                                     std::size_t size, std::size_t limit = bech32::max_length) {
  bech32::Decoded d;
  try {
    d = bech32::decode(text, limit);
  } catch (const bech32::DecodeError& e) {
    throw Error(PCRYPT_E_NOT_A_RECIPIENT, what + ": " + e.what());
  }
  if (d.hrp != hrp)
    throw Error(PCRYPT_E_NOT_A_RECIPIENT,
                what + ": prefix '" + d.hrp + "1' is not '" + std::string(hrp) + "1'");
  std::vector<std::uint8_t> key;
  try {
    key = bech32::from_words(d.words);
  } catch (const bech32::DecodeError& e) {
    throw Error(PCRYPT_E_NOT_A_RECIPIENT, what + ": " + e.what());
  }
  if (key.size() != size)
    throw Error(PCRYPT_E_NOT_A_RECIPIENT, what + ": holds " + std::to_string(key.size()) + " bytes, not a " +
                                              std::to_string(size) + "-byte key");
  return key;
}

std::vector<std::uint8_t> decode_key32(std::string_view text, std::string_view hrp, const std::string& what) {
  return decode_key(text, hrp, what, 32);
}

HybridRecipient hybrid_recipient(std::string_view line, const std::string& what) {
  const auto key =
      decode_key(line, hybrid_recipient_hrp, what, pq::xwing::public_key_size, bech32::long_max_length);
  HybridRecipient r{};
  std::memcpy(r.public_key.data(), key.data(), key.size());
  // The ML-KEM half must pass FIPS 203's modulus check, or no sender could encapsulate to it.
  if (!pq::mlkem768::encapsulation_key_valid(
          std::span(r.public_key).first(pq::mlkem768::encapsulation_key_size)))
    throw Error(PCRYPT_E_NOT_A_RECIPIENT, what + ": not a valid ML-KEM-768 public key (damaged?)");
  return r;
}

// age1NAME1… with a valid plugin NAME (not "age1…", X25519's, nor a native type's), its checksum checked;
// nullopt for anything else.
std::optional<PluginRecipient> plugin_recipient(std::string_view line, const std::string& what) {
  const std::size_t separator = line.rfind('1');
  if (separator == std::string_view::npos || separator <= recipient_hrp.size()) return std::nullopt;
  std::string hrp(line.substr(0, separator));
  for (char& c : hrp) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  const std::optional<std::string> name = plugin_of_recipient_prefix(hrp);
  if (!name) return std::nullopt;
  try {
    const bech32::Decoded d = bech32::decode(line, bech32::long_max_length);
    return PluginRecipient{*name, bech32::encode(d.hrp, d.words)};
  } catch (const bech32::DecodeError& e) {
    throw Error(PCRYPT_E_NOT_A_RECIPIENT, what + ": " + e.what());
  }
}

// AGE-PLUGIN-NAME-1…, its checksum checked; Error(usage) for anything else.
Identity plugin_identity(std::string_view line, const std::string& what) {
  bech32::Decoded d;
  try {
    d = bech32::decode(line, bech32::long_max_length);
  } catch (const bech32::DecodeError& e) {
    throw Error(PCRYPT_E_NOT_A_RECIPIENT, what + ": " + e.what());
  }
  const std::optional<std::string> name = plugin_of_identity_prefix(d.hrp);
  if (!name)
    throw Error(PCRYPT_E_NOT_A_RECIPIENT, what + ": '" + d.hrp + "' does not name a plugin",
                "a plugin identity is AGE-PLUGIN-NAME-1..., NAME made of a-z 0-9 + - . _");
  Identity id;
  id.kind = Identity::Kind::plugin;
  id.plugin = *name;
  const std::string upper = bech32::encode(d.hrp, d.words, true);
  id.secret = SecretBytes(std::span(reinterpret_cast<const std::uint8_t*>(upper.data()), upper.size()));
  return id;
}

// age1tag1…: a compressed P-256 point (33 bytes), checked on the curve.
TagRecipient tag_recipient(std::string_view line, const std::string& what) {
  const auto key = decode_key(line, tag_recipient_hrp, what, pq::p256::compressed_size);
  const auto point = pq::p256::decode_point(key);
  if (!point)
    throw Error(PCRYPT_E_NOT_A_RECIPIENT, what + ": not a valid compressed P-256 public key (damaged?)");
  TagRecipient r{};
  std::copy(key.begin(), key.end(), r.compressed.begin());
  r.point = *point;
  return r;
}

// age1tagpq1…: an MLKEM768-P256 public key (1249 bytes, a long bech32 string as age1pq1… is).
HybridTagRecipient hybrid_tag_recipient(std::string_view line, const std::string& what) {
  const auto key = decode_key(line, hybrid_tag_recipient_hrp, what, pq::mlkem768p256::public_key_size,
                              bech32::long_max_length);
  HybridTagRecipient r{};
  std::copy(key.begin(), key.end(), r.public_key.begin());
  if (!pq::mlkem768p256::valid_public_key(r.public_key))
    throw Error(PCRYPT_E_NOT_A_RECIPIENT, what + ": not a valid ML-KEM-768 + P-256 public key (damaged?)");
  return r;
}

// The SSH key types pcrypt encrypts to (slot kinds 4 and 6).
bool is_supported_ssh_type(std::string_view type) {
  return type == "ssh-ed25519" || type == "ssh-rsa";
}

Error unsupported_ssh_type(std::string_view type, const std::string& what) {
  return Error(PCRYPT_E_NOT_A_RECIPIENT, what + ": SSH key type " + std::string(type) + " is not supported",
               "pcrypt encrypts to ssh-ed25519 and ssh-rsa keys and age/pcrypt X25519 recipients (age1...); "
               "create one with ssh-keygen -t ed25519, or a new identity");
}

std::vector<std::uint8_t> decode_ssh_blob(std::string_view b64, const std::string& what) {
  std::vector<std::uint8_t> blob(b64.size());
  std::size_t len = 0;
  if (sodium_base642bin(blob.data(), blob.size(), b64.data(), b64.size(), nullptr, &len, nullptr,
                        sodium_base64_VARIANT_ORIGINAL) != 0)
    throw Error(PCRYPT_E_NOT_A_RECIPIENT, what + ": the key data is not valid base64 (truncated?)");
  blob.resize(len);
  return blob;
}

// A recipient from its SSH wire blob (which must be of `type`).
Recipient recipient_from_blob(std::string_view type, const std::vector<std::uint8_t>& blob,
                              const std::string& what) {
  if (!is_supported_ssh_type(type)) throw unsupported_ssh_type(type, what);
  if (type == "ssh-rsa") return SshRsaRecipient{ssh_rsa::parse_public_blob(blob, what)};
  const std::size_t len = blob.size();
  // Blob = string "ssh-ed25519" || string key(32) = 4+11+4+32 bytes.
  static constexpr std::uint8_t prefix[] = {0,   0,   0,   11,  's', 's', 'h', '-', 'e', 'd',
                                            '2', '5', '5', '1', '9', 0,   0,   0,   32};
  if (len != sizeof prefix + 32 || std::memcmp(blob.data(), prefix, sizeof prefix) != 0)
    throw Error(PCRYPT_E_NOT_A_RECIPIENT,
                what + ": the key data is not an ssh-ed25519 public key (truncated or altered?)");
  // The encoded y must be canonical (< p = 2^255 - 19); libsodium's conversion below leaves some y >= p
  // through.
  const std::uint8_t* a = blob.data() + sizeof prefix;
  const bool y_at_least_p = (a[31] & 0x7f) == 0x7f && a[0] >= 0xed &&
                            std::all_of(a + 1, a + 31, [](std::uint8_t b) { return b == 0xff; });
  if (y_at_least_p)
    throw Error(PCRYPT_E_NOT_A_RECIPIENT, what + ": not a valid ed25519 public key (non-canonical encoding)");
  SshEd25519Recipient r{{}, blob};
  // libsodium refuses points not on the curve, of small order, and non-canonical encodings (FORMAT.md §10.5).
  if (crypto_sign_ed25519_pk_to_curve25519(r.public_key.data(), blob.data() + sizeof prefix) != 0)
    throw Error(PCRYPT_E_NOT_A_RECIPIENT, what + ": not a valid ed25519 public key");
  return r;
}

Recipient ssh_recipient(std::string_view type, std::string_view b64, const std::string& what) {
  if (!is_supported_ssh_type(type)) throw unsupported_ssh_type(type, what);
  return recipient_from_blob(type, decode_ssh_blob(b64, what), what);
}

// One line of a recipients file or one -r string: "age1…", "type base64 [comment]" or, for authorized_keys
// lines (allow_options), "options type base64 [comment]".
Recipient parse_line(std::string_view line, const std::string& what, bool allow_options) {
  if (starts_with_ci(line, "age1tagpq1") || starts_with_ci(line, "age1tag1")) {
    if (line.find_first_of(" \t") != std::string_view::npos)
      throw Error(PCRYPT_E_NOT_A_RECIPIENT, what + ": unexpected text after the tag recipient");
    if (starts_with_ci(line, "age1tagpq1")) return hybrid_tag_recipient(line, what);
    return tag_recipient(line, what);
  }
  if (starts_with_ci(line, "age1pq1")) {
    if (line.find_first_of(" \t") != std::string_view::npos)
      throw Error(PCRYPT_E_NOT_A_RECIPIENT, what + ": unexpected text after the age1pq1... recipient");
    return hybrid_recipient(line, what);
  }
  if (starts_with_ci(line, "age1")) {
    if (line.find_first_of(" \t") != std::string_view::npos)
      throw Error(PCRYPT_E_NOT_A_RECIPIENT, what + ": unexpected text after the age1... recipient");
    if (auto plugin = plugin_recipient(line, what)) return std::move(*plugin);
    X25519Recipient r{};
    const auto key = decode_key32(line, recipient_hrp, what);
    std::memcpy(r.public_key.data(), key.data(), 32);
    return r;
  }
  if (starts_with_ci(line, "age-secret-key-1") || starts_with_ci(line, "age-secret-key-pq-1"))
    throw Error(PCRYPT_E_NOT_A_RECIPIENT, what + " is a secret identity, not a recipient",
                "give the public key instead (the identity's recipient, or age-keygen -y FILE); keep the "
                "identity secret",
                ErrorFields().taken_as(PCRYPT_FILE_RECIPIENT).found_to_be(PCRYPT_FILE_IDENTITY));
  const std::size_t first_end = line.find_first_of(" \t");
  const std::string_view first = line.substr(0, first_end);
  if (is_ssh_key_type(first) && line.find_first_not_of(" \t", first.size()) == std::string_view::npos)
    throw Error(PCRYPT_E_NOT_A_RECIPIENT, what + ": SSH key line without key data (truncated?)");
  const std::optional<SshKeyLine> key = split_ssh_key_line(line);
  if (key && (allow_options || key->options.empty())) return ssh_recipient(key->type, key->data, what);
  throw Error(PCRYPT_E_NOT_A_RECIPIENT, what + " is not a recipient",
              "expected an age1... recipient or an \"ssh-ed25519 AAAA...\" public key line");
}

// The type of an SSH key line pcrypt cannot encrypt to (to be skipped in a recipients file), or "".
std::string_view unsupported_ssh_line_type(std::string_view line) {
  const std::optional<SshKeyLine> key = split_ssh_key_line(line);
  if (!key || is_supported_ssh_type(key->type)) return {};
  return key->type;
}

// Calls f(line, lineno) for each line of a recipients or identity file that is neither blank nor a comment,
// trimmed; lineno counts from 1 over all lines.
template <class F>
void for_each_entry(std::string_view content, F f) {
  std::size_t lineno = 0;
  while (!content.empty()) {
    const std::size_t nl = content.find('\n');
    const std::string_view line = trim(content.substr(0, nl));
    content = nl == std::string_view::npos ? std::string_view{} : content.substr(nl + 1);
    ++lineno;
    if (line.empty() || line.front() == '#') continue;
    f(line, lineno);
  }
}

}  // namespace

Recipient parse_recipient(std::string_view text) {
  const std::string_view line = trim(text);
  return parse_line(line, "recipient '" + shown(line) + "'", false);
}

std::vector<Recipient> parse_recipients_file(std::string_view content, std::string_view name,
                                             std::vector<std::string>* ignored) {
  std::vector<Recipient> out;
  std::size_t skipped = 0;
  for_each_entry(content, [&](std::string_view line, std::size_t lineno) {
    if (const std::string_view type = unsupported_ssh_line_type(line); !type.empty()) {
      ++skipped;
      if (ignored != nullptr)
        ignored->push_back("ignoring unsupported SSH key of type \"" + escaped(type, kShownKeyTypeBytes) +
                           "\" at line " + std::to_string(lineno));
      return;
    }
    const std::string_view first = line.substr(0, line.find_first_of(" \t"));
    const bool looks_like_a_key = starts_with_ci(line, "age1") || is_ssh_key_type(first);
    out.push_back(parse_line(line,
                             "line " + std::to_string(lineno) + " of recipients file '" + escaped(name, 200) +
                                 "'" +
                                 (looks_like_a_key ? " ('" + escaped(line, kShownLineBytes) + "')" : ""),
                             true));
  });
  if (out.empty())
    throw Error(
        PCRYPT_E_NOT_A_RECIPIENT,
        "recipients file '" + escaped(name, 200) + "' lists no recipient" +
            (skipped == 0 ? ""
                          : " pcrypt supports (" + counted(skipped, "unsupported SSH key") + " ignored)"),
        skipped == 0 ? "" : "pcrypt encrypts to age1..., ssh-ed25519 and ssh-rsa keys");
  return out;
}

Identity x25519_identity_from_secret(const SecretBytes& secret) {
  Identity id;
  id.kind = Identity::Kind::x25519;
  id.secret = SecretBytes(secret.span());
  crypto_scalarmult_base(id.public_key.data(), id.secret.data());
  return id;
}

Identity generate_x25519_identity() {
  SecretBytes s(32);
  randombytes_buf(s.data(), s.size());
  return x25519_identity_from_secret(s);
}

namespace {

Identity identity_of(OpenSshPrivateKey k, const std::string& file) {
  Identity id;
  id.blob = std::move(k.blob);
  if (k.type == OpenSshPrivateKey::Type::rsa) {
    id.kind = Identity::Kind::ssh_rsa;
    id.rsa = std::move(k.rsa);
    return id;
  }
  id.kind = Identity::Kind::ssh_ed25519;
  id.secret = SecretBytes(32);
  crypto_sign_ed25519_sk_to_curve25519(id.secret.data(), k.secret.data());
  if (crypto_sign_ed25519_pk_to_curve25519(id.public_key.data(), k.public_key.data()) != 0)
    throw Error(PCRYPT_E_NOT_AN_IDENTITY, "OpenSSH private key '" + file + "': not a valid ed25519 key");
  return id;
}

// Decodes a protected key's whole text with its passphrase (OpenSSH's format or PEM).
using KeyDecoder = OpenSshPrivateKey (*)(std::string_view content, std::string_view name,
                                         std::span<const std::uint8_t> passphrase);

// A protected key: the public half now, the secret half on first use (FORMAT.md §10.8). `part.blob` is the
// key's own public part (OpenSSH) or its .pub file's (PEM, which has none readable): a key that turns out to
// be another is refused in age's words.
Identity locked_identity(std::string_view content, const std::string& file, const OpenSshPublicPart& part,
                         const SshPassphrasePrompt& prompt, KeyDecoder decode = parse_openssh_private_key) {
  const std::string what = "OpenSSH private key '" + file + "'";
  ssh_wire::Reader blob_reader(part.blob);
  const auto type_field = blob_reader.string();
  const std::string_view type = type_field ? ssh_wire::as_text(*type_field) : std::string_view{};
  if (!is_supported_ssh_type(type))
    throw Error(PCRYPT_E_NOT_AN_IDENTITY, what + ": key type " + std::string(type) + " is not supported",
                "pcrypt reads ssh-ed25519 and ssh-rsa keys; create one with ssh-keygen -t ed25519");
  if (!prompt)
    throw Error(PCRYPT_E_PASSPHRASE_REQUIRED, what + " is protected by a passphrase and none was given",
                "answer with its passphrase (ssh_key_passphrase), or decrypt a copy of the key: cp KEY "
                "copy && ssh-keygen -p -N '' -f copy");
  // The public key as the recipient line would give it, checked like one.
  const Recipient public_half = recipient_from_blob(type, part.blob, what);
  Identity id;
  id.blob = part.blob;
  if (const auto* ed = std::get_if<SshEd25519Recipient>(&public_half)) {
    id.kind = Identity::Kind::ssh_ed25519;
    id.public_key = ed->public_key;
  } else {
    id.kind = Identity::Kind::ssh_rsa;
  }
  auto cache = std::make_shared<std::optional<Identity>>();
  id.unlock = [cache, text = std::string(content), file, prompt, blob = part.blob,
               decode]() -> const Identity& {
    if (!cache->has_value()) {
      const SecretBytes passphrase = prompt(file);
      Identity full = identity_of(decode(text, file, passphrase.span()), file);
      if (full.blob != blob)
        throw Error(
            PCRYPT_E_NOT_AN_IDENTITY,
            "SSH private key '" + file +
                "': mismatched private and public SSH key (the key is not the one "
                "its public key, " +
                file + ".pub or its own public part, names)",
            "give the .pub file that belongs to this key, or regenerate it: ssh-keygen -y -f " + file);
      cache->emplace(std::move(full));
    }
    return **cache;
  };
  return id;
}

}  // namespace

std::vector<Identity> parse_identity_file(std::string_view content, std::string_view name,
                                          const SshPassphrasePrompt& prompt,
                                          std::string_view public_key_line) {
  const std::string file = std::string(name);
  if (looks_like_openssh_private_key(content)) {
    const OpenSshPublicPart part = read_openssh_public_part(content, name);
    std::vector<Identity> out;
    if (part.encrypted())
      out.push_back(locked_identity(content, file, part, prompt));
    else
      out.push_back(identity_of(parse_openssh_private_key(content, name), file));
    return out;
  }
  // PEM private keys (PKCS#1 "RSA PRIVATE KEY", PKCS#8 "PRIVATE KEY"), as age reads them; a protected one
  // (legacy DEK-Info) has no public part of its own: it comes from the .pub file beside it.
  if (looks_like_pem_private_key(content)) {
    std::vector<Identity> out;
    if (!pem_private_key_encrypted(content)) {
      out.push_back(identity_of(parse_pem_private_key(content, name), file));
      return out;
    }
    const Recipient public_half = parse_recipient(public_key_line);
    OpenSshPublicPart part;
    if (const auto* ed = std::get_if<SshEd25519Recipient>(&public_half))
      part.blob = ed->blob;
    else if (const auto* rsa = std::get_if<SshRsaRecipient>(&public_half))
      part.blob = rsa->key.blob;
    else
      throw Error(PCRYPT_E_NOT_AN_IDENTITY,
                  "the public key of '" + file + "' (" + file + ".pub) is not an SSH key");
    out.push_back(locked_identity(content, file, part, prompt, parse_pem_private_key));
    return out;
  }
  if (content.find("-----BEGIN ENCRYPTED PRIVATE KEY-----") != std::string_view::npos)
    throw Error(PCRYPT_E_NOT_AN_IDENTITY,
                "identity file '" + file + "' is an encrypted PKCS#8 private key, which pcrypt does not read",
                "convert a copy to OpenSSH's format: cp KEY copy && ssh-keygen -p -f copy");
  std::vector<Identity> out;
  for_each_entry(content, [&](std::string_view line, std::size_t lineno) {
    const std::string what = "identity file '" + file + "' line " + std::to_string(lineno);
    if (starts_with_ci(line, "age1") || line.starts_with("ssh-") || line.starts_with("ecdsa-"))
      throw Error(PCRYPT_E_NOT_AN_IDENTITY, what + " holds a public key (recipient), not a secret identity",
                  "an identity file is the secret key file (e.g. a new identity's file or age-keygen's, or "
                  "~/.ssh/id_ed25519 rather than id_ed25519.pub)",
                  ErrorFields()
                      .at_path(file)
                      .taken_as(PCRYPT_FILE_IDENTITY)
                      .found_to_be(starts_with_ci(line, "age1") ? PCRYPT_FILE_RECIPIENT
                                                                : PCRYPT_FILE_SSH_PUBLIC_KEY));
    if (starts_with_ci(line, "age-secret-key-pq-1")) {
      const auto seed = decode_key32(line, hybrid_identity_hrp, what);
      SecretBytes s(seed);
      sodium_memzero(const_cast<std::uint8_t*>(seed.data()), seed.size());
      out.push_back(hybrid_identity_from_seed(s));
      return;
    }
    if (starts_with_ci(line, "age-plugin-")) {
      out.push_back(plugin_identity(line, what));
      return;
    }
    if (!starts_with_ci(line, "age-secret-key-1"))
      throw Error(PCRYPT_E_NOT_AN_IDENTITY, what + " is not an identity",
                  "expected AGE-SECRET-KEY-1..., AGE-SECRET-KEY-PQ-1... or AGE-PLUGIN-NAME-1... lines or an "
                  "OpenSSH private key");
    const auto key = decode_key32(line, identity_hrp, what);
    SecretBytes s(key);
    sodium_memzero(const_cast<std::uint8_t*>(key.data()), key.size());
    out.push_back(x25519_identity_from_secret(s));
  });
  if (out.empty()) throw Error(PCRYPT_E_NOT_AN_IDENTITY, "identity file '" + file + "' holds no identity");
  return out;
}

std::string format_x25519_recipient(const PublicKey32& public_key) {
  return bech32::encode(recipient_hrp, bech32::to_words(public_key));
}

std::string format_x25519_identity(const SecretBytes& secret) {
  return bech32::encode(identity_hrp, bech32::to_words(secret.span()), true);
}

Identity hybrid_identity_from_seed(const SecretBytes& seed) {
  if (seed.size() != pq::xwing::seed_size)
    throw Error(PCRYPT_E_INTERNAL, "internal: hybrid seed must be 32 bytes");
  Identity id;
  id.kind = Identity::Kind::mlkem768_x25519;
  id.secret = SecretBytes(seed.span());
  id.hybrid = std::make_shared<const pq::xwing::PrivateKey>(
      std::span<const std::uint8_t, pq::xwing::seed_size>(id.secret.data(), pq::xwing::seed_size));
  return id;
}

Identity generate_hybrid_identity() {
  SecretBytes s(pq::xwing::seed_size);
  randombytes_buf(s.data(), s.size());
  return hybrid_identity_from_seed(s);
}

std::string format_hybrid_recipient(const pq::xwing::PublicKey& public_key) {
  return bech32::encode(hybrid_recipient_hrp, bech32::to_words(public_key));
}

std::string format_tag_recipient(const TagRecipient& recipient) {
  return bech32::encode(tag_recipient_hrp, bech32::to_words(recipient.compressed));
}

std::string format_tag_recipient(const HybridTagRecipient& recipient) {
  return bech32::encode(hybrid_tag_recipient_hrp, bech32::to_words(recipient.public_key));
}

std::string format_hybrid_identity(const SecretBytes& seed) {
  return bech32::encode(hybrid_identity_hrp, bech32::to_words(seed.span()), true);
}

namespace {

// The bytes that name a recipient's key: the X25519 or hybrid public key, or the SSH public key blob.
std::vector<std::uint8_t> key_bytes(const Recipient& r) {
  if (const auto* x = std::get_if<X25519Recipient>(&r)) return {x->public_key.begin(), x->public_key.end()};
  if (const auto* h = std::get_if<HybridRecipient>(&r)) return {h->public_key.begin(), h->public_key.end()};
  if (const auto* ed = std::get_if<SshEd25519Recipient>(&r)) return ed->blob;
  if (const auto* p = std::get_if<PluginRecipient>(&r)) return {p->encoding.begin(), p->encoding.end()};
  if (const auto* t = std::get_if<TagRecipient>(&r)) return {t->compressed.begin(), t->compressed.end()};
  if (const auto* t = std::get_if<HybridTagRecipient>(&r))
    return {t->public_key.begin(), t->public_key.end()};
  return std::get<SshRsaRecipient>(r).key.blob;
}

}  // namespace

bool same_recipient(const Recipient& a, const Recipient& b) {
  return a.index() == b.index() && key_bytes(a) == key_bytes(b);
}

Recipient recipient_of(const Identity& identity) {
  if (identity.kind == Identity::Kind::plugin)
    throw Error(
        PCRYPT_E_NOT_A_RECIPIENT,
        "the recipient of a plugin identity (AGE-PLUGIN-" + identity.plugin +
            "-1...) is known only to "
            "its plugin",
        "ask age-plugin-" + identity.plugin + " for it (plugins print their recipient when they make a key)");
  if (identity.kind == Identity::Kind::mlkem768_x25519) return HybridRecipient{identity.hybrid->public_key()};
  if (identity.kind == Identity::Kind::ssh_rsa)
    return SshRsaRecipient{ssh_rsa::parse_public_blob(identity.blob, "SSH RSA identity")};
  if (identity.kind == Identity::Kind::ssh_ed25519)
    return SshEd25519Recipient{identity.public_key, identity.blob};
  return X25519Recipient{identity.public_key};
}

Recipient encryption_target_of(const Identity& identity) {
  if (identity.kind != Identity::Kind::plugin) return recipient_of(identity);
  PluginRecipient r;
  r.plugin = identity.plugin;
  r.encoding.assign(reinterpret_cast<const char*>(identity.secret.data()), identity.secret.size());
  r.identity = true;
  return r;
}

Identity default_plugin_identity(std::string_view plugin) {
  if (!is_plugin_name(plugin))
    throw Error(PCRYPT_E_BAD_ARGUMENT, "'" + std::string(plugin) + "' is not a plugin name",
                "plugin names are made of a-z 0-9 + - . _ (the program is age-plugin-NAME)");
  // The checksum covers the lowercase prefix (BIP 173); the text is written uppercase.
  const std::string hrp = "age-plugin-" + std::string(plugin) + "-";
  Identity id;
  id.kind = Identity::Kind::plugin;
  id.plugin = std::string(plugin);
  const std::string text = bech32::encode(hrp, {}, true);
  id.secret = SecretBytes(std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  return id;
}

}  // namespace pcrypt::core
