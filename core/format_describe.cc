// `pcrypt info`: the header in plain words. Only public fields exist in a header, so nothing here is secret.
#include <sodium.h>

#include <string>

#include "core/byte_size.h"
#include "core/format.h"

namespace pcrypt::core {
namespace {

template <std::size_t N>
std::string hex(const std::array<std::uint8_t, N>& bytes) {
  char out[2 * N + 1];
  sodium_bin2hex(out, sizeof out, bytes.data(), N);
  return out;
}

// "1048576 bytes (1 MiB)", "6000 bytes (5.9 KiB)": exact value first, a readable one after.
std::string bytes_in_words(std::uint64_t n) {
  const std::string exact = std::to_string(n) + " bytes";
  return n < 1024 ? exact : exact + " (" + format_bytes(n) + ")";
}

}  // namespace

std::string describe_parsed_header(const ParsedHeader& parsed) {
  const FileHeader& h = parsed.header;
  std::string out;
  auto line = [&out](const std::string& name, const std::string& value) {
    out += name + ": " + value + "\n";
  };
  line("format", "pcrypt v" + std::to_string(h.version));
  line("cipher suite", std::to_string(h.suite) + " (AES-256-GCM, 16-byte tag per chunk)");
  line("chunk size", bytes_in_words(h.chunk_size));
  line("key slots", std::to_string(h.slots.size()));
  for (std::size_t i = 0; i < h.slots.size(); ++i) {
    const KeySlot& s = h.slots[i];
    const std::string slot = "slot " + std::to_string(i + 1);
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
