// BIP 173 bech32 (the original checksum constant 1, not bech32m: age uses bech32).
#include "core/keys/bech32.h"

#include <array>

namespace pcrypt::core::bech32 {
namespace {

constexpr std::string_view charset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

std::uint32_t polymod(std::span<const std::uint8_t> values) {
  constexpr std::array<std::uint32_t, 5> gen = {0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3};
  std::uint32_t chk = 1;
  for (std::uint8_t v : values) {
    const std::uint32_t top = chk >> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (int i = 0; i < 5; ++i)
      if ((top >> i) & 1) chk ^= gen[static_cast<std::size_t>(i)];
  }
  return chk;
}

std::vector<std::uint8_t> hrp_expand(std::string_view hrp) {
  std::vector<std::uint8_t> out;
  for (char c : hrp) out.push_back(static_cast<std::uint8_t>(static_cast<unsigned char>(c) >> 5));
  out.push_back(0);
  for (char c : hrp) out.push_back(static_cast<std::uint8_t>(static_cast<unsigned char>(c) & 31));
  return out;
}

char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

std::vector<std::uint8_t> convert(std::span<const std::uint8_t> in, int from, int to, bool pad) {
  std::vector<std::uint8_t> out;
  std::uint32_t acc = 0;
  int bits = 0;
  const std::uint32_t maxv = (1u << to) - 1;
  for (std::uint8_t v : in) {
    if ((v >> from) != 0) throw DecodeError("data value out of range");
    acc = (acc << from) | v;
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push_back(static_cast<std::uint8_t>((acc >> bits) & maxv));
    }
  }
  if (pad) {
    if (bits > 0) out.push_back(static_cast<std::uint8_t>((acc << (to - bits)) & maxv));
  } else if (bits >= from || ((acc << (to - bits)) & maxv) != 0) {
    throw DecodeError("invalid padding in the data part (truncated or altered?)");
  }
  return out;
}

}  // namespace

Decoded decode(std::string_view text, std::size_t limit) {
  if (text.size() > limit)
    throw DecodeError("too long (" + std::to_string(text.size()) + " characters, at most " +
                      std::to_string(limit) + ")");
  bool has_lower = false, has_upper = false;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 33 || u > 126) throw DecodeError("contains a character outside printable ASCII");
    has_lower |= (c >= 'a' && c <= 'z');
    has_upper |= (c >= 'A' && c <= 'Z');
  }
  if (has_lower && has_upper) throw DecodeError("mixes upper and lower case");
  const std::size_t sep = text.rfind('1');
  if (sep == std::string_view::npos) throw DecodeError("no separator '1'");
  if (sep == 0) throw DecodeError("empty human-readable part");
  if (sep > 83) throw DecodeError("human-readable part longer than 83 characters");
  if (text.size() - sep - 1 < 6) throw DecodeError("too short for a checksum (truncated?)");
  Decoded d;
  for (char c : text.substr(0, sep)) d.hrp.push_back(lower(c));
  std::vector<std::uint8_t> values;
  for (char c : text.substr(sep + 1)) {
    const std::size_t pos = charset.find(lower(c));
    if (pos == std::string_view::npos)
      throw DecodeError(std::string("invalid character '") + c + "' in the data part");
    values.push_back(static_cast<std::uint8_t>(pos));
  }
  std::vector<std::uint8_t> check = hrp_expand(d.hrp);
  check.insert(check.end(), values.begin(), values.end());
  if (polymod(check) != 1) throw DecodeError("checksum mismatch (a typo, or a truncated copy?)");
  d.words.assign(values.begin(), values.end() - 6);
  return d;
}

std::string encode(std::string_view hrp, std::span<const std::uint8_t> words, bool upper) {
  std::vector<std::uint8_t> values = hrp_expand(hrp);
  values.insert(values.end(), words.begin(), words.end());
  values.insert(values.end(), 6, 0);
  const std::uint32_t mod = polymod(values) ^ 1;
  std::string out(hrp);
  out.push_back('1');
  for (std::uint8_t w : words) out.push_back(charset[w & 31]);
  for (int i = 0; i < 6; ++i) out.push_back(charset[(mod >> (5 * (5 - i))) & 31]);
  if (upper)
    for (char& c : out)
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return out;
}

std::vector<std::uint8_t> to_words(std::span<const std::uint8_t> bytes) {
  return convert(bytes, 8, 5, true);
}
std::vector<std::uint8_t> from_words(std::span<const std::uint8_t> words) {
  return convert(words, 5, 8, false);
}

}  // namespace pcrypt::core::bech32
