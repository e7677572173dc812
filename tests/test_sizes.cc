// The one size grammar (every SIZE option of encrypt, decrypt and bench) and the one byte formatter.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "core/byte_size.h"
#include "core/error.h"

using pcrypt::core::ByteStyle;
using pcrypt::core::format_bytes;

namespace {

std::uint64_t size(const std::string& text) {
  return pcrypt::core::parse_size(text, "--chunk-size");
}

// The usage error's message, or "" if the text was accepted.
std::string refusal(const std::string& text) {
  try {
    size(text);
    return "";
  } catch (const pcrypt::core::Error& e) {
    CHECK(e.kind() == pcrypt::core::ErrorKind::usage);
    CHECK_FALSE(e.hint().empty());
    return e.what();
  }
}

struct Spelling {
  const char* text;
  std::uint64_t bytes;
};

}  // namespace

TEST_CASE("parse_size: every spelling README and pcrypt(1) document") {
  const Spelling documented[] = {
      {"65536", 65536},
      {"4096B", 4096},
      {"64K", 65536},
      {"64k", 65536},
      {"64KiB", 65536},
      {"1M", 1048576},
      {"1MiB", 1048576},
      {"512M", 512ULL << 20},
      {"2G", 2ULL << 30},
      {"2GiB", 2ULL << 30},
      {"64kB", 64000},
      {"64KB", 64000},
      {"1MB", 1000000},
      {"3GB", 3000000000},
      {"18446744073709551615", UINT64_MAX},
      {"0", 0},  // each option checks its own range
  };
  for (const Spelling& s : documented) {
    INFO(s.text);
    CHECK(size(s.text) == s.bytes);
  }
}

TEST_CASE("parse_size: units ignore case, for every option alike") {
  // `encrypt --chunk-size 64kb` used to fail while `bench --msg-sizes 64kb` passed: one parser now.
  const Spelling relaxed[] = {{"64kb", 64000},   {"3kb", 3000},    {"64kib", 65536},
                              {"1mib", 1048576}, {"4mb", 4000000}, {"8b", 8}};
  for (const Spelling& s : relaxed) {
    INFO(s.text);
    CHECK(size(s.text) == s.bytes);
  }
}

TEST_CASE("parse_size: anything else is a usage error naming the option") {
  struct Refusal {
    const char* text;
    const char* why;  // after "invalid size '<text>' for --chunk-size: "
  };
  const Refusal refusals[] = {
      {"", "it does not start with a number"},
      {"MiB", "it does not start with a number"},
      {"-1", "it does not start with a number"},
      {"+1", "it does not start with a number"},
      {" 1", "it does not start with a number"},
      {"1.5M", "unknown unit '.5M'"},
      {"1 M", "unknown unit ' M'"},
      {"1 MiB", "unknown unit ' MiB'"},
      {"1 ", "unknown unit ' '"},
      {"4T", "unknown unit 'T'"},
      {"12XB", "unknown unit 'XB'"},
      {"12parsecs", "unknown unit 'parsecs'"},
      {"18446744073709551616", "too large"},
      {"17179869184G", "too large"},  // 2^64 bytes
  };
  for (const Refusal& r : refusals)
    CHECK(refusal(r.text) == "invalid size '" + std::string(r.text) + "' for --chunk-size: " + r.why);
  CHECK(refusal("17179869183GiB").empty());  // 1 GiB less fits
  // The hint teaches the convention.
  try {
    size("4T");
  } catch (const pcrypt::core::Error& e) {
    CHECK(e.hint() ==
          "sizes are a whole number of bytes, optionally followed by K, M, G or KiB, MiB, GiB "
          "(powers of 1024) or kB, MB, GB (powers of 1000), e.g. 64KiB");
  }
}

TEST_CASE("format_bytes: readable, the largest unit that fits, one decimal when not whole") {
  CHECK(format_bytes(0) == "0 B");
  CHECK(format_bytes(17) == "17 B");
  CHECK(format_bytes(1023) == "1023 B");
  CHECK(format_bytes(1024) == "1 KiB");
  CHECK(format_bytes(1536) == "1.5 KiB");
  CHECK(format_bytes(6000) == "5.9 KiB");
  CHECK(format_bytes(std::uint64_t{64} << 20) == "64 MiB");
  CHECK(format_bytes(std::uint64_t{3} << 29) == "1.5 GiB");
  CHECK(format_bytes(std::uint64_t{5} << 40) == "5 TiB");
  CHECK(format_bytes(std::uint64_t{5} << 50) == "5120 TiB");  // TiB is the largest unit
}

TEST_CASE("format_bytes: exact, never rounded (bench labels)") {
  CHECK(format_bytes(8, ByteStyle::exact) == "8 B");
  CHECK(format_bytes(1536, ByteStyle::exact) == "1536 B");
  CHECK(format_bytes(65536, ByteStyle::exact) == "64 KiB");
  CHECK(format_bytes(std::uint64_t{4} << 20, ByteStyle::exact) == "4 MiB");
  CHECK(format_bytes(std::uint64_t{2} << 30, ByteStyle::exact) == "2 GiB");
  CHECK(format_bytes(std::uint64_t{3} << 19, ByteStyle::exact) == "1536 KiB");
}

TEST_CASE("format_bytes and parse_size agree: exact output, without its space, reads back") {
  for (const std::uint64_t n : {std::uint64_t{1}, std::uint64_t{4096}, std::uint64_t{1} << 20,
                                std::uint64_t{3} << 19, std::uint64_t{7} << 30}) {
    std::string text = format_bytes(n, ByteStyle::exact);
    text.erase(text.find(' '), 1);  // "64 KiB" reads; option values carry no space ("64KiB")
    INFO(text);
    CHECK(size(text) == n);
  }
}
