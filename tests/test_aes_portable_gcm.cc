// The portable engine's AES-256-GCM: known answers, a textbook SP 800-38D model, byte-for-byte agreement with
// libsodium on every length class, in-place use, and rejection of any tampering with out zeroed. Also a
// hidden throughput report
// (`test_aes_portable_gcm "[.bench]"`), which prints numbers and asserts nothing about speed.
#include <catch2/catch.hpp>

#include <time.h>

#include <array>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/aes/engine.h"
#include "tests/aes_vectors.h"
#include "tests/test_bytes.h"

namespace {

using pcrypt::aes::Gcm;
using pcrypt::test::Bytes;
using pcrypt::test::from_hex;
using pcrypt::test::random_bytes;

const pcrypt::aes::Engine& engine(const char* name) {
  const pcrypt::aes::Engine* e = pcrypt::aes::find_engine(name);
  REQUIRE(e != nullptr);
  return *e;
}

std::unique_ptr<Gcm> portable_gcm(const Bytes& key) {
  const auto& e = engine("portable");
  REQUIRE(e.supported());
  return e.make_gcm(std::span<const std::uint8_t, 32>(key.data(), 32));
}

// The portable GCM and libsodium's (the reference) under one key.
struct PortableAndReference {
  std::unique_ptr<Gcm> ours;
  std::unique_ptr<Gcm> reference;
};

// Empty (after a warning that the comparison is skipped) where libsodium's AES-256-GCM is not available.
std::optional<PortableAndReference> portable_and_reference(const Bytes& key) {
  const pcrypt::aes::Engine* sodium = aes_test::sodium_reference();
  if (sodium == nullptr) return std::nullopt;
  return PortableAndReference{portable_gcm(key), aes_test::make_gcm(*sodium, key)};
}

struct Sealed {
  Bytes ciphertext;
  Bytes tag;
};

// libsodium declares its buffer arguments nonnull even for length 0, so empty vectors get a dummy address.
std::uint8_t* nonnull(Bytes& b) {
  static std::uint8_t dummy;
  return b.empty() ? &dummy : b.data();
}
const std::uint8_t* nonnull(const Bytes& b) {
  return nonnull(const_cast<Bytes&>(b));
}

Sealed seal(const Gcm& gcm, const Bytes& msg, const Bytes& aad, const Bytes& nonce) {
  Sealed s{Bytes(msg.size()), Bytes(16)};
  gcm.seal(nonnull(s.ciphertext), s.tag.data(), nonnull(msg), msg.size(), nonnull(aad), aad.size(),
           nonce.data());
  return s;
}

// Lengths 0..300, then around every multiple of 64 up to 4 KiB (the bitsliced batch is 64 bytes).
std::vector<std::size_t> length_classes() {
  std::vector<std::size_t> lens;
  for (std::size_t n = 0; n <= 300; ++n) lens.push_back(n);
  for (std::size_t m = 320; m <= 4096; m += 64)
    for (std::size_t n : {m - 17, m - 16, m - 1, m, m + 1, m + 15, m + 16}) lens.push_back(n);
  return lens;
}

// ---- A textbook GCM (SP 800-38D): bit-serial GF(2^128) multiply (Algorithm 1) and CTR built from
// single-block encryption. Slow and obviously shaped like the spec; needs no AES-NI, unlike the libsodium
// comparison. ----

using Block = std::array<std::uint8_t, 16>;

Block textbook_mul(const Block& x, const Block& y) {
  Block z{}, v = y;
  for (int i = 0; i < 128; ++i) {
    if ((x[i / 8] >> (7 - i % 8)) & 1)
      for (int k = 0; k < 16; ++k) z[k] ^= v[k];
    const bool lsb = v[15] & 1;
    for (int k = 15; k > 0; --k) v[k] = static_cast<std::uint8_t>((v[k] >> 1) | (v[k - 1] << 7));
    v[0] >>= 1;
    if (lsb) v[0] ^= 0xE1;
  }
  return z;
}

void textbook_ghash_absorb(Block& y, const Block& h, const Bytes& data) {
  for (std::size_t off = 0; off < data.size(); off += 16) {
    for (std::size_t k = 0; k < 16 && off + k < data.size(); ++k) y[k] ^= data[off + k];
    y = textbook_mul(y, h);
  }
}

Sealed textbook_seal(const Bytes& key, const Bytes& msg, const Bytes& aad, const Bytes& nonce) {
  const auto aes =
      engine("portable").make_block_cipher(key);  // raw AES: FIPS-197-checked in test_aes_portable
  Block h{}, j0{}, y{};
  aes->encrypt_blocks(h.data(), h.data(), 1);
  std::copy(nonce.begin(), nonce.end(), j0.begin());
  j0[15] = 1;
  Sealed s{Bytes(msg.size()), Bytes(16)};
  std::uint32_t counter = 1;
  for (std::size_t off = 0; off < msg.size(); off += 16) {
    Block cb = j0, ks{};
    ++counter;
    for (int k = 0; k < 4; ++k) cb[15 - k] = static_cast<std::uint8_t>(counter >> (8 * k));
    aes->encrypt_blocks(ks.data(), cb.data(), 1);
    for (std::size_t k = 0; k < 16 && off + k < msg.size(); ++k) s.ciphertext[off + k] = msg[off + k] ^ ks[k];
  }
  textbook_ghash_absorb(y, h, aad);
  textbook_ghash_absorb(y, h, s.ciphertext);
  Bytes lengths(16);
  for (int k = 0; k < 8; ++k) {
    lengths[7 - k] = static_cast<std::uint8_t>((aad.size() * 8) >> (8 * k));
    lengths[15 - k] = static_cast<std::uint8_t>((msg.size() * 8) >> (8 * k));
  }
  textbook_ghash_absorb(y, h, lengths);
  Block mask{};
  aes->encrypt_blocks(mask.data(), j0.data(), 1);
  for (int k = 0; k < 16; ++k) s.tag[k] = y[k] ^ mask[k];
  return s;
}

}  // namespace

TEST_CASE("GCM equals a textbook SP 800-38D model (bit-serial GHASH) on varied lengths") {
  const Bytes key = random_bytes(32);
  const auto gcm = portable_gcm(key);
  for (std::size_t len :
       {0, 1, 15, 16, 17, 47, 48, 63, 64, 65, 111, 112, 113, 127, 128, 129, 255, 256, 300, 1000}) {
    for (std::size_t aad_len : {0, 1, 16, 63, 64, 65, 130}) {
      INFO("len " << len << " aad " << aad_len);
      const Bytes msg = random_bytes(len), aad = random_bytes(aad_len), nonce = random_bytes(12);
      const Sealed expected = textbook_seal(key, msg, aad, nonce);
      const Sealed got = seal(*gcm, msg, aad, nonce);
      REQUIRE(got.ciphertext == expected.ciphertext);
      REQUIRE(got.tag == expected.tag);
    }
  }
}

TEST_CASE("GCM known answers (McGrew-Viega test cases 13 and 14, AES-256)") {
  const Bytes zero_key(32, 0), zero_nonce(12, 0);
  const auto gcm = portable_gcm(zero_key);
  const Sealed empty = seal(*gcm, {}, {}, zero_nonce);
  REQUIRE(empty.tag == from_hex("530f8afbc74536b9a963b4f1c4cb738b"));
  const Sealed one_block = seal(*gcm, Bytes(16, 0), {}, zero_nonce);
  REQUIRE(one_block.ciphertext == from_hex("cea7403d4d606b6e074ec5d3baf39d18"));
  REQUIRE(one_block.tag == from_hex("d0d1c8a799996bf0265b98b5d48ab919"));
}

TEST_CASE("GCM seal/open match libsodium byte for byte on all length classes") {
  const auto gcms = portable_and_reference(random_bytes(32));
  if (!gcms) return;
  const auto& [ours, reference] = *gcms;
  std::size_t i = 0;
  for (std::size_t len : length_classes()) {
    // AAD lengths cycle through 0..70 so both hash inputs see partial and whole blocks.
    const Bytes msg = random_bytes(len), aad = random_bytes((i++ * 7) % 71), nonce = random_bytes(12);
    INFO("len " << len << " aad " << aad.size());
    const Sealed mine = seal(*ours, msg, aad, nonce);
    const Sealed theirs = seal(*reference, msg, aad, nonce);
    REQUIRE(mine.ciphertext == theirs.ciphertext);
    REQUIRE(mine.tag == theirs.tag);
    Bytes back(len, 0xAA);
    REQUIRE(ours->open(nonnull(back), nonnull(theirs.ciphertext), len, theirs.tag.data(), nonnull(aad),
                       aad.size(), nonce.data()));
    REQUIRE(back == msg);
  }
}

TEST_CASE("GCM AAD-only messages (pure GHASH) match libsodium") {
  const auto gcms = portable_and_reference(random_bytes(32));
  if (!gcms) return;
  const auto& [ours, reference] = *gcms;
  for (std::size_t aad_len = 0; aad_len <= 300; ++aad_len) {
    INFO("aad " << aad_len);
    const Bytes aad = random_bytes(aad_len), nonce = random_bytes(12);
    REQUIRE(seal(*ours, {}, aad, nonce).tag == seal(*reference, {}, aad, nonce).tag);
  }
}

TEST_CASE("GCM in place: seal then open on the same buffer") {
  const auto gcm = portable_gcm(random_bytes(32));
  for (std::size_t len : {0, 1, 47, 48, 49, 64, 200, 1000}) {
    INFO("len " << len);
    const Bytes msg = random_bytes(len), aad = random_bytes(13), nonce = random_bytes(12);
    const Sealed expected = seal(*gcm, msg, aad, nonce);
    Bytes buf = msg, tag(16);
    gcm->seal(buf.data(), tag.data(), buf.data(), len, aad.data(), aad.size(), nonce.data());
    REQUIRE(buf == expected.ciphertext);
    REQUIRE(tag == expected.tag);
    REQUIRE(gcm->open(buf.data(), buf.data(), len, tag.data(), aad.data(), aad.size(), nonce.data()));
    REQUIRE(buf == msg);
  }
}

TEST_CASE("GCM open rejects any tampering and releases no plaintext") {
  const auto gcm = portable_gcm(random_bytes(32));
  const Bytes msg = random_bytes(300), aad = random_bytes(20), nonce = random_bytes(12);
  const Sealed good = seal(*gcm, msg, aad, nonce);

  const auto rejected = [&](Bytes ct, Bytes tag, Bytes ad, Bytes iv, std::size_t len) {
    Bytes out(len, 0xAA);
    const bool ok = gcm->open(out.data(), ct.data(), len, tag.data(), ad.data(), ad.size(), iv.data());
    const bool zeroed = out == Bytes(len, 0);
    // In place as well: the ciphertext buffer itself must end up zeroed.
    const bool ok_in_place =
        gcm->open(ct.data(), ct.data(), len, tag.data(), ad.data(), ad.size(), iv.data());
    const bool zeroed_in_place = Bytes(ct.begin(), ct.begin() + static_cast<long>(len)) == Bytes(len, 0);
    return !ok && zeroed && !ok_in_place && zeroed_in_place;
  };
  const auto flip = [](Bytes b, std::size_t i, std::uint8_t mask) {
    b[i] ^= mask;
    return b;
  };

  for (std::size_t i : {0, 15, 16, 150, 299})
    CHECK(rejected(flip(good.ciphertext, i, 0x01), good.tag, aad, nonce, 300));
  for (std::size_t i = 0; i < 16; ++i)
    CHECK(rejected(good.ciphertext, flip(good.tag, i, 0x80), aad, nonce, 300));
  CHECK(rejected(good.ciphertext, good.tag, flip(aad, 19, 0x40), nonce, 300));
  CHECK(rejected(good.ciphertext, good.tag, Bytes(aad.begin(), aad.end() - 1), nonce, 300));
  CHECK(rejected(good.ciphertext, good.tag, aad, flip(nonce, 11, 0x01), 300));
  CHECK(rejected(good.ciphertext, good.tag, aad, nonce, 299));  // truncated
  // The untouched message still opens (the checks above are not rejecting everything).
  Bytes out(300);
  REQUIRE(gcm->open(out.data(), good.ciphertext.data(), 300, good.tag.data(), aad.data(), aad.size(),
                    nonce.data()));
  REQUIRE(out == msg);
}

TEST_CASE("GCM: one instance shared by several threads gives each the single-threaded result") {
  const auto gcm = portable_gcm(random_bytes(32));
  constexpr int kThreads = 4;
  std::vector<Bytes> msgs, nonces;
  std::vector<Sealed> expected;
  for (int t = 0; t < kThreads; ++t) {
    msgs.push_back(random_bytes(3000 + 17 * static_cast<std::size_t>(t)));
    nonces.push_back(random_bytes(12));
    expected.push_back(seal(*gcm, msgs.back(), {}, nonces.back()));
  }
  std::vector<int> mismatches(kThreads, 0);
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 20; ++round) {
        const Sealed got = seal(*gcm, msgs[t], {}, nonces[t]);
        Bytes back(msgs[t].size());
        const bool opened = gcm->open(back.data(), got.ciphertext.data(), back.size(), got.tag.data(),
                                      nullptr, 0, nonces[t].data());
        if (got.ciphertext != expected[t].ciphertext || got.tag != expected[t].tag || !opened ||
            back != msgs[t])
          ++mismatches[t];
      }
    });
  for (auto& th : threads) th.join();
  REQUIRE(mismatches == std::vector<int>(kThreads, 0));
}

TEST_CASE("portable engine is always supported and registered") {
  const auto& e = engine("portable");
  REQUIRE(e.supported());
  REQUIRE(e.make_block_cipher != nullptr);
}

TEST_CASE("portable throughput report", "[.bench]") {
  // Thread CPU time, not wall time: on a shared, loaded machine it still measures the code, not the
  // scheduler.
  const auto cpu_seconds = [] {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  };
  const auto rate = [&](std::size_t bytes_per_iter, auto&& fn) {
    std::size_t iters = 0;
    const double start = cpu_seconds();
    double seconds = 0;
    do {
      for (int r = 0; r < 16; ++r) fn();  // keeps the clock reads out of small-message timings
      iters += 16;
      seconds = cpu_seconds() - start;
    } while (seconds < 0.5);
    return static_cast<double>(bytes_per_iter * iters) / seconds / 1e6;  // MB/s
  };
  std::printf("(MB/s = 10^6 bytes per second of thread CPU time)\n");

  const Bytes key = random_bytes(32), nonce = random_bytes(12);
  Bytes buf = random_bytes(64 * 1024), tag(16);
  const auto ours = portable_gcm(key);
  const double portable_mbs = rate(buf.size(), [&] {
    ours->seal(buf.data(), tag.data(), buf.data(), buf.size(), nullptr, 0, nonce.data());
  });
  std::printf("portable AES-256-GCM seal, 64 KiB: %.1f MB/s\n", portable_mbs);
  if (const pcrypt::aes::Engine* sodium = aes_test::sodium_reference()) {
    const auto ref = aes_test::make_gcm(*sodium, key);
    const double sodium_mbs = rate(buf.size(), [&] {
      ref->seal(buf.data(), tag.data(), buf.data(), buf.size(), nullptr, 0, nonce.data());
    });
    std::printf("sodium   AES-256-GCM seal, 64 KiB: %.1f MB/s  (sodium/portable = %.1fx)\n", sodium_mbs,
                sodium_mbs / portable_mbs);
  }
  for (std::size_t small : {16, 1024}) {
    Bytes msg = random_bytes(small);
    const double seal_mbs =
        rate(small, [&] { ours->seal(msg.data(), tag.data(), msg.data(), small, nullptr, 0, nonce.data()); });
    ours->seal(msg.data(), tag.data(), msg.data(), small, nullptr, 0, nonce.data());
    Bytes opened(small);
    bool all_opened = true;
    const double open_mbs = rate(small, [&] {
      all_opened &= ours->open(opened.data(), msg.data(), small, tag.data(), nullptr, 0, nonce.data());
    });
    REQUIRE(all_opened);
    std::printf("portable AES-256-GCM %zu B messages: seal %.1f MB/s, open %.1f MB/s\n", small, seal_mbs,
                open_mbs);
  }
  const double ghash_mbs = rate(
      buf.size(), [&] { ours->seal(nullptr, tag.data(), nullptr, 0, buf.data(), buf.size(), nonce.data()); });
  std::printf("portable GHASH alone (64 KiB of AAD): %.1f MB/s\n", ghash_mbs);
  Bytes blocks = random_bytes(4096);
  for (std::size_t key_len : {16, 24, 32}) {
    const auto aes = engine("portable").make_block_cipher(random_bytes(key_len));
    const double enc = rate(blocks.size(), [&] { aes->encrypt_blocks(blocks.data(), blocks.data(), 256); });
    const double dec = rate(blocks.size(), [&] { aes->decrypt_blocks(blocks.data(), blocks.data(), 256); });
    std::printf("portable AES-%zu blocks: encrypt %.1f MB/s, decrypt %.1f MB/s\n", key_len * 8, enc, dec);
  }
  std::fflush(stdout);
}
