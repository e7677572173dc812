// Speed of the post-quantum pieces (hidden "[.bench]" case, not a ctest test; numbers go to
// docs/BENCHMARKS.md): ML-KEM-768 keygen / encaps / decaps, the kind-5 wrap / unwrap beside kind 3, and
// opening the slot of the last of 20 post-quantum recipients. Run: test_pq_speed "[.bench]"
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <vector>

#include "core/keys/recipient.h"
#include "core/pcrypt/recipient_slot.h"
#include "core/pq/mlkem768.h"
#include "tests/test_bytes.h"

namespace mlkem768 = pcrypt::pq::mlkem768;
using namespace pcrypt::core;

namespace {

// Median over 7 runs of the per-operation time of `n` calls, in microseconds.
template <class F>
double median_us(int n, F f) {
  std::vector<double> runs;
  for (int r = 0; r < 7; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) f();
    const std::chrono::duration<double, std::micro> d = std::chrono::steady_clock::now() - t0;
    runs.push_back(d.count() / n);
  }
  std::sort(runs.begin(), runs.end());
  return runs[3];
}

void report(const char* what, double us) {
  std::printf("%-34s %9.1f us  %9.0f /s\n", what, us, 1e6 / us);
}

}  // namespace

TEST_CASE("post-quantum speed", "[.bench]") {
  std::array<std::uint8_t, 32> d{1}, z{2}, m{3}, k{};
  std::array<std::uint8_t, mlkem768::encapsulation_key_size> ek{};
  std::array<std::uint8_t, mlkem768::decapsulation_key_size> dk{};
  std::array<std::uint8_t, mlkem768::ciphertext_size> ct{};
  report("ML-KEM-768 keygen", median_us(300, [&] { mlkem768::keygen_internal(d, z, ek, dk); }));
  report("ML-KEM-768 encaps", median_us(300, [&] { mlkem768::encaps_internal(ek, m, ct, k); }));
  report("ML-KEM-768 decaps", median_us(300, [&] { mlkem768::decaps(dk, ct, k); }));

  const pcrypt::SecretBytes fk(pcrypt::test::random_bytes(32));
  const Identity pq = generate_hybrid_identity(), classic = generate_x25519_identity();
  const auto pq_slot = recipient_slot::wrap(fk, recipient_of(pq));
  const auto x_slot = recipient_slot::wrap(fk, recipient_of(classic));
  report("kind 5 wrap (hybrid HPKE seal)",
         median_us(200, [&] { (void)recipient_slot::wrap(fk, recipient_of(pq)); }));
  report("kind 5 unwrap (hybrid HPKE open)",
         median_us(200, [&] { (void)recipient_slot::unwrap(pq_slot, pq); }));
  report("kind 3 wrap (X25519)",
         median_us(200, [&] { (void)recipient_slot::wrap(fk, recipient_of(classic)); }));
  report("kind 3 unwrap (X25519)", median_us(200, [&] { (void)recipient_slot::unwrap(x_slot, classic); }));
  report("hybrid identity from seed", median_us(200, [&] { (void)hybrid_identity_from_seed(pq.secret); }));

  // 20 recipients, the identity's slot last: load the identity (expansion) and try every slot.
  std::vector<std::vector<std::uint8_t>> slots;
  slots.reserve(20);
  for (int i = 0; i < 19; ++i)
    slots.push_back(recipient_slot::wrap(fk, recipient_of(generate_hybrid_identity())));
  slots.push_back(pq_slot);
  const std::string text = format_hybrid_identity(pq.secret) + "\n";
  report("20 PQ slots, match last (ms->us)", median_us(20, [&] {
           const auto ids = parse_identity_file(text, "id");
           for (const auto& s : slots)
             if (recipient_slot::unwrap(s, ids[0])) break;
         }));
}
