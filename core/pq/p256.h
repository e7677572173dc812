// NIST P-256 through OpenSSL 3's EVP interface, for the age tag recipients (c2sp.org/age: p256tag and
// mlkem768p256tag): decoding a public point (SEC 1 compressed or uncompressed) with the full public-key
// check, and the sender's half of ECDH with a fresh ephemeral key. Only encryption is needed: the matching
// identities live in hardware tokens and their plugins.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace pcrypt::pq::p256 {

inline constexpr std::size_t compressed_size = 33;    // 0x02/0x03 || x
inline constexpr std::size_t uncompressed_size = 65;  // 0x04 || x || y
inline constexpr std::size_t secret_size = 32;        // the ECDH x-coordinate

using Point = std::array<std::uint8_t, uncompressed_size>;

// The uncompressed encoding of a valid P-256 public key given compressed (33 bytes) or uncompressed (65);
// nullopt for any other length, a point off the curve, or the point at infinity.
std::optional<Point> decode_point(std::span<const std::uint8_t> encoded);

// A fresh ephemeral key pair (OpenSSL's generator), its uncompressed public key into `ephemeral_public`,
// and the x-coordinate of ephemeral_secret * peer into `shared_x` (SEC 1 ECDH, what RFC 9180's DHKEM(P-256)
// and the MLKEM768-P256 KEM use). `peer` must come from decode_point.
void ephemeral_agree(const Point& peer, std::span<std::uint8_t, uncompressed_size> ephemeral_public,
                     std::span<std::uint8_t, secret_size> shared_x);

}  // namespace pcrypt::pq::p256
