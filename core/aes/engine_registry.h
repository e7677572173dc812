// Internal: the factory functions each engine's .cc file provides to the registry in engine.cc.
// *_supported() live in baseline-compiled files (CPUID / HWCAP checks must not run ISA-specific code);
// make_*() may only be called after the matching *_supported() returned true. The x86-64 engines are defined
// only in x86-64 builds and armce only in AArch64 builds (core/CMakeLists.txt); engine.cc lists the others
// as unsupported there.
#pragma once

#include "core/aes/engine.h"

namespace pcrypt::aes::detail {

// VAES + VPCLMULQDQ on 512-bit registers (AVX-512 F/BW/VL/DQ); not preferred where zmm code downclocks.
bool vaes512_supported();
std::string_view vaes512_not_preferred();
std::unique_ptr<Gcm> make_vaes512_gcm(std::span<const std::uint8_t, kGcmKeyBytes> key);
std::unique_ptr<Gcm> make_vaes512_gcm128(std::span<const std::uint8_t, kGcm128KeyBytes> key);
std::unique_ptr<BlockCipher> make_vaes512_block_cipher(std::span<const std::uint8_t> key);

// VAES + VPCLMULQDQ on 256-bit registers (AVX2).
bool vaes_supported();
std::unique_ptr<Gcm> make_vaes_gcm(std::span<const std::uint8_t, kGcmKeyBytes> key);
std::unique_ptr<Gcm> make_vaes_gcm128(std::span<const std::uint8_t, kGcm128KeyBytes> key);
std::unique_ptr<BlockCipher> make_vaes_block_cipher(std::span<const std::uint8_t> key);

// AES-NI + PCLMULQDQ on 128-bit registers.
bool aesni_supported();
std::unique_ptr<Gcm> make_aesni_gcm(std::span<const std::uint8_t, kGcmKeyBytes> key);
std::unique_ptr<Gcm> make_aesni_gcm128(std::span<const std::uint8_t, kGcm128KeyBytes> key);
std::unique_ptr<BlockCipher> make_aesni_block_cipher(std::span<const std::uint8_t> key);

// ARMv8 Crypto Extensions: AESE/AESMC and PMULL on 128-bit NEON registers (EOR3 where SHA3 is present).
bool armce_supported();
std::unique_ptr<Gcm> make_armce_gcm(std::span<const std::uint8_t, kGcmKeyBytes> key);
std::unique_ptr<Gcm> make_armce_gcm128(std::span<const std::uint8_t, kGcm128KeyBytes> key);
std::unique_ptr<BlockCipher> make_armce_block_cipher(std::span<const std::uint8_t> key);
// The two builds make_armce_gcm chooses between by HWCAP (tests call both, whatever the CPU reports): plain
// EOR (gcm_armce.cc) and EOR3 (gcm_armce_sha3.cc; only where SHA3 is present).
// Both take a 16- or 32-byte key (AES-128 or AES-256).
std::unique_ptr<Gcm> make_armce_eor_gcm(std::span<const std::uint8_t> key);
std::unique_ptr<Gcm> make_armce_eor3_gcm(std::span<const std::uint8_t> key);

// Constant-time software AES and GHASH: runs everywhere.
bool portable_supported();
std::unique_ptr<Gcm> make_portable_gcm(std::span<const std::uint8_t, kGcmKeyBytes> key);
std::unique_ptr<Gcm> make_portable_gcm128(std::span<const std::uint8_t, kGcm128KeyBytes> key);
std::unique_ptr<BlockCipher> make_portable_block_cipher(std::span<const std::uint8_t> key);

// libsodium's crypto_aead_aes256gcm (reference; no raw AES).
bool sodium_supported();
std::unique_ptr<Gcm> make_sodium_gcm(std::span<const std::uint8_t, kGcmKeyBytes> key);

}  // namespace pcrypt::aes::detail
