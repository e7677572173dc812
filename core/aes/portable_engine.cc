// The `portable` engine: AES-256-GCM and raw AES (CTR, block) on the bitsliced core. Runs on any CPU.
#include <sodium.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>

#include "core/aes/engine_registry.h"
#include "core/aes/portable_aes.h"
#include "core/aes/portable_ghash.h"

namespace pcrypt::aes::detail {
namespace {

using portable::kBatchBlocks;
using portable::kBatchBytes;
using portable::KeySchedule;
using portable::Planes;

// One T in libsodium guarded memory (locked, wiped by sodium_free).
template <class T>
class Guarded {
 public:
  Guarded() {
    if (sodium_init() < 0) throw std::bad_alloc();
    void* mem = sodium_malloc(sizeof(T));
    if (mem == nullptr) throw std::bad_alloc();
    p_ = new (mem) T{};
  }
  ~Guarded() { sodium_free(p_); }
  Guarded(const Guarded&) = delete;
  Guarded& operator=(const Guarded&) = delete;
  T& operator*() const { return *p_; }
  T* operator->() const { return p_; }

 private:
  T* p_;
};

void xor_bytes(std::uint8_t* out, const std::uint8_t* a, const std::uint8_t* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>(a[i] ^ b[i]);
}

// Keystream for up to four consecutive counter blocks.
void keystream_batch(const KeySchedule& ks, std::uint8_t* out, const std::uint8_t* counters) {
  Planes s;
  portable::load_blocks(s, counters);
  portable::encrypt_planes(ks, s);
  portable::store_blocks(out, s);
  sodium_memzero(&s, sizeof s);
}

class PortableBlockCipher final : public BlockCipher {
 public:
  explicit PortableBlockCipher(std::span<const std::uint8_t> key) {
    portable::expand_key(*ks_, key.data(), key.size());
  }

  void encrypt_blocks(std::uint8_t* out, const std::uint8_t* in, std::size_t blocks) const override {
    for (std::size_t done = 0; done < blocks; done += kBatchBlocks)
      portable::encrypt_batch(*ks_, out + 16 * done, in + 16 * done, std::min(kBatchBlocks, blocks - done));
  }

  void decrypt_blocks(std::uint8_t* out, const std::uint8_t* in, std::size_t blocks) const override {
    for (std::size_t done = 0; done < blocks; done += kBatchBlocks)
      portable::decrypt_batch(*ks_, out + 16 * done, in + 16 * done, std::min(kBatchBlocks, blocks - done));
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
    std::uint8_t counters[kBatchBytes];
    std::uint8_t stream[kBatchBytes];
    while (len > 0) {
      const std::size_t n = std::min(len, kBatchBytes);
      for (std::size_t b = 0; b < kBatchBlocks; ++b) {
        std::memcpy(counters + 16 * b, counter, 16);
        if (16 * b < n) increment128(counter);  // only blocks that are used consume a counter value
      }
      keystream_batch(*ks_, stream, counters);
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

  Guarded<KeySchedule> ks_;
};

struct GcmKey {
  KeySchedule ks;
  portable::GhashKey ghash;
};

class PortableGcm final : public Gcm {
 public:
  explicit PortableGcm(std::span<const std::uint8_t, kGcmKeyBytes> key) {
    portable::expand_key(key_->ks, key.data(), key.size());
    std::uint8_t h[16] = {};
    portable::encrypt_batch(key_->ks, h, h, 1);
    key_->ghash = portable::make_ghash_key(portable::load_block128(h));
    sodium_memzero(h, sizeof h);
  }

  void seal(std::uint8_t* out, std::uint8_t* tag, const std::uint8_t* in, std::size_t len,
            const std::uint8_t* aad, std::size_t aad_len, const std::uint8_t* nonce) const override {
    portable::Ghash ghash(key_->ghash);
    ghash.absorb(aad, aad_len);
    std::uint8_t tag_mask[16];
    crypt(out, in, len, nonce, tag_mask, &ghash);
    ghash.finish(tag, aad_len, len);
    xor_bytes(tag, tag, tag_mask, 16);
    sodium_memzero(tag_mask, sizeof tag_mask);
  }

  bool open(std::uint8_t* out, const std::uint8_t* in, std::size_t len, const std::uint8_t* tag,
            const std::uint8_t* aad, std::size_t aad_len, const std::uint8_t* nonce) const override {
    // Authenticate first, decrypt only after: no plaintext byte is written unless the tag is right.
    std::uint8_t expected[16];
    {
      portable::Ghash ghash(key_->ghash);
      ghash.absorb(aad, aad_len);
      ghash.absorb(in, len);
      ghash.finish(expected, aad_len, len);
    }
    std::uint8_t tag_mask[16];
    std::uint8_t j0[kBatchBytes];
    counter_blocks(j0, nonce, 1);
    keystream_batch(key_->ks, j0, j0);
    std::memcpy(tag_mask, j0, 16);
    xor_bytes(expected, expected, tag_mask, 16);
    const bool ok = crypto_verify_16(expected, tag) == 0;
    sodium_memzero(expected, sizeof expected);
    sodium_memzero(tag_mask, sizeof tag_mask);
    sodium_memzero(j0, sizeof j0);
    if (!ok) {
      sodium_memzero(out, len);
      return false;
    }
    std::uint8_t unused[16];
    crypt(out, in, len, nonce, unused, nullptr);
    sodium_memzero(unused, sizeof unused);
    return true;
  }

 private:
  // Four GCM counter blocks nonce || be32(first + b): inc32 wraps within the low 32 bits.
  static void counter_blocks(std::uint8_t* out, const std::uint8_t* nonce, std::uint32_t first) {
    for (std::size_t b = 0; b < kBatchBlocks; ++b) {
      std::uint8_t* block = out + 16 * b;
      const std::uint32_t c = first + static_cast<std::uint32_t>(b);
      std::memcpy(block, nonce, kGcmNonceBytes);
      block[12] = static_cast<std::uint8_t>(c >> 24);
      block[13] = static_cast<std::uint8_t>(c >> 16);
      block[14] = static_cast<std::uint8_t>(c >> 8);
      block[15] = static_cast<std::uint8_t>(c);
    }
  }

  // CTR from counter 2, plus E(J0) (the tag mask) into tag_mask. The first batch carries J0 in its slot 0 so
  // a short message costs one bitsliced call. If ghash is set, the output (ciphertext) is absorbed as it is
  // made.
  void crypt(std::uint8_t* out, const std::uint8_t* in, std::size_t len, const std::uint8_t* nonce,
             std::uint8_t* tag_mask, portable::Ghash* ghash) const {
    std::uint8_t blocks[kBatchBytes];
    counter_blocks(blocks, nonce, 1);
    keystream_batch(key_->ks, blocks, blocks);
    std::memcpy(tag_mask, blocks, 16);
    std::size_t n = std::min(len, kBatchBytes - 16);
    xor_bytes(out, in, blocks + 16, n);
    if (ghash != nullptr) ghash->absorb(out, n);

    std::uint32_t next = 5;
    for (std::size_t done = n; done < len; done += n, next += kBatchBlocks) {
      n = std::min(len - done, kBatchBytes);
      counter_blocks(blocks, nonce, next);
      keystream_batch(key_->ks, blocks, blocks);
      xor_bytes(out + done, in + done, blocks, n);
      if (ghash != nullptr) ghash->absorb(out + done, n);
    }
    sodium_memzero(blocks, sizeof blocks);
  }

  Guarded<GcmKey> key_;
};

}  // namespace

bool portable_supported() {
  return true;
}

std::unique_ptr<Gcm> make_portable_gcm(std::span<const std::uint8_t, kGcmKeyBytes> key) {
  return std::make_unique<PortableGcm>(key);
}

std::unique_ptr<BlockCipher> make_portable_block_cipher(std::span<const std::uint8_t> key) {
  if (key.size() != 16 && key.size() != 24 && key.size() != 32)
    throw std::invalid_argument("AES key must be 16, 24 or 32 bytes");
  return std::make_unique<PortableBlockCipher>(key);
}

}  // namespace pcrypt::aes::detail
