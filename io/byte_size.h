// Byte counts as text, one grammar and one spelling for the whole tool: every SIZE option (encrypt, decrypt,
// bench) is read by parse_size, and every size a message, `pcrypt info`, -v, the progress line or a bench
// table shows is written by format_bytes. Here, below core and the command line, so that both reach the same
// one: the library's messages format sizes (core/byte_size.h), the command line and the bench parse them
// (app/size_arg.h, bench/), and neither is the library's API.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace pcrypt::io {

// parse_size's refusal: a one-line message naming the option, and a hint that teaches the grammar. Callers
// turn it into their own usage error (core::Error in core and the bench, pcrypt::Error in app/).
class SizeSyntaxError : public std::invalid_argument {
 public:
  SizeSyntaxError(const std::string& message, std::string hint)
      : std::invalid_argument(message), hint_(std::move(hint)) {}
  const std::string& hint() const noexcept { return hint_; }

 private:
  std::string hint_;
};

// The units of dd(1), as README "Usage" and pcrypt(1) "Sizes" document them: a whole number of bytes,
// directly followed by an optional unit: K, KiB, M, MiB, G, GiB are powers of 1024; kB, MB, GB powers of
// 1000; B is bytes. Units are case-insensitive ("k" = "K", "64kb" = "64kB" = 64000). Fractions, signs,
// spaces, other units and overflow throw SizeSyntaxError naming `option`.
std::uint64_t parse_size(std::string_view text, std::string_view option);

enum class ByteStyle {
  readable,  // the largest binary unit that fits, one decimal if not whole: "17 B", "1 MiB", "5.9 KiB"
  exact,     // the largest binary unit that divides it, never rounded: "64 KiB", "1536 B"
};
std::string format_bytes(std::uint64_t bytes, ByteStyle style = ByteStyle::readable);

}  // namespace pcrypt::io
