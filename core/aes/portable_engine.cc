// The `portable` engine: AES-256-GCM, AES-128-GCM and raw AES (CTR, block) on the bitsliced core. Runs on any
// CPU.
#include <sodium.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>

#include "core/aes/engine_registry.h"
#include "core/aes/portable_aes.h"
#include "core/aes/portable_ghash.h"
#include "core/aes/secret_bytes.h"

namespace pcrypt::aes::detail {
namespace {

using portable::KeySchedule;
using portable::kWideBlocks;
using portable::kWideBytes;

void xor_bytes(std::uint8_t* out, const std::uint8_t* a, const std::uint8_t* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>(a[i] ^ b[i]);
}

// A batch of counter blocks encrypted in one bitsliced pass: eight when the data needs more than four.
std::size_t batch_blocks(std::size_t blocks_needed) {
  return blocks_needed > portable::kBatchBlocks ? portable::kWideBlocks : portable::kBatchBlocks;
}

class PortableBlockCipher final : public BlockCipher {
 public:
  explicit PortableBlockCipher(std::span<const std::uint8_t> key) {
    portable::expand_key(ks_, key.data(), key.size());
  }

  void encrypt_blocks(std::uint8_t* out, const std::uint8_t* in, std::size_t blocks) const override {
    for (std::size_t done = 0; done < blocks; done += kWideBlocks)
      portable::encrypt_batch(ks_, out + 16 * done, in + 16 * done, std::min(kWideBlocks, blocks - done));
  }

  void decrypt_blocks(std::uint8_t* out, const std::uint8_t* in, std::size_t blocks) const override {
    for (std::size_t done = 0; done < blocks; done += kWideBlocks)
      portable::decrypt_batch(ks_, out + 16 * done, in + 16 * done, std::min(kWideBlocks, blocks - done));
  }

  void ctr_xor(std::uint8_t* out, const std::uint8_t* in, std::size_t len,
               std::uint8_t* counter) const override {
    ctr(out, in, len, counter);
  }

  void ctr_keystream(std::uint8_t* out, std::size_t len, std::uint8_t* counter) const override {
    ctr(out, nullptr, len, counter);
  }

 private:
  // 128-bit big-endian increment; the counter is public, so the data-dependent carry loop leaks nothing.
  static void increment128(std::uint8_t* c) {
    for (int i = 15; i >= 0; --i)
      if (++c[i] != 0) break;
  }

  // in == nullptr: write the bare keystream.
  void ctr(std::uint8_t* out, const std::uint8_t* in, std::size_t len, std::uint8_t* counter) const {
    std::uint8_t counters[kWideBytes];
    std::uint8_t stream[kWideBytes];
    while (len > 0) {
      const std::size_t blocks = std::min((len + 15) / 16, kWideBlocks);
      const std::size_t n = std::min(len, 16 * blocks);
      for (std::size_t b = 0; b < blocks; ++b) {
        std::memcpy(counters + 16 * b, counter, 16);
        increment128(counter);
      }
      portable::encrypt_batch(ks_, stream, counters, blocks);
      if (in != nullptr) {
        xor_bytes(out, in, stream, n);
        in += n;
      } else {
        std::memcpy(out, stream, n);
      }
      out += n;
      len -= n;
    }
    sodium_memzero(stream, sizeof stream);
  }

  SecretBytes key_memory_ = secret_holding<KeySchedule>();
  KeySchedule& ks_ = secret_as<KeySchedule>(key_memory_);
};

struct GcmKey {
  KeySchedule ks;
  portable::GhashKey ghash;
};

class PortableGcm final : public Gcm {
 public:
  // key: 32 or 16 bytes (the bitsliced schedule runs 14 or 10 rounds).
  explicit PortableGcm(std::span<const std::uint8_t> key) {
    portable::expand_key(key_.ks, key.data(), key.size());
    std::uint8_t h[16] = {};
    portable::encrypt_batch(key_.ks, h, h, 1);
    key_.ghash = portable::make_ghash_key(portable::load_block128(h));
    sodium_memzero(h, sizeof h);
  }

  void seal(std::uint8_t* out, std::uint8_t* tag, const std::uint8_t* in, std::size_t len,
            const std::uint8_t* aad, std::size_t aad_len, const std::uint8_t* nonce) const override {
    portable::Ghash ghash(key_.ghash);
    ghash.absorb(aad, aad_len);
    std::uint8_t first[kWideBytes];
    const std::size_t first_blocks = first_keystream(first, nonce, len);
    apply_keystream(out, in, len, nonce, first, first_blocks, &ghash);
    ghash.finish(tag, aad_len, len);
    xor_bytes(tag, tag, first, 16);  // E(J0)
    sodium_memzero(first, sizeof first);
  }

  bool open(std::uint8_t* out, const std::uint8_t* in, std::size_t len, const std::uint8_t* tag,
            const std::uint8_t* aad, std::size_t aad_len, const std::uint8_t* nonce) const override {
    // Authenticate first, decrypt only after: no plaintext byte is written unless the tag is right.
    std::uint8_t expected[16];
    {
      portable::Ghash ghash(key_.ghash);
      ghash.absorb(aad, aad_len);
      ghash.absorb(in, len);
      ghash.finish(expected, aad_len, len);
    }
    std::uint8_t first[kWideBytes];
    const std::size_t first_blocks = first_keystream(first, nonce, len);
    xor_bytes(expected, expected, first, 16);  // E(J0)
    const bool ok = crypto_verify_16(expected, tag) == 0;
    sodium_memzero(expected, sizeof expected);
    if (ok)
      apply_keystream(out, in, len, nonce, first, first_blocks, nullptr);
    else
      sodium_memzero(out, len);
    sodium_memzero(first, sizeof first);
    return ok;
  }

 private:
  // GCM counter blocks nonce || be32(first + b) for b < count: inc32 wraps within the low 32 bits.
  static void counter_blocks(std::uint8_t* out, const std::uint8_t* nonce, std::uint32_t first,
                             std::size_t count) {
    for (std::size_t b = 0; b < count; ++b) {
      std::uint8_t* block = out + 16 * b;
      const std::uint32_t c = first + static_cast<std::uint32_t>(b);
      std::memcpy(block, nonce, kGcmNonceBytes);
      block[12] = static_cast<std::uint8_t>(c >> 24);
      block[13] = static_cast<std::uint8_t>(c >> 16);
      block[14] = static_cast<std::uint8_t>(c >> 8);
      block[15] = static_cast<std::uint8_t>(c);
    }
  }

  // The first bitsliced pass: J0 (counter 1, whose keystream block masks the tag) and the first data blocks,
  // so a short message costs one pass. Returns how many blocks it holds.
  std::size_t first_keystream(std::uint8_t* first, const std::uint8_t* nonce, std::size_t len) const {
    const std::size_t blocks = batch_blocks(1 + (len + 15) / 16);
    counter_blocks(first, nonce, 1, blocks);
    portable::encrypt_batch(key_.ks, first, first, blocks);
    return blocks;
  }

  // CTR from counter 2: the data blocks of the first pass, then further passes. If ghash is set, the output
  // (ciphertext) is absorbed as it is made.
  void apply_keystream(std::uint8_t* out, const std::uint8_t* in, std::size_t len, const std::uint8_t* nonce,
                       const std::uint8_t* first, std::size_t first_blocks, portable::Ghash* ghash) const {
    std::size_t n = std::min(len, 16 * first_blocks - 16);
    xor_bytes(out, in, first + 16, n);
    if (ghash != nullptr) ghash->absorb(out, n);
    std::uint8_t blocks[kWideBytes];
    auto next = static_cast<std::uint32_t>(1 + first_blocks);
    for (std::size_t done = n; done < len; done += n) {
      const std::size_t batch = batch_blocks((len - done + 15) / 16);
      counter_blocks(blocks, nonce, next, batch);
      portable::encrypt_batch(key_.ks, blocks, blocks, batch);
      n = std::min(len - done, 16 * batch);
      xor_bytes(out + done, in + done, blocks, n);
      if (ghash != nullptr) ghash->absorb(out + done, n);
      next += static_cast<std::uint32_t>(batch);
    }
    sodium_memzero(blocks, sizeof blocks);
  }

  SecretBytes key_memory_ = secret_holding<GcmKey>();
  GcmKey& key_ = secret_as<GcmKey>(key_memory_);
};

}  // namespace

bool portable_supported() {
  return true;
}

std::unique_ptr<Gcm> make_portable_gcm(std::span<const std::uint8_t, kGcmKeyBytes> key) {
  return std::make_unique<PortableGcm>(key);
}

std::unique_ptr<Gcm> make_portable_gcm128(std::span<const std::uint8_t, kGcm128KeyBytes> key) {
  return std::make_unique<PortableGcm>(key);
}

std::unique_ptr<BlockCipher> make_portable_block_cipher(std::span<const std::uint8_t> key) {
  if (key.size() != 16 && key.size() != 24 && key.size() != 32)
    throw std::invalid_argument("AES key must be 16, 24 or 32 bytes");
  return std::make_unique<PortableBlockCipher>(key);
}

}  // namespace pcrypt::aes::detail
