// The whole-file operations the CLI and the bench use: header + key handling + pipeline.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/aes/engine.h"
#include "core/pipeline.h"
#include "core/aes/secret_bytes.h"
#include "io/stream.h"

namespace pcrypt::core {

// What unlocks a file: the 32-byte key from a key file, or a passphrase (UTF-8 bytes, no trailing newline).
struct Credential {
  enum class Kind { key_file, passphrase };
  Kind kind;
  SecretBytes secret;
};

// Argon2id cost (libsodium crypto_pwhash units). Defaults are chosen in core (docs/FORMAT.md says why).
struct KdfLimits {
  std::uint64_t opslimit;
  std::uint64_t memlimit_bytes;
};
KdfLimits default_kdf_params();   // what encrypt uses
KdfLimits default_kdf_ceiling();  // the most decrypt accepts unless raised by the user

struct EncryptOptions {
  std::size_t chunk_size = 1 << 20;
  unsigned threads = 0;                  // 0 = online cores
  const aes::Engine* engine = nullptr;   // nullptr = aes::select_engine()
  KdfLimits kdf = default_kdf_params();  // for passphrase slots
  std::function<void(std::uint64_t)> progress;
};

struct DecryptOptions {
  unsigned threads = 0;
  const aes::Engine* engine = nullptr;
  KdfLimits kdf_ceiling = default_kdf_ceiling();  // refuse headers asking for more (Error(header) with hint)
  std::function<void(std::uint64_t)> progress;
};

// Writes header then payload to `out`; one key slot per credential (at least one). Does not commit `out`.
PipelineStats encrypt_stream(io::Reader& in, io::Writer& out, const std::vector<Credential>& credentials,
                             const EncryptOptions& options);
// Reads and authenticates the header with the first credential that opens a slot (Error(header) if none does,
// before anything is written), then the payload. Does not commit `out`.
PipelineStats decrypt_stream(io::Reader& in, io::Writer& out, const std::vector<Credential>& credentials,
                             const DecryptOptions& options);

// `pcrypt info`: every header field in plain words, one "name: value" per line, without any key.
// Throws Error(header) for input that is not a well-formed pcrypt header.
std::string describe_header(io::Reader& in);

// Key files (`pcrypt keygen`): a fresh random key as the text to store, and the key read back from that text.
std::string generate_key_file();
// Throws Error(usage) with a hint if `text` is not a pcrypt key file. `source` names it in messages.
Credential parse_key_file(const std::string& text, const std::string& source);

}  // namespace pcrypt::core
