// age's ASCII armor (C2SP age.md "ASCII armor"): strict PEM (RFC 7468 §3, Figure 3) with the label
// "AGE ENCRYPTED FILE", padded base64 in lines of exactly 64 columns but the last (1 to 64 columns), LF or
// CRLF line ends, whitespace (space, tab, CR, LF) allowed only before the BEGIN line and after the END line.
// Anything else -- headers, blank or short lines inside, spaces in a line, non-canonical base64, missing
// padding, trailing data -- is refused with an Error(header) whose message starts "armor:".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/buffered_input.h"
#include "io/stream.h"

namespace pcrypt::core::age {

inline constexpr std::string_view kArmorBegin = "-----BEGIN AGE ENCRYPTED FILE-----";
inline constexpr std::string_view kArmorEnd = "-----END AGE ENCRYPTED FILE-----";

// Whether `first_bytes` (the start of an input) is armored age: optional whitespace, then the BEGIN line.
bool looks_armored(std::span<const std::uint8_t> first_bytes);

// The binary file inside an armored input, decoded as it is read. The BEGIN line is checked on construction
// and the END line and what follows it before read() reports the end, so a caller that reads to the end has
// checked the whole armor. No random access (positional() is nullptr): the pipeline reads it in order.
class ArmorReader final : public io::Reader {
 public:
  explicit ArmorReader(io::BufferedInput& in);
  std::size_t read(std::uint8_t* buf, std::size_t n) override;
  std::string name() const override { return in_.name(); }

 private:
  void decode_next_line();  // appends to decoded_ or sets done_
  [[noreturn]] void fail(const std::string& what) const;
  std::string next_line();  // without its LF / CRLF; sets ended_without_eol_ at end of input

  io::BufferedInput& in_;
  std::vector<std::uint8_t> decoded_;
  std::size_t decoded_pos_ = 0;
  bool done_ = false;
  std::uint64_t line_number_ = 0;
};

// Writes armor around what is written to it; commit() writes the last line and the END line, then commits
// `out`.
class ArmorWriter final : public io::Writer {
 public:
  explicit ArmorWriter(io::Writer& out) : out_(out) {}
  void write(const std::uint8_t* buf, std::size_t n) override;
  void commit() override;
  std::string name() const override { return out_.name(); }

 private:
  void flush_lines(bool final);

  io::Writer& out_;
  bool begun_ = false;
  std::vector<std::uint8_t> pending_;  // bytes not yet encoded (less than one 48-byte line after a flush)
  std::string text_;
};

}  // namespace pcrypt::core::age
