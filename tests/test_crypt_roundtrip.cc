// Whole files through encrypt_stream/decrypt_stream: every size around chunk boundaries, two chunk sizes,
// several thread counts; the file length is exactly header + plaintext + one tag per chunk (docs/FORMAT.md
// §4).
#include <catch2/catch.hpp>

#include "tests/test_crypt_support.h"

using namespace pcrypt;
using test::Bytes;

namespace {

constexpr std::size_t kKeyFileHeaderBytes = 120;

std::size_t chunks_for(std::size_t size, std::size_t chunk_size) {
  return size == 0 ? 1 : (size + chunk_size - 1) / chunk_size;
}

}  // namespace

TEST_CASE("round trip for sizes around chunk boundaries, chunk sizes and thread counts") {
  const core::Credential key = test::fresh_key();
  for (const std::size_t cs : {std::size_t{4096}, std::size_t{65536}}) {
    for (const std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{15}, std::size_t{16},
                                   std::size_t{17}, cs - 1, cs, cs + 1, 2 * cs + 123}) {
      const Bytes plain = test::random_bytes(size);
      Bytes first_file;
      for (const unsigned threads : {1u, 2u, 4u}) {
        INFO("chunk size " << cs << ", size " << size << ", threads " << threads);
        core::EncryptOptions options;
        options.chunk_size = cs;
        options.threads = threads;
        io::MemoryReader in(plain);
        io::MemoryWriter out;
        const core::PipelineStats sealed = core::encrypt_stream(in, out, test::creds(key), options);
        const Bytes& file = out.data();
        CHECK_FALSE(out.committed());  // committing is the caller's decision
        const std::size_t chunks = chunks_for(size, cs);
        CHECK(file.size() == kKeyFileHeaderBytes + size + 16 * chunks);
        CHECK(sealed.plaintext_bytes == size);
        CHECK(sealed.chunks == chunks);
        // Every file has its own file key: the same input never gives the same bytes.
        if (!first_file.empty()) CHECK(file != first_file);
        first_file = file;

        // Any thread count opens what any other thread count wrote.
        for (const unsigned open_threads : {1u, 3u}) {
          io::MemoryWriter back;
          const core::PipelineStats opened = test::decrypt_into(back, file, test::creds(key), open_threads);
          CHECK(back.data() == plain);
          CHECK(opened.plaintext_bytes == size);
          CHECK(opened.chunks == chunks);
        }
      }
    }
  }
}

TEST_CASE("passphrase files and files with several credentials round-trip for each credential") {
  const Bytes plain = test::random_bytes(10000);
  std::vector<core::Credential> all;
  all.push_back(test::passphrase("first passphrase"));
  all.push_back(test::fresh_key());
  all.push_back(test::passphrase("second passphrase"));
  const Bytes file = test::encrypt(plain, all);
  for (const core::Credential& c : all) CHECK(test::decrypt(file, test::creds(c)) == plain);
  CHECK(test::decrypt(test::encrypt(plain, test::creds(all[0]), 4096, 1), test::creds(all[0]), 4) == plain);
}

TEST_CASE("decrypt uses the chunk size stored in the file, not a default") {
  const core::Credential key = test::fresh_key();
  const Bytes plain = test::random_bytes(3 * 65536 + 7);
  for (const std::size_t cs : {std::size_t{4096}, std::size_t{65536}, std::size_t{100000}})
    CHECK(test::decrypt(test::encrypt(plain, test::creds(key), cs), test::creds(key)) == plain);
}

TEST_CASE("progress reports reach the total plaintext size") {
  const core::Credential key = test::fresh_key();
  const Bytes plain = test::random_bytes(5 * 4096 + 1);
  std::uint64_t last_seal = 0, last_open = 0;
  core::EncryptOptions eo;
  eo.chunk_size = 4096;
  eo.progress = [&](std::uint64_t n) { last_seal = n; };
  io::MemoryReader in(plain);
  io::MemoryWriter file;
  core::encrypt_stream(in, file, test::creds(key), eo);
  core::DecryptOptions dopt;
  dopt.progress = [&](std::uint64_t n) { last_open = n; };
  io::MemoryReader fin(file.data());
  io::MemoryWriter back;
  core::decrypt_stream(fin, back, test::creds(key), dopt);
  CHECK(last_seal == plain.size());
  CHECK(last_open == plain.size());
}

TEST_CASE("encrypt refuses bad options before writing anything") {
  const Bytes plain = test::random_bytes(10);
  auto encrypt_with = [&](const std::vector<core::Credential>& credentials, std::size_t cs,
                          io::MemoryWriter& out) {
    core::EncryptOptions options;
    options.chunk_size = cs;
    io::MemoryReader in(plain);
    core::encrypt_stream(in, out, credentials, options);
  };
  const core::Credential key = test::fresh_key();
  for (const std::size_t cs : {std::size_t{0}, std::size_t{4095}, (std::size_t{64} << 20) + 1}) {
    io::MemoryWriter out;
    test::error_of(core::ErrorKind::usage, [&] { encrypt_with(test::creds(key), cs, out); });
    CHECK(out.data().empty());
  }
  io::MemoryWriter out;
  test::error_of(core::ErrorKind::usage, [&] { encrypt_with({}, 4096, out); });
  test::error_of(core::ErrorKind::usage, [&] { encrypt_with(test::creds(test::passphrase("")), 4096, out); });
  std::vector<core::Credential> five;
  for (int i = 0; i < 5; ++i) {
    // Appended rather than "p" + to_string(i): GCC 12 -O3 reports a false -Wrestrict inside the latter.
    std::string passphrase = "p";
    passphrase += std::to_string(i);
    five.push_back(test::passphrase(passphrase));
  }
  core::EncryptOptions cheap;
  cheap.kdf = test::cheap_kdf();
  io::MemoryReader in(plain);
  test::error_of(core::ErrorKind::usage, [&] { core::encrypt_stream(in, out, five, cheap); });
  CHECK(out.data().empty());
}

TEST_CASE("decrypt with an explicitly chosen engine gives the same plaintext on every supported engine") {
  const core::Credential key = test::fresh_key();
  const Bytes plain = test::random_bytes(3 * 4096 + 99);
  const Bytes file = test::encrypt(plain, test::creds(key));
  for (const aes::Engine& engine : aes::all_engines()) {
    if (!engine.supported()) continue;
    INFO("engine " << engine.name);
    io::MemoryWriter back;
    test::decrypt_into(back, file, test::creds(key), 2, &engine);
    CHECK(back.data() == plain);
  }
}
