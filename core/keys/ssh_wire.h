// The SSH wire encoding (RFC 4251 §5): uint32 big-endian, string = uint32 length || bytes, mpint = a string
// holding a two's-complement big-endian integer. A bounds-checked reader that never throws: a read past the
// end returns nullopt, and callers word the error for their own input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace pcrypt::core::ssh_wire {

class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> data) : rest_(data) {}
  std::optional<std::uint32_t> u32() {
    if (rest_.size() < 4) return std::nullopt;
    const std::uint32_t v = (std::uint32_t{rest_[0]} << 24) | (std::uint32_t{rest_[1]} << 16) |
                            (std::uint32_t{rest_[2]} << 8) | std::uint32_t{rest_[3]};
    rest_ = rest_.subspan(4);
    return v;
  }
  std::optional<std::span<const std::uint8_t>> string() {
    const std::optional<std::uint32_t> len = u32();
    if (!len || *len > rest_.size()) return std::nullopt;
    const std::span<const std::uint8_t> s = rest_.first(*len);
    rest_ = rest_.subspan(*len);
    return s;
  }
  // A non-negative mpint in canonical form (no superfluous leading zero byte, sign bit clear), returned
  // without its sign byte; nullopt for a negative or non-canonical one.
  std::optional<std::span<const std::uint8_t>> positive_mpint() {
    std::optional<std::span<const std::uint8_t>> s = string();
    if (!s) return std::nullopt;
    if (s->empty()) return s;                 // zero
    if ((*s)[0] & 0x80) return std::nullopt;  // negative
    if ((*s)[0] == 0) {
      if (s->size() == 1 || ((*s)[1] & 0x80) == 0) return std::nullopt;  // superfluous zero byte
      return s->subspan(1);
    }
    return s;
  }
  std::span<const std::uint8_t> rest() const { return rest_; }
  std::size_t left() const { return rest_.size(); }

 private:
  std::span<const std::uint8_t> rest_;
};

inline std::string_view as_text(std::span<const std::uint8_t> s) {
  return {reinterpret_cast<const char*>(s.data()), s.size()};
}

inline void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(v >> shift));
}
inline void put_string(std::vector<std::uint8_t>& out, std::span<const std::uint8_t> s) {
  put_u32(out, static_cast<std::uint32_t>(s.size()));
  out.insert(out.end(), s.begin(), s.end());
}
// A non-negative integer given as unsigned big-endian bytes, written as a canonical mpint.
inline void put_positive_mpint(std::vector<std::uint8_t>& out, std::span<const std::uint8_t> magnitude) {
  while (!magnitude.empty() && magnitude[0] == 0) magnitude = magnitude.subspan(1);
  const bool pad = !magnitude.empty() && (magnitude[0] & 0x80);
  put_u32(out, static_cast<std::uint32_t>(magnitude.size() + (pad ? 1 : 0)));
  if (pad) out.push_back(0);
  out.insert(out.end(), magnitude.begin(), magnitude.end());
}

}  // namespace pcrypt::core::ssh_wire
