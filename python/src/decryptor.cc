#include "python/src/decryptor.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "core/error.h"
#include "core/payload.h"
#include "io/memory_stream.h"

namespace pcrypt::python {
namespace {

core::PayloadLayout layout_of(const core::ParsedHeader& parsed) {
  return core::PayloadLayout{parsed.header.chunk_size, parsed.total_bytes()};
}

}  // namespace

LocalFile::LocalFile(const std::string& path)
    : reader_(io::open_input(path)), access_(reader_->positional()) {
  if (access_ == nullptr)
    throw core::Error(core::ErrorKind::usage, path + " is not a regular file",
                      "pcrypt.open reads by ranges; decrypt a stream with pcrypt.decrypt");
}

std::size_t FileWindow::read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t n) const {
  if (offset >= file_size_) return 0;
  n = static_cast<std::size_t>(std::min<std::uint64_t>(n, file_size_ - offset));
  if (offset < begin_ || offset - begin_ + n > window_.size())
    throw std::logic_error("FileWindow: a read outside the fetched records");
  std::memcpy(buf, window_.data() + (offset - begin_), n);
  return n;
}

Decryptor::Decryptor(std::span<const std::uint8_t> header_prefix,
                     const std::vector<core::Credential>& credentials, const core::KdfLimits& ceiling)
    : unlocked_([&] {
        io::MemoryReader in(header_prefix);
        return core::unlock_header(in, credentials, ceiling);
      }()) {}

std::uint64_t Decryptor::plaintext_size(std::uint64_t file_size) const {
  const core::PayloadLayout layout = layout_of(unlocked_.parsed);
  const std::uint64_t payload = file_size > layout.payload_offset ? file_size - layout.payload_offset : 0;
  const std::optional<std::uint64_t> plaintext = layout.plaintext_bytes(payload);
  if (!plaintext)
    throw core::Error(
        core::ErrorKind::payload,
        "truncated payload: " + std::to_string(payload) +
            " payload bytes, a length no complete payload has (the final record is missing or cut)");
  return *plaintext;
}

std::pair<std::uint64_t, std::uint64_t> Decryptor::covering(std::uint64_t offset, std::uint64_t length,
                                                            std::uint64_t file_size) const {
  const core::PayloadLayout layout = layout_of(unlocked_.parsed);
  const std::uint64_t plaintext = plaintext_size(file_size);
  const std::uint64_t end = std::min(plaintext, offset + std::max<std::uint64_t>(length, 1));
  const std::uint64_t first = std::min(offset, plaintext) / layout.chunk_size;
  // The record holding the range's last byte (the final record, possibly empty, for a range at the end).
  const std::uint64_t last = end == 0 ? 0 : (end - 1) / layout.chunk_size;
  return {layout.record_offset(first), std::min(file_size, layout.record_offset(last + 1))};
}

std::size_t Decryptor::read_into(const io::PositionalReader& file, std::uint64_t offset,
                                 std::span<std::uint8_t> out, unsigned threads) const {
  const core::RangeResult result = core::decrypt_range_into(
      file, unlocked_.parsed, unlocked_.file_key, offset, out, core::RangeOptions{threads, nullptr, nullptr});
  return static_cast<std::size_t>(result.bytes_written);
}

}  // namespace pcrypt::python
