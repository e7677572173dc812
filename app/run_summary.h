// `encrypt/decrypt/verify --json`: after each file, one JSON object on one line on standard error (standard
// output may be the data), for scripts and benchmarks. The keys are documented in man/pcrypt.1 (JSON OUTPUT)
// and stay stable.
#pragma once

#include <cstdint>
#include <string>

namespace pcrypt::app {

struct RunSummary {
  std::string command;  // "encrypt", "decrypt", "verify"
  std::string input;    // a path, or "standard input"
  std::string output;   // a path, "standard output", or "" (verify: none)
  bool age = false;     // the encrypted side's format
  std::uint64_t bytes_in = 0, bytes_out = 0, plaintext_bytes = 0;
  double seconds = 0;  // the payload's work, after any prompt, Argon2id or scrypt
  std::string engine;  // the AES engine of a pcrypt payload; an age payload's cipher
  unsigned threads = 0;
};

void print_json_summary(const RunSummary& run);

}  // namespace pcrypt::app
