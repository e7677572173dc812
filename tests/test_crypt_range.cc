// core::decrypt_range, decrypt_range_into and decrypt_range_stream (core/range.h): every range at chunk
// boundaries on files of 0, 1, cs and 3cs+7 bytes equals the plaintext slice, on a seekable and a sequential
// input; damage outside the range does not matter, inside it does; truncation is found when the range reaches
// the end; only the records that hold the range are read.
#include <algorithm>
#include <atomic>
#include <optional>
#include <set>

#include "core/pcrypt/range.h"
#include "core/pcrypt/verify.h"
#include "core/range.h"
#include "tests/test_crypt_support.h"

namespace pcrypt::test {
namespace {

constexpr std::size_t kCs = 4096;

struct Encrypted {
  Bytes plain;
  Bytes file;
  core::Credential key;
};

Encrypted make_file(std::size_t size) {
  Encrypted e{random_bytes(size), {}, fresh_key()};
  e.file = encrypt(e.plain, creds(e.key), kCs);
  return e;
}

core::UnlockedHeader unlock(const Bytes& file, const core::Credential& key) {
  io::MemoryReader in(file);
  return core::unlock_header(in, creds(key), core::default_kdf_ceiling());
}

// Counts the bytes read at each offset, so tests can tell which records were read.
class CountingReader final : public io::PositionalReader {
 public:
  explicit CountingReader(const Bytes& data) : inner_(data, io::MemoryAccess::positional) {}
  std::uint64_t size() const override { return inner_.size(); }
  std::size_t read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t n) const override {
    const std::size_t got = inner_.read_at(offset, buf, n);
    std::lock_guard lock(mu_);
    if (got > 0) ranges_.insert({offset, offset + got});
    return got;
  }
  std::uint64_t position() const override { return 0; }
  void seek(std::uint64_t) override {}
  std::uint64_t lowest() const { return ranges_.empty() ? UINT64_MAX : ranges_.begin()->first; }
  std::uint64_t highest_end() const {
    std::uint64_t h = 0;
    for (const auto& r : ranges_) h = std::max(h, r.second);
    return h;
  }

 private:
  mutable io::MemoryReader inner_;
  mutable std::mutex mu_;
  mutable std::set<std::pair<std::uint64_t, std::uint64_t>> ranges_;
};

Bytes positional_range(const Bytes& file, const core::UnlockedHeader& h, core::ByteRange range,
                       unsigned threads = 2) {
  io::MemoryReader in(file, io::MemoryAccess::positional);
  io::MemoryWriter out;
  core::RangeOptions options;
  options.threads = threads;
  core::decrypt_range(in, h.parsed, h.file_key, range, out, options);
  return out.data();
}

// decrypt_range_into, with a buffer as long as the range (as the file without a length: more than enough).
Bytes into_range(const Bytes& file, const core::UnlockedHeader& h, core::ByteRange range,
                 unsigned threads = 2) {
  io::MemoryReader in(file, io::MemoryAccess::positional);
  Bytes out(
      static_cast<std::size_t>(std::min<std::uint64_t>(range.length.value_or(file.size()), file.size())));
  core::RangeOptions options;
  options.threads = threads;
  const core::RangeResult result =
      core::decrypt_range_into(in, h.parsed, h.file_key, range.offset, out, options);
  out.resize(static_cast<std::size_t>(result.bytes_written));
  return out;
}

Bytes stream_range(const Bytes& file, const core::Credential& key, core::ByteRange range,
                   unsigned threads = 2) {
  io::MemoryReader in(file);
  const core::UnlockedHeader h = core::unlock_header(in, creds(key), core::default_kdf_ceiling());
  io::MemoryWriter out;
  core::RangeOptions options;
  options.threads = threads;
  core::decrypt_range_stream(in, h.parsed, h.file_key, range, out, options);
  return out.data();
}

Bytes slice(const Bytes& plain, core::ByteRange range) {
  const std::size_t begin = static_cast<std::size_t>(range.offset);
  std::size_t end = plain.size();
  if (range.length)
    end = begin + static_cast<std::size_t>(std::min<std::uint64_t>(plain.size() - begin, *range.length));
  return Bytes(plain.begin() + static_cast<std::ptrdiff_t>(begin),
               plain.begin() + static_cast<std::ptrdiff_t>(end));
}

std::vector<std::uint64_t> boundary_points(std::uint64_t size) {
  std::set<std::uint64_t> points = {0, 1, size, size + 1};
  if (size > 0) points.insert(size - 1);
  for (std::uint64_t k = 1; k <= 4; ++k)
    for (std::uint64_t p : {k * kCs - 1, k * kCs, k * kCs + 1}) points.insert(p);
  return {points.begin(), points.end()};
}

}  // namespace

TEST_CASE("every range at chunk boundaries equals the plaintext slice", "[range]") {
  for (std::size_t size : {std::size_t{0}, std::size_t{1}, kCs, 3 * kCs + 7}) {
    const Encrypted e = make_file(size);
    const core::UnlockedHeader h = unlock(e.file, e.key);
    std::vector<std::optional<std::uint64_t>> lengths = {std::nullopt, UINT64_MAX};
    for (std::uint64_t l : boundary_points(size)) lengths.push_back(l);
    for (std::uint64_t offset : boundary_points(size)) {
      for (const auto& length : lengths) {
        const core::ByteRange range{offset, length};
        INFO("size " << size << ", offset " << offset << ", length "
                     << (length ? std::to_string(*length) : "to the end"));
        if (offset > size) {
          const std::string message =
              error_of(core::ErrorKind::usage, [&] { positional_range(e.file, h, range); });
          std::string size_text = "(";  // appends: GCC 12 -O3 gives a false -Wrestrict for "(" + std::string
          size_text += std::to_string(size);
          // English: "(1 byte)", "(0 bytes)", "(3145735 bytes, 3.0 MiB)"
          size_text += size == 1 ? " byte)" : " bytes";
          CHECK(message.find(size_text) != std::string::npos);
          error_of(core::ErrorKind::usage, [&] { stream_range(e.file, e.key, range); });
          error_of(core::ErrorKind::usage, [&] { into_range(e.file, h, range); });
          continue;
        }
        const Bytes want = slice(e.plain, range);
        CHECK(positional_range(e.file, h, range) == want);
        CHECK(into_range(e.file, h, range, 1) == want);
        CHECK(into_range(e.file, h, range, 3) == want);
        CHECK(stream_range(e.file, e.key, range) == want);
      }
    }
  }
}

TEST_CASE("a range comes out the same with one worker and with several", "[range]") {
  const Encrypted e = make_file(9 * kCs + 100);
  const core::UnlockedHeader h = unlock(e.file, e.key);
  const core::ByteRange range{kCs / 2, 7 * kCs};
  for (unsigned threads : {1u, 3u}) {
    CHECK(positional_range(e.file, h, range, threads) == slice(e.plain, range));
    CHECK(stream_range(e.file, e.key, range, threads) == slice(e.plain, range));
  }
}

TEST_CASE("jobs given the unlocked header decrypt a file by ranges", "[range]") {
  const Encrypted e = make_file(10 * kCs + 3);
  const core::UnlockedHeader h = unlock(e.file, e.key);
  // Each "machine" gets a copy of the parsed header and of the file key, nothing else.
  Bytes joined;
  for (std::uint64_t offset = 0; offset < e.plain.size(); offset += 3 * kCs + 5) {
    const core::ParsedHeader parsed = h.parsed;
    const SecretBytes file_key(h.file_key.span());
    io::MemoryReader in(e.file, io::MemoryAccess::positional);
    io::MemoryWriter out;
    core::decrypt_range(in, parsed, file_key, {offset, 3 * kCs + 5}, out, {});
    joined.insert(joined.end(), out.data().begin(), out.data().end());
  }
  CHECK(joined == e.plain);
}

TEST_CASE("a file key that does not belong to the header is refused", "[range]") {
  const Encrypted e = make_file(100);
  const core::UnlockedHeader h = unlock(e.file, e.key);
  const Encrypted other = make_file(100);
  const core::UnlockedHeader other_h = unlock(other.file, other.key);
  io::MemoryReader in(e.file, io::MemoryAccess::positional);
  io::MemoryWriter out;
  error_of(core::ErrorKind::header, [&] {
    core::decrypt_range(in, h.parsed, other_h.file_key, {0, std::nullopt}, out, {});
  });
  CHECK(out.data().empty());
}

TEST_CASE("only the records holding the range are read", "[range]") {
  const Encrypted e = make_file(8 * kCs);
  const core::UnlockedHeader h = unlock(e.file, e.key);
  const std::uint64_t record = kCs + 16;
  const std::uint64_t payload = h.parsed.total_bytes();
  CountingReader in(e.file);
  io::MemoryWriter out;
  const core::RangeResult result =
      core::decrypt_range(in, h.parsed, h.file_key, {3 * kCs + 10, kCs}, out, {});
  CHECK(out.data() == slice(e.plain, {3 * kCs + 10, kCs}));
  CHECK(result.records_opened == 2);  // chunks 3 and 4
  CHECK(result.plaintext_bytes == 8 * kCs);
  CHECK(in.lowest() == payload + 3 * record);
  CHECK(in.highest_end() == payload + 5 * record);
}

TEST_CASE("damage outside the range does not matter, inside it fails", "[range]") {
  const Encrypted e = make_file(5 * kCs + 7);
  const core::UnlockedHeader h = unlock(e.file, e.key);
  Bytes damaged = e.file;
  damaged[h.parsed.total_bytes() + 2 * (kCs + 16) + 5] ^= 1;  // chunk 2
  const core::ByteRange before{0, 2 * kCs};
  const core::ByteRange after{3 * kCs, std::nullopt};
  const core::ByteRange across{2 * kCs - 1, 2};
  CHECK(positional_range(damaged, h, before) == slice(e.plain, before));
  CHECK(positional_range(damaged, h, after) == slice(e.plain, after));
  CHECK(stream_range(damaged, e.key, before) == slice(e.plain, before));
  CHECK(stream_range(damaged, e.key, after) == slice(e.plain, after));  // chunk 2 is skipped unread
  const std::string message =
      error_of(core::ErrorKind::payload, [&] { positional_range(damaged, h, across); });
  CHECK(message.find("chunk 2") != std::string::npos);
  error_of(core::ErrorKind::payload, [&] { stream_range(damaged, e.key, across); });
  CHECK(into_range(damaged, h, before) == slice(e.plain, before));
  CHECK(into_range(damaged, h, after) == slice(e.plain, after));
  for (unsigned threads : {1u, 2u, 4u}) {  // whichever thread meets chunk 2, its error is the one reported
    const std::string into_message = error_of(core::ErrorKind::payload, [&] {
      into_range(damaged, h, {0, std::nullopt}, threads);
    });
    CHECK(into_message.find("chunk 2") != std::string::npos);
  }
}

TEST_CASE("a file cut short is found when the range reaches the end", "[range]") {
  const Encrypted e = make_file(4 * kCs);
  const core::UnlockedHeader h = unlock(e.file, e.key);
  // Cut at a record boundary: the file now looks like 3 full chunks, none sealed last.
  const Bytes cut(e.file.begin(), e.file.end() - static_cast<std::ptrdiff_t>(kCs + 16));
  CHECK(positional_range(cut, h, {0, kCs}) == slice(e.plain, {0, kCs}));  // cannot be known here
  error_of(core::ErrorKind::payload, [&] { positional_range(cut, h, {2 * kCs, std::nullopt}); });
  error_of(core::ErrorKind::payload, [&] { positional_range(cut, h, {3 * kCs, 0}); });  // empty, at the end
  error_of(core::ErrorKind::payload, [&] { stream_range(cut, e.key, {kCs, std::nullopt}); });
  error_of(core::ErrorKind::payload, [&] { into_range(cut, h, {2 * kCs, std::nullopt}); });
  // Cut 10 bytes into the final record: no payload has that length, whatever the range.
  const Bytes torn(e.file.begin(), e.file.end() - static_cast<std::ptrdiff_t>(kCs + 6));
  error_of(core::ErrorKind::payload, [&] { positional_range(torn, h, {0, 1}); });
  error_of(core::ErrorKind::payload, [&] { stream_range(torn, e.key, {kCs, std::nullopt}); });
}

TEST_CASE("verify_stream fails exactly as decrypt_stream does, and writes nothing", "[range][verify]") {
  const Encrypted e = make_file(3 * kCs + 7);
  const std::size_t payload = unlock(e.file, e.key).parsed.total_bytes();
  std::vector<Bytes> variants = {e.file};
  Bytes flipped = e.file;
  flipped[payload + kCs + 20] ^= 0x80;
  variants.push_back(flipped);
  variants.emplace_back(e.file.begin(), e.file.end() - 1);
  Bytes header_flip = e.file;
  header_flip[10] ^= 1;
  variants.push_back(header_flip);
  for (const Bytes& file : variants) {
    for (auto access : {io::MemoryAccess::sequential, io::MemoryAccess::positional}) {
      std::string decrypt_error, verify_error;
      try {
        io::MemoryReader in(file, access);
        io::MemoryWriter out;
        core::decrypt_stream(in, out, creds(e.key), {});
      } catch (const core::Error& err) {
        decrypt_error = std::to_string(static_cast<int>(err.code())) + err.what();
      }
      try {
        io::MemoryReader in(file, access);
        core::verify_stream(in, creds(e.key), {});
      } catch (const core::Error& err) {
        verify_error = std::to_string(static_cast<int>(err.code())) + err.what();
      }
      CHECK(verify_error == decrypt_error);
    }
  }
}

}  // namespace pcrypt::test
