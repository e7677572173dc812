#include "core/age/armor.h"

#include <algorithm>
#include <cstring>

#include "core/age/base64.h"
#include "core/error.h"

namespace pcrypt::core::age {
namespace {

constexpr std::size_t kColumns = 64;
constexpr std::size_t kBytesPerLine = 48;

bool is_space(std::uint8_t c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

}  // namespace

bool looks_armored(std::span<const std::uint8_t> first_bytes) {
  std::size_t i = 0;
  while (i < first_bytes.size() && is_space(first_bytes[i])) ++i;
  const std::size_t n = std::min(kArmorBegin.size(), first_bytes.size() - i);
  return n == kArmorBegin.size() && std::memcmp(first_bytes.data() + i, kArmorBegin.data(), n) == 0;
}

void ArmorReader::fail(const std::string& what) const {
  throw Error(PCRYPT_E_MALFORMED_ARMOR, "armor: " + what + " (line " + std::to_string(line_number_) + ")",
              "the armored file was damaged, e.g. by an editor or a mail program");
}

std::string ArmorReader::next_line() {
  std::string line = in_.read_line(kColumns + 3);
  ++line_number_;
  if (line.empty()) fail("the input ends before the END line");
  if (line.back() != '\n') return line;  // only acceptable for the END line at the very end
  line.pop_back();
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

ArmorReader::ArmorReader(io::BufferedInput& in) : in_(in) {
  while (true) {
    const auto b = in_.peek(1);
    if (b.empty() || !is_space(b[0])) break;
    std::uint8_t skip = 0;
    in_.read(&skip, 1);
    if (skip == '\n') ++line_number_;
  }
  if (next_line() != kArmorBegin) fail("the first line must be exactly '" + std::string(kArmorBegin) + "'");
}

void ArmorReader::decode_next_line() {
  std::string line = next_line();
  const auto check_end_line = [&](const std::string& end) {
    if (end != kArmorEnd) fail("expected the END line '" + std::string(kArmorEnd) + "'");
    // After END: its line end, if any, and then whitespace only.
    while (true) {
      const auto b = in_.peek(4096);
      if (b.empty()) break;
      for (const std::uint8_t c : b)
        if (!is_space(c)) fail("data after the END line");
      std::vector<std::uint8_t> sink(b.size());
      in_.read(sink.data(), sink.size());
    }
    done_ = true;
  };
  if (line == kArmorEnd) return check_end_line(line);
  if (line.empty() || line.size() > kColumns)
    fail("a line inside the armor is empty or longer than 64 columns");
  for (const char c : line)
    if (!is_base64_char(c) && c != '=') fail("a character that is not base64 inside the armor");
  if (line.size() == kColumns && line.find('=') == std::string::npos) {
    const auto bytes = decode_base64_raw(line);
    if (!bytes) fail("invalid base64");
    decoded_.insert(decoded_.end(), bytes->begin(), bytes->end());
    return;
  }
  // A short line, or one with padding, must be the last one.
  const auto bytes = decode_base64_padded(line);
  if (!bytes) fail("the last line is not canonical padded base64");
  check_end_line(next_line());
  decoded_.insert(decoded_.end(), bytes->begin(), bytes->end());
}

std::size_t ArmorReader::read(std::uint8_t* buf, std::size_t n) {
  std::size_t got = 0;
  while (got < n) {
    if (decoded_pos_ == decoded_.size()) {
      if (done_) break;
      decoded_.clear();
      decoded_pos_ = 0;
      // Decode several lines at once (up to 48 KiB), so that a read of a 64 KiB record costs few calls.
      while (!done_ && decoded_.size() < 1024 * kBytesPerLine && decoded_.size() < n - got)
        decode_next_line();
      continue;
    }
    const std::size_t take = std::min(n - got, decoded_.size() - decoded_pos_);
    std::memcpy(buf + got, decoded_.data() + decoded_pos_, take);
    decoded_pos_ += take;
    got += take;
  }
  return got;
}

void ArmorWriter::flush_lines(bool final) {
  std::size_t at = 0;
  for (; pending_.size() - at >= kBytesPerLine; at += kBytesPerLine) {
    text_ += encode_base64_padded(std::span(pending_.data() + at, kBytesPerLine));
    text_ += '\n';
  }
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(at));
  if (final && !pending_.empty()) {
    text_ += encode_base64_padded(pending_);
    text_ += '\n';
    pending_.clear();
  }
  out_.write(reinterpret_cast<const std::uint8_t*>(text_.data()), text_.size());
  text_.clear();
}

void ArmorWriter::write(const std::uint8_t* buf, std::size_t n) {
  if (!begun_) {
    text_ = std::string(kArmorBegin) + "\n";
    begun_ = true;
  }
  pending_.insert(pending_.end(), buf, buf + n);
  if (pending_.size() >= 64 * kBytesPerLine) flush_lines(false);
}

void ArmorWriter::commit() {
  if (!begun_) {
    text_ = std::string(kArmorBegin) + "\n";
    begun_ = true;
  }
  flush_lines(true);
  const std::string end = std::string(kArmorEnd) + "\n";
  out_.write(reinterpret_cast<const std::uint8_t*>(end.data()), end.size());
  out_.commit();
}

}  // namespace pcrypt::core::age
