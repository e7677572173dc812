// The BlockCipher interface over one instruction set's AES kernels: key expansion into guarded memory, the
// run-time round count turned into a compile-time one, and CTR counter bookkeeping, written once for the
// AES-NI, VAES and ARMv8 Crypto Extensions engines.
//
// Include only from a file compiled for that instruction set, and instantiate with a Kernels type from that
// file's anonymous namespace: the instantiation then has internal linkage, so the linker can never hand one
// engine the other's machine code (which could run AVX2 instructions on a CPU that only has AES-NI).
//
// Kernels provides:
//   using Reg = ...;                      // the register a round key is kept in
//   static Reg round_key(const std::uint8_t* key16);
//   template <int R, bool Decrypt>
//   static void ecb(const Reg* round_keys, std::uint8_t* out, const std::uint8_t* in, std::size_t blocks);
//   template <int R>  // counters (hi, lo) + i, low 64 bits never wrap; in == nullptr: writes the keystream
//   static void ctr(const Reg* round_keys, std::uint8_t* out, const std::uint8_t* in, std::size_t len,
//                   std::uint64_t hi, std::uint64_t lo);  // the first counter's halves, as numbers
#pragma once

#include <sodium.h>

#include <span>

#include "core/aes/ctr_counter.h"
#include "core/aes/engine.h"
#include "core/aes/key_schedule.h"
#include "core/aes/secret_bytes.h"

namespace pcrypt::aes::detail {

template <class Kernels>
class HardwareBlockCipher final : public BlockCipher {
  using Reg = typename Kernels::Reg;
  struct Keys {
    Reg enc[kMaxRounds + 1];
    Reg dec[kMaxRounds + 1];
  };

 public:
  explicit HardwareBlockCipher(std::span<const std::uint8_t> key) {
    RoundKeys rk;
    expand_key(key.data(), key.size(), rk);
    rounds_ = rk.rounds;
    for (int r = 0; r <= rounds_; ++r) {
      keys_.enc[r] = Kernels::round_key(rk.enc[r]);
      keys_.dec[r] = Kernels::round_key(rk.dec[r]);
    }
    sodium_memzero(&rk, sizeof rk);
  }

  void encrypt_blocks(std::uint8_t* out, const std::uint8_t* in, std::size_t blocks) const override {
    with_rounds([&]<int R>() { Kernels::template ecb<R, false>(keys_.enc, out, in, blocks); });
  }
  void decrypt_blocks(std::uint8_t* out, const std::uint8_t* in, std::size_t blocks) const override {
    with_rounds([&]<int R>() { Kernels::template ecb<R, true>(keys_.dec, out, in, blocks); });
  }
  void ctr_xor(std::uint8_t* out, const std::uint8_t* in, std::size_t len,
               std::uint8_t* counter) const override {
    run_ctr(out, in, len, counter);
  }
  void ctr_keystream(std::uint8_t* out, std::size_t len, std::uint8_t* counter) const override {
    run_ctr(out, nullptr, len, counter);
  }

 private:
  // Calls f.template operator()<R>() with R = this key's round count as a constant, so the kernels unroll.
  template <class F>
  void with_rounds(F&& f) const {
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
          with_rounds([&]<int R>() {
            Kernels::template ctr<R>(keys_.enc, out + offset, in ? in + offset : nullptr, bytes, hi, lo);
          });
        });
  }

  SecretBytes key_memory_ = secret_holding<Keys>();
  Keys& keys_ = secret_as<Keys>(key_memory_);
  int rounds_ = 0;
};

}  // namespace pcrypt::aes::detail
