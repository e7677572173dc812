// Whole age files: encrypt a stream to age, and open one (binary or armored: the header parsed once, then
// unlocked with the caller's credentials, then the payload through core/pipeline.h, with its promises: only
// authenticated plaintext is written, the first error in chunk order is the one reported).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "core/age/armor.h"
#include "core/age/header.h"
#include "core/age/primitives.h"
#include "core/age/stanzas.h"
#include "core/keys/credential.h"
#include "core/pipeline.h"
#include "core/range.h"
#include "io/buffered_input.h"
#include "io/stream.h"

namespace pcrypt::core::age {

struct EncryptOptions {
  unsigned threads = 0;  // 0 = online cores
  unsigned scrypt_log2 = kDefaultScryptLog2;
  std::function<void(std::uint64_t)> progress;
  ChaChaBackend backend = default_chacha_backend();
};

struct DecryptOptions {
  unsigned threads = 0;
  unsigned max_scrypt_log2 = kDefaultMaxScryptLog2;
  std::function<void(std::uint64_t)> progress;
  ChaChaBackend backend = default_chacha_backend();
};

// Writes an age file (header, payload nonce, payload) to `out`, one stanza per credential. For armor, pass
// an ArmorWriter (core/age/armor.h). Does not commit `out`.
PipelineStats encrypt_stream(io::Reader& in, io::Writer& out, const std::vector<Credential>& credentials,
                             const EncryptOptions& options);

// An age input, opened: armor (when the input starts with it) is removed as the input is read, and the header
// is parsed (Error(header) if malformed). Nothing is decrypted yet.
class AgeInput {
 public:
  // Whether the input is armored: detected from its first bytes (as decrypt does), or said by the caller (as
  // the CCTV vectors do: an input known to be armored whose BEGIN line is damaged is an armor failure).
  enum class Armor { detect, yes, no };
  // `in` stands at the first byte of the file (its read-ahead, e.g. from format detection, is kept).
  explicit AgeInput(io::BufferedInput& in, Armor armor = Armor::detect);
  AgeInput(const AgeInput&) = delete;
  AgeInput& operator=(const AgeInput&) = delete;

  const Header& header() const { return header_; }
  bool armored() const { return armor_ != nullptr; }
  // The input right after the header: the payload nonce, then the records.
  io::BufferedInput& rest() { return armor_ ? *decoded_ : raw_; }

 private:
  io::BufferedInput& raw_;
  std::unique_ptr<ArmorReader> armor_;
  std::unique_ptr<io::BufferedInput> decoded_;
  Header header_;
};

// The file key: the first credential that opens a stanza (core/age/stanzas.h), checked against the header
// MAC (Error(header) "header MAC mismatch" when it does not match).
SecretBytes unlock(const AgeInput& input, std::span<const Credential> credentials, unsigned max_scrypt_log2);

// Reads the payload nonce (Error(header) if the input ends first), leaving input.rest() at record 0: the
// payload's layout and cipher, for range reads (core/range.h). `file_key` comes from unlock.
KeyedPayload open_payload(AgeInput& input, const SecretBytes& file_key, ChaChaBackend backend);

// open_payload, then the whole payload through the pipeline.
PipelineStats decrypt_payload(AgeInput& input, const SecretBytes& file_key, io::Writer& out,
                              const DecryptOptions& options);

// `rekey --new-file-key`: the payload after `input`'s header (its nonce not yet read) opened with
// `old_file_key` and sealed again under a fresh file key and nonce, after a header with one stanza per
// credential (age's rules, as wrap_file_key). Payload damage is Error(payload) as in decrypt; nothing
// unauthenticated is ever sealed. Does not commit `out`.
PipelineStats reencrypt_stream(AgeInput& input, const SecretBytes& old_file_key, io::Writer& out,
                               const std::vector<Credential>& credentials, const EncryptOptions& options);

// unlock + decrypt_payload. Does not commit `out`.
PipelineStats decrypt_stream(AgeInput& input, io::Writer& out, const std::vector<Credential>& credentials,
                             const DecryptOptions& options);

}  // namespace pcrypt::core::age
