#include "io/memory_stream.h"

#include <algorithm>
#include <cstring>

namespace pcrypt::io {

std::size_t MemoryReader::read(std::uint8_t* buf, std::size_t n) {
  const std::size_t take = std::min(n, data_.size() - pos_);
  if (take != 0) std::memcpy(buf, data_.data() + pos_, take);
  pos_ += take;
  return take;
}

std::size_t MemoryReader::read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t n) const {
  if (offset >= data_.size()) return 0;
  const std::size_t take = std::min<std::uint64_t>(n, data_.size() - offset);
  if (take != 0) std::memcpy(buf, data_.data() + offset, take);
  return take;
}

void MemoryReader::seek(std::uint64_t offset) {
  pos_ = static_cast<std::size_t>(std::min<std::uint64_t>(offset, data_.size()));
}

void MemoryWriter::write(const std::uint8_t* buf, std::size_t n) {
  std::lock_guard lock(mu_);
  if (pos_ == data_.size()) {
    data_.insert(data_.end(), buf, buf + n);
  } else {
    if (data_.size() < pos_ + n) data_.resize(pos_ + n);
    if (n != 0) std::memcpy(data_.data() + pos_, buf, n);
  }
  pos_ += n;
}

void MemoryWriter::write_at(std::uint64_t offset, const std::uint8_t* buf, std::size_t n) {
  std::lock_guard lock(mu_);
  if (data_.size() < offset + n) data_.resize(offset + n);
  if (n != 0) std::memcpy(data_.data() + offset, buf, n);
}

}  // namespace pcrypt::io
