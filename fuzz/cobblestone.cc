// The decrypting side of C2SP chunked encryption (core/cobblestone/ behind the door) on hostile bytes: the
// first input byte picks Cobblestone-128 or -256 and the thread count, the rest is the file, opened with a
// fixed raw key (bytes 0, 1, 2, ...) and empty context, as the seeds were made. Open, info, unlock (the
// commitment), decrypt, verify and ranges: every input either throws core::Error or behaves, a decrypted
// plaintext has exactly the length the ciphertext's length says, and a range agrees with the whole.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <vector>

#include "core/cobblestone/chunked.h"
#include "core/door/encrypted_file.h"
#include "core/error.h"
#include "io/memory_stream.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pcrypt;
  if (size < 1) return 0;
  const bool wide = (data[0] & 1) != 0;
  const unsigned threads = 1 + (data[0] >> 1) % 3;
  const std::span<const std::uint8_t> file_bytes(data + 1, size - 1);
  const core::Format format = wide ? core::Format::cobblestone_256 : core::Format::cobblestone_128;
  std::vector<std::uint8_t> key(wide ? 32 : 16);
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<std::uint8_t>(i);
  std::vector<core::Credential> credentials;
  credentials.push_back(core::Credential{core::Credential::Kind::raw_key,
                                         SecretBytes(std::span<const std::uint8_t>(key)),
                                         std::nullopt,
                                         std::nullopt,
                                         {}});
  io::MemoryReader in(file_bytes, io::MemoryAccess::positional);
  try {
    core::door::EncryptedFile file(in, format);
    if (file_bytes.size() < core::cobblestone::kMinFileBytes) std::abort();  // must have been refused
    if (file.info(file_bytes.size()).empty()) std::abort();
    file.unlock(credentials, {});
    const auto plain = core::cobblestone::payload_layout().plaintext_bytes(file_bytes.size() - 56);
    io::MemoryWriter whole;
    bool decrypted = false;
    try {
      file.decrypt(whole, core::door::RunOptions{threads, {}});
      decrypted = true;
    } catch (const core::Error&) {
      if (whole.committed()) std::abort();  // nothing released from a failed run
    }
    if (decrypted && (!plain || whole.data().size() != *plain)) std::abort();
    if (plain && *plain > 0) {
      const std::uint64_t offset = data[0] % *plain;
      io::MemoryWriter part;
      try {
        file.read_range(core::ByteRange{offset, 40000}, part, core::door::RunOptions{threads, {}});
        if (decrypted && !std::equal(part.data().begin(), part.data().end(),
                                     whole.data().begin() + static_cast<std::ptrdiff_t>(offset)))
          std::abort();
      } catch (const core::Error&) {
      }
    }
  } catch (const core::Error&) {
    // Refused with a pcrypt error: what most inputs get.
  }
  return 0;
}
