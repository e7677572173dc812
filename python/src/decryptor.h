// A pcrypt file opened for reading by ranges from Python (pcrypt.open, the fsspec filesystem): its header
// unlocked once, then any number of range reads, each one core::decrypt_range_into (core/range.h): only
// the records holding a range are read and authenticated, straight into the caller's buffer.

#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "core/credential.h"
#include "core/keys.h"
#include "core/range.h"
#include "io/fd_stream.h"
#include "io/stream.h"

namespace pcrypt::python {

// A local file read with pread (the Python object keeps it open).
class LocalFile {
 public:
  explicit LocalFile(const std::string& path);
  const io::PositionalReader& access() const { return *access_; }
  std::uint64_t size() const { return access_->size(); }

 private:
  std::unique_ptr<io::FdReader> reader_;
  io::PositionalReader* access_;
};

// Bytes [begin, begin + window.size()) of a file of file_size bytes, fetched from elsewhere (an fsspec
// target: pcrypt::s3://…): a range read sees a file of that size of which it only ever asks for these bytes.
class FileWindow final : public io::PositionalReader {
 public:
  FileWindow(std::span<const std::uint8_t> window, std::uint64_t begin, std::uint64_t file_size)
      : window_(window), begin_(begin), file_size_(file_size) {}
  std::uint64_t size() const override { return file_size_; }
  std::size_t read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t n) const override;
  std::uint64_t position() const override { return 0; }
  void seek(std::uint64_t /*offset*/) override {}

 private:
  std::span<const std::uint8_t> window_;
  std::uint64_t begin_;
  std::uint64_t file_size_;
};

class Decryptor {
 public:
  // `header_prefix`: the file's first bytes, at least its whole header (kHeaderProbeBytes or the whole file
  // is enough). Throws core::Error(header) as decrypt does for a malformed header or wrong credentials.
  Decryptor(std::span<const std::uint8_t> header_prefix, const std::vector<core::Credential>& credentials,
            const core::KdfLimits& ceiling);

  std::size_t header_bytes() const { return unlocked_.parsed.total_bytes(); }
  std::size_t chunk_size() const { return unlocked_.parsed.header.chunk_size; }
  // The plaintext size of the file whose size is file_size; core::Error(payload) for a length no complete
  // payload has (a file cut short).
  std::uint64_t plaintext_size(std::uint64_t file_size) const;
  // The file bytes [begin, end) that hold plaintext [offset, offset + length): the records decrypt_range
  // reads.
  std::pair<std::uint64_t, std::uint64_t> covering(std::uint64_t offset, std::uint64_t length,
                                                   std::uint64_t file_size) const;
  // Decrypts plaintext [offset, offset + out.size()) of `file` into `out` (less at the end of the file) and
  // returns how many bytes it wrote. Every byte is authenticated first (core::Error(payload) otherwise).
  std::size_t read_into(const io::PositionalReader& file, std::uint64_t offset, std::span<std::uint8_t> out,
                        unsigned threads) const;

 private:
  core::UnlockedHeader unlocked_;
};

// Enough of a file's start to hold any header (FORMAT.md §3: at most 16 slots, the largest under 200 bytes).
inline constexpr std::size_t kHeaderProbeBytes = 16 << 10;

}  // namespace pcrypt::python
