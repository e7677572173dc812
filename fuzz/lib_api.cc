// libpcrypt's public entry points (include/pcrypt/pcrypt.h) on hostile bytes, as a program using the library
// calls them: File::open from memory, describe, info, measure (its sizes must add up), unlock with a fixed
// identity (cheap scrypt only), read_at at a few offsets and past the end, verify, then the pull reader
// (pcrypt::Reader, <pcrypt/reader.h>) through a buffer whose size the input picks. Every input either throws
// pcrypt::Error or behaves; nothing else escapes, and the reader returns exactly the plaintext verify()
// accepted, or nothing past a failure it reports.
#include <pcrypt/pcrypt.h>
#include <pcrypt/reader.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    pcrypt::File file = pcrypt::File::open(pcrypt::Source::memory({data, size}));
    const pcrypt::Description& d = file.describe();
    if (d.slots == 0 || d.slots_in_words.empty()) std::abort();  // a header without a slot is refused
    if (file.info().empty()) std::abort();
    if (file.slot_list().size() != d.slots) std::abort();
    {
      // measure() on a File of its own: on armor it reads the source to its end.
      pcrypt::File measured = pcrypt::File::open(pcrypt::Source::memory({data, size}));
      const pcrypt::Sizes s = measured.measure();
      if (s.file_bytes > size || s.header_bytes > s.file_bytes) std::abort();
      if (s.plaintext_bytes &&
          s.header_bytes + s.armor_bytes + s.overhead_bytes + *s.plaintext_bytes != s.file_bytes)
        std::abort();
    }
    pcrypt::Credentials by;
    // Fixed (made by pcrypt keygen --identity for this harness only): the seeds in tests/vectors/door are
    // encrypted to it, so mutations reach the payload.
    by.identities = {"AGE-SECRET-KEY-1CAZ8S47ZY58K8FNVHHJRM8MRE9PTMWMXAVWA9MFVF28VEFK6A8VS3EG3LK"};
    by.max_scrypt_log2 = 4;
    by.max_argon2id_memory_bytes = 64 << 10;
    by.max_argon2id_passes = 1;
    file.unlock(by);
    std::vector<std::uint8_t> buffer(100);
    for (const std::uint64_t offset : {std::uint64_t{0}, std::uint64_t{1} << 16, std::uint64_t{70'000}}) {
      try {
        if (file.read_at(offset, buffer) > buffer.size()) std::abort();
      } catch (const pcrypt::Error&) {
      }
    }
    const pcrypt::Transfer verified = file.verify(pcrypt::RunOptions{1, {}, nullptr});
    try {
      if (file.read_at(file.plaintext_size(), buffer) != 0) std::abort();  // at the end: 0, as pread
    } catch (const pcrypt::Error&) {
    }
    pcrypt::File again = pcrypt::File::open(pcrypt::Source::memory({data, size}));
    again.unlock(by);
    pcrypt::Reader reader(std::move(again),
                          pcrypt::RunOptions{1 + static_cast<unsigned>(size % 3), {}, nullptr});
    std::vector<std::uint8_t> piece(1 + (size > 0 ? data[size - 1] : 0) * 97);
    std::uint64_t total = 0;
    while (const std::size_t n = reader.read(piece)) {
      if (n > piece.size()) std::abort();
      total += n;
    }
    if (total != verified.plaintext_bytes || reader.transfer().plaintext_bytes != total) std::abort();
  } catch (const pcrypt::Error&) {
    // Refused with the library's typed error: what most inputs get.
  }
  return 0;
}
