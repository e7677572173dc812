// Per-core AES-256-GCM: Intel's multi-buffer library (intel-ipsec-mb, its best path for this CPU) against
// pcrypt's own engines, in one process, same buffers, same message sizes. Built and run by
// ipsecmb_compare.sh (see there).
//
// Each round times every implementation once, in turn (alternating, so slow drifts of a shared, noisy machine
// hit all of them alike); a timing repeats the message for about 50 ms. The table shows the median over the
// rounds, in GB/s (10^9 B/s), and each engine's ratio to ipsec-mb. open verifies the tag every time (for
// ipsec-mb: compares the tag it computes, as a caller would).
#include <intel-ipsec-mb.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/aes/engine.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Impl {
  std::string name;
  std::function<void(std::size_t)> seal;  // seal one message of the given length
  std::function<void(std::size_t)> open;  // open (and verify) the sealed message of that length
};

// Seconds per call of f(len), over enough calls to last about 50 ms.
double time_one(const std::function<void(std::size_t)>& f, std::size_t len) {
  std::size_t reps = std::max<std::size_t>(1, (std::size_t{8} << 20) / len);
  for (;;) {
    const auto t0 = Clock::now();
    for (std::size_t i = 0; i < reps; ++i) f(len);
    const double t = std::chrono::duration<double>(Clock::now() - t0).count();
    if (t >= 0.05) return t / static_cast<double>(reps);
    reps *= 2;
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

[[noreturn]] void die(const char* what) {
  std::fprintf(stderr, "ipsecmb_compare: %s\n", what);
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 7;
  const std::vector<std::size_t> sizes = {std::size_t{64} << 10, std::size_t{1} << 20};
  const std::size_t max_len = sizes.back();

  std::vector<std::uint8_t> key(32), nonce(12, 0x5a), aad(16, 0x33);
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<std::uint8_t>(i * 7 + 1);
  // 64-byte aligned buffers, like the pipeline's chunk buffers.
  auto* pt = static_cast<std::uint8_t*>(std::aligned_alloc(64, max_len));
  auto* ct = static_cast<std::uint8_t*>(std::aligned_alloc(64, max_len));
  auto* out = static_cast<std::uint8_t*>(std::aligned_alloc(64, max_len));
  if (pt == nullptr || ct == nullptr || out == nullptr) die("out of memory");
  for (std::size_t i = 0; i < max_len; ++i) pt[i] = static_cast<std::uint8_t>(i * 131 + 7);
  std::uint8_t tag[16], check[16];

  IMB_MGR* mgr = alloc_mb_mgr(0);
  if (mgr == nullptr) die("alloc_mb_mgr failed");
  init_mb_mgr_auto(mgr, nullptr);
  const char* arch = mgr->used_arch == IMB_ARCH_AVX512 ? "avx512"
                     : mgr->used_arch == IMB_ARCH_AVX2 ? "avx2"
                     : mgr->used_arch == IMB_ARCH_AVX  ? "avx"
                                                       : "sse";
  gcm_key_data kd;
  gcm_context_data ctx;
  IMB_AES256_GCM_PRE(mgr, key.data(), &kd);

  std::vector<Impl> impls;
  impls.push_back(
      {std::string("ipsec-mb/") + arch,
       [&](std::size_t len) {
         IMB_AES256_GCM_ENC(mgr, &kd, &ctx, ct, pt, len, nonce.data(), aad.data(), aad.size(), tag, 16);
       },
       [&](std::size_t len) {
         IMB_AES256_GCM_DEC(mgr, &kd, &ctx, out, ct, len, nonce.data(), aad.data(), aad.size(), check, 16);
         if (std::memcmp(check, tag, 16) != 0) die("ipsec-mb: tag mismatch");
       }});
  std::vector<std::unique_ptr<pcrypt::aes::Gcm>> gcms;
  for (const pcrypt::aes::Engine& e : pcrypt::aes::all_engines()) {
    if (e.name != "vaes512" && e.name != "vaes" && e.name != "aesni") continue;
    if (!e.supported()) {
      std::printf("SKIPPED: engine %s not supported on this CPU\n", std::string(e.name).c_str());
      continue;
    }
    gcms.push_back(e.make_gcm(std::span<const std::uint8_t, pcrypt::aes::kGcmKeyBytes>(key.data(), 32)));
    const pcrypt::aes::Gcm* g = gcms.back().get();
    impls.push_back(
        {std::string(e.name),
         [&, g](std::size_t len) { g->seal(ct, tag, pt, len, aad.data(), aad.size(), nonce.data()); },
         [&, g](std::size_t len) {
           if (!g->open(out, ct, len, tag, aad.data(), aad.size(), nonce.data())) die("pcrypt: tag mismatch");
         }});
  }

  // Every implementation must produce the same ciphertext and tag (and so open each other's output).
  for (std::size_t len : sizes) {
    std::vector<std::uint8_t> first_ct;
    std::uint8_t first_tag[16];
    for (const Impl& im : impls) {
      im.seal(len);
      if (first_ct.empty()) {
        first_ct.assign(ct, ct + len);
        std::memcpy(first_tag, tag, 16);
      } else if (std::memcmp(first_ct.data(), ct, len) != 0 || std::memcmp(first_tag, tag, 16) != 0) {
        die(("ciphertext differs from ipsec-mb's: " + im.name).c_str());
      }
      im.open(len);
    }
  }

  std::printf("AES-256-GCM, one thread, 16-byte AAD; median of %d alternating rounds, GB/s (10^9 B/s)\n",
              rounds);
  std::printf("%-8s %-5s", "size", "op");
  for (const Impl& im : impls) std::printf(" %14s", im.name.c_str());
  for (std::size_t i = 1; i < impls.size(); ++i) std::printf(" %14s", (impls[i].name + "/ipsec").c_str());
  std::printf("\n");
  for (std::size_t len : sizes) {
    for (int op = 0; op < 2; ++op) {
      std::vector<std::vector<double>> rates(impls.size());
      // Open needs a valid message of this length: every seal writes the same one (checked above).
      impls[0].seal(len);
      for (int r = 0; r < rounds; ++r)
        for (std::size_t i = 0; i < impls.size(); ++i) {
          const std::size_t k = (i + static_cast<std::size_t>(r)) % impls.size();  // rotate who goes first
          const auto& f = op == 0 ? impls[k].seal : impls[k].open;
          rates[k].push_back(static_cast<double>(len) / time_one(f, len) / 1e9);
        }
      std::printf("%-8s %-5s", len == sizes[0] ? "64KiB" : "1MiB", op == 0 ? "seal" : "open");
      std::vector<double> med;
      for (auto& v : rates) med.push_back(median(v));
      for (double m : med) std::printf(" %14.2f", m);
      for (std::size_t i = 1; i < med.size(); ++i) std::printf(" %13.2fx", med[i] / med[0]);
      std::printf("\n");
    }
  }
  free_mb_mgr(mgr);
  std::free(pt);
  std::free(ct);
  std::free(out);
  return 0;
}
