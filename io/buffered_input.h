// An input read ahead in blocks, so that a text header (age's) can be read line by line without a system call
// per byte and the payload can start exactly after it: format detection peeks at the first bytes, the header
// parser takes lines, and what was read ahead is handed to the payload first. On a regular file the
// read-ahead is given back instead (positional() seeks the file to just after what was consumed), so the
// pipeline's workers can pread their own records (core/pipeline.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "io/stream.h"

namespace pcrypt::io {

class BufferedInput final : public Reader {
 public:
  // read_ahead: how much more than asked for each read of `in` may take. 0 reads exactly what is asked, so
  // that after a peek `in` stands where the peeked bytes end (for a caller that goes on with `in` itself).
  explicit BufferedInput(Reader& in, std::size_t read_ahead = 4096) : in_(in), read_ahead_(read_ahead) {}
  void set_read_ahead(std::size_t bytes) { read_ahead_ = bytes; }

  // The first min(n, input size) bytes not yet consumed, without consuming them.
  std::span<const std::uint8_t> peek(std::size_t n);
  // The next line including its '\n', consuming it; at end of input, what is left (possibly "", no '\n').
  // Stops after `max` bytes without a '\n' (the caller sees no '\n' and refuses the line).
  std::string read_line(std::size_t max);
  // Bytes consumed so far (by read_line and read).
  std::uint64_t consumed() const { return consumed_; }

  std::size_t read(std::uint8_t* buf, std::size_t n) override;
  std::string name() const override { return in_.name(); }
  PositionalReader* positional() override;

 private:
  bool fill(std::size_t want);  // reads until at least `want` bytes are buffered; false at end of input
  std::size_t buffered() const { return buf_.size() - pos_; }

  Reader& in_;
  std::size_t read_ahead_;
  std::vector<std::uint8_t> buf_;
  std::size_t pos_ = 0;
  std::uint64_t consumed_ = 0;
  bool eof_ = false;
};

}  // namespace pcrypt::io
