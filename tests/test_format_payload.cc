// The payload rules (docs/FORMAT.md §4) without a pipeline: record arithmetic, and opening record i of a
// sealed stream in place, as a reader of a byte range would. Sealed data comes from the pipeline, so the two
// agree.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "core/records.h"
#include "tests/test_pipeline_support.h"

using namespace pcrypt;
using test::Bytes;

namespace {

constexpr std::size_t kCs = 64;
constexpr std::size_t kRecord = kCs + core::kChunkTagBytes;

}  // namespace

TEST_CASE("record count and plaintext size follow from the payload length") {
  const core::PayloadLayout layout{kCs, 100};
  CHECK(layout.record_bytes() == kRecord);
  CHECK(layout.record_offset(0) == 100);
  CHECK(layout.record_offset(3) == 100 + 3 * kRecord);
  for (const std::size_t size :
       {std::size_t{0}, std::size_t{1}, kCs - 1, kCs, kCs + 1, 5 * kCs, 5 * kCs + 9}) {
    INFO("plaintext " << size);
    const Bytes sealed = test::seal(test::random_bytes(size), kCs, 2);
    const std::uint64_t records = size == 0 ? 1 : (size + kCs - 1) / kCs;
    REQUIRE(layout.record_count(sealed.size()) == records);
    REQUIRE(layout.plaintext_bytes(sealed.size()) == size);
  }
  // Lengths no sealed payload has: shorter than a tag, a final record shorter than its tag, an empty final
  // chunk after chunk 0.
  for (const std::uint64_t bad :
       {std::uint64_t{0}, std::uint64_t{15}, kRecord + 15, std::uint64_t{kRecord + 16}, 3 * kRecord + 1}) {
    INFO("payload " << bad);
    CHECK_FALSE(layout.record_count(bad));
    CHECK_FALSE(layout.plaintext_bytes(bad));
  }
}

TEST_CASE("any record of a sealed stream opens on its own, in place, given its index and last flag") {
  const Bytes plain = test::random_bytes(4 * kCs + 10);
  const Bytes sealed = test::seal(plain, kCs, 1);
  const core::PayloadRecords records(test::test_cipher(), core::PayloadLayout{kCs, 50});
  for (std::uint64_t i = 0; i < 5; ++i) {
    const bool last = i == 4;
    const std::size_t len = last ? 10 + core::kChunkTagBytes : kRecord;
    Bytes buf(sealed.begin() + static_cast<std::ptrdiff_t>(i * kRecord),
              sealed.begin() + static_cast<std::ptrdiff_t>(i * kRecord + len));
    const core::OpenedRecord opened = records.open_record(i, last, buf.data(), len);
    REQUIRE_FALSE(opened.error);
    REQUIRE(opened.plaintext_bytes == len - core::kChunkTagBytes);
    REQUIRE(Bytes(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(opened.plaintext_bytes)) ==
            Bytes(plain.begin() + static_cast<std::ptrdiff_t>(i * kCs),
                  plain.begin() + static_cast<std::ptrdiff_t>(i * kCs + opened.plaintext_bytes)));
  }
  // The wrong index or a wrong last flag fails, worded with the record's file offset.
  Bytes buf(sealed.begin() + static_cast<std::ptrdiff_t>(kRecord),
            sealed.begin() + static_cast<std::ptrdiff_t>(2 * kRecord));
  const core::OpenedRecord wrong = records.open_record(2, false, buf.data(), kRecord);
  REQUIRE(wrong.error);
  CHECK(std::string(wrong.error->what()) ==
        "payload authentication failed (chunk 2 at offset " + std::to_string(50 + 2 * kRecord) + ")");
  // A full record taken as the last one is a file cut at a chunk boundary.
  buf.assign(sealed.begin() + static_cast<std::ptrdiff_t>(kRecord),
             sealed.begin() + static_cast<std::ptrdiff_t>(2 * kRecord));
  const core::OpenedRecord cut = records.open_record(1, true, buf.data(), kRecord);
  REQUIRE(cut.error);
  CHECK(std::string(cut.error->what()) ==
        "truncated payload: input ends after chunk 1, at a chunk boundary; the final chunk is missing");
  // Only the last record may be short; a caller that breaks this has a bug, not a bad file.
  CHECK_THROWS_AS(records.open_record(1, false, buf.data(), kRecord - 1), std::logic_error);
  buf.resize(kRecord + 1);
  CHECK_THROWS_AS(records.open_record(1, true, buf.data(), kRecord + 1), std::logic_error);
}
