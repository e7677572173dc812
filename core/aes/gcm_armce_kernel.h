// AES-GCM (AES-256 and AES-128: the kernel is a template on the round count R) on the ARMv8 Crypto Extensions
// (AESE/AESMC, PMULL/PMULL2), the steps of gcm_shell.h's bulk loop: 8 counter blocks in flight, GHASH of 8
// blocks per iteration against precomputed H^8..H^1 summed unreduced and reduced once, stitched into the AES
// rounds of the next batch (seal) or of the same batch (open).
//
// Written once, compiled twice: gcm_armce.cc instantiates it with plain EOR (ARMv8.0 + crypto) and
// gcm_armce_sha3.cc with EOR3, which XORs three registers in one instruction (the GHASH sums and the last
// round's key + data). Xor3 provides `static uint8x16_t xor3(uint8x16_t, uint8x16_t, uint8x16_t)`; it lives
// in each file's anonymous namespace, so every instantiation has internal linkage and neither file's code can
// stand in for the other's.
#pragma once

#include <arm_neon.h>
#include <sodium.h>

#include <cstring>
#include <span>

#include "core/aes/engine.h"
#include "core/aes/ghash_pmull.h"
#include "core/aes/key_schedule.h"

namespace pcrypt::aes::detail::armce {

using ghash::Block;
using ghash::bswap;

inline constexpr std::size_t kWidth = 8;  // blocks per iteration
inline constexpr std::size_t kBatch = kWidth * kBlockBytes;

struct GcmKey {
  Block rk[kMaxRounds + 1];  // the first R + 1 used
  Block h[kWidth];           // h[i] = v(H^(i+1) x^-1), see ghash_pmull.h
  Block hk[kWidth];          // Karatsuba factors of h[i]
};

template <class Xor3, int R>
struct GcmKernel {
  using Key = GcmKey;
  using Counters = Block;
  static constexpr std::size_t kBatch = armce::kBatch;

  static void expand(GcmKey& k, std::span<const std::uint8_t> key) {
    RoundKeys rk;
    expand_key_for_rounds(key, R, rk);
    for (int r = 0; r <= R; ++r) k.rk[r] = vld1q_u8(rk.enc[r]);
    sodium_memzero(&rk, sizeof rk);
    const Block h = ghash::times_x_inverse(bswap(encrypt_block(k, ghash::block_zero())));
    k.h[0] = h;
    for (std::size_t i = 1; i < kWidth; ++i) k.h[i] = ghash::gf_mul(k.h[i - 1], h);
    for (std::size_t i = 0; i < kWidth; ++i) k.hk[i] = ghash::karatsuba_key(k.h[i]);
  }

  // AESE = AddRoundKey + ShiftRows + SubBytes, AESMC = MixColumns: rounds 1..R-1 are AESE+AESMC pairs (which
  // cores fuse), the last round AESE alone and a final XOR with the last key.
  static Block encrypt_block(const GcmKey& k, Block x) {
    for (int r = 0; r < R - 1; ++r) x = vaesmcq_u8(vaeseq_u8(x, k.rk[r]));
    return veorq_u8(vaeseq_u8(x, k.rk[R - 1]), k.rk[R]);
  }

  static Block counters(Block first) { return first; }

  // One batch of kWidth blocks of counter mode. With Hash, GHASH absorbs the kWidth blocks at hashed into s
  // during the AES rounds. All of the input is loaded before the rounds, and opening (hashed == in) hashes
  // those registers, so each ciphertext block is loaded once. That test is made at run time, not by inlining:
  // forced inline into both directions' loops, GCC 12 spilled registers there (several times the stack
  // accesses).
  template <bool Hash>
  static void crypt_batch(const GcmKey& k, Block& ctr, Block& s, std::uint8_t* out, const std::uint8_t* in,
                          const std::uint8_t* hashed) {
    Block b[kWidth];
    Block c[kWidth];
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kWidth; ++j) {
      b[j] = bswap(ghash::counter_add(ctr, static_cast<std::uint32_t>(j)));
      c[j] = vld1q_u8(in + 16 * j);
    }
    ctr = ghash::counter_add(ctr, kWidth);
    Block x[kWidth];
    if constexpr (Hash) {
#pragma GCC unroll 8
      for (std::size_t j = 0; j < kWidth; ++j) x[j] = bswap(hashed != in ? vld1q_u8(hashed + 16 * j) : c[j]);
      x[0] = veorq_u8(x[0], s);
    }
    ghash::Wide acc{ghash::block_zero(), ghash::block_zero(), ghash::block_zero()};
    // Rounds 0..R-2 with the 8 GHASH products spread over the first four rounds, two per round (H^8..H^1
    // highest power first), and the one reduction after them.
#pragma GCC unroll 13
    for (int r = 0; r < R - 1; ++r) {
#pragma GCC unroll 8
      for (std::size_t j = 0; j < kWidth; ++j) b[j] = vaesmcq_u8(vaeseq_u8(b[j], k.rk[r]));
      if constexpr (Hash) {
        if (r < 4) {
          const std::size_t j = 2 * static_cast<std::size_t>(r);
          mul_acc2(acc, x[j], k.h[kWidth - 1 - j], k.hk[kWidth - 1 - j], x[j + 1], k.h[kWidth - 2 - j],
                   k.hk[kWidth - 2 - j]);
        }
        if (r == 4) s = ghash::reduce(acc);
      }
    }
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kWidth; ++j)
      vst1q_u8(out + 16 * j, Xor3::xor3(vaeseq_u8(b[j], k.rk[R - 1]), k.rk[R], c[j]));
  }

  static Block ghash_batch(const GcmKey& k, Block s, const std::uint8_t* p) {
    return ghash_group(k, s, p, kBatch);
  }

  // Up to kWidth blocks (the last may be partial, zero-padded) with a single reduction.
  static Block ghash_group(const GcmKey& k, Block s, const std::uint8_t* p, std::size_t len) {
    const std::size_t n = (len + 15) / 16;
    ghash::Wide acc{ghash::block_zero(), ghash::block_zero(), ghash::block_zero()};
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t left = len - 16 * j;
      Block x = bswap(left >= 16 ? vld1q_u8(p + 16 * j) : load_partial(p + 16 * j, left));
      if (j == 0) x = veorq_u8(x, s);
      mul_acc(acc, x, k.h[n - 1 - j], k.hk[n - 1 - j]);
    }
    return ghash::reduce(acc);
  }

  static void ctr_tail(const GcmKey& k, Block ctr, std::uint8_t* out, const std::uint8_t* in,
                       std::size_t len) {
    for (std::size_t off = 0; off < len; off += 16, ctr = ghash::counter_add(ctr, 1)) {
      const Block ks = encrypt_block(k, bswap(ctr));
      const std::size_t n = len - off < 16 ? len - off : 16;
      if (n == 16)
        vst1q_u8(out + off, veorq_u8(ks, vld1q_u8(in + off)));
      else
        store_partial(out + off, veorq_u8(ks, load_partial(in + off, n)), n);
    }
  }

 private:
  static Block load_partial(const std::uint8_t* p, std::size_t n) {
    alignas(16) std::uint8_t b[16] = {};
    std::memcpy(b, p, n);
    return vld1q_u8(b);
  }
  static void store_partial(std::uint8_t* p, Block v, std::size_t n) {
    alignas(16) std::uint8_t b[16];
    vst1q_u8(b, v);
    std::memcpy(p, b, n);
  }

  // Adds x * h (Karatsuba pieces) and y * g to the sums: the three pairs of products meet in one XOR3 each.
  static void mul_acc2(ghash::Wide& acc, Block x, Block h, Block hk, Block y, Block g, Block gk) {
    acc.lo = Xor3::xor3(acc.lo, ghash::clmul_lo(x, h), ghash::clmul_lo(y, g));
    acc.mid = Xor3::xor3(acc.mid, ghash::clmul_lo(ghash::karatsuba_key(x), hk),
                         ghash::clmul_lo(ghash::karatsuba_key(y), gk));
    acc.hi = Xor3::xor3(acc.hi, ghash::clmul_hi(x, h), ghash::clmul_hi(y, g));
  }
  static void mul_acc(ghash::Wide& acc, Block x, Block h, Block hk) {
    acc.lo = veorq_u8(acc.lo, ghash::clmul_lo(x, h));
    acc.mid = veorq_u8(acc.mid, ghash::clmul_lo(ghash::karatsuba_key(x), hk));
    acc.hi = veorq_u8(acc.hi, ghash::clmul_hi(x, h));
  }
};

}  // namespace pcrypt::aes::detail::armce
