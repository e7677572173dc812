#include "io/buffered_input.h"

#include <algorithm>
#include <cstring>

namespace pcrypt::io {

bool BufferedInput::fill(std::size_t want) {
  while (buffered() < want && !eof_) {
    if (pos_ > 0) {
      buf_.erase(buf_.begin(), buf_.begin() + static_cast<std::ptrdiff_t>(pos_));
      pos_ = 0;
    }
    const std::size_t old = buf_.size();
    const std::size_t ask = std::max(want - buffered(), read_ahead_);
    buf_.resize(old + ask);
    const std::size_t got = in_.read(buf_.data() + old, ask);
    buf_.resize(old + got);
    if (got < ask) eof_ = true;
  }
  return buffered() >= want;
}

std::span<const std::uint8_t> BufferedInput::peek(std::size_t n) {
  fill(n);
  return {buf_.data() + pos_, std::min(n, buffered())};
}

std::string BufferedInput::read_line(std::size_t max) {
  std::string line;
  while (line.size() < max) {
    if (buffered() == 0 && !fill(1)) break;
    const std::uint8_t* start = buf_.data() + pos_;
    const std::size_t take_max = std::min(buffered(), max - line.size());
    const void* nl = std::memchr(start, '\n', take_max);
    const std::size_t take =
        nl != nullptr ? static_cast<std::size_t>(static_cast<const std::uint8_t*>(nl) - start) + 1 : take_max;
    line.append(reinterpret_cast<const char*>(start), take);
    pos_ += take;
    consumed_ += take;
    if (nl != nullptr) break;
  }
  return line;
}

std::size_t BufferedInput::read(std::uint8_t* buf, std::size_t n) {
  const std::size_t from_buffer = std::min(n, buffered());
  if (from_buffer > 0) std::memcpy(buf, buf_.data() + pos_, from_buffer);
  pos_ += from_buffer;
  std::size_t got = from_buffer;
  if (got < n && !eof_) got += in_.read(buf + got, n - got);
  consumed_ += got;
  return got;
}

PositionalReader* BufferedInput::positional() {
  PositionalReader* p = in_.positional();
  if (p == nullptr) return nullptr;
  // Give the read-ahead back: the input then stands exactly after what was consumed.
  if (buffered() > 0) {
    p->seek(p->position() - buffered());
    buf_.clear();
    pos_ = 0;
  }
  eof_ = false;
  return p;
}

}  // namespace pcrypt::io
