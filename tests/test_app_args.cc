// The CLI's own pieces, below the command line: count arguments (app/size_arg.h), default output names
// (app/output_name.h) and the wording of the one error line (app/report.h).
#include <catch2/catch.hpp>

#include <pcrypt/pcrypt.h>

#include <unistd.h>
#include <cstdint>
#include <cstdio>
#include <string>

#include "app/error_words.h"
#include "app/output_name.h"
#include "app/report.h"
#include "app/size_arg.h"

using namespace pcrypt;

namespace {

// Runs `f`, expects a pcrypt::Error of kind usage, returns its message + "|" + hint.
template <typename F>
std::string usage_error_of(F&& f) {
  try {
    f();
  } catch (const pcrypt::Error& e) {
    CHECK(e.kind() == pcrypt::ErrorKind::usage);
    CHECK(pcrypt::app::exit_status(e) == 2);
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

// Sizes (every SIZE option, app and bench alike) are io/byte_size.h: tests/test_sizes.cc has the grammar.

TEST_CASE("parse_size and format_bytes: the command line's sizes, a bad one a usage error naming its option",
          "[app]") {
  CHECK(app::parse_size("64KiB", "--chunk-size") == 64 * 1024);
  CHECK(app::parse_size("1MB", "--length") == 1'000'000);
  const std::string bad_size = usage_error_of([] { app::parse_size("1.5G", "--offset"); });
  CHECK(bad_size.find("--offset") != std::string::npos);
  CHECK(app::format_bytes(1 << 20) == "1 MiB");
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

TEST_CASE("output names: encrypt appends .pcrypt, decrypt strips it", "[app]") {
  CHECK(app::encrypted_name("report.pdf") == "report.pdf.pcrypt");
  CHECK(app::encrypted_name("dir/x") == "dir/x.pcrypt");
  CHECK(app::decrypted_name("report.pdf.pcrypt") == "report.pdf");
  CHECK(app::decrypted_name("dir/x.pcrypt") == "dir/x");
  CHECK(app::decrypted_name("x.pcrypt.pcrypt") == "x.pcrypt");
  // age files (FORMAT.md §11): encrypt --format age appends .age, decrypt strips it.
  CHECK(app::age_encrypted_name("report.pdf") == "report.pdf.age");
  CHECK(app::decrypted_name("report.pdf.age") == "report.pdf");
  CHECK(usage_error_of([] { app::decrypted_name("dir/.age"); }).starts_with("cannot derive an output name"));
  // C2SP chunked encryption: encrypt --format cobblestone-* appends .cobblestone, decrypt strips it.
  CHECK(app::decrypted_name("data.tar.cobblestone") == "data.tar");
  CHECK(usage_error_of([] {
          app::decrypted_name("dir/.cobblestone");
        }).starts_with("cannot derive an output name"));
}

TEST_CASE("output names: decrypt refuses names it cannot derive, pointing at -o", "[app]") {
  const std::string hint =
      "it does not end in .pcrypt, .age or .cobblestone; name the output with -o FILE (or -o - for standard "
      "output)";
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

TEST_CASE("with_file_context: the file named before the message, by the failure's path, not its text",
          "[app]") {
  const Error payload(PCRYPT_E_DAMAGED_RECORD, "payload authentication failed (chunk 3 at offset 3145792)");
  CHECK(app::with_file_context(payload, "x.pcrypt") ==
        "x.pcrypt: payload authentication failed (chunk 3 at offset 3145792)");
  CHECK(app::with_file_context(payload, "") == payload.what());
  // A failure already about that file (its path field) is not named twice; one about another file is.
  ErrorFields at_x;
  at_x.path = "x.pcrypt";
  const Error about_x(PCRYPT_E_IO, "cannot open x.pcrypt: No such file", {}, at_x);
  CHECK(app::with_file_context(about_x, "x.pcrypt") == "cannot open x.pcrypt: No such file");
  CHECK(app::with_file_context(about_x, "y.pcrypt") == "y.pcrypt: cannot open x.pcrypt: No such file");
  // The file's name in the text decides nothing.
  const Error mentions(PCRYPT_E_NOT_ENCRYPTED, "x.pcrypt is not encrypted");
  CHECK(app::with_file_context(mentions, "x.pcrypt") == "x.pcrypt: x.pcrypt is not encrypted");
  CHECK(app::with_file_context("out of memory", "x.pcrypt") == "x.pcrypt: out of memory");
}

TEST_CASE("print_error: a library failure's hint in the CLI's words, a CLI failure's as it is", "[app]") {
  ErrorFields scrypt;
  scrypt.numbers = {{PCRYPT_FIELD_SCRYPT_LOG2_ASKED, 23}, {PCRYPT_FIELD_SCRYPT_LOG2_ALLOWED, 22}};
  const Error library(PCRYPT_E_EXCESSIVE_SCRYPT_WORK, "work factor too high",
                      "raise the scrypt work-factor limit (log2 N) to 23", scrypt);
  CHECK(stderr_of([&] { app::print_error(library); }) ==
        "pcrypt: error: work factor too high\npcrypt: hint: if you trust this file, raise the limit with "
        "--max-work-factor 23\n");
  const app::CliError own(PCRYPT_E_EXCESSIVE_SCRYPT_WORK, "work factor too high", "the CLI's own words");
  CHECK(stderr_of([&] { app::print_error(own); }) ==
        "pcrypt: error: work factor too high\npcrypt: hint: the CLI's own words\n");
}
