// The part of AES-GCM (SP 800-38D) that is the same for every vector engine, written once: the initial
// counter block J0 from the 96-bit nonce, the GHASH of the AAD, the bulk loop of both directions, the length
// block and J0 keystream that finish the tag, and open's verify-then-zero. An engine supplies only a Kernel
// with its key layout and the steps the loop is made of:
//
//   struct Kernel {
//     struct Key;  // expanded round keys and hash-key powers; trivially copyable, kept in guarded memory
//     static constexpr std::size_t kBatch;  // bytes per crypt_batch, a multiple of 16
//     struct Counters;  // the bulk loop's counter state (a register, or more)
//     static void expand(Key& k, std::span<const std::uint8_t> key);  // the AES key, of the kernel's size
//     static Block encrypt_block(const Key& k, Block block);  // one AES block, as loaded from memory
//     // Counter state whose next block is ctr: a counter block byte-reversed (as ghash_clmul.h's bswap
//     // leaves it), so that GCM's inc32 is one 32-bit add to its lowest lane.
//     static Counters counters(Block ctr);
//     // Counter mode over the kBatch bytes at in into out, advancing ctr. With Hash, also absorbs the
//     // kBatch bytes at hashed into s (the previous batch's output when sealing, in itself when opening).
//     // Everything at in and hashed is read before out is written, so out == in is allowed.
//     template <bool Hash>
//     static void crypt_batch(const Key& k, Counters& ctr, Block& s, std::uint8_t* out,
//                             const std::uint8_t* in, const std::uint8_t* hashed);
//     // GHASH into s of kBatch bytes, and of 0 < len < kBatch bytes (the last block zero-padded). s and the
//     // result in the reversed form of ghash_clmul.h.
//     static Block ghash_batch(const Key& k, Block s, const std::uint8_t* p);
//     static Block ghash_group(const Key& k, Block s, const std::uint8_t* p, std::size_t len);
//     // Counter mode over the last 0 < len < kBatch bytes from ctr's next block; out == in allowed.
//     static void ctr_tail(const Key& k, const Counters& ctr, std::uint8_t* out, const std::uint8_t* in,
//                          std::size_t len);
//     // Optional, for kernels on registers wider than 128 bits: clears their upper halves (vzeroupper).
//     static void clear_upper_halves();
//   };
//   std::unique_ptr<Gcm> make_x_gcm(key) { return std::make_unique<GcmShell<Kernel>>(key); }
//
// Every engine's Kernel is a template on the AES round count (14 for AES-256, 10 for AES-128), so both key
// sizes run the same loop body; only the number of rounds between the counter blocks and the last round,
// and the key schedule's length, differ.
//
// Block is a 128-bit register: __m128i on x86-64 (ghash_clmul.h), uint8x16_t on AArch64 (ghash_pmull.h); the
// block operations used here (ghash::block_load etc.) come from whichever of the two this machine has.
// Like those headers this one is compiled once per instruction set: Kernel lives in each engine file's
// anonymous namespace, so every GcmShell<Kernel> has internal linkage and no file's copy replaces another's.
#pragma once

#include <sodium.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "core/aes/engine.h"
#include "core/aes/secret_bytes.h"
#if defined(__aarch64__)
#include "core/aes/ghash_pmull.h"
#else
#include "core/aes/ghash_clmul.h"
#endif

namespace pcrypt::aes::detail {

template <class Kernel>
class GcmShell final : public Gcm {
 public:
  explicit GcmShell(std::span<const std::uint8_t> key) { Kernel::expand(key_, key); }

  void seal(std::uint8_t* out, std::uint8_t* tag, const std::uint8_t* in, std::size_t len,
            const std::uint8_t* aad, std::size_t aad_len, const std::uint8_t* nonce) const override {
    const Block j0 = initial_counter(nonce);
    Block s = absorb(ghash::block_zero(), aad, aad_len);
    s = bulk<Direction::seal>(key_, Kernel::counters(first_counter(j0)), s, out, in, len);
    leave_wide_registers();
    finish(s, j0, aad_len, len, tag);
  }

  bool open(std::uint8_t* out, const std::uint8_t* in, std::size_t len, const std::uint8_t* tag,
            const std::uint8_t* aad, std::size_t aad_len, const std::uint8_t* nonce) const override {
    const Block j0 = initial_counter(nonce);
    Block s = absorb(ghash::block_zero(), aad, aad_len);
    s = bulk<Direction::open>(key_, Kernel::counters(first_counter(j0)), s, out, in, len);
    leave_wide_registers();
    alignas(16) std::uint8_t expected[kGcmTagBytes];
    finish(s, j0, aad_len, len, expected);
    if (crypto_verify_16(expected, tag) == 0) return true;
    if (len > 0) sodium_memzero(out, len);  // no unauthenticated plaintext leaves
    return false;
  }

 private:
  using Block = ghash::Block;
  using Key = typename Kernel::Key;
  using Counters = typename Kernel::Counters;
  static constexpr std::size_t kBatch = Kernel::kBatch;
  enum class Direction { seal, open };

  // J0 = nonce || 0^31 || 1, as it sits in memory.
  static Block initial_counter(const std::uint8_t* nonce) {
    alignas(16) std::uint8_t b[16] = {};
    std::memcpy(b, nonce, kGcmNonceBytes);
    b[15] = 1;
    return ghash::block_load(b);
  }

  // After the bulk loop of a kernel on wide registers: their upper halves cleared before anything else runs.
  // The compiler inserts vzeroupper only where it tracks the state, and a bulk() it does not inline hides it
  // (GCC 12, vaes): open then called crypto_verify_16, libsodium's SSE code, and both returned to SSE callers
  // with the upper halves dirty, which Intel CPUs pay for on every call (issue 27, defect 11: vaes opened
  // 256-byte messages 3x slower than it sealed them). tests/test_aes_upper_state.cc checks every engine.
  static void leave_wide_registers() {
    if constexpr (requires { Kernel::clear_upper_halves(); }) Kernel::clear_upper_halves();
  }

  // inc32(J0), byte-reversed: the first block of payload keystream (J0 itself masks the tag).
  static Block first_counter(Block j0) { return ghash::counter_add(ghash::bswap(j0), 1); }

  // Counter mode over len bytes and the GHASH of their ciphertext into s, both directions in one body. The
  // hashing of a batch is stitched into the AES rounds of a crypt_batch so that the AES and carry-less
  // multiply units work at the same time. Sealing cannot hash a batch before writing it, so each batch hashes
  // the one before (the first has nothing to hash) and the last full batch is hashed on its own; opening
  // hashes the batch it decrypts. The tail (less than a batch) is CTR then GHASH when sealing, GHASH then CTR
  // when opening: an in-place write overwrites the ciphertext.
  template <Direction D>
  static Block bulk(const Key& k, Counters ctr, Block s, std::uint8_t* out, const std::uint8_t* in,
                    std::size_t len) {
    std::size_t off = 0;
    if constexpr (D == Direction::seal) {
      if (len >= kBatch) {
        Kernel::template crypt_batch<false>(k, ctr, s, out, in, nullptr);
        for (off = kBatch; off + kBatch <= len; off += kBatch)
          Kernel::template crypt_batch<true>(k, ctr, s, out + off, in + off, out + off - kBatch);
        s = Kernel::ghash_batch(k, s, out + off - kBatch);
      }
      if (off < len) {
        Kernel::ctr_tail(k, ctr, out + off, in + off, len - off);
        s = Kernel::ghash_group(k, s, out + off, len - off);
      }
    } else {
      for (; off + kBatch <= len; off += kBatch)
        Kernel::template crypt_batch<true>(k, ctr, s, out + off, in + off, in + off);
      if (off < len) {
        s = Kernel::ghash_group(k, s, in + off, len - off);
        Kernel::ctr_tail(k, ctr, out + off, in + off, len - off);
      }
    }
    return s;
  }

  // GHASH of len bytes of any length (the AAD), the last block zero-padded.
  Block absorb(Block s, const std::uint8_t* p, std::size_t len) const {
    for (; len >= kBatch; p += kBatch, len -= kBatch) s = Kernel::ghash_batch(key_, s, p);
    return len > 0 ? Kernel::ghash_group(key_, s, p, len) : s;
  }

  // Absorbs the length block (bit lengths of AAD and ciphertext, big-endian) and masks with E(K, J0).
  void finish(Block s, Block j0, std::size_t aad_len, std::size_t len, std::uint8_t* tag) const {
    std::uint8_t lengths[16];
    for (int i = 0; i < 8; ++i) {
      lengths[i] = static_cast<std::uint8_t>((std::uint64_t{aad_len} * 8) >> (56 - 8 * i));
      lengths[8 + i] = static_cast<std::uint8_t>((std::uint64_t{len} * 8) >> (56 - 8 * i));
    }
    s = Kernel::ghash_group(key_, s, lengths, sizeof lengths);
    ghash::block_store(tag, ghash::block_xor(ghash::bswap(s), Kernel::encrypt_block(key_, j0)));
  }

  SecretBytes key_memory_ = secret_holding<Key>();
  Key& key_ = secret_as<Key>(key_memory_);
};

}  // namespace pcrypt::aes::detail
