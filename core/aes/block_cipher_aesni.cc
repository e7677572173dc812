// Raw AES-128/192/256 on AES-NI: ECB blocks both ways and SP 800-38A CTR, 8 blocks in flight.
#include <immintrin.h>
#include <sodium.h>

#include <cstring>

#include "core/aes/ctr_counter.h"
#include "core/aes/engine_registry.h"
#include "core/aes/key_schedule.h"
#include "core/aes/secure_box.h"

namespace pcrypt::aes::detail {
namespace {

constexpr std::size_t kWidth = 8;

struct Keys {
  __m128i enc[kMaxRounds + 1];
  __m128i dec[kMaxRounds + 1];
};

inline __m128i load(const std::uint8_t* p) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}
inline void store(std::uint8_t* p, __m128i v) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
}
inline __m128i bswap(__m128i x) {
  return _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

// Applies the cipher (Decrypt = false) or inverse cipher to n <= kWidth blocks in registers.
template <int R, bool Decrypt>
inline void rounds(const __m128i* rk, __m128i* b, std::size_t n) {
#pragma GCC unroll 8
  for (std::size_t j = 0; j < kWidth; ++j)
    if (j < n) b[j] = _mm_xor_si128(b[j], rk[0]);
#pragma GCC unroll 14
  for (int r = 1; r < R; ++r) {
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kWidth; ++j)
      if (j < n) b[j] = Decrypt ? _mm_aesdec_si128(b[j], rk[r]) : _mm_aesenc_si128(b[j], rk[r]);
  }
#pragma GCC unroll 8
  for (std::size_t j = 0; j < kWidth; ++j)
    if (j < n) b[j] = Decrypt ? _mm_aesdeclast_si128(b[j], rk[R]) : _mm_aesenclast_si128(b[j], rk[R]);
}

template <int R, bool Decrypt>
void ecb(const __m128i* rk, std::uint8_t* out, const std::uint8_t* in, std::size_t blocks) {
  while (blocks > 0) {
    const std::size_t n = blocks < kWidth ? blocks : kWidth;
    __m128i b[kWidth];
    for (std::size_t j = 0; j < n; ++j) b[j] = load(in + 16 * j);
    rounds<R, Decrypt>(rk, b, n);
    for (std::size_t j = 0; j < n; ++j) store(out + 16 * j, b[j]);
    in += 16 * n;
    out += 16 * n;
    blocks -= n;
  }
}

// One run of counters whose low 64 bits do not wrap: counter i is the byte-reversed (base + i).
template <int R>
void ctr_run(const __m128i* rk, std::uint8_t* out, const std::uint8_t* in, std::size_t len, __m128i base) {
  while (len > 0) {
    const std::size_t bytes = len < kWidth * 16 ? len : kWidth * 16;
    const std::size_t n = (bytes + 15) / 16;
    __m128i b[kWidth];
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kWidth; ++j)
      b[j] = bswap(_mm_add_epi64(base, _mm_set_epi64x(0, static_cast<long long>(j))));
    base = _mm_add_epi64(base, _mm_set_epi64x(0, static_cast<long long>(n)));
    rounds<R, false>(rk, b, n);
    if (bytes == kWidth * 16) {
#pragma GCC unroll 8
      for (std::size_t j = 0; j < kWidth; ++j)
        store(out + 16 * j, in != nullptr ? _mm_xor_si128(b[j], load(in + 16 * j)) : b[j]);
    } else {  // the last, partial batch: through a stack buffer so nothing past len is touched
      alignas(16) std::uint8_t buf[kWidth * 16];
      for (std::size_t j = 0; j < n; ++j) store(buf + 16 * j, b[j]);
      if (in != nullptr)
        for (std::size_t i = 0; i < bytes; ++i) buf[i] ^= in[i];
      std::memcpy(out, buf, bytes);
    }
    if (in != nullptr) in += bytes;
    out += bytes;
    len -= bytes;
  }
}

class AesniBlockCipher final : public BlockCipher {
 public:
  explicit AesniBlockCipher(std::span<const std::uint8_t> key) {
    RoundKeys rk;
    expand_key(key.data(), key.size(), rk);
    rounds_ = rk.rounds;
    for (int r = 0; r <= rounds_; ++r) {
      keys_->enc[r] = load(rk.enc[r]);
      keys_->dec[r] = load(rk.dec[r]);
    }
    sodium_memzero(&rk, sizeof rk);
  }

  void encrypt_blocks(std::uint8_t* out, const std::uint8_t* in, std::size_t blocks) const override {
    dispatch([&]<int R>() { ecb<R, false>(keys_->enc, out, in, blocks); });
  }
  void decrypt_blocks(std::uint8_t* out, const std::uint8_t* in, std::size_t blocks) const override {
    dispatch([&]<int R>() { ecb<R, true>(keys_->dec, out, in, blocks); });
  }
  void ctr_xor(std::uint8_t* out, const std::uint8_t* in, std::size_t len,
               std::uint8_t* counter) const override {
    run_ctr(out, in, len, counter);
  }
  void ctr_keystream(std::uint8_t* out, std::size_t len, std::uint8_t* counter) const override {
    run_ctr(out, nullptr, len, counter);
  }

 private:
  template <class F>
  void dispatch(F&& f) const {
    if (rounds_ == 10)
      f.template operator()<10>();
    else if (rounds_ == 12)
      f.template operator()<12>();
    else
      f.template operator()<14>();
  }

  void run_ctr(std::uint8_t* out, const std::uint8_t* in, std::size_t len, std::uint8_t* counter) const {
    for_each_ctr_run(
        len, counter, [&](std::size_t offset, std::size_t bytes, std::uint64_t hi, std::uint64_t lo) {
          const __m128i base = _mm_set_epi64x(static_cast<long long>(hi), static_cast<long long>(lo));
          dispatch([&]<int R>() {
            ctr_run<R>(keys_->enc, out + offset, in ? in + offset : nullptr, bytes, base);
          });
        });
  }

  SecureBox<Keys> keys_;
  int rounds_ = 0;
};

}  // namespace

std::unique_ptr<BlockCipher> make_aesni_block_cipher(std::span<const std::uint8_t> key) {
  return std::make_unique<AesniBlockCipher>(key);
}

}  // namespace pcrypt::aes::detail
