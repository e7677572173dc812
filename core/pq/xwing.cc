// MLKEM768-X25519 (draft-ietf-hpke-pq-03; the combiner and seed expansion of X-Wing). See xwing.h.
#include "core/pq/xwing.h"

#include <sodium.h>

#include <cstring>
#include <utility>

#include "core/pq/mlkem768.h"
#include "core/pq/sha3.h"
#include "core/pq/wiped.h"

namespace pcrypt::pq::xwing {
namespace {

constexpr std::size_t dk_pq_size = mlkem768::decapsulation_key_size;
constexpr std::size_t ek_pq_size = mlkem768::encapsulation_key_size;
constexpr std::size_t ct_pq_size = mlkem768::ciphertext_size;
// The MLKEM768-X25519 label, "\.//^\" (hex 5c2e2f2f5e5c).
constexpr std::uint8_t label[6] = {0x5c, 0x2e, 0x2f, 0x2f, 0x5e, 0x5c};

// expandKey: SHAKE256(seed, 96) -> ML-KEM seed (64) || X25519 secret (32). `expanded` receives dk_PQ || dk_T.
void expand(std::span<const std::uint8_t, seed_size> seed, std::span<std::uint8_t, dk_pq_size + 32> expanded,
            PublicKey& pk) {
  WipedBytes<96> seed_full;
  sha3::shake256({seed}, seed_full.span());
  mlkem768::keygen_from_seed(std::span<const std::uint8_t, 64>(seed_full.data(), 64),
                             std::span<std::uint8_t, ek_pq_size>(pk.data(), ek_pq_size),
                             expanded.first<dk_pq_size>());
  std::memcpy(expanded.data() + dk_pq_size, seed_full.data() + 64, 32);
  crypto_scalarmult_base(pk.data() + ek_pq_size, seed_full.data() + 64);
}

// SHA3-256(ss_PQ || ss_T || ct_T || ek_T || label).
void combine(std::span<const std::uint8_t, 32> ss_pq, std::span<const std::uint8_t, 32> ss_t,
             std::span<const std::uint8_t> ct_t, std::span<const std::uint8_t> ek_t,
             std::span<std::uint8_t, shared_secret_size> out) {
  sha3::sha3_256({ss_pq, ss_t, ct_t, ek_t, label}, out);
}

}  // namespace

PrivateKey::PrivateKey(std::span<const std::uint8_t, seed_size> seed) : expanded_(dk_pq_size + 32) {
  expand(seed, std::span<std::uint8_t, dk_pq_size + 32>(expanded_.data(), dk_pq_size + 32), public_key_);
}

bool PrivateKey::decapsulate(std::span<const std::uint8_t, ciphertext_size> ct,
                             std::span<std::uint8_t, shared_secret_size> shared_secret) const {
  WipedBytes<32> ss_pq, ss_t;
  const auto ct_t = ct.subspan(ct_pq_size, 32);
  if (!mlkem768::decaps(expanded_.span().first(dk_pq_size), ct.first(ct_pq_size), ss_pq.span()))
    return false;  // only for a malformed dk_PQ, which expand() never makes
  if (crypto_scalarmult(ss_t.data(), expanded_.data() + dk_pq_size, ct_t.data()) != 0) return false;
  combine(std::as_const(ss_pq).span(), std::as_const(ss_t).span(), ct_t,
          std::span(public_key_).subspan(ek_pq_size), shared_secret);
  return true;
}

PublicKey public_key_of(std::span<const std::uint8_t, seed_size> seed) {
  return PrivateKey(seed).public_key();
}

bool encapsulate_derand(std::span<const std::uint8_t, public_key_size> pk,
                        std::span<const std::uint8_t, encaps_randomness_size> randomness, Ciphertext& ct,
                        std::span<std::uint8_t, shared_secret_size> shared_secret) {
  WipedBytes<32> ss_pq, ss_t;
  const auto ek_t = pk.subspan(ek_pq_size, 32);
  if (!mlkem768::encaps_internal(pk.first(ek_pq_size), randomness.first<32>(),
                                 std::span<std::uint8_t, ct_pq_size>(ct.data(), ct_pq_size), ss_pq.span()))
    return false;
  const std::uint8_t* sk_e = randomness.data() + 32;
  crypto_scalarmult_base(ct.data() + ct_pq_size, sk_e);
  // libsodium returns -1 when the result is all zero (a low-order recipient share).
  if (crypto_scalarmult(ss_t.data(), sk_e, ek_t.data()) != 0) return false;
  combine(std::as_const(ss_pq).span(), std::as_const(ss_t).span(), std::span(ct).subspan(ct_pq_size), ek_t,
          shared_secret);
  return true;
}

bool encapsulate(std::span<const std::uint8_t, public_key_size> pk, Ciphertext& ct,
                 std::span<std::uint8_t, shared_secret_size> shared_secret) {
  WipedBytes<encaps_randomness_size> randomness;
  randombytes_buf(randomness.data(), randomness.size());
  return encapsulate_derand(pk, std::as_const(randomness).span(), ct, shared_secret);
}

}  // namespace pcrypt::pq::xwing
