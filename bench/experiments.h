// The three experiments of `pcrypt bench` (docs/BENCHMARKS.md describes what each replicates).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/context.h"

namespace pcrypt::app::bench {

// Onion-routing/BSAFE: keystream requested in blocks of 4 MiB, 2 MiB, ... 8 B while data_bytes are processed.
struct KeystreamOptions {
  std::uint64_t data_bytes = std::uint64_t{1} << 30;  // per sample; a multiple of the 4 MiB data buffer
};
void run_keystream(const Context& ctx, const KeystreamOptions& options);
// Throws the usage error run_keystream would throw for these options and --engine, so that the command can
// refuse them before it prints anything.
void check_keystream_options(const std::string& engine, const KeystreamOptions& options);

// MT-AES: random data through the real parallel pipeline, encrypt then decrypt, repeated runs.
struct ThroughputOptions {
  std::vector<std::uint64_t> sizes{std::uint64_t{512} << 20, std::uint64_t{1} << 30, std::uint64_t{2} << 30};
  std::size_t runs = 10;
  std::vector<unsigned> threads;  // empty = online cores
  std::vector<std::uint64_t> chunk_sizes{std::uint64_t{1} << 20};
  std::string dir;      // non-empty: also run through real files in this directory
  double max_time = 0;  // seconds of runs per configuration; 0 = no limit (all runs)
};
void run_throughput(const Context& ctx, const ThroughputOptions& options);

// Portable vs hardware AES: raw blocks per key size, and AEAD throughput per engine and message size.
struct EnginesOptions {
  std::vector<std::uint64_t> message_sizes{16, 64, 256, 1024, 8192, 65536, 1048576};
  double sample_seconds = 0.1;  // each timed sample is sized to take about this long
};
void run_engines(const Context& ctx, const EnginesOptions& options);
// Its third table (bench/keys.cc): X25519, ML-KEM-768 and the recipient slots, per operation.
void run_keys(const Context& ctx, const EnginesOptions& options);

}  // namespace pcrypt::app::bench
