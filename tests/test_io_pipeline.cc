// The real streams under the real pipeline: file -> seal -> atomic output -> open -> atomic output, and a
// write failure midway leaves no output at all.
#include <sodium.h>
#include <sys/resource.h>
#include <catch2/catch.hpp>

#include <csignal>
#include <filesystem>

#include "core/aes/engine.h"
#include "core/aes/sodium_init.h"
#include "core/error.h"
#include "core/pipeline.h"
#include "core/records.h"
#include "io/atomic_file.h"
#include "io/fd_stream.h"
#include "tests/test_files.h"

using namespace pcrypt;
namespace fs = std::filesystem;

namespace {

using test::Bytes;
using test::read_file;
using test::TempDir;

const core::ChunkCipher& cipher() {
  static const core::ChunkCipher c = [] {
    REQUIRE(sodium_ready());
    std::uint8_t key[aes::kGcmKeyBytes];
    randombytes_buf(key, sizeof key);
    return core::ChunkCipher(
        core::gcm_aead(aes::select_engine().make_gcm(std::span<const std::uint8_t, aes::kGcmKeyBytes>(key))));
  }();
  return c;
}

void run_file_to_file(core::Direction d, const std::string& from, const std::string& to, unsigned threads) {
  const auto in = io::open_input(from);
  io::AtomicFileWriter out(to, false);
  core::PipelineConfig cfg;
  cfg.threads = threads;
  core::run_pipeline(core::PayloadCodec(d, cipher(), core::PayloadLayout{64 * 1024, 0}), *in, out, cfg);
  out.commit();
}

}  // namespace

TEST_CASE("files round-trip through the pipeline and atomic outputs") {
  TempDir dir;
  const Bytes plain = test::random_bytes(5 * 64 * 1024 + 333);
  test::write_file(dir / "plain", plain);
  for (const unsigned threads : {1u, 4u}) {
    const std::string sealed = dir / ("sealed" + std::to_string(threads));
    const std::string back = dir / ("back" + std::to_string(threads));
    run_file_to_file(core::Direction::seal, dir / "plain", sealed, threads);
    REQUIRE(fs::file_size(sealed) == plain.size() + 6 * 16);
    run_file_to_file(core::Direction::open, sealed, back, threads);
    REQUIRE(read_file(back) == plain);
  }
  REQUIRE(read_file(dir / "sealed1") == read_file(dir / "sealed4"));
}

TEST_CASE("a write failure midway (file size limit) leaves no output behind") {
  TempDir dir;
  const Bytes plain = test::random_bytes(1024 * 1024);
  test::write_file(dir / "plain", plain);
  // RLIMIT_FSIZE makes write() fail with EFBIG part way, like a full disk (SIGXFSZ must be ignored for that).
  struct sigaction ignore {
  }, old_action{};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  REQUIRE(sigaction(SIGXFSZ, &ignore, &old_action) == 0);
  struct rlimit old_limit;
  REQUIRE(getrlimit(RLIMIT_FSIZE, &old_limit) == 0);
  struct rlimit limit = old_limit;
  limit.rlim_cur = 200 * 1024;
  REQUIRE(setrlimit(RLIMIT_FSIZE, &limit) == 0);
  std::string message;
  try {
    run_file_to_file(core::Direction::seal, dir / "plain", dir / "out", 2);
  } catch (const core::Error& e) {
    message = e.what();
  }
  setrlimit(RLIMIT_FSIZE, &old_limit);
  sigaction(SIGXFSZ, &old_action, nullptr);
  REQUIRE(message == "write failed (" + dir / "out" + "): File too large");
  REQUIRE_FALSE(fs::exists(dir / "out"));
  REQUIRE(dir.entries() == std::vector<std::string>{"plain"});  // just the input
}
