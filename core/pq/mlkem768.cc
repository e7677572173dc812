// FIPS 203 Algorithms 13-18 for k = 3, eta1 = eta2 = 2, du = 10, dv = 4.
#include "core/pq/mlkem768.h"

#include <sodium.h>

#include <array>
#include <cstring>

#include "core/pq/declassify.h"
#include "core/pq/mlkem_poly.h"
#include "core/pq/sha3.h"
#include "core/pq/wiped.h"

namespace pcrypt::pq::mlkem768 {
namespace {

using mlkem::Poly;
constexpr int k = 3;
constexpr int du = 10, dv = 4;
constexpr std::size_t poly_bytes = 384;
constexpr std::size_t pke_ek_bytes = poly_bytes * k + 32;  // = encapsulation_key_size
constexpr std::size_t pke_dk_bytes = poly_bytes * k;
constexpr std::size_t u_bytes = 32 * du * k;
static_assert(pke_ek_bytes == encapsulation_key_size);
static_assert(u_bytes + 32 * dv == ciphertext_size);
static_assert(pke_dk_bytes + encapsulation_key_size + 64 == decapsulation_key_size);

using Vec = std::array<Poly, k>;
using Matrix = std::array<Vec, k>;  // a[i][j], NTT domain

template <std::size_t N>
std::span<const std::uint8_t, N> at(std::span<const std::uint8_t> s, std::size_t offset) {
  return s.subspan(offset).template first<N>();
}

// Â from rho: a[i][j] = SampleNTT(rho || j || i) (Algorithm 13 step 6, 14 step 6).
void expand_matrix(Matrix& a, std::span<const std::uint8_t, 32> rho) {
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < k; ++j)
      mlkem::sample_ntt(a[i][j], rho, static_cast<std::uint8_t>(j), static_cast<std::uint8_t>(i));
}

// SamplePolyCBD_2(PRF_2(sigma, nonce)).
void sample_noise(Poly& out, std::span<const std::uint8_t, 32> sigma, std::uint8_t nonce) {
  Wiped<std::array<std::uint8_t, 128>> prf;
  const std::uint8_t b[1] = {nonce};
  sha3::shake256({sigma, b}, prf.value);
  mlkem::sample_cbd2(out, prf.value);
}

// K-PKE.KeyGen (Algorithm 13).
void pke_keygen(Seed32 d, std::span<std::uint8_t, pke_ek_bytes> ek,
                std::span<std::uint8_t, pke_dk_bytes> dk) {
  Wiped<std::array<std::uint8_t, 64>> g;  // rho || sigma
  const std::uint8_t kb[1] = {k};
  sha3::sha3_512({d, kb}, g.value);
  const std::span<const std::uint8_t, 32> rho(g.value.data(), 32), sigma(g.value.data() + 32, 32);
  PCRYPT_DECLASSIFY(g.value.data(), 32);  // rho is published in ek; SampleNTT may branch on it
  Matrix a;
  expand_matrix(a, rho);
  Wiped<Vec> s, e, t;
  std::uint8_t nonce = 0;
  for (auto& p : s.value) sample_noise(p, sigma, nonce++);
  for (auto& p : e.value) sample_noise(p, sigma, nonce++);
  for (auto& p : s.value) mlkem::ntt(p);
  for (auto& p : e.value) mlkem::ntt(p);
  for (int i = 0; i < k; ++i) {
    t.value[i] = e.value[i];
    for (int j = 0; j < k; ++j) mlkem::multiply_add_ntt(t.value[i], a[i][j], s.value[j]);
    mlkem::encode12(ek.subspan(poly_bytes * i).first<poly_bytes>(), t.value[i]);
    mlkem::encode12(dk.subspan(poly_bytes * i).first<poly_bytes>(), s.value[i]);
  }
  std::memcpy(ek.data() + poly_bytes * k, rho.data(), 32);
}

// K-PKE.Encrypt (Algorithm 14) on an already checked ek.
void pke_encrypt(std::span<const std::uint8_t> ek, Seed32 m, Seed32 r,
                 std::span<std::uint8_t, ciphertext_size> c) {
  Vec t;
  for (int i = 0; i < k; ++i) mlkem::decode12(t[i], at<poly_bytes>(ek, poly_bytes * i));
  Matrix a;
  expand_matrix(a, at<32>(ek, poly_bytes * k));
  Wiped<Vec> y, u;
  Wiped<Poly> e2, v, mu;
  std::uint8_t nonce = 0;
  for (auto& p : y.value) sample_noise(p, r, nonce++);
  for (auto& p : u.value) sample_noise(p, r, nonce++);  // e1, to which A^T y is added below
  sample_noise(e2.value, r, nonce++);
  for (auto& p : y.value) mlkem::ntt(p);
  for (int i = 0; i < k; ++i) {
    Wiped<Poly> acc;
    for (int j = 0; j < k; ++j) mlkem::multiply_add_ntt(acc.value, a[j][i], y.value[j]);  // Â^T
    mlkem::ntt_inverse(acc.value);
    mlkem::add(u.value[i], u.value[i], acc.value);
    mlkem::compress_encode(c.subspan(32 * du * i, 32 * du), u.value[i], du);
  }
  for (int j = 0; j < k; ++j) mlkem::multiply_add_ntt(v.value, t[j], y.value[j]);
  mlkem::ntt_inverse(v.value);
  mlkem::decode_decompress(mu.value, m, 1);  // Decompress_1(ByteDecode_1(m)): bit -> 0 or 1665
  mlkem::add(v.value, v.value, e2.value);
  mlkem::add(v.value, v.value, mu.value);
  mlkem::compress_encode(c.subspan(u_bytes, 32 * dv), v.value, dv);
}

// K-PKE.Decrypt (Algorithm 15).
void pke_decrypt(std::span<const std::uint8_t> dk_pke, std::span<const std::uint8_t> c,
                 std::span<std::uint8_t, 32> m) {
  Wiped<Vec> s, u;
  Wiped<Poly> v, w;
  for (int i = 0; i < k; ++i) {
    mlkem::decode_decompress(u.value[i], c.subspan(32 * du * i, 32 * du), du);
    mlkem::ntt(u.value[i]);
    mlkem::decode12(s.value[i], at<poly_bytes>(dk_pke, poly_bytes * i));
    mlkem::multiply_add_ntt(w.value, s.value[i], u.value[i]);
  }
  mlkem::ntt_inverse(w.value);
  mlkem::decode_decompress(v.value, c.subspan(u_bytes, 32 * dv), dv);
  mlkem::sub(w.value, v.value, w.value);
  mlkem::compress_encode(m, w.value, 1);
}

}  // namespace

void keygen_internal(Seed32 d, Seed32 z, std::span<std::uint8_t, encapsulation_key_size> ek,
                     std::span<std::uint8_t, decapsulation_key_size> dk) {
  pke_keygen(d, ek, dk.first<pke_dk_bytes>());
  std::uint8_t* rest = dk.data() + pke_dk_bytes;
  std::memcpy(rest, ek.data(), encapsulation_key_size);
  sha3::sha3_256({ek}, std::span<std::uint8_t, 32>(rest + encapsulation_key_size, 32));
  std::memcpy(rest + encapsulation_key_size + 32, z.data(), 32);
}

void keygen_from_seed(std::span<const std::uint8_t, seed_size> seed,
                      std::span<std::uint8_t, encapsulation_key_size> ek,
                      std::span<std::uint8_t, decapsulation_key_size> dk) {
  keygen_internal(seed.first<32>(), seed.last<32>(), ek, dk);
}

bool encapsulation_key_valid(std::span<const std::uint8_t> ek) {
  if (ek.size() != encapsulation_key_size) return false;
  Poly p;
  for (int i = 0; i < k; ++i)
    if (!mlkem::decode12(p, at<poly_bytes>(ek, poly_bytes * i))) return false;
  return true;
}

bool encaps_internal(std::span<const std::uint8_t> ek, Seed32 m, std::span<std::uint8_t, ciphertext_size> ct,
                     std::span<std::uint8_t, shared_secret_size> shared_secret) {
  if (!encapsulation_key_valid(ek)) return false;
  std::array<std::uint8_t, 32> h{};
  sha3::sha3_256({ek}, h);
  Wiped<std::array<std::uint8_t, 64>> kr;  // (K, r) = G(m || H(ek))
  sha3::sha3_512({m, h}, kr.value);
  pke_encrypt(ek, m, std::span<const std::uint8_t, 32>(kr.value.data() + 32, 32), ct);
  std::memcpy(shared_secret.data(), kr.value.data(), 32);
  return true;
}

bool encaps(std::span<const std::uint8_t> ek, std::span<std::uint8_t, ciphertext_size> ct,
            std::span<std::uint8_t, shared_secret_size> shared_secret) {
  Wiped<std::array<std::uint8_t, 32>> m;
  randombytes_buf(m.value.data(), m.value.size());
  return encaps_internal(ek, m.value, ct, shared_secret);
}

bool decaps(std::span<const std::uint8_t> dk, std::span<const std::uint8_t> ct,
            std::span<std::uint8_t, shared_secret_size> shared_secret) {
  if (dk.size() != decapsulation_key_size || ct.size() != ciphertext_size) return false;
  const auto dk_pke = dk.first(pke_dk_bytes);
  const auto ek = dk.subspan(pke_dk_bytes, encapsulation_key_size);
  const auto h = at<32>(dk, pke_dk_bytes + encapsulation_key_size);
  const auto z = at<32>(dk, pke_dk_bytes + encapsulation_key_size + 32);
  std::array<std::uint8_t, 32> h_check{};
  sha3::sha3_256({ek}, h_check);
  if (std::memcmp(h_check.data(), h.data(), 32) != 0) return false;  // public: ek and H(ek) are not secret

  Wiped<std::array<std::uint8_t, 32>> m;
  pke_decrypt(dk_pke, ct, m.value);
  Wiped<std::array<std::uint8_t, 64>> kr;  // (K', r') = G(m' || h)
  sha3::sha3_512({m.value, h}, kr.value);
  Wiped<std::array<std::uint8_t, 32>> rejected;  // K̄ = J(z || c)
  sha3::shake256({z, ct}, rejected.value);
  Wiped<std::array<std::uint8_t, ciphertext_size>> again;
  pke_encrypt(ek, m.value, std::span<const std::uint8_t, 32>(kr.value.data() + 32, 32), again.value);

  // Constant-time compare and select: every byte is looked at, and the choice is a mask, not a branch.
  std::uint32_t diff = 0;
  for (std::size_t i = 0; i < ciphertext_size; ++i)
    diff |= static_cast<std::uint32_t>(ct[i] ^ again.value[i]);
  const auto keep = static_cast<std::uint8_t>(((diff | (0U - diff)) >> 31) - 1U);  // 0xFF iff equal
  for (std::size_t i = 0; i < 32; ++i)
    shared_secret[i] = static_cast<std::uint8_t>((kr.value[i] & keep) | (rejected.value[i] & ~keep));
  return true;
}

}  // namespace pcrypt::pq::mlkem768
