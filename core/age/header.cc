#include "core/age/header.h"

#include <sodium.h>

#include "core/age/base64.h"
#include "core/age/primitives.h"
#include "core/error.h"

namespace pcrypt::core::age {
namespace {

constexpr std::string_view kVersionPrefix = "age-encryption.org/";
constexpr std::string_view kStanzaPrefix = "-> ";
constexpr std::string_view kMacPrefix = "---";

[[noreturn]] void malformed(const std::string& what) {
  throw Error(PCRYPT_E_MALFORMED_HEADER, "malformed age header: " + what);
}

bool is_vchar(char c) {
  return c >= 0x21 && c <= 0x7e;
}

// "-> a b c" (without '\n') -> {"a", "b", "c"}; every argument 1*VCHAR, one space between them.
std::vector<std::string> split_arguments(std::string_view rest) {
  std::vector<std::string> args;
  std::size_t start = 0;
  while (true) {
    const std::size_t space = rest.find(' ', start);
    const std::string_view arg =
        rest.substr(start, space == std::string_view::npos ? std::string_view::npos : space - start);
    if (arg.empty()) malformed("a stanza has an empty argument (two spaces, or a space at the end)");
    for (const char c : arg)
      if (!is_vchar(c)) malformed("a stanza argument has a character outside 0x21-0x7E");
    args.emplace_back(arg);
    if (space == std::string_view::npos) return args;
    start = space + 1;
  }
}

// Reads one '\n'-terminated line, refusing end of input and the header-size bound.
std::string next_line(io::BufferedInput& in, std::uint64_t start) {
  const std::uint64_t used = in.consumed() - start;
  if (used >= kMaxHeaderBytes) malformed("header longer than 1 MiB");
  std::string line = in.read_line(kMaxHeaderBytes - used);
  if (line.empty()) malformed("the header ends before its MAC line ('--- ')");
  if (line.back() != '\n') {
    if (in.consumed() - start >= kMaxHeaderBytes) malformed("header longer than 1 MiB");
    malformed("the header ends before its MAC line ('--- ')");
  }
  line.pop_back();
  return line;
}

Stanza read_stanza_after(io::BufferedInput& in, std::uint64_t start, std::string_view arg_line) {
  Stanza stanza;
  stanza.args = split_arguments(arg_line.substr(kStanzaPrefix.size()));
  while (true) {
    const std::string line = next_line(in, start);
    if (line.size() > kBodyColumns) malformed("a stanza body line is longer than 64 columns");
    const auto bytes = decode_base64_raw(line);
    if (!bytes) malformed("a stanza body line is not canonical unpadded base64");
    stanza.body.insert(stanza.body.end(), bytes->begin(), bytes->end());
    if (line.size() < kBodyColumns) return stanza;  // the short (possibly empty) final line
  }
}

}  // namespace

Header parse_header(io::BufferedInput& in) {
  const std::uint64_t start = in.consumed();
  Header header;
  std::string first = in.read_line(256);
  if (first.rfind(kVersionPrefix, 0) != 0)
    malformed("not an age file (no 'age-encryption.org/' version line)");
  if (first.back() != '\n') malformed("the version line does not end");
  if (first != kVersionLine) {
    first.pop_back();
    throw Error(PCRYPT_E_UNSUPPORTED_VERSION,
                "unsupported age version '" + first.substr(kVersionPrefix.size()) + "'",
                "pcrypt reads age-encryption.org/v1 files");
  }
  header.authenticated = first;
  while (true) {
    const std::string line = next_line(in, start);
    if (line.rfind(kMacPrefix, 0) == 0) {
      if (line.size() < 4 || line[3] != ' ') malformed("the MAC line must be '--- ' and the MAC");
      const std::string_view encoded = std::string_view(line).substr(4);
      const auto mac = decode_base64_raw(encoded);
      if (encoded.size() != 43 || !mac || mac->size() != kMacBytes)
        malformed("the MAC is not 32 bytes of canonical unpadded base64");
      std::copy(mac->begin(), mac->end(), header.mac.begin());
      header.authenticated += "---";
      break;
    }
    if (line.rfind(kStanzaPrefix, 0) != 0)
      malformed("a line that is neither a stanza ('-> ') nor the MAC ('--- ')");
    header.stanzas.push_back(read_stanza_after(in, start, line));
  }
  if (header.stanzas.empty()) malformed("no recipient stanza");
  header.total_bytes = in.consumed() - start;
  // The authenticated bytes are the file's own, so re-serialising must give them back exactly; parsing is
  // strict enough that it does, and rebuilding them here keeps one definition of the encoding.
  header.authenticated = serialize_without_mac(header.stanzas);
  return header;
}

Stanza read_stanza(io::BufferedInput& in) {
  const std::uint64_t start = in.consumed();
  const std::string line = next_line(in, start);
  if (line.rfind(kStanzaPrefix, 0) != 0) malformed("a line that is not a stanza ('-> ')");
  return read_stanza_after(in, start, line);
}

void append_stanza(std::string& out, const Stanza& stanza) {
  out += "->";
  for (const std::string& a : stanza.args) {
    out += ' ';
    out += a;
  }
  out += '\n';
  const std::string body = encode_base64_raw(stanza.body);
  std::size_t at = 0;
  // Full 64-column lines, then the final short one, empty when the body fills its last line exactly.
  for (; body.size() - at >= kBodyColumns; at += kBodyColumns) {
    out.append(body, at, kBodyColumns);
    out += '\n';
  }
  out.append(body, at);
  out += '\n';
}

std::string serialize_without_mac(const std::vector<Stanza>& stanzas) {
  std::string out(kVersionLine);
  for (const Stanza& s : stanzas) append_stanza(out, s);
  out += "---";
  return out;
}

std::array<std::uint8_t, kMacBytes> header_mac(const SecretBytes& file_key, std::string_view authenticated) {
  const SecretBytes key = hkdf_sha256(file_key.span(), {}, "header");
  return hmac_sha256(key.span(), std::span(reinterpret_cast<const std::uint8_t*>(authenticated.data()),
                                           authenticated.size()));
}

std::string serialize_header(const std::vector<Stanza>& stanzas, const SecretBytes& file_key) {
  std::string out = serialize_without_mac(stanzas);
  // Appended piece by piece: GCC 12 at -O3 misreports `" " + std::string&&` as an overlapping memcpy.
  const std::string mac = encode_base64_raw(header_mac(file_key, out));
  out += ' ';
  out += mac;
  out += '\n';
  return out;
}

bool mac_matches(const Header& header, const SecretBytes& file_key) {
  const auto mac = header_mac(file_key, header.authenticated);
  return sodium_memcmp(mac.data(), header.mac.data(), kMacBytes) == 0;
}

}  // namespace pcrypt::core::age
