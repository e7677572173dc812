// Public-key operations for `pcrypt bench engines` (its third table): X25519, ML-KEM-768 keygen / encaps /
// decaps, and the recipient slots pcrypt builds on them (kind 3 X25519, kind 5 ML-KEM-768 + X25519 HPKE),
// wrap and unwrap, one core. Through core's public functions, as a client of the product.
#include <sodium.h>

#include <array>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/columns.h"
#include "bench/experiments.h"
#include "core/door/encrypted_file.h"
#include "core/keys/recipient.h"
#include "core/pq/mlkem768.h"
#include "io/memory_stream.h"

namespace pcrypt::app::bench {

void run_keys(const Context& ctx, const EnginesOptions& options) {
  Table t;
  t.experiment = "engines";
  t.id = "engines_keys";
  t.title = "public-key operations: X25519, ML-KEM-768 and the recipient slots built on them (one core)";
  t.columns = {{"operation", "operation", 0}, {"ops", "ops/sample", 0}};
  append(t.columns, timing_columns(5));
  t.columns.push_back({"us_per_op", "us/op", 1});
  t.columns.push_back({"ops_per_s", "ops/s", 0});

  namespace mlkem = pq::mlkem768;
  std::array<std::uint8_t, mlkem::seed_size> seed{};
  randombytes_buf(seed.data(), seed.size());
  std::array<std::uint8_t, mlkem::encapsulation_key_size> ek{};
  std::array<std::uint8_t, mlkem::decapsulation_key_size> dk{};
  mlkem::keygen_from_seed(seed, ek, dk);
  std::array<std::uint8_t, mlkem::ciphertext_size> ct{};
  std::array<std::uint8_t, 32> ss{}, point{}, scalar{};
  mlkem::encaps(ek, ct, ss);
  randombytes_buf(scalar.data(), scalar.size());
  crypto_scalarmult_base(point.data(), scalar.data());

  // The recipient slots measured through the door, as every client makes and opens them: a new header with
  // one slot (its file key, the slot, the header MAC) and the unlocking of that header by the identity.
  std::vector<core::Credential> x25519_to, hybrid_to, x25519_by, hybrid_by;
  x25519_by.push_back(core::Credential::of(core::generate_x25519_identity()));
  hybrid_by.push_back(core::Credential::of(core::generate_hybrid_identity()));
  x25519_to.push_back(core::Credential::of(core::recipient_of(*x25519_by[0].identity)));
  hybrid_to.push_back(core::Credential::of(core::recipient_of(*hybrid_by[0].identity)));
  const core::door::NewFileSettings pcrypt_file;
  const std::vector<std::uint8_t> x25519_header = core::door::start_file(x25519_to, pcrypt_file).header;
  const std::vector<std::uint8_t> hybrid_header = core::door::start_file(hybrid_to, pcrypt_file).header;
  const auto unlock = [](const std::vector<std::uint8_t>& header, const std::vector<core::Credential>& by) {
    io::MemoryReader in(header);
    core::door::EncryptedFile file(in);
    return !file.unlock(by, core::door::UnlockLimits{}).empty();
  };

  std::uint64_t failures = 0;
  const std::vector<std::pair<std::string, std::function<void()>>> ops = {
      {"X25519 scalar multiplication",
       [&] { failures += crypto_scalarmult(ss.data(), scalar.data(), point.data()) != 0; }},
      {"ML-KEM-768 keygen (from seed)", [&] { mlkem::keygen_from_seed(seed, ek, dk); }},
      {"ML-KEM-768 encaps", [&] { failures += !mlkem::encaps(ek, ct, ss); }},
      {"ML-KEM-768 decaps", [&] { failures += !mlkem::decaps(dk, ct, ss); }},
      {"slot kind 3 wrap (X25519) in a new header",
       [&] { escape(core::door::start_file(x25519_to, pcrypt_file).header.data()); }},
      {"slot kind 3 unwrap (X25519) unlocking a header",
       [&] { failures += !unlock(x25519_header, x25519_by); }},
      {"slot kind 5 wrap (ML-KEM-768 + X25519) in a new header",
       [&] { escape(core::door::start_file(hybrid_to, pcrypt_file).header.data()); }},
      {"slot kind 5 unwrap (ML-KEM-768 + X25519) unlocking a header",
       [&] { failures += !unlock(hybrid_header, hybrid_by); }},
  };
  for (const auto& entry : ops) {
    const std::string& name = entry.first;
    const std::function<void()>& op = entry.second;  // not a structured binding: clang 14 cannot capture one
    if (ctx.stop()) break;
    ctx.progress("engines: " + name);
    auto work = [&](std::uint64_t count) {
      for (std::uint64_t c = 0; c < count; ++c) op();
      escape(ss.data());
    };
    const std::uint64_t count = calibrate(work, options.sample_seconds, ctx.stop);
    Method m = ctx.method;
    m.warmups = 0;  // calibration ran the code already
    const Summary s = summarize(take_samples(
        m, [&] { work(count); }, ctx.stop));
    if (s.samples == 0) break;
    std::vector<Cell> row{name, static_cast<std::int64_t>(count)};
    append(row, timing_cells(s));
    row.emplace_back(s.mean * 1e6 / static_cast<double>(count));
    row.emplace_back(static_cast<double>(count) / s.mean);
    t.rows.push_back(std::move(row));
  }
  if (failures != 0) throw std::runtime_error("bench: a public-key operation failed on its own input");
  t.notes = {
      "us/op = mean time / ops; ops/s = ops / mean time; slot rows go through the door (core/door/): wrap "
      "makes a new pcrypt header with that one slot (file key, HPKE or X25519 key schedule, AEAD of the "
      "file key, header MAC), unwrap opens such a header from memory and unlocks it with the identity",
      method_note(ctx.method) + "; each sample repeats the operation enough times to last about " +
          std::to_string(options.sample_seconds).substr(0, 5) + " s (calibration doubles as warm-up)"};
  ctx.emit(t);
}

}  // namespace pcrypt::app::bench
