// `pcrypt bench [keystream|throughput|engines]`: option parsing, defaults (full, --quick, summary) and
// output.
#include "bench/bench.h"

#include <sys/stat.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "bench/experiments.h"
#include "bench/interrupt.h"
#include "bench/machine.h"
#include "bench/report.h"
#include "bench/units.h"
#include "core/aes/engine.h"
#include "core/byte_size.h"
#include "core/door/limits.h"
#include "core/engine_choice.h"
#include "core/error.h"

namespace pcrypt::app {
namespace {

using bench::Format;

struct Options {
  std::string format = "table";
  bool quick = false;
  // Numbers are read as text and checked here, so that a bad one gets pcrypt's wording and range.
  std::string max_samples;
  std::string max_time;
  std::string warmups;
  std::string engine;
  std::function<std::string(const std::string&)> requested_engine;
  std::string data_size;    // keystream
  std::string sizes;        // throughput
  std::string runs;         // throughput
  std::string threads;      // throughput
  std::string chunk_sizes;  // throughput
  std::string dir;          // throughput
  std::string msg_sizes;    // engines
  CLI::App* bench = nullptr;
  CLI::App* keystream = nullptr;
  CLI::App* throughput = nullptr;
  CLI::App* engines = nullptr;
  CLI::Option* max_samples_opt = nullptr;
  CLI::Option* max_time_opt = nullptr;
  CLI::Option* warmups_opt = nullptr;
  CLI::Option* runs_opt = nullptr;
};

core::Error usage(const std::string& message, const std::string& hint = {}) {
  return core::Error(PCRYPT_E_BAD_ARGUMENT, message, hint);
}

// A plain decimal count in [min, max], worded as the CLI words its own counts (-j, --kdf-ops).
std::size_t count_arg(const std::string& text, const char* option, std::size_t min, std::size_t max) {
  std::size_t number = 0;
  const char* end = text.data() + text.size();
  const auto [stop, ec] = std::from_chars(text.data(), end, number);
  const std::string range = std::to_string(min) + ".." + std::to_string(max);
  if (text.empty() || stop != end || ec != std::errc())
    throw usage("invalid number '" + text + "' for " + option, "expected a whole number in " + range);
  if (number < min || number > max)
    throw usage(std::string(option) + " " + text + " is out of range (" + range + ")");
  return number;
}

double seconds_arg(const std::string& text, const char* option) {
  double seconds = 0;
  const char* end = text.data() + text.size();
  const auto [stop, ec] = std::from_chars(text.data(), end, seconds);
  if (text.empty() || stop != end || ec != std::errc() || !std::isfinite(seconds) || !(seconds > 0))
    throw usage("invalid number of seconds '" + text + "' for " + option,
                "expected a positive number such as 0.5");
  return seconds;
}

std::uint64_t size_arg(const std::string& text, const char* option) {
  const std::uint64_t bytes = core::parse_size(text, option);
  if (bytes == 0) throw usage(std::string(option) + " needs sizes of at least 1 byte");
  return bytes;
}

std::vector<std::uint64_t> size_list(const std::string& text, const char* option) {
  std::vector<std::uint64_t> out;
  for (const std::string& item : bench::split_list(text)) out.push_back(size_arg(item, option));
  if (out.empty()) throw usage(std::string(option) + " needs at least one size");
  return out;
}

std::vector<std::uint64_t> chunk_size_list(const std::string& text) {
  std::vector<std::uint64_t> sizes;
  for (const std::string& item : bench::split_list(text)) {
    sizes.push_back(size_arg(item, "--chunk-size"));
    if (!core::door::chunk_size_in_range(sizes.back()))
      throw usage("--chunk-size " + item + " is out of range", "use chunk sizes from 4 KiB to 64 MiB");
  }
  if (sizes.empty()) throw usage("--chunk-size needs at least one size");
  return sizes;
}

// The files of `throughput --dir` are written after the tables have begun: check the directory first.
void check_scratch_dir(const std::string& dir) {
  const std::string hint = "--dir needs a writable directory with room for 3 x size";
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0)
    throw core::Error(PCRYPT_E_IO, "--dir " + dir + ": " + std::strerror(errno), hint);
  if (!S_ISDIR(st.st_mode)) throw core::Error(PCRYPT_E_IO, "--dir " + dir + ": not a directory", hint);
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw core::Error(PCRYPT_E_IO, "--dir " + dir + ": " + std::strerror(errno), hint);
}

std::vector<unsigned> thread_list(const std::string& text) {
  std::vector<unsigned> out;
  for (const std::string& item : bench::split_list(text)) {
    char* end = nullptr;
    const unsigned long v = std::strtoul(item.c_str(), &end, 10);
    if (*end != '\0' || v == 0 || v > 1024) throw usage("invalid thread count '" + item + "' (1..1024)");
    out.push_back(static_cast<unsigned>(v));
  }
  if (out.empty()) throw usage("-j needs at least one thread count");
  return out;
}

// Progress goes to stderr only when a person is watching it.
std::function<void(const std::string&)> make_progress() {
  if (isatty(STDERR_FILENO) == 0) return [](const std::string&) {};
  return [](const std::string& line) {
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    std::fflush(stderr);
  };
}

std::string default_engine_name(const std::string& requested) {
  try {
    return std::string(core::choose_engine(requested).name);
  } catch (const core::Error&) {
    return requested;  // the experiment that uses it reports the problem as a usage error
  }
}

// Every argument is checked before the first byte of output, so that a refused command prints only its error.
int run(const Options& o) {
  const std::optional<Format> format = bench::parse_format(o.format);
  if (!format) throw usage("--format must be table, markdown, csv or json");
  const bool keystream = o.keystream->parsed(), throughput = o.throughput->parsed(),
             engines = o.engines->parsed();
  const bool summary = !keystream && !throughput && !engines;
  const std::string engine = o.requested_engine ? o.requested_engine(o.engine) : o.engine;
  if (!engine.empty()) core::choose_engine(engine);  // unknown or unsupported: a usage error with a hint

  // Defaults per mode: full experiment, the short summary (no experiment named), or --quick (test suite).
  bench::Context ctx;
  ctx.quick = o.quick;
  ctx.engine = engine;
  ctx.method.max_samples = o.quick ? 2 : summary ? 3 : 5;
  ctx.method.max_time = o.quick ? 0.2 : summary ? 0.5 : 3.0;
  if (o.max_samples_opt->count() != 0)
    ctx.method.max_samples = count_arg(o.max_samples, "--max-samples", 1, 1000000);
  if (o.max_time_opt->count() != 0) ctx.method.max_time = seconds_arg(o.max_time, "--max-time");
  if (o.warmups_opt->count() != 0) ctx.method.warmups = count_arg(o.warmups, "--warmups", 0, 1000);

  bench::KeystreamOptions ks;
  ks.data_bytes = o.quick   ? std::uint64_t{4} << 20
                  : summary ? std::uint64_t{32} << 20
                            : std::uint64_t{1} << 30;
  // The portable engine is some 50x slower than the hardware ones: scale its default down to match.
  if (engine == "portable" && !o.quick)
    ks.data_bytes = summary ? std::uint64_t{4} << 20 : std::uint64_t{64} << 20;
  if (!o.data_size.empty()) ks.data_bytes = size_arg(o.data_size, "--data-size");
  if (keystream || summary) bench::check_keystream_options(engine, ks);

  bench::ThroughputOptions tp;
  if (o.quick)
    tp.sizes = {std::uint64_t{16} << 20};
  else if (summary)
    tp.sizes = {std::uint64_t{256} << 20};
  if (!o.sizes.empty()) tp.sizes = size_list(o.sizes, "--sizes");
  tp.runs = o.quick ? 2 : summary ? 3 : 10;
  if (o.runs_opt->count() != 0) tp.runs = count_arg(o.runs, "--runs", 1, 1000000);
  if (!o.threads.empty()) tp.threads = thread_list(o.threads);
  if (!o.chunk_sizes.empty()) tp.chunk_sizes = chunk_size_list(o.chunk_sizes);
  tp.dir = o.dir;
  if (!tp.dir.empty()) check_scratch_dir(tp.dir);

  bench::EnginesOptions en;
  en.sample_seconds = o.quick ? 0.002 : summary ? 0.02 : 0.1;
  if (!o.msg_sizes.empty()) en.message_sizes = size_list(o.msg_sizes, "--msg-sizes");

  bench::SigintScope sigint;
  std::size_t tables = 0;
  auto progress = make_progress();
  ctx.progress = progress;
  ctx.emit = [&](const bench::Table& t) {
    progress("");
    std::fputs(bench::render_table(*format, t, tables++).c_str(), stdout);
    std::fflush(stdout);
  };
  std::fputs(bench::render_begin(*format, bench::machine_facts(default_engine_name(engine))).c_str(), stdout);
  // At once, as each table is: whoever reads the output (a script, tests/cli/test_bench.sh waiting to
  // send Ctrl-C) sees the run has begun, not nothing until the first table ends (a minute or more for
  // large sizes).
  std::fflush(stdout);
  if ((keystream || summary) && !ctx.stop()) bench::run_keystream(ctx, ks);
  if ((throughput || summary) && !ctx.stop()) bench::run_throughput(ctx, tp);
  if ((engines || summary) && !ctx.stop()) bench::run_engines(ctx, en);
  progress("");
  if (isatty(STDERR_FILENO) != 0) std::fputs("\r\033[K", stderr);
  const bool stopped = bench::interrupted();
  std::fputs(bench::render_end(*format, stopped).c_str(), stdout);
  std::fflush(stdout);
  return stopped ? 130 : 0;
}

}  // namespace

BenchCommand add_bench_command(CLI::App& root,
                               std::function<std::string(const std::string& option)> requested_engine) {
  auto o = std::make_shared<Options>();
  o->requested_engine = std::move(requested_engine);
  CLI::App* b = root.add_subcommand(
      "bench", "Measure encryption speed on this machine (replicates published experiments)");
  o->bench = b;
  b->require_subcommand(0, 1);
  b->add_option("--format", o->format, "Output: table, markdown, csv or json")->capture_default_str();
  b->add_flag("--quick", o->quick, "Small sizes, few samples (well under 15 s): what the test suite runs");
  o->max_samples_opt = b->add_option("--max-samples", o->max_samples, "Timed samples per case at most");
  o->max_time_opt = b->add_option("--max-time", o->max_time, "Seconds of timed samples per case at most");
  o->warmups_opt =
      b->add_option("--warmups", o->warmups, "Untimed warm-up runs per case (default 1; 0: none)");
  b->add_option("--engine", o->engine,
                "AES engine (vaes512, vaes, aesni, armce, portable, sodium); default: fastest supported");
  b->footer(
      "With no experiment, runs a short summary of all three (about a minute).\n"
      "Units: MB = 10^6 bytes, MiB = 2^20 bytes. Ctrl-C prints partial results and exits 130.\n"
      "See docs/BENCHMARKS.md.");

  o->keystream =
      b->add_subcommand("keystream", "AES-CTR keystream in requests of 4 MiB down to 8 B, with XOR loops");
  o->keystream->fallthrough();
  o->keystream->add_option("--data-size", o->data_size,
                           "Data processed per sample, multiple of 4 MiB (default 1GiB)");

  o->throughput =
      b->add_subcommand("throughput", "Encrypt + decrypt random data through the parallel pipeline");
  o->throughput->fallthrough();
  o->throughput->add_option("--sizes", o->sizes, "Data sizes (default 512MiB,1GiB,2GiB)");
  o->runs_opt = o->throughput->add_option("--runs", o->runs, "Runs per configuration (default 10)");
  o->throughput->add_option("-j,--threads", o->threads,
                            "Worker thread counts to sweep, e.g. 1,2,4 (default: cores)");
  o->throughput->add_option("--chunk-size", o->chunk_sizes,
                            "Chunk sizes to sweep, e.g. 64KiB,1MiB (default 1MiB)");
  o->throughput->add_option("--dir", o->dir, "Also run through real files in this directory");

  o->engines =
      b->add_subcommand("engines", "Portable vs hardware AES; AEAD speed by message size; X25519/ML-KEM ops");
  o->engines->fallthrough();
  o->engines->add_option("--msg-sizes", o->msg_sizes,
                         "Message sizes (default 16,64,256,1KiB,8KiB,64KiB,1MiB)");

  return {b, [o] {
            try {
              return run(*o);
            } catch (const core::Error& e) {
              std::fflush(stdout);
              std::fprintf(stderr, "pcrypt: error: %s\n", e.what());
              if (!e.hint().empty()) std::fprintf(stderr, "pcrypt: hint: %s\n", e.hint().c_str());
              return static_cast<int>(e.kind());  // core's kinds are numbered as the exit statuses
            } catch (const std::exception& e) {
              std::fflush(stdout);
              std::fprintf(stderr, "pcrypt: error: %s\n", e.what());
              return 1;
            }
          }};
}

}  // namespace pcrypt::app
