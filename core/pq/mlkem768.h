// ML-KEM-768 (FIPS 203): key generation from the 64-byte seed, encapsulation and decapsulation with implicit
// rejection, and the input checks of §7.2 (encapsulation key: length and modulus) and §7.3 (decapsulation
// key: length and hash; ciphertext: length). Byte strings in and out, exactly as the standard lays them out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace pcrypt::pq::mlkem768 {

inline constexpr std::size_t encapsulation_key_size = 1184;  // 384 k + 32
inline constexpr std::size_t decapsulation_key_size = 2400;  // 768 k + 96
inline constexpr std::size_t ciphertext_size = 1088;         // 32 (du k + dv)
inline constexpr std::size_t shared_secret_size = 32;
inline constexpr std::size_t seed_size = 64;  // d || z

using Seed32 = std::span<const std::uint8_t, 32>;

// ML-KEM.KeyGen_internal(d, z) (Algorithm 16).
void keygen_internal(Seed32 d, Seed32 z, std::span<std::uint8_t, encapsulation_key_size> ek,
                     std::span<std::uint8_t, decapsulation_key_size> dk);
// The same from the 64-byte seed d || z (the form X-Wing and the ACVP "seed" use).
void keygen_from_seed(std::span<const std::uint8_t, seed_size> seed,
                      std::span<std::uint8_t, encapsulation_key_size> ek,
                      std::span<std::uint8_t, decapsulation_key_size> dk);

// §7.2 input check: the length, and that every 12-bit coefficient is < q (ByteEncode12(ByteDecode12(x)) ==
// x).
bool encapsulation_key_valid(std::span<const std::uint8_t> ek);

// ML-KEM.Encaps_internal(ek, m) (Algorithm 17) after the §7.2 check; false (and nothing written) if `ek`
// fails it. `m` must be fresh randomness in real use; only tests fix it.
bool encaps_internal(std::span<const std::uint8_t> ek, Seed32 m, std::span<std::uint8_t, ciphertext_size> ct,
                     std::span<std::uint8_t, shared_secret_size> shared_secret);
// ML-KEM.Encaps with m from the system's CSPRNG (libsodium randombytes).
bool encaps(std::span<const std::uint8_t> ek, std::span<std::uint8_t, ciphertext_size> ct,
            std::span<std::uint8_t, shared_secret_size> shared_secret);

// ML-KEM.Decaps_internal (Algorithm 18) after the §7.3 checks (together ML-KEM.Decaps, Algorithm 21); false
// (nothing written) if `dk` or `ct` has the wrong length or dk's embedded H(ek) does not match its ek. A
// well-formed but wrong ciphertext is not an error: it yields the implicit-rejection secret J(z || c), chosen
// without a secret-dependent branch.
bool decaps(std::span<const std::uint8_t> dk, std::span<const std::uint8_t> ct,
            std::span<std::uint8_t, shared_secret_size> shared_secret);

}  // namespace pcrypt::pq::mlkem768
