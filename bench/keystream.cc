// The onion-routing keystream experiment: how fast is AES-CTR keystream when it is requested in blocks of
// 4 MiB, 2 MiB, ... 8 B, alone and followed by XOR loops of various shapes, while a fixed amount of data
// flows.
#include <sodium.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bench/columns.h"
#include "bench/experiments.h"
#include "bench/xor_kernels.h"
#include "core/aes/engine.h"
#include "core/byte_size.h"
#include "core/engine_choice.h"
#include "core/error.h"

namespace pcrypt::app::bench {
namespace {

constexpr std::size_t kBufferBytes = std::size_t{4} << 20;  // the data buffer, reused pass after pass
constexpr std::size_t kSmallestRequest = 8;

// Serves keystream requests of any length from one continuous CTR stream: whole blocks go straight to
// ctr_keystream; the unused part of a block generated for a partial request is kept for the next request, so
// 8-byte requests really are "the next 8 bytes of keystream" (two requests per AES block), as in the
// original.
class KeystreamTap {
 public:
  explicit KeystreamTap(const aes::BlockCipher& cipher) : cipher_(cipher) {}

  void next(std::uint8_t* out, std::size_t n) {
    const std::size_t from_left = std::min(n, left_);
    if (from_left != 0) {
      std::memcpy(out, block_ + (aes::kBlockBytes - left_), from_left);
      left_ -= from_left;
      out += from_left;
      n -= from_left;
    }
    const std::size_t whole = n - n % aes::kBlockBytes;
    if (whole != 0) cipher_.ctr_keystream(out, whole, counter_);
    if (n != whole) {
      cipher_.ctr_keystream(block_, aes::kBlockBytes, counter_);
      std::memcpy(out + whole, block_, n - whole);
      left_ = aes::kBlockBytes - (n - whole);
    }
  }

 private:
  const aes::BlockCipher& cipher_;
  std::uint8_t counter_[aes::kBlockBytes] = {};
  std::uint8_t block_[aes::kBlockBytes] = {};
  std::size_t left_ = 0;
};

struct Variant {
  std::string id;
  std::string title;
  XorKernel kernel;  // nullptr: keystream only (or fused)
  bool fused;
  std::string note;
};

// What the auto-vectoriser may use without run-time checks on this architecture.
#if defined(PCRYPT_ENGINES_AARCH64)
constexpr std::string_view kBaselineSimd = "AArch64 = 16-byte NEON";
#else
constexpr std::string_view kBaselineSimd = "x86-64 = 16-byte SSE2";
#endif

std::vector<Variant> variants() {
  std::vector<Variant> v{
      {"keystream_only", "keystream only (\"no encryption\")", nullptr, false,
       "ctr_keystream into a buffer of the request size; the data is not touched"},
      {"keystream_xor_bytes", "keystream + byte-by-byte XOR (as in the original)", xor_bytes_scalar, false,
       "XOR loop: one byte per iteration, compiled with -fno-tree-vectorize -fno-tree-slp-vectorize "
       "(bench/xor_novec.cc) so the compiler cannot turn it into SIMD"},
      {"keystream_xor_words32", "keystream + 4-byte-word XOR (as in the original)", xor_words32_scalar, false,
       "XOR loop: one 32-bit word per iteration, compiled without auto-vectorisation (xor_novec.cc)"},
      {"keystream_xor_words64", "keystream + 8-byte-word XOR (ours)", xor_words64_scalar, false,
       "XOR loop: one 64-bit word per iteration, compiled without auto-vectorisation (xor_novec.cc)"},
      {"keystream_xor_bytes_autovec", "keystream + byte-by-byte XOR, auto-vectorised (ours)",
       xor_bytes_autovec, false,
       "the byte loop of the original, but GCC may vectorise it (tree-vectorize, dynamic cost model; "
       "baseline " +
           std::string(kBaselineSimd) + "): what a modern compiler does to the 1990s loop"},
  };
#if defined(PCRYPT_ENGINES_X86_64)
  if (avx2_supported())
    v.push_back({"keystream_xor_avx2", "keystream + AVX2 XOR (ours)", xor_avx2, false,
                 "hand-written AVX2 loop, 64 bytes per iteration (bench/xor_avx2.cc)"});
#elif defined(PCRYPT_ENGINES_AARCH64)
  v.push_back({"keystream_xor_neon", "keystream + NEON XOR (ours)", xor_neon, false,
               "hand-written NEON loop, 64 bytes (four registers) per iteration (bench/xor_neon.cc)"});
#endif
  v.push_back(
      {"ctr_xor_fused", "fused CTR-XOR (ours)", nullptr, true,
       "BlockCipher::ctr_xor encrypts the data in place: keystream never leaves registers. A request that "
       "is not a multiple of 16 bytes consumes a whole counter block (the 8 B row discards half of each "
       "keystream block), so it is not comparable byte for byte with the tap used above"});
  return v;
}

// The 20 request sizes: 4 MiB halving down to 8 B.
std::vector<std::size_t> request_sizes() {
  std::vector<std::size_t> sizes;
  for (std::size_t s = kBufferBytes; s >= kSmallestRequest; s /= 2) sizes.push_back(s);
  return sizes;
}

const aes::Engine& raw_aes_engine(const std::string& requested) {
  if (!requested.empty()) {
    const aes::Engine* e = &core::choose_engine(requested);
    if (e->make_block_cipher == nullptr)
      throw core::Error(
          PCRYPT_E_BAD_ARGUMENT,
          "engine '" + std::string(e->name) + "' has no raw AES, which the keystream experiment needs",
          "choose an engine listed by `pcrypt --version` other than sodium");
    return *e;
  }
  for (const aes::Engine& e : aes::all_engines())
    if (e.make_block_cipher != nullptr && e.supported()) return e;
  throw core::Error(PCRYPT_E_IO, "no engine with raw AES is supported on this CPU");
}

}  // namespace

void check_keystream_options(const std::string& engine, const KeystreamOptions& options) {
  if (options.data_bytes == 0 || options.data_bytes % kBufferBytes != 0)
    throw core::Error(PCRYPT_E_BAD_ARGUMENT,
                      "--data-size must be a positive multiple of 4 MiB (the data buffer)");
  raw_aes_engine(engine);
}

void run_keystream(const Context& ctx, const KeystreamOptions& options) {
  check_keystream_options(ctx.engine, options);
  const aes::Engine& engine = raw_aes_engine(ctx.engine);
  std::uint8_t key[32];
  randombytes_buf(key, sizeof key);
  const std::unique_ptr<aes::BlockCipher> cipher =
      engine.make_block_cipher(std::span<const std::uint8_t>(key, sizeof key));
  sodium_memzero(key, sizeof key);

  std::vector<std::uint8_t> data(kBufferBytes), keystream(kBufferBytes);
  randombytes_buf(data.data(), data.size());
  const std::uint64_t passes = options.data_bytes / kBufferBytes;

  // The warm-up processes at most 64 MiB: enough to fault in the buffers and ramp the clock up.
  Method method = ctx.method;
  const std::uint64_t warm_passes = std::min<std::uint64_t>(passes, 16);

  for (const Variant& v : variants()) {
    Table t;
    t.experiment = "keystream";
    t.id = v.id;
    t.title = v.title + " — engine " + std::string(engine.name) + ", AES-256-CTR, " +
              core::format_bytes(options.data_bytes, core::ByteStyle::exact) + " per sample";
    t.columns = {{"keystream_size", "keystream size", 0},
                 {"keystream_bytes", "request (B)", 0},
                 {"calls", "keystream calls", 0},
                 {"data_bytes", "data (B)", 0}};
    append(t.columns, timing_columns(6));
    t.columns.push_back({"rate_mbps", "rate (MB/s)", 1});

    for (std::size_t request : request_sizes()) {
      if (ctx.stop()) break;
      ctx.progress("keystream: " + v.id + ", " + core::format_bytes(request, core::ByteStyle::exact) +
                   " requests");
      KeystreamTap tap(*cipher);
      std::uint8_t counter[aes::kBlockBytes] = {};
      bool cut_short = false;  // Ctrl-C mid-sample: that sample is discarded
      auto run = [&](std::uint64_t n_passes) {
        for (std::uint64_t p = 0; p < n_passes; ++p) {
          if (ctx.stop()) {
            cut_short = true;
            break;
          }
          for (std::size_t off = 0; off < kBufferBytes; off += request) {
            if (v.fused) {
              cipher->ctr_xor(data.data() + off, data.data() + off, request, counter);
            } else {
              tap.next(keystream.data(), request);
              if (v.kernel != nullptr) v.kernel(data.data() + off, keystream.data(), request);
            }
          }
        }
        escape(data.data());
        escape(keystream.data());
      };
      for (std::size_t w = 0; w < method.warmups; ++w) run(warm_passes);
      Method timed = method;
      timed.warmups = 0;
      std::vector<double> samples = take_samples(
          timed, [&] { run(passes); }, ctx.stop);
      if (cut_short && !samples.empty()) samples.pop_back();
      if (samples.empty()) break;
      const Summary s = summarize(samples);
      std::vector<Cell> row{core::format_bytes(request, core::ByteStyle::exact),
                            static_cast<std::int64_t>(request),
                            static_cast<std::int64_t>(options.data_bytes / request),
                            static_cast<std::int64_t>(options.data_bytes)};
      append(row, timing_cells(s));
      row.emplace_back(mb_per_s(static_cast<double>(options.data_bytes), s.mean));
      t.rows.push_back(std::move(row));
    }
    t.notes = {v.note,
               "data: a " + core::format_bytes(kBufferBytes, core::ByteStyle::exact) +
                   " random buffer processed " + std::to_string(passes) +
                   " time(s) per sample; calls = data / request size; rate = data / mean time (MB = 10^6 B)",
               method_note(method) + "; warm-up processes min(data, 64 MiB)"};
    if (!v.fused)
      t.notes.push_back(
          "requests smaller than a 16-byte AES block are served from the rest of the previous "
          "block (one ctr_keystream call per two 8-byte requests)");
    ctx.emit(t);
    if (ctx.stop()) return;
  }
}

}  // namespace pcrypt::app::bench
