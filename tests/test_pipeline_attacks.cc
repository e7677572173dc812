// Every way of tampering with a sealed payload is an Error(payload), and nothing from the first bad chunk on
// ever reaches the writer: what was written is a prefix of the plaintext ending before that chunk.
#include <catch2/catch.hpp>

#include "tests/test_pipeline_support.h"

using namespace pcrypt;
using test::Bytes;

namespace {

constexpr std::size_t kCs = 4096;
constexpr std::size_t kRecord = kCs + 16;

// 4 chunks: three full, one of 1000 bytes.
const Bytes& plain() {
  static const Bytes p = test::random_bytes(3 * kCs + 1000);
  return p;
}
const Bytes& sealed() {
  static const Bytes s = test::seal(plain(), kCs, 1);
  return s;
}

Bytes record(std::size_t i) {
  const std::size_t end = std::min(sealed().size(), (i + 1) * kRecord);
  return Bytes(sealed().begin() + i * kRecord, sealed().begin() + end);
}

Bytes join(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// Opens `tampered` with several thread counts, on every path; each must fail with a payload error containing
// `expected`, having written only authenticated chunks: sequentially, whole chunks before `bad_chunk`;
// positionally, authentic chunks at their own offsets, never `bad_chunk` (see test::failed_output_problem).
void expect_rejected(const Bytes& tampered, std::size_t bad_chunk, const std::string& expected) {
  for (const test::Paths paths : test::kAllPaths) {
    for (const unsigned threads : {1u, 2u, 3u, 8u}) {
      INFO(threads << " threads, " << paths);
      const test::OpenResult r =
          test::within_deadline([&] { return test::open(tampered, kCs, threads, paths); });
      REQUIRE(r.error.has_value());
      CHECK(r.error->kind() == core::ErrorKind::payload);
      CHECK_THAT(r.error->what(), Catch::Contains(expected));
      REQUIRE(test::failed_output_problem(r.written, plain(), kCs, bad_chunk, paths.out) == "");
    }
  }
}

std::string auth_failure(std::size_t chunk) {
  return "payload authentication failed (chunk " + std::to_string(chunk) + " at offset " +
         std::to_string(chunk * kRecord) + ")";
}

}  // namespace

TEST_CASE("the untampered payload opens") {
  const test::OpenResult r = test::open(sealed(), kCs, 2);
  REQUIRE(test::message_of(r.error) == "");
  REQUIRE(r.written == plain());
}

TEST_CASE("truncation is detected") {
  SECTION("at a chunk boundary: the final chunk is missing") {
    expect_rejected(join({record(0), record(1), record(2)}), 2,
                    "truncated payload: input ends after chunk 2, at a chunk boundary");
  }
  SECTION("after the first chunk") {
    expect_rejected(record(0), 0, "truncated payload: input ends after chunk 0");
  }
  SECTION("in the middle of a chunk") {
    Bytes cut = sealed();
    cut.resize(kRecord + 2000);
    expect_rejected(cut, 1, auth_failure(1));
  }
  SECTION("inside the final chunk's tag") {
    Bytes cut = sealed();
    cut.pop_back();
    expect_rejected(cut, 3, auth_failure(3));
  }
  SECTION("to 0 bytes") {
    expect_rejected(Bytes{}, 0, "truncated payload: the payload is empty");
  }
  SECTION("to fewer bytes than a tag") {
    expect_rejected(Bytes(sealed().begin(), sealed().begin() + 10), 0, "shorter than its 16-byte tag");
  }
  SECTION("leaving a bare tag-sized record after full chunks") {
    Bytes cut = sealed();
    cut.resize(2 * kRecord + 16);
    expect_rejected(cut, 2,
                    "(chunk 2 at offset " + std::to_string(2 * kRecord) + ") holds a tag but no data");
  }
  SECTION("leaving fewer than 16 bytes of the next record") {
    Bytes cut = sealed();
    cut.resize(kRecord + 5);
    expect_rejected(cut, 1,
                    "the final record (chunk 1 at offset " + std::to_string(kRecord) + ") is 5 bytes");
  }
}

TEST_CASE("reordered, duplicated and dropped chunks are detected") {
  SECTION("swap chunks 0 and 1") {
    expect_rejected(join({record(1), record(0), record(2), record(3)}), 0, auth_failure(0));
  }
  SECTION("swap chunks 1 and 2") {
    expect_rejected(join({record(0), record(2), record(1), record(3)}), 1, auth_failure(1));
  }
  SECTION("duplicate chunk 1") {
    expect_rejected(join({record(0), record(1), record(1), record(2), record(3)}), 2, auth_failure(2));
  }
  SECTION("drop chunk 1") {
    expect_rejected(join({record(0), record(2), record(3)}), 1, auth_failure(1));
  }
  SECTION("final chunk moved to the front") {
    expect_rejected(join({record(3), record(0), record(1), record(2)}), 0, auth_failure(0));
  }
}

TEST_CASE("data appended after the final chunk is detected") {
  SECTION("one byte") {
    expect_rejected(join({sealed(), Bytes{0}}), 3, auth_failure(3));
  }
  SECTION("a copy of the final chunk") {
    expect_rejected(join({sealed(), record(3)}), 3, auth_failure(3));
  }
  SECTION("a whole second payload") {
    expect_rejected(join({sealed(), sealed()}), 3, auth_failure(3));
  }
}

TEST_CASE("a flipped bit anywhere is detected in its own chunk") {
  for (const std::size_t pos : {std::size_t{0}, kCs - 1, kCs, kCs + 15, kRecord, 2 * kRecord + 77,
                                3 * kRecord, sealed().size() - 17, sealed().size() - 1}) {
    for (const int bit : {0, 7}) {
      Bytes flipped = sealed();
      flipped[pos] ^= static_cast<std::uint8_t>(1 << bit);
      INFO("byte " << pos << " bit " << bit);
      expect_rejected(flipped, pos / kRecord, auth_failure(pos / kRecord));
    }
  }
}

TEST_CASE("the first bad chunk in stream order is the one reported") {
  Bytes twice = sealed();
  twice[3 * kRecord + 5] ^= 1;
  twice[kRecord + 5] ^= 1;
  expect_rejected(twice, 1, auth_failure(1));
}

TEST_CASE("an error carries a hint for the user") {
  Bytes flipped = sealed();
  flipped[100] ^= 1;
  const test::OpenResult r = test::open(flipped, kCs, 2);
  REQUIRE(r.error.has_value());
  REQUIRE_FALSE(r.error->hint().empty());
}
