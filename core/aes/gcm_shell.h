// The part of AES-256-GCM (SP 800-38D) that is the same for every vector engine, written once: the initial
// counter block J0 from the 96-bit nonce, the GHASH of the AAD, the length block and J0 keystream that finish
// the tag, and open's verify-then-zero. An engine supplies only a Kernel with its key layout and its bulk
// counter-mode + GHASH loop:
//
//   struct Kernel {
//     struct Key;  // expanded round keys and hash-key powers; trivially copyable, kept in guarded memory
//     static void expand(Key& k, std::span<const std::uint8_t, kGcmKeyBytes> key);
//     static Block encrypt_block(const Key& k, Block block);  // one AES-256 block, as loaded from memory
//     // GHASH of len bytes (the last block zero-padded) into state s; s and the result in the reversed form
//     // of ghash_clmul.h.
//     static Block ghash(const Key& k, Block s, const std::uint8_t* p, std::size_t len);
//     // Counter mode over len bytes starting at counter block ctr, and the GHASH of the ciphertext into s
//     // (seal hashes what it wrote, open what it read). ctr is byte-reversed (as ghash_clmul.h's bswap
//     // leaves it), so GCM's inc32 is one 32-bit add to its lowest lane. out == in allowed. Returns s.
//     static Block seal(const Key& k, Block ctr, Block s, std::uint8_t* out, const std::uint8_t* in,
//                       std::size_t len);
//     static Block open(const Key& k, Block ctr, Block s, std::uint8_t* out, const std::uint8_t* in,
//                       std::size_t len);
//   };
//   std::unique_ptr<Gcm> make_x_gcm(key) { return std::make_unique<GcmShell<Kernel>>(key); }
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
  explicit GcmShell(std::span<const std::uint8_t, kGcmKeyBytes> key) { Kernel::expand(key_, key); }

  void seal(std::uint8_t* out, std::uint8_t* tag, const std::uint8_t* in, std::size_t len,
            const std::uint8_t* aad, std::size_t aad_len, const std::uint8_t* nonce) const override {
    const Block j0 = initial_counter(nonce);
    Block s = Kernel::ghash(key_, ghash::block_zero(), aad, aad_len);
    s = Kernel::seal(key_, first_counter(j0), s, out, in, len);
    finish(s, j0, aad_len, len, tag);
  }

  bool open(std::uint8_t* out, const std::uint8_t* in, std::size_t len, const std::uint8_t* tag,
            const std::uint8_t* aad, std::size_t aad_len, const std::uint8_t* nonce) const override {
    const Block j0 = initial_counter(nonce);
    Block s = Kernel::ghash(key_, ghash::block_zero(), aad, aad_len);
    s = Kernel::open(key_, first_counter(j0), s, out, in, len);
    alignas(16) std::uint8_t expected[kGcmTagBytes];
    finish(s, j0, aad_len, len, expected);
    if (crypto_verify_16(expected, tag) == 0) return true;
    if (len > 0) sodium_memzero(out, len);  // no unauthenticated plaintext leaves
    return false;
  }

 private:
  using Block = ghash::Block;

  // J0 = nonce || 0^31 || 1, as it sits in memory.
  static Block initial_counter(const std::uint8_t* nonce) {
    alignas(16) std::uint8_t b[16] = {};
    std::memcpy(b, nonce, kGcmNonceBytes);
    b[15] = 1;
    return ghash::block_load(b);
  }

  // inc32(J0), byte-reversed: the first block of payload keystream (J0 itself masks the tag).
  static Block first_counter(Block j0) { return ghash::counter_add(ghash::bswap(j0), 1); }

  // Absorbs the length block (bit lengths of AAD and ciphertext, big-endian) and masks with E(K, J0).
  void finish(Block s, Block j0, std::size_t aad_len, std::size_t len, std::uint8_t* tag) const {
    std::uint8_t lengths[16];
    for (int i = 0; i < 8; ++i) {
      lengths[i] = static_cast<std::uint8_t>((std::uint64_t{aad_len} * 8) >> (56 - 8 * i));
      lengths[8 + i] = static_cast<std::uint8_t>((std::uint64_t{len} * 8) >> (56 - 8 * i));
    }
    s = Kernel::ghash(key_, s, lengths, sizeof lengths);
    ghash::block_store(tag, ghash::block_xor(ghash::bswap(s), Kernel::encrypt_block(key_, j0)));
  }

  SecretBytes key_memory_ = SecretBytes::holding<typename Kernel::Key>();
  typename Kernel::Key& key_ = key_memory_.template as<typename Kernel::Key>();
};

}  // namespace pcrypt::aes::detail
