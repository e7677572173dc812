// OpenSSH private keys: armour, base64, then the openssh-key-v1 wire structure (uint32 big-endian lengths).
#include "core/openssh_key.h"

#include <sodium.h>

#include <cstring>
#include <string>

#include "core/error.h"

namespace pcrypt::core {
namespace {

constexpr std::string_view begin_line = "-----BEGIN OPENSSH PRIVATE KEY-----";
constexpr std::string_view end_line = "-----END OPENSSH PRIVATE KEY-----";
constexpr std::string_view magic{"openssh-key-v1\0", 15};

// Reads the wire structure; every read is bounds-checked and reports truncation as a format error.
class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size, std::string_view name)
      : p_(data), n_(size), name_(name) {}
  std::uint32_t u32() {
    need(4);
    const std::uint32_t v = (std::uint32_t{p_[0]} << 24) | (std::uint32_t{p_[1]} << 16) |
                            (std::uint32_t{p_[2]} << 8) | std::uint32_t{p_[3]};
    p_ += 4;
    n_ -= 4;
    return v;
  }
  std::string_view str() {
    const std::uint32_t len = u32();
    need(len);
    std::string_view s(reinterpret_cast<const char*>(p_), len);
    p_ += len;
    n_ -= len;
    return s;
  }
  std::size_t left() const { return n_; }
  const std::uint8_t* pos() const { return p_; }
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(ErrorKind::usage, "OpenSSH private key '" + std::string(name_) + "': " + what);
  }

 private:
  void need(std::size_t k) const {
    if (k > n_) fail("truncated key data");
  }
  const std::uint8_t* p_;
  std::size_t n_;
  std::string_view name_;
};

std::string_view bytes_view(const std::uint8_t* p, std::size_t n) {
  return {reinterpret_cast<const char*>(p), n};
}

}  // namespace

bool looks_like_openssh_private_key(std::string_view content) {
  return content.find(begin_line) != std::string_view::npos;
}

OpenSshEd25519Key parse_openssh_private_key(std::string_view content, std::string_view name) {
  const std::string who = "OpenSSH private key '" + std::string(name) + "': ";
  const std::size_t b = content.find(begin_line);
  const std::size_t e = content.find(end_line);
  if (b == std::string_view::npos || e == std::string_view::npos || e < b)
    throw Error(ErrorKind::usage, who + "missing BEGIN/END OPENSSH PRIVATE KEY lines");
  const std::string_view body = content.substr(b + begin_line.size(), e - b - begin_line.size());
  // The decoded structure is at most 3/4 of the base64 text; holds the secret, so keep it in guarded memory.
  SecretBytes raw(body.size());
  std::size_t raw_len = 0;
  if (sodium_base642bin(raw.data(), raw.size(), body.data(), body.size(), " \t\r\n", &raw_len, nullptr,
                        sodium_base64_VARIANT_ORIGINAL) != 0)
    throw Error(ErrorKind::usage, who + "the base64 body does not decode");
  Reader r(raw.data(), raw_len, name);
  if (raw_len < magic.size() || bytes_view(raw.data(), magic.size()) != magic)
    r.fail("not an openssh-key-v1 key");
  Reader k(raw.data() + magic.size(), raw_len - magic.size(), name);
  const std::string_view cipher = k.str();
  const std::string_view kdf = k.str();
  k.str();  // kdf options
  if (cipher != "none" || kdf != "none")
    throw Error(ErrorKind::usage,
                who + "the key is protected by a passphrase (cipher " + std::string(cipher) +
                    "), which pcrypt cannot read",
                "decrypt a copy: cp KEY copy && ssh-keygen -p -N '' -f copy, then use -i copy (and delete it "
                "afterwards)");
  if (k.u32() != 1) k.fail("holds more than one key (pcrypt reads exactly one)");
  const std::string_view pub_blob = k.str();
  const std::string_view priv = k.str();
  if (k.left() != 0) k.fail("trailing data after the private section");

  Reader pb(reinterpret_cast<const std::uint8_t*>(pub_blob.data()), pub_blob.size(), name);
  const std::string_view pub_type = pb.str();
  if (pub_type != "ssh-ed25519")
    throw Error(ErrorKind::usage, who + "key type " + std::string(pub_type) + " is not supported",
                "pcrypt reads ssh-ed25519 keys; create one with ssh-keygen -t ed25519");
  const std::string_view pub_key = pb.str();
  if (pub_key.size() != 32 || pb.left() != 0) pb.fail("malformed ssh-ed25519 public key");

  Reader s(reinterpret_cast<const std::uint8_t*>(priv.data()), priv.size(), name);
  const std::uint32_t check1 = s.u32();
  const std::uint32_t check2 = s.u32();
  if (check1 != check2) s.fail("check values differ (damaged, or a wrong decryption)");
  if (s.str() != "ssh-ed25519") s.fail("private key type differs from the public key type");
  const std::string_view pub2 = s.str();
  const std::string_view sec = s.str();
  s.str();  // comment
  // Padding is 1, 2, 3, … up to the cipher block size (8 for "none").
  const std::size_t pad = s.left();
  if (pad >= 8) s.fail("too much padding after the key");
  for (std::size_t i = 0; i < pad; ++i)
    if (s.pos()[i] != i + 1) s.fail("invalid padding");
  if (pub2 != pub_key || sec.size() != 64 || sec.substr(32) != pub_key)
    s.fail("public and private halves do not match");

  OpenSshEd25519Key out{SecretBytes(64), {}, {}};
  std::memcpy(out.secret.data(), sec.data(), 64);
  std::array<std::uint8_t, 32> derived{};
  SecretBytes scratch(64);
  crypto_sign_seed_keypair(derived.data(), scratch.data(), out.secret.data());
  if (sodium_memcmp(derived.data(), pub_key.data(), 32) != 0)
    s.fail("the public key is not the one of the secret seed");
  std::memcpy(out.public_key.data(), pub_key.data(), 32);
  out.blob.assign(pub_blob.begin(), pub_blob.end());
  return out;
}

}  // namespace pcrypt::core
