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

void MemoryWriter::write(const std::uint8_t* buf, std::size_t n) {
  data_.insert(data_.end(), buf, buf + n);
}

}  // namespace pcrypt::io
