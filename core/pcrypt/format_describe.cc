// `pcrypt info`: the header in plain words. Only public fields exist in a header, so nothing here is secret.
#include <sodium.h>

#include <array>
#include <functional>
#include <span>
#include <string>

#include "core/byte_size.h"
#include "core/counted.h"
#include "core/pcrypt/format.h"

namespace pcrypt::core {
namespace {

template <std::size_t N>
std::string hex(const std::array<std::uint8_t, N>& bytes) {
  char out[2 * N + 1];
  sodium_bin2hex(out, sizeof out, bytes.data(), N);
  return out;
}

// "1048576 bytes (1 MiB)", "6000 bytes (5.9 KiB)": exact value first, a readable one after.
std::string hex(std::span<const std::uint8_t> bytes) {
  std::string out(2 * bytes.size() + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), bytes.data(), bytes.size());
  out.pop_back();
  return out;
}

// A long public byte string (hundreds of bytes): its length and SHA-256, which tell two slots apart and
// match a slot against a file's bytes; every byte in hex when `all_bytes`.
std::string fingerprint(std::span<const std::uint8_t> bytes, bool all_bytes) {
  if (all_bytes) return hex(bytes);
  std::array<std::uint8_t, crypto_hash_sha256_BYTES> digest{};
  crypto_hash_sha256(digest.data(), bytes.data(), bytes.size());
  return std::to_string(bytes.size()) + " bytes, SHA-256 " + hex(digest);
}

// Kinds 3, 4, 5 and 6 (FORMAT.md §10.3, §10.6, §10.7): what the slot says about its recipient, then its
// public fields.
void describe_recipient_slot(const KeySlot& s, const std::string& slot, bool all_bytes,
                             const std::function<void(const std::string&, const std::string&)>& line) {
  const std::span<const std::uint8_t> b(s.recipient_slot);
  if (s.kind == SlotKind::mlkem768_x25519) {
    line(slot, "ML-KEM-768 + X25519 hybrid recipient (anonymous, post-quantum)");
    line(slot + " encapsulated key", fingerprint(b.subspan(1, 1120), all_bytes));
    line(slot + " sealed file key", hex(b.subspan(1121)));
  } else if (s.kind == SlotKind::x25519) {
    line(slot, "X25519 recipient (anonymous)");
    line(slot + " ephemeral key", hex(b.subspan(1, 32)));
    line(slot + " wrapped file key", hex(b.subspan(33)));
  } else if (s.kind == SlotKind::ssh_rsa) {
    line(slot, "SSH RSA recipient, tag " + hex(b.subspan(1, 4)) + ", " + std::to_string(8 * (b.size() - 7)) +
                   "-bit key");
    line(slot + " wrapped file key", fingerprint(b.subspan(7), all_bytes));
  } else {
    line(slot, "SSH ed25519 recipient, tag " + hex(b.subspan(1, 4)));
    line(slot + " ephemeral key", hex(b.subspan(5, 32)));
    line(slot + " wrapped file key", hex(b.subspan(37)));
  }
}

}  // namespace

std::string describe_parsed_header(const ParsedHeader& parsed, bool all_bytes) {
  const FileHeader& h = parsed.header;
  std::string out;
  auto line = [&out](const std::string& name, const std::string& value) {
    out += name + ": " + value + "\n";
  };
  line("format", "pcrypt v" + std::to_string(h.version) +
                     (h.version == kFormatVersionRecipients ? " (public-key recipients)" : ""));
  line("cipher suite", std::to_string(h.suite) + " (AES-256-GCM, 16-byte tag per chunk)");
  line("chunk size", bytes_in_words(h.chunk_size));
  line("key slots", std::to_string(h.slots.size()));
  for (std::size_t i = 0; i < h.slots.size(); ++i) {
    const KeySlot& s = h.slots[i];
    const std::string slot = "slot " + std::to_string(i + 1);
    if (is_recipient_slot(s.kind)) {
      describe_recipient_slot(s, slot, all_bytes, line);
      continue;
    }
    if (s.kind == SlotKind::passphrase) {
      line(slot, "passphrase (Argon2id v1.3, file key wrapped with XChaCha20-Poly1305)");
      line(slot + " argon2id passes", std::to_string(s.kdf_ops));
      line(slot + " argon2id memory", bytes_in_words(std::uint64_t{s.kdf_memory_kib} * 1024));
      line(slot + " argon2id salt", hex(s.kdf_salt));
    } else {
      line(slot, "key file (file key wrapped with XChaCha20-Poly1305)");
    }
    line(slot + " wrap nonce", hex(s.wrap_nonce));
    line(slot + " wrapped file key", hex(s.wrapped_key));
  }
  line("header length", std::to_string(parsed.total_bytes()) + " bytes (payload starts at byte " +
                            std::to_string(parsed.total_bytes()) + ")");
  line("header MAC", "HMAC-SHA-256 " + hex(h.mac) + " (not verified: that needs the key)");
  return out;
}

}  // namespace pcrypt::core
