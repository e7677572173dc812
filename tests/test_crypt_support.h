// Shared by tests/test_format*.cc, test_keys*.cc and test_crypt*.cc: credentials, one-call encrypt/decrypt
// over memory streams, and error-kind assertions.
#pragma once

#include <sodium.h>
#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/keys/key_file.h"
#include "core/pcrypt/crypt.h"
#include "io/memory_stream.h"
#include "tests/test_bytes.h"

namespace pcrypt::test {

inline Bytes to_bytes(const std::string& s) {
  return Bytes(s.begin(), s.end());
}

// The cheapest Argon2id libsodium accepts at 8 MiB: a few milliseconds, so tests stay fast.
inline core::KdfLimits cheap_kdf() {
  return core::KdfLimits{1, std::uint64_t{8} << 20};
}

inline core::Credential passphrase(const std::string& text) {
  return core::Credential{core::Credential::Kind::passphrase,
                          SecretBytes(std::span<const std::uint8_t>(
                              reinterpret_cast<const std::uint8_t*>(text.data()), text.size()))};
}

// A fresh key file's text as a std::string, for tests that take it apart (pcrypt itself keeps it in
// SecretBytes).
inline std::string key_file_string() {
  return std::string(core::key_file_text(core::generate_key_file()));
}

inline core::Credential key_from_text(const std::string& key_file_text) {
  return core::parse_key_file(key_file_text, "test key");
}

// A fresh random key file credential (through the real key file text, as the CLI does).
inline core::Credential fresh_key() {
  return key_from_text(key_file_string());
}

// A copy (Credential holds move-only SecretBytes).
inline core::Credential copy(const core::Credential& c) {
  core::Credential out{c.kind, SecretBytes(c.secret.span()), c.recipient};
  if (c.identity)
    out.identity = core::Identity{c.identity->kind,       SecretBytes(c.identity->secret.span()),
                                  c.identity->public_key, c.identity->blob,
                                  c.identity->rsa,        c.identity->hybrid,
                                  c.identity->plugin,     c.identity->unlock};
  return out;
}

inline std::vector<core::Credential> creds(const core::Credential& c) {
  std::vector<core::Credential> v;
  v.push_back(copy(c));
  return v;
}

inline Bytes encrypt(const Bytes& plain, const std::vector<core::Credential>& credentials,
                     std::size_t chunk_size = 4096, unsigned threads = 2) {
  core::EncryptOptions options;
  options.chunk_size = chunk_size;
  options.threads = threads;
  options.kdf = cheap_kdf();
  io::MemoryReader in(plain);
  io::MemoryWriter out;
  core::encrypt_stream(in, out, credentials, options);
  return out.data();
}

// Decrypts into `out` (so callers can check what was written before a failure).
inline core::PipelineStats decrypt_into(io::MemoryWriter& out, const Bytes& file,
                                        const std::vector<core::Credential>& credentials,
                                        unsigned threads = 2, const aes::Engine* engine = nullptr,
                                        core::KdfLimits ceiling = core::default_kdf_ceiling()) {
  core::DecryptOptions options;
  options.threads = threads;
  options.engine = engine;
  options.kdf_ceiling = ceiling;
  io::MemoryReader in(file);
  return core::decrypt_stream(in, out, credentials, options);
}

inline Bytes decrypt(const Bytes& file, const std::vector<core::Credential>& credentials,
                     unsigned threads = 2) {
  io::MemoryWriter out;
  decrypt_into(out, file, credentials, threads);
  return out.data();
}

// Runs fn, requires it to throw core::Error of `kind`, and returns the message (for further checks).
inline std::string error_of(core::ErrorKind kind, const std::function<void()>& fn) {
  try {
    fn();
  } catch (const core::Error& e) {
    INFO("message: " << e.what());
    CHECK(e.kind() == kind);
    return e.what();
  }
  FAIL("expected a pcrypt::core::Error, nothing was thrown");
  return {};
}

}  // namespace pcrypt::test
