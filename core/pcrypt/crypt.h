// The whole-file operations the CLI and the bench use: header + key handling + pipeline. Credentials are
// core/keys/credential.h, key files core/keys/key_file.h, Argon2id costs and key slots core/pcrypt/keys.h.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/aes/engine.h"
#include "core/keys/credential.h"
#include "core/pcrypt/keys.h"
#include "core/pipeline.h"
#include "io/stream.h"

namespace pcrypt::core {

struct EncryptOptions {
  std::size_t chunk_size = 1 << 20;
  unsigned threads = 0;                  // 0 = online cores
  const aes::Engine* engine = nullptr;   // nullptr = aes::best_engine()
  KdfLimits kdf = default_kdf_params();  // for passphrase slots
  std::function<void(std::uint64_t)> progress;
  PassphraseKekCache* kek_cache = nullptr;  // set: one salt and Argon2id run for all files of a run
  // Called once the header is written (its slots made, Argon2id run), before the payload: the progress rate
  // and -v's throughput start here.
  std::function<void()> header_written;
};

struct DecryptOptions {
  unsigned threads = 0;
  const aes::Engine* engine = nullptr;
  KdfLimits kdf_ceiling = default_kdf_ceiling();  // refuse headers asking for more (Error(header) with hint)
  std::function<void(std::uint64_t)> progress;
  PassphraseKekCache* kek_cache = nullptr;  // set: one Argon2id run per (salt, t, m) across a run
  // Called once the header is authenticated, with the header and the index (from 0) of the slot that opened
  // it, before any payload is read (`-v` names the slot; the progress rate starts here).
  std::function<void(const FileHeader&, std::size_t)> unlocked;
};

// A new file's header: a fresh file key, one key slot per credential (at least one; Error(usage) if none),
// the MAC, and the header's bytes as written. encrypt_stream and any writer that seals records on its own
// (the Python package's streaming writer) start every file here.
struct NewHeader {
  SecretBytes file_key;
  std::vector<std::uint8_t> bytes;
};
NewHeader new_header(const std::vector<Credential>& credentials, const EncryptOptions& options);

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

}  // namespace pcrypt::core
