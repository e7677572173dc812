// Internal: the factory functions each engine's .cc file provides to the registry in engine.cc.
#pragma once

#include "core/aes/engine.h"

namespace pcrypt::aes::detail {

// libsodium's crypto_aead_aes256gcm (reference; no raw AES).
bool sodium_supported();
std::unique_ptr<Gcm> make_sodium_gcm(std::span<const std::uint8_t, kGcmKeyBytes> key);

}  // namespace pcrypt::aes::detail
