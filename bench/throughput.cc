// The MT-AES experiment: random data encrypted and decrypted through the real parallel pipeline
// (the door's encrypt and decrypt with a key-file credential), several runs per configuration, with
// correct summary statistics and an XXH3-128 check that decryption gave back the input.
//
// Both directions write into preallocated memory positionally, as the pipeline writes a regular file: the
// workers copy their own records out, so nothing but the cipher and the copies runs, all of it on every
// worker -- what the "second core adds" figure must isolate. The decrypted copy is hashed after the timing.
// Memory: the input (size), the ciphertext (size + 16 B per chunk + header) and the decrypted copy (size) are
// held, about three times the data size.
#include <sodium.h>
#include <xxhash.h>

#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "bench/columns.h"
#include "bench/experiments.h"
#include "bench/file_runs.h"
#include "bench/sinks.h"
#include "core/aes/engine.h"
#include "core/byte_size.h"
#include "core/engine_choice.h"
#include "core/error.h"
#include "core/keys/key_file.h"
#include "core/records.h"
#include "io/memory_stream.h"

namespace pcrypt::app::bench {
namespace {

struct Config {
  std::uint64_t size;
  unsigned threads;
  std::uint64_t chunk;
};

struct Runs {
  std::vector<double> encrypt, decrypt;
  std::size_t mismatches = 0;
  XXH128_hash_t last_output{};
};

std::string config_label(const Config& c, const std::string& where) {
  return core::format_bytes(c.size, core::ByteStyle::exact) + ", " + std::to_string(c.threads) + " thread" +
         (c.threads == 1 ? "" : "s") + ", " + core::format_bytes(c.chunk, core::ByteStyle::exact) +
         " chunks, " + where;
}

Table runs_table(const Config& c, const std::string& where, const std::string& engine) {
  Table t;
  t.experiment = "throughput";
  t.id = "throughput_runs";
  t.title = "runs: " + config_label(c, where) + ", engine " + engine;
  t.columns = {{"source", "source", 0},
               {"size_bytes", "size (B)", 0},
               {"threads", "threads", 0},
               {"chunk_bytes", "chunk (B)", 0},
               {"run", "run", 0},
               {"encrypt_seconds", "encrypt (s)", 4},
               {"encrypt_mbps", "encrypt (MB/s)", 1},
               {"decrypt_seconds", "decrypt (s)", 4},
               {"decrypt_mbps", "decrypt (MB/s)", 1},
               {"xxh3_check", "XXH3-128 check", 0}};
  return t;
}

Table summary_table() {
  Table t;
  t.experiment = "throughput";
  t.id = "throughput_summary";
  t.title = "throughput summary (rate = size / mean time, MB = 10^6 B)";
  t.columns = {{"source", "source", 0},         {"size", "size", 0},
               {"size_bytes", "size (B)", 0},   {"threads", "threads", 0},
               {"chunk_bytes", "chunk (B)", 0}, {"operation", "operation", 0}};
  append(t.columns, timing_columns(4));
  t.columns.push_back({"seconds_median", "median (s)", 4});
  t.columns.push_back({"rate_mbps", "rate (MB/s)", 1});
  t.columns.push_back({"xxh3_check", "XXH3-128 check", 0});
  return t;
}

void add_summary_rows(Table& summary, const Config& c, const std::string& where, const Runs& r) {
  const std::string check = r.mismatches == 0 ? "OK" : "MISMATCH";
  for (const bool decrypt : {false, true}) {
    const Summary s = summarize(decrypt ? r.decrypt : r.encrypt);
    std::vector<Cell> row{where,
                          core::format_bytes(c.size, core::ByteStyle::exact),
                          static_cast<std::int64_t>(c.size),
                          static_cast<std::int64_t>(c.threads),
                          static_cast<std::int64_t>(c.chunk),
                          std::string(decrypt ? "decrypt" : "encrypt")};
    append(row, timing_cells(s));
    row.emplace_back(s.median);
    row.emplace_back(mb_per_s(static_cast<double>(c.size), s.mean));
    row.emplace_back(decrypt ? check : std::string("-"));
    summary.rows.push_back(std::move(row));
  }
}

std::vector<core::Credential> bench_credentials() {
  std::vector<core::Credential> creds;
  creds.push_back(core::parse_key_file(core::key_file_text(core::generate_key_file()), "bench key"));
  return creds;
}

}  // namespace

void run_throughput(const Context& ctx, const ThroughputOptions& options) {
  const aes::Engine* engine = &core::choose_engine(ctx.engine);
  std::vector<unsigned> thread_counts = options.threads;
  if (thread_counts.empty()) thread_counts.push_back(std::max(1u, std::thread::hardware_concurrency()));
  const std::vector<core::Credential> creds = bench_credentials();
  const double max_time = options.max_time > 0 ? options.max_time : std::numeric_limits<double>::infinity();

  Table summary = summary_table();
  for (std::uint64_t size : options.sizes) {
    if (ctx.stop()) break;
    ctx.progress("throughput: generating " + core::format_bytes(size, core::ByteStyle::exact) +
                 " of random input");
    std::vector<std::uint8_t> input(size);
    randombytes_buf(input.data(), input.size());
    const XXH128_hash_t input_hash = XXH3_128bits(input.data(), input.size());

    std::uint64_t smallest_chunk = options.chunk_sizes.front();
    for (std::uint64_t c : options.chunk_sizes) smallest_chunk = std::min(smallest_chunk, c);
    ReusableBufferWriter ciphertext(size + (size / smallest_chunk + 2) * core::kChunkTagBytes + (64 << 10));
    ReusableBufferWriter plaintext(size);

    for (std::uint64_t chunk : options.chunk_sizes) {
      for (unsigned threads : thread_counts) {
        if (ctx.stop()) break;
        const Config config{size, threads, chunk};
        Crypt crypt;
        crypt.settings.file.chunk_size = chunk;
        crypt.settings.file.engine = engine;
        crypt.limits.engine = engine;
        crypt.run.threads = threads;

        auto encrypt = [&] {
          ciphertext.clear();
          io::MemoryReader in(input, io::MemoryAccess::positional);
          encrypt_with(crypt, in, ciphertext, creds);
        };
        auto decrypt = [&] {
          plaintext.clear();
          io::MemoryReader in(ciphertext.data(), io::MemoryAccess::positional);
          decrypt_with(crypt, in, plaintext, creds);
        };
        auto plaintext_hash = [&] { return XXH3_128bits(plaintext.data().data(), plaintext.data().size()); };

        Runs runs;
        Table t = runs_table(config, "memory", std::string(engine->name));
        for (std::size_t w = 0; w < ctx.method.warmups && !ctx.stop(); ++w) {
          ctx.progress("throughput: warm-up, " + config_label(config, "memory"));
          encrypt();
          decrypt();
        }
        double spent = 0;
        for (std::size_t r = 0; r < options.runs && spent < max_time && !ctx.stop(); ++r) {
          ctx.progress("throughput: run " + std::to_string(r + 1) + "/" + std::to_string(options.runs) +
                       ", " + config_label(config, "memory"));
          const double enc = time_seconds(encrypt);
          const double dec = time_seconds(decrypt);
          spent += enc + dec;
          const bool ok = same_hash(plaintext_hash(), input_hash);
          runs.mismatches += ok ? 0 : 1;
          runs.encrypt.push_back(enc);
          runs.decrypt.push_back(dec);
          t.rows.push_back({std::string("memory"), static_cast<std::int64_t>(size),
                            static_cast<std::int64_t>(threads), static_cast<std::int64_t>(chunk),
                            static_cast<std::int64_t>(r + 1), enc, mb_per_s(static_cast<double>(size), enc),
                            dec, mb_per_s(static_cast<double>(size), dec),
                            std::string(ok ? "OK" : "MISMATCH")});
        }
        if (runs.encrypt.empty()) break;
        t.notes = {
            "input: " + core::format_bytes(size, core::ByteStyle::exact) +
                " from randombytes_buf, XXH3-128 " + to_hex(input_hash) +
                "; each run encrypts it through the door (core::door::encrypt, key-file credential) into "
                "memory, then "
                "decrypts that through the door into memory, and the decrypted copy is hashed "
                "(untimed); both read and write positionally, as the pipeline does with regular files (each "
                "worker copies its own chunks in and its own records out)",
            "rates are plaintext bytes / time (MB = 10^6 B) for both directions; " +
                std::to_string(ctx.method.warmups) + " untimed warm-up run(s) first",
            "memory held: input, ciphertext and decrypted copy (about 3 x size)"};
        ctx.emit(t);
        add_summary_rows(summary, config, "memory", runs);

        if (!options.dir.empty() && !ctx.stop()) {
          const FileRuns fr =
              run_through_files(ctx, options.dir, input, input_hash, creds, crypt, options.runs, max_time);
          if (!fr.encrypt.empty()) {
            Table ft = runs_table(config, "files in " + options.dir, std::string(engine->name));
            for (std::size_t r = 0; r < fr.encrypt.size(); ++r)
              ft.rows.push_back({std::string("files"), static_cast<std::int64_t>(size),
                                 static_cast<std::int64_t>(threads), static_cast<std::int64_t>(chunk),
                                 static_cast<std::int64_t>(r + 1), fr.encrypt[r],
                                 mb_per_s(static_cast<double>(size), fr.encrypt[r]), fr.decrypt[r],
                                 mb_per_s(static_cast<double>(size), fr.decrypt[r]),
                                 std::string(fr.ok[r] ? "OK" : "MISMATCH")});
            ft.notes = {fr.note};
            ctx.emit(ft);
            Runs as_runs{fr.encrypt, fr.decrypt, 0, {}};
            for (bool ok : fr.ok) as_runs.mismatches += ok ? 0 : 1;
            add_summary_rows(summary, config, "files", as_runs);
          }
        }
      }
    }
  }
  summary.notes = {
      "mean, sd (n-1), min, max and median over the runs of each configuration; the check is OK "
      "when every decrypted run hashed (XXH3-128) to the input's hash"};
  if (!summary.rows.empty()) ctx.emit(summary);
}

}  // namespace pcrypt::app::bench
