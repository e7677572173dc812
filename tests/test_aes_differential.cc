// Differential tests: every supported engine against the reference (libsodium's AES-256-GCM, or the portable
// engine where libsodium has none, see aes_test::gcm_reference) on random keys,
// nonces, AAD and every length class (every length 0..1023 against guard pages: every tail, alone and after
// one bulk batch of the widest engine), in place and out of place, at unaligned addresses; cross-engine
// opening; tamper rejection; and raw AES / CTR agreement across engines, including counter wrap-arounds.
#include <sodium.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <random>
#include <thread>

#include "tests/aes_vectors.h"

using aes_test::Bytes;
using aes_test::ptr;
using pcrypt::aes::Engine;

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr int kRandomCases = 150;
constexpr std::size_t kLargest = 1 << 20;
#else
constexpr int kRandomCases = 1500;
constexpr std::size_t kLargest = 3 << 20;
#endif

// Reproducible: the seed is printed with any failure and can be forced with PCRYPT_TEST_SEED.
std::uint64_t test_seed() {
  static const std::uint64_t seed = [] {
    const char* env = std::getenv("PCRYPT_TEST_SEED");
    return env != nullptr ? std::strtoull(env, nullptr, 0) : std::random_device{}() * 0x9e3779b97f4a7c15ULL;
  }();
  return seed;
}

struct Rng {
  std::mt19937_64 gen{test_seed()};
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(gen() % n); }
  void fill(std::uint8_t* p, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::uint8_t>(gen());
  }
  Bytes bytes(std::size_t n) {
    Bytes b(n);
    fill(b.data(), n);
    return b;
  }
};

// Every length class the engines special-case: empty, sub-block, one block, around every batch width the
// engines use (8 and 16 blocks, and their multiples), and a few large ones.
std::vector<std::size_t> length_classes() {
  std::vector<std::size_t> lens;
  for (std::size_t n = 0; n <= 300; ++n) lens.push_back(n);
  for (std::size_t m = 384; m <= 4096; m += 128)
    for (std::size_t d : {m - 17, m - 16, m - 15, m - 1, m, m + 1, m + 15, m + 16, m + 17}) lens.push_back(d);
  for (std::size_t big : {std::size_t{16384}, std::size_t{65536}, std::size_t{1} << 20})
    for (std::size_t d : {big - 1, big, big + 1, big + 113}) lens.push_back(d);
  lens.push_back(kLargest + 77);
  return lens;
}

// A buffer whose data starts at a chosen misalignment.
struct Buffer {
  Bytes storage;
  std::uint8_t* data;
  Buffer(std::size_t n, std::size_t misalign) : storage(n + 64), data(storage.data() + misalign) {}
};

// Engines with a Gcm other than the reference, supported here.
std::vector<const Engine*> gcm_engines(const Engine* reference) {
  std::vector<const Engine*> out;
  for (const Engine* e : aes_test::engines_under_test(false))
    if (e != reference) out.push_back(e);
  return out;
}

}  // namespace

TEST_CASE("every engine seals exactly like the reference and opens what the reference sealed") {
  const Engine* reference = aes_test::gcm_reference();
  const auto engines = gcm_engines(reference);
  Rng rng;
  INFO("seed " << test_seed() << " (set PCRYPT_TEST_SEED to repeat)");
  std::vector<std::size_t> lens = length_classes();
  for (int i = 0; i < kRandomCases; ++i) lens.push_back(rng.below(9000));
  // A fresh random key every kCasesPerKey cases, each engine keyed once for them: a keyed instance lives in
  // guarded memory (sodium_malloc: mmap, mprotect, mlock), and making one per case and engine was most of
  // this test's time, in the kernel. Over a run that is still ~130 random keys for every engine, each
  // sealing 8 length classes, where a key-schedule defect would show in almost any key.
  constexpr std::size_t kCasesPerKey = 8;
  Bytes key;
  std::unique_ptr<pcrypt::aes::Gcm> ref_gcm;
  std::vector<std::unique_ptr<pcrypt::aes::Gcm>> gcms;
  std::size_t case_no = 0;
  for (std::size_t len : lens) {
    if (case_no % kCasesPerKey == 0) {
      key = rng.bytes(32);
      ref_gcm = aes_test::make_gcm(*reference, key);
      gcms.clear();
      for (const Engine* e : engines) gcms.push_back(aes_test::make_gcm(*e, key));
    }
    ++case_no;
    const Bytes nonce = rng.bytes(12), msg = rng.bytes(len);
    const std::size_t aad_len = case_no % 7 == 0 ? rng.below(1000) : rng.below(40);
    const Bytes aad = rng.bytes(aad_len);
    Bytes ref_ct(len), ref_tag(16);
    ref_gcm->seal(ptr(ref_ct), ptr(ref_tag), ptr(msg), len, ptr(aad), aad_len, ptr(nonce));
    for (std::size_t engine_no = 0; engine_no < engines.size(); ++engine_no) {
      const Engine* e = engines[engine_no];
      INFO("engine " << e->name << ", len " << len << ", aad_len " << aad_len);
      pcrypt::aes::Gcm* gcm = gcms[engine_no].get();
      const bool in_place = case_no % 2 == 0;
      Buffer in(len, rng.below(16)), out(len, rng.below(16)), tag(16, rng.below(16));
      std::memcpy(in.data, ptr(msg), len);
      std::uint8_t* dst = in_place ? in.data : out.data;
      gcm->seal(dst, tag.data, in.data, len, ptr(aad), aad_len, ptr(nonce));
      REQUIRE(std::equal(ref_ct.begin(), ref_ct.end(), dst));
      REQUIRE(std::equal(ref_tag.begin(), ref_tag.end(), tag.data));

      Buffer back(len, rng.below(16));
      std::memcpy(in.data, ptr(ref_ct), len);
      std::uint8_t* pt = in_place ? in.data : back.data;
      REQUIRE(gcm->open(pt, in.data, len, ptr(ref_tag), ptr(aad), aad_len, ptr(nonce)));
      REQUIRE(std::equal(msg.begin(), msg.end(), pt));
    }
  }
}

// n bytes that end exactly where an inaccessible guard page begins (libsodium's guarded allocation places
// the user region at the end of its last page): an engine that reads or writes even one byte past a
// message's end (a too-wide tail load or store) crashes the test instead of passing silently.
class Guarded {
 public:
  explicit Guarded(std::size_t n) : base_(static_cast<std::uint8_t*>(sodium_malloc(n + 1))) {
    if (base_ == nullptr) throw std::bad_alloc();
  }
  ~Guarded() { sodium_free(base_); }
  Guarded(const Guarded&) = delete;
  Guarded& operator=(const Guarded&) = delete;
  std::uint8_t* data() { return base_ + 1; }  // valid (one spare byte before) even for n == 0

 private:
  std::uint8_t* base_;
};

// vaes512 works in batches of 512 bytes, so 0..1023 is every tail alone and after one batch.
TEST_CASE("every length 0..1023 (and around 4 KiB, 64 KiB) matches the reference, AAD or not") {
  const Engine* reference = aes_test::gcm_reference();
  const auto engines = gcm_engines(reference);
  Rng rng;
  INFO("seed " << test_seed() << " (set PCRYPT_TEST_SEED to repeat)");
  std::vector<std::size_t> lens;
  for (std::size_t n = 0; n < 1024; ++n) lens.push_back(n);
  for (std::size_t big : {std::size_t{1024}, std::size_t{4096}, std::size_t{65536}})
    for (std::size_t d : {big - 17, big - 16, big - 1, big, big + 1, big + 15, big + 16, big + 255})
      lens.push_back(d);
  const Bytes key = rng.bytes(32);
  std::vector<std::unique_ptr<pcrypt::aes::Gcm>> gcms;
  gcms.reserve(engines.size());
  for (const Engine* e : engines) gcms.push_back(aes_test::make_gcm(*e, key));
  const auto ref = aes_test::make_gcm(*reference, key);
  for (std::size_t len : lens) {
    // No AAD, and AAD whose own length also sweeps 1..1023 bytes.
    for (std::size_t aad_len : {std::size_t{0}, 1 + (len * 7) % 1023}) {
      const Bytes nonce = rng.bytes(12), msg = rng.bytes(len), aad = rng.bytes(aad_len);
      Bytes ref_ct(len), ref_tag(16);
      ref->seal(ptr(ref_ct), ptr(ref_tag), ptr(msg), len, ptr(aad), aad_len, ptr(nonce));
      // Input, output and AAD each end at a guard page.
      Guarded in_buf(len), out_buf(len), aad_buf(aad_len);
      std::uint8_t* in = in_buf.data();
      std::uint8_t* out = out_buf.data();
      std::uint8_t* guarded_aad = aad_buf.data();
      if (aad_len > 0) std::memcpy(guarded_aad, aad.data(), aad_len);
      for (std::size_t i = 0; i < engines.size(); ++i) {
        INFO("engine " << engines[i]->name << ", len " << len << ", aad_len " << aad_len);
        const bool in_place = (len + i) % 2 == 0;
        std::uint8_t* dst = in_place ? in : out;
        if (len > 0) std::memcpy(in, msg.data(), len);
        std::uint8_t tag[16];
        gcms[i]->seal(dst, tag, in, len, guarded_aad, aad_len, ptr(nonce));
        REQUIRE(std::equal(ref_ct.begin(), ref_ct.end(), dst));
        REQUIRE(std::equal(ref_tag.begin(), ref_tag.end(), tag));

        if (len > 0) std::memcpy(in, ref_ct.data(), len);
        REQUIRE(gcms[i]->open(dst, in, len, tag, guarded_aad, aad_len, ptr(nonce)));
        REQUIRE(std::equal(msg.begin(), msg.end(), dst));

        // A wrong tag: refused, and the output left all zero.
        if (len > 0) std::memcpy(in, ref_ct.data(), len);
        tag[len % 16] ^= 0x01;
        REQUIRE_FALSE(gcms[i]->open(dst, in, len, tag, guarded_aad, aad_len, ptr(nonce)));
        REQUIRE(std::all_of(dst, dst + len, [](std::uint8_t b) { return b == 0; }));
      }
    }
  }
}

// AES-128-GCM: libsodium has none, so the reference is the portable engine (itself checked against
// Wycheproof's AES-128-GCM vectors in test_aes_kat.cc). Every tail alone and after a vaes512 batch, larger
// messages around the batch widths, random AAD, in place and not, against guard pages; tamper rejection.
TEST_CASE("AES-128-GCM: every engine matches the portable engine on every length class, both ways") {
  const Engine* portable = pcrypt::aes::find_engine("portable");
  REQUIRE(portable != nullptr);
  std::vector<const Engine*> engines;
  for (const Engine* e : aes_test::gcm128_engines_under_test())
    if (e != portable) engines.push_back(e);
  Rng rng;
  INFO("seed " << test_seed() << " (set PCRYPT_TEST_SEED to repeat)");
  std::vector<std::size_t> lens;
  for (std::size_t n = 0; n < 1024; ++n) lens.push_back(n);
  for (std::size_t big : {std::size_t{4096}, std::size_t{16384}, std::size_t{65536}, kLargest})
    for (std::size_t d : {big - 17, big - 1, big, big + 1, big + 16, big + 255}) lens.push_back(d);
  const Bytes key = rng.bytes(16);
  std::vector<std::unique_ptr<pcrypt::aes::Gcm>> gcms;
  gcms.reserve(engines.size());
  for (const Engine* e : engines) gcms.push_back(aes_test::make_gcm(*e, key));
  const auto ref = aes_test::make_gcm(*portable, key);
  for (std::size_t len : lens) {
    const std::size_t aad_len = len % 3 == 0 ? 0 : 1 + (len * 7) % 300;
    const Bytes nonce = rng.bytes(12), msg = rng.bytes(len), aad = rng.bytes(aad_len);
    Bytes ref_ct(len), ref_tag(16);
    ref->seal(ptr(ref_ct), ptr(ref_tag), ptr(msg), len, ptr(aad), aad_len, ptr(nonce));
    Guarded in_buf(len), out_buf(len);
    std::uint8_t* in = in_buf.data();
    std::uint8_t* out = out_buf.data();
    for (std::size_t i = 0; i < engines.size(); ++i) {
      INFO("engine " << engines[i]->name << ", len " << len << ", aad_len " << aad_len);
      const bool in_place = (len + i) % 2 == 0;
      std::uint8_t* dst = in_place ? in : out;
      if (len > 0) std::memcpy(in, msg.data(), len);
      std::uint8_t tag[16];
      gcms[i]->seal(dst, tag, in, len, ptr(aad), aad_len, ptr(nonce));
      REQUIRE(std::equal(ref_ct.begin(), ref_ct.end(), dst));
      REQUIRE(std::equal(ref_tag.begin(), ref_tag.end(), tag));
      if (len > 0) std::memcpy(in, ref_ct.data(), len);
      REQUIRE(gcms[i]->open(dst, in, len, tag, ptr(aad), aad_len, ptr(nonce)));
      REQUIRE(std::equal(msg.begin(), msg.end(), dst));
      if (len > 0) std::memcpy(in, ref_ct.data(), len);
      tag[len % 16] ^= 0x01;
      REQUIRE_FALSE(gcms[i]->open(dst, in, len, tag, ptr(aad), aad_len, ptr(nonce)));
      REQUIRE(std::all_of(dst, dst + len, [](std::uint8_t b) { return b == 0; }));
    }
    // The portable engine opens what the last engine sealed (the other direction of the comparison).
    if (!engines.empty()) {
      Bytes ct(len), tag(16), back(len);
      gcms.back()->seal(ptr(ct), ptr(tag), ptr(msg), len, ptr(aad), aad_len, ptr(nonce));
      REQUIRE(ref->open(ptr(back), ptr(ct), len, ptr(tag), ptr(aad), aad_len, ptr(nonce)));
      REQUIRE(back == msg);
    }
  }
}

TEST_CASE("AES-128-GCM and AES-256-GCM of one engine differ (the round count is not lost)") {
  // The 16-byte key zero-extended to 32 bytes must not give the AES-128 answer, nor the reverse.
  for (const Engine* e : aes_test::gcm128_engines_under_test()) {
    INFO("engine " << e->name);
    Bytes key16(16, 0x42), key32(32, 0);
    std::memcpy(key32.data(), key16.data(), 16);
    const Bytes nonce(12, 1), msg(600, 2);
    Bytes a(600), b(600), ta(16), tb(16);
    aes_test::make_gcm(*e, key16)->seal(a.data(), ta.data(), msg.data(), 600, nullptr, 0, nonce.data());
    aes_test::make_gcm(*e, key32)->seal(b.data(), tb.data(), msg.data(), 600, nullptr, 0, nonce.data());
    CHECK(a != b);
    CHECK(ta != tb);
  }
}

TEST_CASE("each engine opens what each other engine sealed") {
  std::vector<const Engine*> engines = aes_test::engines_under_test(false);
  Rng rng;
  INFO("seed " << test_seed());
  for (std::size_t len :
       {std::size_t{0}, std::size_t{15}, std::size_t{129}, std::size_t{1000}, std::size_t{4097}}) {
    const Bytes key = rng.bytes(32), nonce = rng.bytes(12), msg = rng.bytes(len), aad = rng.bytes(len % 50);
    for (const Engine* sealer : engines) {
      Bytes ct(len), tag(16);
      aes_test::make_gcm(*sealer, key)
          ->seal(ptr(ct), ptr(tag), ptr(msg), len, ptr(aad), aad.size(), ptr(nonce));
      for (const Engine* opener : engines) {
        INFO(sealer->name << " sealed, " << opener->name << " opened, len " << len);
        Bytes pt(len);
        REQUIRE(aes_test::make_gcm(*opener, key)
                    ->open(ptr(pt), ptr(ct), len, ptr(tag), ptr(aad), aad.size(), ptr(nonce)));
        REQUIRE(pt == msg);
      }
    }
  }
}

TEST_CASE("a flipped bit in ciphertext, tag, AAD or nonce is rejected and nothing is released") {
  const auto engines = aes_test::engines_under_test(false);
  Rng rng;
  INFO("seed " << test_seed());
  const std::size_t lens[] = {0, 1, 16, 100, 128, 255, 256, 513, 4096, 70000};
  for (const Engine* e : engines) {
    for (std::size_t len : lens) {
      for (int target = 0; target < 4; ++target) {  // 0 ciphertext, 1 tag, 2 AAD, 3 nonce
        if (target == 0 && len == 0) continue;
        const Bytes key = rng.bytes(32), msg = rng.bytes(len);
        Bytes nonce = rng.bytes(12), aad = rng.bytes(1 + rng.below(64)), ct(len), tag(16);
        auto gcm = aes_test::make_gcm(*e, key);
        gcm->seal(ptr(ct), ptr(tag), ptr(msg), len, ptr(aad), aad.size(), ptr(nonce));
        Bytes& victim = target == 0 ? ct : target == 1 ? tag : target == 2 ? aad : nonce;
        const std::size_t bit = rng.below(victim.size() * 8);
        victim[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
        INFO("engine " << e->name << ", len " << len << ", target " << target << ", bit " << bit);
        Bytes pt(len, 0x5a);
        CHECK_FALSE(gcm->open(ptr(pt), ptr(ct), len, ptr(tag), ptr(aad), aad.size(), ptr(nonce)));
        CHECK(pt == Bytes(len, 0));
        // In place: the ciphertext buffer itself must come back zeroed.
        CHECK_FALSE(gcm->open(ptr(ct), ptr(ct), len, ptr(tag), ptr(aad), aad.size(), ptr(nonce)));
        CHECK(ct == Bytes(len, 0));
      }
    }
  }
}

namespace {

// The reference CTR: the engine's own ECB of explicitly incremented 128-bit big-endian counters.
Bytes reference_ctr(const pcrypt::aes::BlockCipher& aes, const Bytes& in, Bytes& counter) {
  Bytes out(in.size());
  for (std::size_t off = 0; off < in.size(); off += 16) {
    std::uint8_t ks[16];
    aes.encrypt_blocks(ks, counter.data(), 1);
    for (std::size_t i = 0; i < 16 && off + i < in.size(); ++i) out[off + i] = in[off + i] ^ ks[i];
    for (int b = 15; b >= 0 && ++counter[static_cast<std::size_t>(b)] == 0; --b) {
    }
  }
  return out;
}

}  // namespace

TEST_CASE("raw AES and CTR agree across engines, including counter wrap at 2^32, 2^64 and 2^128") {
  const auto engines = aes_test::engines_under_test(true);
  Rng rng;
  INFO("seed " << test_seed());
  const char* counter_patterns[] = {
      nullptr,                             // random
      "000000000000000000000000fffffff0",  // 2^32 wrap: must carry into byte 11 (not GCM's inc32)
      "0123456789abcdef00000000fffffffb",  //
      "0123456789abcdefffffffffffffffee",  // 2^64 wrap: carry crosses the 64-bit halves
      "00000000000000fffffffffffffffff9",  //
      "fffffffffffffffffffffffffffffff3",  // 2^128 wrap: back to all zeros
      "ffffffffffffffffffffffffffffffff",  //
  };
  const int reps = 40;
  for (int rep = 0; rep < reps; ++rep) {
    const std::size_t key_len = 16 + 8 * rng.below(3);
    const Bytes key = rng.bytes(key_len);
    const std::size_t len = rep < 4 ? rng.below(70000) : rng.below(600);
    const Bytes msg = rng.bytes(len);
    const char* pattern = counter_patterns[rep % std::size(counter_patterns)];
    const Bytes start = pattern != nullptr ? aes_test::from_hex(pattern) : rng.bytes(16);

    Bytes want_ct, want_counter, want_ecb, want_ecb_back;
    const std::size_t blocks = len / 16;
    for (const Engine* e : engines) {
      INFO("engine " << e->name << ", AES-" << key_len * 8 << ", len " << len << ", counter "
                     << aes_test::to_hex(start));
      auto aes = e->make_block_cipher(key);
      Bytes ref_counter = start;
      const Bytes ref = reference_ctr(*aes, msg, ref_counter);

      Bytes counter = start;
      Buffer out(len, rng.below(16));
      aes->ctr_xor(out.data, ptr(msg), len, counter.data());
      REQUIRE(std::equal(ref.begin(), ref.end(), out.data));
      REQUIRE(counter == ref_counter);

      // In place, and split into pieces at block boundaries: the counter carries over between calls.
      Bytes inplace = msg;
      counter = start;
      std::size_t off = 0;
      while (off < len) {
        const std::size_t piece = std::min(len - off, 16 * (1 + rng.below(20)));
        aes->ctr_xor(inplace.data() + off, inplace.data() + off, piece, counter.data());
        off += piece;
      }
      REQUIRE(inplace == ref);
      REQUIRE(counter == ref_counter);

      // The keystream alone is CTR of zeros.
      counter = start;
      Bytes ks(len);
      aes->ctr_keystream(ptr(ks), len, counter.data());
      Bytes zero_counter = start;
      REQUIRE(ks == reference_ctr(*aes, Bytes(len, 0), zero_counter));
      REQUIRE(counter == ref_counter);

      Bytes ecb(blocks * 16), ecb_back(blocks * 16);
      aes->encrypt_blocks(ptr(ecb), ptr(msg), blocks);
      aes->decrypt_blocks(ptr(ecb_back), ptr(ecb), blocks);
      REQUIRE(std::equal(ecb_back.begin(), ecb_back.end(), msg.begin()));

      if (want_ct.empty() && want_counter.empty()) {
        want_ct = ref;
        want_counter = ref_counter;
        want_ecb = ecb;
      } else {
        REQUIRE(ref == want_ct);  // engines agree with each other, not only with themselves
        REQUIRE(ref_counter == want_counter);
        REQUIRE(ecb == want_ecb);
      }
    }
  }
}

TEST_CASE("counter wrap at 2^128 matches explicit values") {
  // Independent of any engine's counter logic: CTR from the all-ones counter uses blocks ff..ff then 00..00.
  for (const Engine* e : aes_test::engines_under_test(true)) {
    INFO("engine " << e->name);
    const Bytes key(32, 7);
    auto aes = e->make_block_cipher(key);
    Bytes counters = aes_test::from_hex("ffffffffffffffffffffffffffffffff00000000000000000000000000000000");
    Bytes expected(32);
    aes->encrypt_blocks(expected.data(), counters.data(), 2);
    Bytes counter = aes_test::from_hex("ffffffffffffffffffffffffffffffff"), ks(32);
    aes->ctr_keystream(ks.data(), 32, counter.data());
    CHECK(ks == expected);
    CHECK(aes_test::to_hex(counter) == "00000000000000000000000000000001");
  }
}

TEST_CASE("one keyed instance serves several threads at once (as the pipeline workers share it)") {
  const auto engines = aes_test::engines_under_test(false);
  Rng rng;
  INFO("seed " << test_seed());
  constexpr int kThreads = 4;
  constexpr int kMessages = 24;
  for (const Engine* e : engines) {
    INFO("engine " << e->name);
    const Bytes key = rng.bytes(32);
    auto gcm = aes_test::make_gcm(*e, key);
    std::vector<Bytes> msgs, nonces, want_ct, want_tag;
    for (int i = 0; i < kMessages; ++i) {
      msgs.push_back(rng.bytes(1 + rng.below(5000)));
      nonces.push_back(rng.bytes(12));
      want_ct.emplace_back(msgs.back().size());
      want_tag.emplace_back(16);
      gcm->seal(ptr(want_ct.back()), ptr(want_tag.back()), ptr(msgs.back()), msgs.back().size(), nullptr, 0,
                ptr(nonces.back()));
    }
    std::vector<int> mismatches(kThreads, 0);
    std::vector<std::thread> threads;
    threads.reserve(kThreads);
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        for (int round = 0; round < 5; ++round)
          for (int i = t; i < kMessages; i += kThreads) {
            Bytes ct(msgs[i].size()), tag(16), pt(msgs[i].size());
            gcm->seal(ptr(ct), ptr(tag), ptr(msgs[i]), msgs[i].size(), nullptr, 0, ptr(nonces[i]));
            const bool ok = gcm->open(ptr(pt), ptr(ct), ct.size(), ptr(tag), nullptr, 0, ptr(nonces[i]));
            if (ct != want_ct[i] || tag != want_tag[i] || !ok || pt != msgs[i]) ++mismatches[t];
          }
      });
    for (std::thread& th : threads) th.join();
    CHECK(mismatches == std::vector<int>(kThreads, 0));
  }
}
