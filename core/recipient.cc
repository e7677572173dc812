// Recipient and identity text parsing (formats in docs/FORMAT.md §10).
#include "core/recipient.h"

#include <sodium.h>

#include <cstring>

#include "core/bech32.h"
#include "core/error.h"
#include "core/openssh_key.h"
#include "core/pq/mlkem768.h"

namespace pcrypt::core {
namespace {

constexpr std::string_view recipient_hrp = "age";
constexpr std::string_view identity_hrp = "age-secret-key-";
constexpr std::string_view hybrid_recipient_hrp = "age1pq";
constexpr std::string_view hybrid_identity_hrp = "age-secret-key-pq-";

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

std::string shown(std::string_view text) {
  return text.size() > 80 ? std::string(text.substr(0, 77)) + "..." : std::string(text);
}

std::vector<std::uint8_t> decode_key(std::string_view text, std::string_view hrp, const std::string& what,
                                     std::size_t size, std::size_t limit = bech32::max_length) {
  bech32::Decoded d;
  try {
    d = bech32::decode(text, limit);
  } catch (const bech32::DecodeError& e) {
    throw Error(ErrorKind::usage, what + ": " + e.what());
  }
  if (d.hrp != hrp)
    throw Error(ErrorKind::usage, what + ": prefix '" + d.hrp + "1' is not '" + std::string(hrp) + "1'");
  std::vector<std::uint8_t> key;
  try {
    key = bech32::from_words(d.words);
  } catch (const bech32::DecodeError& e) {
    throw Error(ErrorKind::usage, what + ": " + e.what());
  }
  if (key.size() != size)
    throw Error(ErrorKind::usage, what + ": holds " + std::to_string(key.size()) + " bytes, not a " +
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
    throw Error(ErrorKind::usage, what + ": not a valid ML-KEM-768 public key (damaged?)");
  return r;
}

SshEd25519Recipient ssh_recipient(std::string_view type, std::string_view b64, const std::string& what) {
  if (type != "ssh-ed25519")
    throw Error(
        ErrorKind::usage, what + ": SSH key type " + std::string(type) + " is not supported",
        "pcrypt encrypts to ssh-ed25519 keys and age/pcrypt X25519 recipients (age1...); create one with "
        "ssh-keygen -t ed25519 or pcrypt keygen --identity");
  std::vector<std::uint8_t> blob(b64.size());
  std::size_t len = 0;
  if (sodium_base642bin(blob.data(), blob.size(), b64.data(), b64.size(), nullptr, &len, nullptr,
                        sodium_base64_VARIANT_ORIGINAL) != 0)
    throw Error(ErrorKind::usage, what + ": the key data is not valid base64 (truncated?)");
  blob.resize(len);
  // Blob = string "ssh-ed25519" || string key(32) = 4+11+4+32 bytes.
  static constexpr std::uint8_t prefix[] = {0,   0,   0,   11,  's', 's', 'h', '-', 'e', 'd',
                                            '2', '5', '5', '1', '9', 0,   0,   0,   32};
  if (len != sizeof prefix + 32 || std::memcmp(blob.data(), prefix, sizeof prefix) != 0)
    throw Error(ErrorKind::usage,
                what + ": the key data is not an ssh-ed25519 public key (truncated or altered?)");
  SshEd25519Recipient r{{}, blob};
  if (crypto_sign_ed25519_pk_to_curve25519(r.public_key.data(), blob.data() + sizeof prefix) != 0)
    throw Error(ErrorKind::usage, what + ": not a valid ed25519 public key");
  return r;
}

bool is_ssh_type(std::string_view word) {
  return word.starts_with("ssh-") || word.starts_with("ecdsa-") || word.starts_with("sk-");
}

// Splits "type base64 [comment]" or, for authorized_keys lines, "options type base64 [comment]".
Recipient parse_line(std::string_view line, const std::string& what, bool allow_options) {
  if (starts_with_ci(line, "age1pq1")) {
    if (line.find_first_of(" \t") != std::string_view::npos)
      throw Error(ErrorKind::usage, what + ": unexpected text after the age1pq1... recipient");
    return hybrid_recipient(line, what);
  }
  if (starts_with_ci(line, "age1")) {
    if (line.find_first_of(" \t") != std::string_view::npos)
      throw Error(ErrorKind::usage, what + ": unexpected text after the age1... recipient");
    X25519Recipient r{};
    const auto key = decode_key32(line, recipient_hrp, what);
    std::memcpy(r.public_key.data(), key.data(), 32);
    return r;
  }
  if (starts_with_ci(line, "age-secret-key-1") || starts_with_ci(line, "age-secret-key-pq-1"))
    throw Error(ErrorKind::usage, what + " is a secret identity, not a recipient",
                "give the public key instead (pcrypt recipient FILE, or age-keygen -y FILE); keep the "
                "identity secret");
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size() && words.size() < 4) {
    const std::size_t j = line.find_first_of(" \t", i);
    const std::size_t end = j == std::string_view::npos ? line.size() : j;
    if (end > i) words.push_back(line.substr(i, end - i));
    i = end + 1;
  }
  std::size_t t = 0;
  if (allow_options && !words.empty() && !is_ssh_type(words[0]) && words.size() >= 2 && is_ssh_type(words[1]))
    t = 1;
  if (t < words.size() && is_ssh_type(words[t])) {
    if (t + 1 >= words.size())
      throw Error(ErrorKind::usage, what + ": SSH key line without key data (truncated?)");
    return ssh_recipient(words[t], words[t + 1], what);
  }
  throw Error(ErrorKind::usage, what + " is not a recipient",
              "expected an age1... recipient or an \"ssh-ed25519 AAAA...\" public key line");
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

std::vector<Recipient> parse_recipients_file(std::string_view content, std::string_view name) {
  std::vector<Recipient> out;
  for_each_entry(content, [&](std::string_view line, std::size_t lineno) {
    out.push_back(parse_line(
        line,
        "recipient '" + shown(line) + "' (" + std::string(name) + " line " + std::to_string(lineno) + ")",
        true));
  });
  if (out.empty())
    throw Error(ErrorKind::usage, "recipients file '" + std::string(name) + "' lists no recipient");
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

std::vector<Identity> parse_identity_file(std::string_view content, std::string_view name) {
  const std::string file = std::string(name);
  if (looks_like_openssh_private_key(content)) {
    OpenSshEd25519Key k = parse_openssh_private_key(content, name);
    Identity id;
    id.kind = Identity::Kind::ssh_ed25519;
    id.secret = SecretBytes(32);
    crypto_sign_ed25519_sk_to_curve25519(id.secret.data(), k.secret.data());
    if (crypto_sign_ed25519_pk_to_curve25519(id.public_key.data(), k.public_key.data()) != 0)
      throw Error(ErrorKind::usage, "OpenSSH private key '" + file + "': not a valid ed25519 key");
    id.blob = std::move(k.blob);
    std::vector<Identity> out;
    out.push_back(std::move(id));
    return out;
  }
  std::vector<Identity> out;
  for_each_entry(content, [&](std::string_view line, std::size_t lineno) {
    const std::string what = "identity file '" + file + "' line " + std::to_string(lineno);
    if (starts_with_ci(line, "age1") || line.starts_with("ssh-") || line.starts_with("ecdsa-"))
      throw Error(
          ErrorKind::usage, what + " holds a public key (recipient), not a secret identity",
          "-i needs the secret key file (e.g. the file from pcrypt keygen --identity or age-keygen, or "
          "~/.ssh/id_ed25519 rather than id_ed25519.pub)");
    if (starts_with_ci(line, "age-secret-key-pq-1")) {
      const auto seed = decode_key32(line, hybrid_identity_hrp, what);
      SecretBytes s(seed);
      sodium_memzero(const_cast<std::uint8_t*>(seed.data()), seed.size());
      out.push_back(hybrid_identity_from_seed(s));
      return;
    }
    if (!starts_with_ci(line, "age-secret-key-1"))
      throw Error(ErrorKind::usage, what + " is not an identity",
                  "expected AGE-SECRET-KEY-1... or AGE-SECRET-KEY-PQ-1... lines or an OpenSSH private key");
    const auto key = decode_key32(line, identity_hrp, what);
    SecretBytes s(key);
    sodium_memzero(const_cast<std::uint8_t*>(key.data()), key.size());
    out.push_back(x25519_identity_from_secret(s));
  });
  if (out.empty()) throw Error(ErrorKind::usage, "identity file '" + file + "' holds no identity");
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
    throw Error(ErrorKind::io, "internal: hybrid seed must be 32 bytes");
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

std::string format_hybrid_identity(const SecretBytes& seed) {
  return bech32::encode(hybrid_identity_hrp, bech32::to_words(seed.span()), true);
}

Recipient recipient_of(const Identity& identity) {
  if (identity.kind == Identity::Kind::mlkem768_x25519) return HybridRecipient{identity.hybrid->public_key()};
  if (identity.kind == Identity::Kind::ssh_ed25519)
    return SshEd25519Recipient{identity.public_key, identity.blob};
  return X25519Recipient{identity.public_key};
}

}  // namespace pcrypt::core
