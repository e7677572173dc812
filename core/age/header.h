// The age header (C2SP age.md "Header"): the version line, one or more recipient stanzas, and the MAC line,
// parsed strictly and written canonically. Which stanza opens with which credential is core/age/stanzas.h;
// the MAC's key derivation is here because it is part of the header's definition.
//
//   age-encryption.org/v1\n
//   -> ARG ARG...\n            arguments: 1 or more, each 1*VCHAR (0x21-0x7E), separated by one space
//   BODY LINE\n                canonical unpadded base64, 64 columns; the last one shorter (possibly empty)
//   --- MAC\n                  43 characters: canonical unpadded base64 of the 32-byte HMAC-SHA-256
//
// MAC = HMAC-SHA-256(key = HKDF-SHA-256(ikm = file key, salt = "", info = "header"), message = every header
// byte up to and including "---").
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/aes/secret_bytes.h"
#include "io/buffered_input.h"

namespace pcrypt::core::age {

inline constexpr std::string_view kVersionLine = "age-encryption.org/v1\n";
inline constexpr std::size_t kMacBytes = 32;
inline constexpr std::size_t kBodyColumns = 64;
// Not in the spec: a bound on what a hostile header can make us hold (a real one is a few hundred bytes;
// plugins' stanzas a few KiB).
inline constexpr std::size_t kMaxHeaderBytes = std::size_t{1} << 20;

struct Stanza {
  std::vector<std::string> args;  // args[0] is the stanza's type ("X25519", "scrypt", ...)
  std::vector<std::uint8_t> body;
};

struct Header {
  std::vector<Stanza> stanzas;
  std::array<std::uint8_t, kMacBytes> mac{};
  std::string authenticated;      // the bytes the MAC covers: everything up to and including "---"
  std::uint64_t total_bytes = 0;  // the whole header, MAC line included: where the payload starts
};

// Reads and checks one header from `in`, leaving `in` just after the MAC line's '\n'. Throws Error(header)
// saying what is wrong (never mentioning armor: that word is kept for the armor's own errors).
Header parse_header(io::BufferedInput& in);

// One stanza in its text form ("-> ARG...\n" and the body lines), appended to `out`. The plugin protocol
// (core/age/plugin_channel.h) speaks in the same stanzas.
void append_stanza(std::string& out, const Stanza& stanza);
// Reads one stanza ("-> " line and body lines) from `in`, strictly as parse_header does; Error(header) if it
// is malformed or the input ends first.
Stanza read_stanza(io::BufferedInput& in);

// The header bytes the MAC covers for these stanzas ("age-encryption.org/v1\n" ... "---").
std::string serialize_without_mac(const std::vector<Stanza>& stanzas);
// HMAC-SHA-256 of `authenticated` under HKDF(file key, "", "header").
std::array<std::uint8_t, kMacBytes> header_mac(const SecretBytes& file_key, std::string_view authenticated);
// The whole header: serialize_without_mac + " " + base64(MAC) + "\n".
std::string serialize_header(const std::vector<Stanza>& stanzas, const SecretBytes& file_key);
// Constant-time check of the header's MAC.
bool mac_matches(const Header& header, const SecretBytes& file_key);

}  // namespace pcrypt::core::age
