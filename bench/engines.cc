// Portable vs hardware AES: raw block encryption/decryption per key size (the Arm64 AES-vs-ArmAES and
// JDK-vs-BouncyCastle comparisons), and AEAD throughput per engine and message size (like `openssl speed`).
#include <sodium.h>

#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/columns.h"
#include "bench/experiments.h"
#include "core/aead.h"
#include "core/aes/engine.h"
#include "core/byte_size.h"
#include "core/chacha/chacha20poly1305.h"
#include "core/engine_choice.h"
#include "core/error.h"

namespace pcrypt::app::bench {
namespace {

constexpr std::size_t kBlockBufferBlocks = 256;  // 4 KiB of blocks, cycled through

// One AEAD under test: an AES engine's aes::Gcm, measured directly, or ChaCha20-Poly1305 (core/chacha/).
struct Aead {
  std::string name;
  std::string algorithm;
  std::unique_ptr<aes::Gcm> gcm;
  std::unique_ptr<core::Aead> aead;
  std::string summary_name;  // the summary table's row name, when the engine name alone is ambiguous

  void seal(std::uint8_t* out, std::uint8_t* tag, const std::uint8_t* in, std::size_t len,
            const std::uint8_t* nonce) const {
    if (gcm) {
      gcm->seal(out, tag, in, len, nullptr, 0, nonce);
    } else {
      aead->seal(out, tag, in, len, std::span<const std::uint8_t, core::kAeadNonceBytes>(nonce, 12));
    }
  }
  bool open(std::uint8_t* out, const std::uint8_t* in, std::size_t len, const std::uint8_t* tag,
            const std::uint8_t* nonce) const {
    if (gcm) return gcm->open(out, in, len, tag, nullptr, 0, nonce);
    return aead->open(out, in, len, tag, std::span<const std::uint8_t, core::kAeadNonceBytes>(nonce, 12));
  }
};

// The engines this run covers: all supported ones, or just --engine.
std::vector<const aes::Engine*> chosen_engines(const std::string& requested) {
  std::vector<const aes::Engine*> out;
  if (!requested.empty()) {
    out.push_back(&core::choose_engine(requested));
    return out;
  }
  for (const aes::Engine& e : aes::all_engines())
    if (e.supported()) out.push_back(&e);
  return out;
}

// Samples `work(count)` with count calibrated so that one sample lasts about `seconds`.
template <class Work>
std::pair<std::uint64_t, Summary> measure(const Context& ctx, double seconds, Work&& work) {
  const std::uint64_t count = calibrate(work, seconds, ctx.stop);
  Method m = ctx.method;
  m.warmups = 0;  // calibration ran the code already
  const std::vector<double> samples = take_samples(
      m, [&] { work(count); }, ctx.stop);
  return {count, summarize(samples)};
}

void run_blocks(const Context& ctx, const EnginesOptions& options,
                const std::vector<const aes::Engine*>& engines) {
  Table t;
  t.experiment = "engines";
  t.id = "engines_blocks";
  t.title = "raw AES blocks: portable vs hardware (ECB over a 4 KiB buffer, 1 or 256 blocks per call)";
  t.columns = {{"engine", "engine", 0},
               {"key_bits", "AES", 0},
               {"operation", "operation", 0},
               {"blocks_per_call", "blocks/call", 0},
               {"bytes", "bytes/sample", 0}};
  append(t.columns, timing_columns(5));
  t.columns.push_back({"ns_per_block", "ns/block", 2});
  t.columns.push_back({"rate_mbps", "rate (MB/s)", 1});
  t.columns.push_back({"ratio_vs_portable", "x portable", 2});

  std::vector<std::uint8_t> in(kBlockBufferBlocks * aes::kBlockBytes), out(in.size());
  randombytes_buf(in.data(), in.size());
  std::map<std::string, double> portable_rate;  // "bits/op/blocks" -> MB/s
  bool any = false;
  for (const aes::Engine* e : engines) {
    if (e->make_block_cipher == nullptr) continue;
    any = true;
    for (std::size_t bits : {128, 192, 256}) {
      std::vector<std::uint8_t> key(bits / 8);
      randombytes_buf(key.data(), key.size());
      const auto cipher = e->make_block_cipher(key);
      for (const bool decrypt : {false, true}) {
        for (const std::size_t per_call : {std::size_t{1}, kBlockBufferBlocks}) {
          if (ctx.stop()) break;
          ctx.progress("engines: " + std::string(e->name) + " AES-" + std::to_string(bits));
          auto work = [&](std::uint64_t count) {
            for (std::uint64_t c = 0; c < count; ++c)
              for (std::size_t b = 0; b < kBlockBufferBlocks; b += per_call) {
                const std::size_t off = b * aes::kBlockBytes;
                if (decrypt)
                  cipher->decrypt_blocks(out.data() + off, in.data() + off, per_call);
                else
                  cipher->encrypt_blocks(out.data() + off, in.data() + off, per_call);
              }
            escape(out.data());
          };
          const auto [count, s] = measure(ctx, options.sample_seconds, work);
          if (s.samples == 0) break;
          const double bytes = static_cast<double>(count * in.size());
          const double rate = mb_per_s(bytes, s.mean);
          const std::string op = decrypt ? "decrypt" : "encrypt";
          const std::string key_id = std::to_string(bits) + "/" + op + "/" + std::to_string(per_call);
          if (e->name == "portable") portable_rate[key_id] = rate;
          std::vector<Cell> row{std::string(e->name), static_cast<std::int64_t>(bits), op,
                                static_cast<std::int64_t>(per_call), static_cast<std::int64_t>(bytes)};
          append(row, timing_cells(s));
          row.emplace_back(s.mean * 1e9 / (bytes / aes::kBlockBytes));
          row.emplace_back(rate);
          row.emplace_back(key_id);  // replaced by the ratio once portable's rate is known
          t.rows.push_back(std::move(row));
        }
      }
    }
  }
  for (auto& row : t.rows) {
    const auto it = portable_rate.find(std::get<std::string>(row.back()));
    const double rate = std::get<double>(row[row.size() - 2]);
    row.back() = it == portable_rate.end() || it->second <= 0 ? Cell{} : Cell{rate / it->second};
  }
  t.notes = {
      "rate = bytes / mean time (MB = 10^6 B); ns/block = mean time / blocks; × portable = rate / rate of "
      "the portable engine for the same key size, operation and blocks per call",
      "1 block per call shows per-call overhead and latency; 256 blocks per call lets an engine pipeline",
      method_note(ctx.method) + "; each sample repeats the 4 KiB buffer enough times to last about " +
          std::to_string(options.sample_seconds).substr(0, 5) + " s (calibration doubles as warm-up)"};
  if (!any) t.notes.push_back("no supported engine exposes raw AES on this build/CPU (sodium does not)");
  if (portable_rate.empty()) t.notes.push_back("portable engine not measured: no ratio");
  ctx.emit(t);
}

void run_aead(const Context& ctx, const EnginesOptions& options,
              const std::vector<const aes::Engine*>& engines) {
  std::uint8_t key[32];
  randombytes_buf(key, sizeof key);
  std::vector<Aead> aeads;
  aeads.reserve(engines.size());
  // AES-256-GCM (pcrypt's payload), then AES-128-GCM (Cobblestone-128) beside it from every engine that
  // has it (not libsodium's).
  for (const aes::Engine* e : engines) {
    aeads.push_back({std::string(e->name),
                     "AES-256-GCM",
                     e->make_gcm(std::span<const std::uint8_t, 32>(key, 32)),
                     nullptr,
                     {}});
    if (e->make_gcm128 != nullptr)
      aeads.push_back({std::string(e->name), "AES-128-GCM",
                       e->make_gcm128(std::span<const std::uint8_t, 16>(key, 16)), nullptr,
                       std::string(e->name) + " AES-128"});
  }
  // age's payload cipher (core/chacha/), from every backend this CPU runs, the default (ours where the CPU
  // has AVX-512 IFMA) first.
  bool openssl_chacha = false;  // its rows below chacha::kOpenSslFromBytes are libsodium's: a note says so
  if (ctx.engine.empty())
    for (const auto backend : chacha::available_chacha_backends()) {
      aeads.push_back({"chacha20poly1305-" + std::string(chacha::backend_name(backend)),
                       "ChaCha20-Poly1305 (age payloads)",
                       nullptr,
                       chacha::make_chacha20poly1305(std::span<const std::uint8_t, 32>(key, 32), backend),
                       {}});
      openssl_chacha = openssl_chacha || backend == chacha::ChaChaBackend::openssl;
    }
  sodium_memzero(key, sizeof key);

  Table t;
  t.experiment = "engines";
  t.id = "engines_aead";
  t.title = "AEAD throughput per engine and message size (one seal/open call per message, no AAD)";
  t.columns = {{"engine", "engine", 0},
               {"algorithm", "algorithm", 0},
               {"operation", "operation", 0},
               {"message_bytes", "message (B)", 0},
               {"messages", "messages/sample", 0},
               {"bytes", "bytes/sample", 0}};
  append(t.columns, timing_columns(5));
  t.columns.push_back({"rate_mbps", "rate (MB/s)", 1});

  Table wide;
  wide.experiment = "engines";
  wide.id = "engines_aead_summary";
  wide.title = "AEAD throughput in MB/s (10^6 B/s) by message size, like `openssl speed -evp`";
  wide.columns = {{"engine", "engine", 0}, {"operation", "operation", 0}};
  for (std::uint64_t size : options.message_sizes)
    wide.columns.push_back(
        {"mbps_" + std::to_string(size), core::format_bytes(size, core::ByteStyle::exact), 1});

  std::uint64_t largest = 0;
  for (std::uint64_t size : options.message_sizes) largest = std::max(largest, size);
  std::vector<std::uint8_t> msg(largest), ct(largest), out(largest);
  randombytes_buf(msg.data(), msg.size());
  for (const Aead& a : aeads) {
    for (const bool open : {false, true}) {
      const std::string op = open ? "open" : "seal";
      std::vector<Cell> wide_row{a.summary_name.empty() ? a.name : a.summary_name, op};
      for (std::uint64_t size : options.message_sizes) {
        if (ctx.stop()) break;
        ctx.progress("engines: " + a.name + " " + op + " " +
                     core::format_bytes(size, core::ByteStyle::exact));
        std::uint8_t nonce[12] = {}, tag[16];
        a.seal(ct.data(), tag, msg.data(), size, nonce);
        std::uint64_t failures = 0;
        std::uint64_t sealed = 0;
        auto work = [&](std::uint64_t count) {
          for (std::uint64_t c = 0; c < count; ++c) {
            if (open) {
              failures += a.open(out.data(), ct.data(), size, tag, nonce) ? 0 : 1;
            } else {
              // A fresh nonce per message, as real use requires (the cost is a few instructions).
              ++sealed;
              std::memcpy(nonce + 4, &sealed, sizeof sealed);
              a.seal(out.data(), tag + 0, msg.data(), size, nonce);
            }
          }
          escape(out.data());
          escape(tag);
        };
        const auto [count, s] = measure(ctx, options.sample_seconds, work);
        if (open && failures != 0)
          throw std::runtime_error("engine " + a.name + " failed to open its own " + std::to_string(size) +
                                   "-byte message");
        if (s.samples == 0) break;
        const double bytes = static_cast<double>(count * size);
        std::vector<Cell> row{a.name,
                              a.algorithm,
                              op,
                              static_cast<std::int64_t>(size),
                              static_cast<std::int64_t>(count),
                              static_cast<std::int64_t>(bytes)};
        append(row, timing_cells(s));
        row.emplace_back(mb_per_s(bytes, s.mean));
        t.rows.push_back(std::move(row));
        wide_row.emplace_back(mb_per_s(bytes, s.mean));
      }
      wide_row.resize(wide.columns.size());
      wide.rows.push_back(std::move(wide_row));
      if (ctx.stop()) break;
    }
    if (ctx.stop()) break;
  }
  t.notes = {
      "seal: a new nonce per message; open: the same valid message opened repeatedly (every open is "
      "checked to succeed); rate = bytes / mean time (MB = 10^6 B)",
      method_note(ctx.method) + "; each sample repeats the message enough times to last about " +
          std::to_string(options.sample_seconds).substr(0, 5) + " s (calibration doubles as warm-up)"};
  wide.notes = {"mean rates from the table above"};
  if (openssl_chacha) {
    const std::string note = "chacha20poly1305-openssl below " +
                             core::format_bytes(chacha::kOpenSslFromBytes, core::ByteStyle::exact) +
                             " is libsodium's code: the backend hands shorter messages to it, sparing a "
                             "process OpenSSL's start-up (docs/benchmarks/age-format.md, \"Small files\")";
    t.notes.push_back(note);
    wide.notes.push_back(note);
  }
  ctx.emit(t);
  ctx.emit(wide);
}

}  // namespace

void run_engines(const Context& ctx, const EnginesOptions& options) {
  const std::vector<const aes::Engine*> engines = chosen_engines(ctx.engine);
  run_blocks(ctx, options, engines);
  if (ctx.stop()) return;
  run_aead(ctx, options, engines);
  if (ctx.stop()) return;
  run_keys(ctx, options);
}

}  // namespace pcrypt::app::bench
