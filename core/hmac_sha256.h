// HMAC-SHA-256 (RFC 2104) of several byte strings taken as one message, from libsodium: the step HKDF
// (RFC 5869) and HPKE's labelled Extract and Expand (RFC 9180) are made of, and age's header MAC. Every
// format and primitive that needs it calls this one (core/age/primitives.cc, core/age/stanzas.cc,
// core/pq/hpke.cc); it knows none of them.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>

namespace pcrypt::core {

// HMAC-SHA-256 keyed with `key` (any length: longer than 64 bytes is hashed first, as RFC 2104 says) over the
// concatenation of `parts`, into `out`. Empty spans (a null data() included) are fine. Requires libsodium
// initialised (pcrypt::require_sodium()).
void hmac_sha256(std::span<const std::uint8_t> key,
                 std::initializer_list<std::span<const std::uint8_t>> parts, std::span<std::uint8_t, 32> out);

}  // namespace pcrypt::core
