#include "core/age/describe.h"
#include "core/counted.h"

#include <sodium.h>

#include "core/age/payload.h"

namespace pcrypt::core::age {
namespace {

std::string hex(std::span<const std::uint8_t> b) {
  std::string out(b.size() * 2 + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), b.data(), b.size());
  out.pop_back();
  return out;
}

}  // namespace

std::string stanza_words(const Stanza& s) {
  const std::string& type = s.args[0];
  if (type == "X25519" && s.args.size() == 2) return "X25519 recipient (anonymous)";
  if (type == "ssh-ed25519" && s.args.size() == 3) return "SSH ed25519 recipient, tag " + s.args[1];
  if (type == "scrypt" && s.args.size() == 3) return "passphrase (scrypt, work factor 2^" + s.args[2] + ")";
  if (type == "ssh-rsa" && s.args.size() == 2)
    return "SSH RSA recipient, tag " + s.args[1] + ", " + std::to_string(8 * s.body.size()) + "-bit key";
  if (type == "mlkem768x25519" && s.args.size() == 2)
    return "post-quantum recipient (ML-KEM-768 + X25519, anonymous)";
  if (type == "p256tag" && s.args.size() == 3 && s.args[1].size() <= 8)
    return "tag recipient (P-256, a hardware token's), tag " + s.args[1];
  if (type == "mlkem768p256tag" && s.args.size() == 3 && s.args[1].size() <= 8)
    return "post-quantum tag recipient (ML-KEM-768 + P-256, a hardware token's), tag " + s.args[1];
  return "unknown type '" + (type.size() > 32 ? type.substr(0, 32) + "..." : type) + "' (skipped)";
}

std::string stanza_tag(const Stanza& s) {
  const std::string& type = s.args[0];
  const bool tagged =
      type == "ssh-ed25519" || type == "ssh-rsa" || type == "p256tag" || type == "mlkem768p256tag";
  return tagged && s.args.size() >= 2 ? s.args[1] : std::string();
}

std::string describe(const AgeInput& input, std::optional<std::uint64_t> file_bytes) {
  std::string out;
  const auto line = [&out](const std::string& name, const std::string& value) {
    out += name + ": " + value + "\n";
  };
  const Header& h = input.header();
  line("format", std::string("age v1 (age-encryption.org/v1)") + (input.armored() ? ", ASCII armored" : ""));
  line("cipher suite", "ChaCha20-Poly1305, 64 KiB chunks, 16-byte tag per chunk");
  line("stanzas", std::to_string(h.stanzas.size()));
  for (std::size_t i = 0; i < h.stanzas.size(); ++i)
    line("stanza " + std::to_string(i + 1), stanza_words(h.stanzas[i]));
  line("header length",
       counted(h.total_bytes, "byte") + (input.armored() ? " (after removing the armor)" : ""));
  line("header MAC", "HMAC-SHA-256 " + hex(h.mac) + " (not verified: that needs the key)");
  if (file_bytes && !input.armored()) {
    const PayloadLayout layout = payload_layout(h.total_bytes);
    const std::uint64_t start = layout.payload_offset;
    const auto records = *file_bytes >= start ? layout.record_count(*file_bytes - start) : std::nullopt;
    if (records)
      line("plaintext size", counted(*layout.plaintext_bytes(*file_bytes - start), "byte") + " in " +
                                 counted(*records, "chunk"));
    else
      line("payload", "truncated: no complete payload is " + counted(*file_bytes, "byte") + " long");
  }
  return out;
}

}  // namespace pcrypt::core::age
