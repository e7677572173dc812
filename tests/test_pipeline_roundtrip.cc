// run_pipeline seals into exactly the chunk layout docs/FORMAT.md describes, opens its own output, and gives
// the same bytes for every thread count.
#include <algorithm>
#include <catch2/catch.hpp>

#include "core/pipeline_sizing.h"
#include "tests/test_pipeline_support.h"

using namespace pcrypt;
using test::Bytes;

namespace {

// Independent of the pipeline: cut `plain` by hand and check each sealed record with ChunkCipher directly,
// with the last flag on the final chunk only (including a final chunk that exactly fills chunk_size).
void check_layout(const Bytes& plain, const Bytes& sealed, std::size_t cs) {
  const std::size_t chunks = plain.empty() ? 1 : (plain.size() + cs - 1) / cs;
  REQUIRE(sealed.size() == plain.size() + chunks * core::kChunkTagBytes);
  for (std::size_t i = 0; i < chunks; ++i) {
    const std::size_t len = std::min(cs, plain.size() - i * cs);
    Bytes record(sealed.begin() + i * (cs + 16), sealed.begin() + i * (cs + 16) + len + 16);
    const bool last = i + 1 == chunks;
    INFO("chunk " << i << " of " << chunks);
    Bytes other_flag = record;
    REQUIRE_FALSE(test::test_cipher().open(i, !last, other_flag.data(), len));
    REQUIRE(test::test_cipher().open(i, last, record.data(), len));
    REQUIRE(std::equal(record.begin(), record.begin() + len, plain.begin() + i * cs));
  }
}

}  // namespace

TEST_CASE("round trip at every boundary size, chunk size and thread count") {
  for (const std::size_t cs : {std::size_t{4096}, std::size_t{65536}, std::size_t{1} << 20}) {
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{15}, std::size_t{16},
                                std::size_t{17}, cs - 1, cs, cs + 1, 2 * cs + 123}) {
      const Bytes plain = test::random_bytes(n);
      const Bytes reference = test::seal(plain, cs, 1);
      INFO("chunk size " << cs << ", " << n << " bytes");
      check_layout(plain, reference, cs);
      for (const test::Paths paths : test::kAllPaths) {
        for (const unsigned threads : {1u, 2u, 3u, 8u}) {
          INFO(threads << " threads, " << paths);
          const Bytes sealed = test::within_deadline([&] { return test::seal(plain, cs, threads, paths); });
          REQUIRE(sealed == reference);  // -j1 and -jN, sequential and positional: byte-identical
          const test::OpenResult opened =
              test::within_deadline([&] { return test::open(sealed, cs, threads, paths); });
          INFO(test::message_of(opened.error));
          REQUIRE_FALSE(opened.error);
          REQUIRE(opened.written == plain);
        }
      }
    }
  }
}

TEST_CASE("items of several records give the bytes of one record per item, and open back") {
  // The pipeline's unit of work is a group of records (PipelineConfig::item_bytes); the codec must still see
  // every record under its own index with the last flag on the final one only: a final item that is one
  // record, or whose final record is full, or an item that is all of an input, changes nothing.
  for (const std::size_t cs : {std::size_t{16}, std::size_t{17}, std::size_t{4096}}) {
    for (const std::size_t group : {std::size_t{2}, std::size_t{3}, std::size_t{16}}) {
      const std::size_t item_bytes = group * (cs + core::kChunkTagBytes);
      REQUIRE(core::pipeline_records_per_item(cs + core::kChunkTagBytes, item_bytes) == group);
      for (const std::size_t n : {std::size_t{0}, std::size_t{1}, cs, cs + 1, group * cs, group * cs + 1,
                                  2 * group * cs, 2 * group * cs - 1, 5 * group * cs + cs / 2}) {
        const Bytes plain = test::random_bytes(n);
        const Bytes reference = test::seal(plain, cs, 1, {}, 0);  // one record per item
        INFO("chunk size " << cs << ", " << group << " records per item, " << n << " bytes");
        check_layout(plain, reference, cs);
        for (const test::Paths paths : test::kAllPaths) {
          for (const unsigned threads : {1u, 3u}) {
            INFO(threads << " threads, " << paths);
            const Bytes sealed =
                test::within_deadline([&] { return test::seal(plain, cs, threads, paths, item_bytes); });
            REQUIRE(sealed == reference);
            const test::OpenResult opened =
                test::within_deadline([&] { return test::open(sealed, cs, threads, paths, item_bytes); });
            INFO(test::message_of(opened.error));
            REQUIRE_FALSE(opened.error);
            REQUIRE(opened.written == plain);
          }
        }
      }
    }
  }
}

TEST_CASE("many small chunks keep their order across workers") {
  const Bytes plain = test::random_bytes(3000 * 64 + 5);
  const Bytes reference = test::seal(plain, 64, 1);
  check_layout(plain, reference, 64);
  for (const test::Paths paths : test::kAllPaths) {
    for (const unsigned threads : {2u, 8u}) {
      INFO(threads << " threads, " << paths);
      REQUIRE(test::within_deadline([&] { return test::seal(plain, 64, threads, paths); }) == reference);
      const test::OpenResult opened =
          test::within_deadline([&] { return test::open(reference, 64, threads, paths); });
      INFO(test::message_of(opened.error));
      REQUIRE_FALSE(opened.error);
      REQUIRE(opened.written == plain);
    }
  }
}

TEST_CASE("stats and progress report what was written, in order, on every path") {
  const std::size_t cs = 4096;
  const Bytes plain = test::random_bytes(5 * cs + 7);
  for (const test::Paths paths : test::kAllPaths) {
    INFO(paths);
    io::MemoryReader in(plain, paths.in);
    io::MemoryWriter out(paths.out);
    std::vector<std::uint64_t> progress;
    core::PipelineConfig cfg = test::config(3, 0);  // one record per item
    cfg.progress = [&](std::uint64_t bytes) { progress.push_back(bytes); };
    const core::PipelineStats stats =
        core::run_pipeline(test::codec(core::Direction::seal, cs), in, out, cfg);
    REQUIRE(stats.chunks == 6);
    REQUIRE(stats.plaintext_bytes == plain.size());
    REQUIRE(stats.ciphertext_bytes == out.data().size());
    // Monotonic even when records are written out of order: progress follows the written prefix.
    REQUIRE(progress == std::vector<std::uint64_t>{cs, 2 * cs, 3 * cs, 4 * cs, 5 * cs, 5 * cs + 7});
    REQUIRE_FALSE(out.committed());  // committing is the caller's decision
    // Both streams end where sequential reading and writing would have left them.
    REQUIRE(in.position() == plain.size());
    REQUIRE(out.position() == out.data().size());

    io::MemoryReader sealed_in(out.data(), paths.in);
    io::MemoryWriter plain_out(paths.out);
    const core::PipelineStats back =
        core::run_pipeline(test::codec(core::Direction::open, cs), sealed_in, plain_out, test::config(2, 0));
    REQUIRE(back.chunks == 6);
    REQUIRE(back.plaintext_bytes == plain.size());
    REQUIRE(back.ciphertext_bytes == out.data().size());
    REQUIRE(plain_out.data() == plain);
  }
}

TEST_CASE("with items of several records, stats count records and progress follows the items written") {
  const std::size_t cs = 4096;
  const Bytes plain = test::random_bytes(5 * cs + 7);  // 6 records: items {0, 1}, {2, 3}, {4, 5}
  for (const test::Paths paths : test::kAllPaths) {
    INFO(paths);
    io::MemoryReader in(plain, paths.in);
    io::MemoryWriter out(paths.out);
    std::vector<std::uint64_t> progress;
    core::PipelineConfig cfg = test::config(3, 2 * (cs + core::kChunkTagBytes));
    cfg.progress = [&](std::uint64_t bytes) { progress.push_back(bytes); };
    const core::PipelineStats stats =
        core::run_pipeline(test::codec(core::Direction::seal, cs), in, out, cfg);
    REQUIRE(stats.chunks == 6);  // records, not items
    REQUIRE(stats.plaintext_bytes == plain.size());
    REQUIRE(stats.ciphertext_bytes == out.data().size());
    REQUIRE(progress == std::vector<std::uint64_t>{2 * cs, 4 * cs, 5 * cs + 7});
    REQUIRE(in.position() == plain.size());
    REQUIRE(out.position() == out.data().size());

    io::MemoryReader sealed_in(out.data(), paths.in);
    io::MemoryWriter plain_out(paths.out);
    const core::PipelineStats back = core::run_pipeline(test::codec(core::Direction::open, cs), sealed_in,
                                                        plain_out, test::config(2, 4 * (cs + 16)));
    REQUIRE(back.chunks == 6);
    REQUIRE(back.plaintext_bytes == plain.size());
    REQUIRE(back.ciphertext_bytes == out.data().size());
    REQUIRE(plain_out.data() == plain);
  }
}

TEST_CASE("positional access starts at the streams' positions (after a header)") {
  const std::size_t cs = 4096;
  const Bytes plain = test::random_bytes(3 * cs + 5);
  const Bytes header = test::random_bytes(77);
  const Bytes reference = test::seal(plain, cs, 1);
  for (const test::Paths paths : test::kAllPaths) {
    for (const unsigned threads : {1u, 4u}) {
      INFO(threads << " threads, " << paths);
      // Sized, then filled: copying `header` and inserting behind it makes GCC 12 -O3 report false
      // -Warray-bounds / -Wstringop-overflow warnings.
      Bytes input(header.size() + plain.size());
      std::copy(plain.begin(), plain.end(), std::copy(header.begin(), header.end(), input.begin()));
      io::MemoryReader in(input, paths.in);
      Bytes skipped(header.size());
      REQUIRE(in.read(skipped.data(), skipped.size()) == header.size());
      io::MemoryWriter out(paths.out);
      out.write(header.data(), header.size());
      test::within_deadline([&] {
        return core::run_pipeline(test::codec(core::Direction::seal, cs), in, out, test::config(threads));
      });
      Bytes expected(header.size() + reference.size());
      std::copy(reference.begin(), reference.end(),
                std::copy(header.begin(), header.end(), expected.begin()));
      REQUIRE(out.data() == expected);
    }
  }
}

TEST_CASE("a zero or absurd chunk size is a usage error, before any I/O") {
  const Bytes plain = test::random_bytes(10);
  for (const std::size_t cs : {std::size_t{0}, SIZE_MAX / 4, SIZE_MAX}) {
    INFO("chunk size " << cs);
    io::MemoryReader in(plain);
    io::MemoryWriter out;
    try {
      core::run_pipeline(test::codec(core::Direction::seal, cs), in, out, test::config(1));
      FAIL("no error");
    } catch (const core::Error& e) {
      REQUIRE(e.kind() == core::ErrorKind::usage);
    }
    REQUIRE(out.data().empty());
  }
}
