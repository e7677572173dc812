// The pull reader's speed against File::decrypt's through the public API alone (docs/BENCHMARKS.md, "The
// pull reader"): one process does one thing, so that a whole-process timer compares them.
//   reader_bench reader FILE IDENTITY_OR_KEY_FILE THREADS [BUFFER_BYTES]   read() into one buffer, in a loop
//   reader_bench decrypt FILE IDENTITY_OR_KEY_FILE THREADS                 File::decrypt into a sink that
//                                                                          discards
// Both print the plaintext bytes and the seconds from the first payload byte to the last (the header's
// unlock, scrypt or Argon2id, is before the clock starts), and exit 0.
#include <pcrypt/pcrypt.h>
#include <pcrypt/reader.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr,
                 "usage: reader_bench reader|decrypt FILE IDENTITY_OR_KEY_FILE THREADS [BUFFER_BYTES]\n");
    return 2;
  }
  const std::string mode = argv[1];
  const unsigned threads = static_cast<unsigned>(std::strtoul(argv[4], nullptr, 10));
  const std::size_t buffer_bytes = argc > 5 ? std::strtoull(argv[5], nullptr, 10) : std::size_t{64} << 10;
  try {
    pcrypt::Keys keys;
    keys.add_key_or_identity_file(argv[3]);
    pcrypt::Credentials by;
    by.keys = &keys;
    pcrypt::File file = pcrypt::File::open(pcrypt::Source::path(argv[2]));
    file.unlock(by);
    std::uint64_t bytes = 0;
    const auto start = std::chrono::steady_clock::now();
    if (mode == "reader") {
      pcrypt::Reader in(std::move(file), pcrypt::RunOptions{threads, {}, nullptr});
      std::vector<std::uint8_t> buffer(buffer_bytes);
      while (const std::size_t n = in.read(buffer)) bytes += n;
    } else if (mode == "decrypt") {
      bytes = file.decrypt(pcrypt::Sink::callback([](std::span<const std::uint8_t>) {}),
                           pcrypt::RunOptions{threads, {}, nullptr})
                  .plaintext_bytes;
    } else {
      std::fprintf(stderr, "reader_bench: unknown mode '%s'\n", mode.c_str());
      return 2;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%s threads=%u bytes=%llu seconds=%.4f GB/s=%.2f\n", mode.c_str(), threads,
                static_cast<unsigned long long>(bytes), seconds, static_cast<double>(bytes) / seconds / 1e9);
  } catch (const pcrypt::Error& e) {
    std::fprintf(stderr, "reader_bench: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
