// The CLI's own pieces, below the command line: size and count arguments (app/size_arg.h), default output
// names (app/output_name.h) and the wording of the one error line (app/report.h).
#include <catch2/catch.hpp>

#include <unistd.h>
#include <cstdint>
#include <cstdio>
#include <string>

#include "app/output_name.h"
#include "app/report.h"
#include "app/size_arg.h"
#include "core/error.h"

using namespace pcrypt;

namespace {

// Runs `f`, expects a core::Error of kind usage, returns its message + "|" + hint.
template <typename F>
std::string usage_error_of(F&& f) {
  try {
    f();
  } catch (const core::Error& e) {
    CHECK(e.kind() == core::ErrorKind::usage);
    CHECK(e.exit_code() == 2);
    return std::string(e.what()) + "|" + e.hint();
  }
  FAIL("no error thrown");
  return {};
}

// What print_error writes to stderr, captured through a temporary file.
template <typename F>
std::string stderr_of(F&& f) {
  std::fflush(stderr);
  std::FILE* capture = std::tmpfile();
  REQUIRE(capture != nullptr);
  const int saved = ::dup(::fileno(stderr));
  ::dup2(::fileno(capture), ::fileno(stderr));
  f();
  std::fflush(stderr);
  ::dup2(saved, ::fileno(stderr));
  ::close(saved);
  std::rewind(capture);
  std::string text;
  for (int c = std::fgetc(capture); c != EOF; c = std::fgetc(capture)) text.push_back(static_cast<char>(c));
  std::fclose(capture);
  return text;
}

}  // namespace

TEST_CASE("parse_size: plain bytes, binary and decimal units", "[app]") {
  CHECK(app::parse_size("0", "--chunk-size") == 0);
  CHECK(app::parse_size("17", "--chunk-size") == 17);
  CHECK(app::parse_size("17B", "--chunk-size") == 17);
  CHECK(app::parse_size("64k", "--chunk-size") == 64 * 1024);
  CHECK(app::parse_size("64K", "--chunk-size") == 64 * 1024);
  CHECK(app::parse_size("64KiB", "--chunk-size") == 64 * 1024);
  CHECK(app::parse_size("3M", "--chunk-size") == 3ull << 20);
  CHECK(app::parse_size("3MiB", "--chunk-size") == 3ull << 20);
  CHECK(app::parse_size("2G", "--kdf-memory") == 2ull << 30);
  CHECK(app::parse_size("2GiB", "--kdf-memory") == 2ull << 30);
  CHECK(app::parse_size("5kB", "--chunk-size") == 5000);
  CHECK(app::parse_size("5KB", "--chunk-size") == 5000);
  CHECK(app::parse_size("5MB", "--chunk-size") == 5000000);
  CHECK(app::parse_size("5GB", "--chunk-size") == 5000000000ull);
  CHECK(app::parse_size("18446744073709551615", "--chunk-size") == UINT64_MAX);
}

TEST_CASE("parse_size: rejects what is not a whole size, naming the option", "[app]") {
  const auto error = [](const char* text) {
    return usage_error_of([&] { app::parse_size(text, "--chunk-size"); });
  };
  CHECK(error("").starts_with("invalid size '' for --chunk-size: it does not start with a number|"));
  CHECK(error("-1").starts_with("invalid size '-1' for --chunk-size: it does not start with a number|"));
  CHECK(error("+1").starts_with("invalid size '+1' for --chunk-size: it does not start with a number|"));
  CHECK(error(" 1").starts_with("invalid size ' 1' for --chunk-size: it does not start with a number|"));
  CHECK(error("1.5M").starts_with("invalid size '1.5M' for --chunk-size: unknown unit '.5M'|"));
  CHECK(error("1 M").starts_with("invalid size '1 M' for --chunk-size: unknown unit ' M'|"));
  CHECK(error("4T").starts_with("invalid size '4T' for --chunk-size: unknown unit 'T'|"));
  CHECK(error("4mb").starts_with("invalid size '4mb' for --chunk-size: unknown unit 'mb'|"));
  CHECK(error("18446744073709551616")
            .starts_with("invalid size '18446744073709551616' for --chunk-size: too large|"));
  CHECK(error("17179869184G").starts_with("invalid size '17179869184G' for --chunk-size: too large|"));
  // The hint teaches the convention.
  CHECK(error("4T").ends_with(
      "|sizes are a whole number of bytes, optionally followed by K, M, G or KiB, MiB, GiB "
      "(powers of 1024) or kB, MB, GB (powers of 1000), e.g. 64KiB"));
}

TEST_CASE("parse_count: digits only, inside the range", "[app]") {
  CHECK(app::parse_count("1", "-j", 1, 256) == 1);
  CHECK(app::parse_count("256", "-j", 1, 256) == 256);
  CHECK(usage_error_of([] { app::parse_count("0", "-j", 1, 256); }) == "-j 0 is out of range (1..256)|");
  CHECK(usage_error_of([] { app::parse_count("257", "-j", 1, 256); }) == "-j 257 is out of range (1..256)|");
  CHECK(usage_error_of([] { app::parse_count("", "-j", 1, 256); }) ==
        "invalid number '' for -j|expected a whole number in 1..256");
  CHECK(usage_error_of([] { app::parse_count("4x", "-j", 1, 256); }) ==
        "invalid number '4x' for -j|expected a whole number in 1..256");
  CHECK(usage_error_of([] { app::parse_count("0x10", "--kdf-ops", 1, 10); }) ==
        "invalid number '0x10' for --kdf-ops|expected a whole number in 1..10");
  CHECK(usage_error_of([] { app::parse_count("99999999999999999999", "-j", 1, 256); }) ==
        "invalid number '99999999999999999999' for -j|expected a whole number in 1..256");
}

TEST_CASE("format_bytes: exact below 1 KiB, two decimals above", "[app]") {
  CHECK(app::format_bytes(0) == "0 B");
  CHECK(app::format_bytes(1023) == "1023 B");
  CHECK(app::format_bytes(1024) == "1.00 KiB");
  CHECK(app::format_bytes(512 * 1024) == "512.00 KiB");
  CHECK(app::format_bytes(1536ull << 20) == "1.50 GiB");
  CHECK(app::format_bytes(3ull << 40) == "3.00 TiB");
  CHECK(app::format_bytes(2048ull << 40) == "2048.00 TiB");
}

TEST_CASE("output names: encrypt appends .pcrypt, decrypt strips it", "[app]") {
  CHECK(app::encrypted_name("report.pdf") == "report.pdf.pcrypt");
  CHECK(app::encrypted_name("dir/x") == "dir/x.pcrypt");
  CHECK(app::decrypted_name("report.pdf.pcrypt") == "report.pdf");
  CHECK(app::decrypted_name("dir/x.pcrypt") == "dir/x");
  CHECK(app::decrypted_name("x.pcrypt.pcrypt") == "x.pcrypt");
}

TEST_CASE("output names: decrypt refuses names it cannot derive, pointing at -o", "[app]") {
  const std::string hint =
      "it does not end in .pcrypt; name the output with -o FILE (or -o - for standard output)";
  CHECK(usage_error_of([] { app::decrypted_name("report.pdf"); }) ==
        "cannot derive an output name from 'report.pdf'|" + hint);
  CHECK(usage_error_of([] { app::decrypted_name(".pcrypt"); }) ==
        "cannot derive an output name from '.pcrypt'|" + hint);
  CHECK(usage_error_of([] { app::decrypted_name("dir/.pcrypt"); }) ==
        "cannot derive an output name from 'dir/.pcrypt'|" + hint);
  CHECK(usage_error_of([] { app::decrypted_name("x.PCRYPT"); }) ==
        "cannot derive an output name from 'x.PCRYPT'|" + hint);
}

TEST_CASE("print_error: one error line, an optional hint line", "[app]") {
  CHECK(stderr_of([] { app::print_error("wrong key"); }) == "pcrypt: error: wrong key\n");
  CHECK(stderr_of([] { app::print_error("wrong key", "check the key file"); }) ==
        "pcrypt: error: wrong key\npcrypt: hint: check the key file\n");
}

TEST_CASE("with_file_context: the file goes inside the trailing parenthesis", "[app]") {
  CHECK(app::with_file_context("payload authentication failed (chunk 3 at offset 3145792)", "x.pcrypt") ==
        "payload authentication failed (x.pcrypt, chunk 3 at offset 3145792)");
  CHECK(app::with_file_context("wrong key", "x.pcrypt") == "wrong key (x.pcrypt)");
  CHECK(app::with_file_context("cannot open x.pcrypt: No such file", "x.pcrypt") ==
        "cannot open x.pcrypt: No such file");
  CHECK(app::with_file_context("wrong key", "") == "wrong key");
  // A parenthesis that is not at the end is not the trailing one.
  CHECK(app::with_file_context("bad (early) header", "x.pcrypt") == "bad (early) header (x.pcrypt)");
}
