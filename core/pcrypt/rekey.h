// `pcrypt rekey` (docs/FORMAT.md §3.4): a new header for the same file key, chunk size and payload. Pure:
// from the header that was read, the file key it opened to and the requested changes, the new header's bytes.
// The payload is not this function's business (the caller copies it unchanged).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/aes/secret_bytes.h"
#include "core/keys/credential.h"
#include "core/pcrypt/crypt.h"
#include "core/pcrypt/format.h"
#include "core/pcrypt/keys.h"

namespace pcrypt::core {

struct RekeyChanges {
  // Slots to drop, numbered from 1 as `pcrypt info` numbers them (in the header being changed).
  std::vector<std::size_t> remove_slots;
  // Also drop every slot each of these opens (key files, identities: `--remove-key`); one that opens none is
  // Error(usage). Numbers shift after each removal; credentials do not.
  std::vector<Credential> remove_opened_by;
  // Also drop the slots of these recipients (`--remove-recipient`): SSH ones by their tag (§10.3). X25519
  // slots are anonymous, so an X25519 recipient is Error(usage) with a hint to give its identity instead.
  std::vector<Recipient> remove_recipients;
  // The credentials that opened the file, if known: an identity among them recognises its own (anonymous)
  // X25519 slot, so adding its recipient again is refused as a duplicate.
  const std::vector<Credential>* opening = nullptr;
  // One new slot each, appended after the kept slots in this order.
  std::vector<Credential> add;
  KdfLimits kdf = default_kdf_params();  // costs of new passphrase slots
  PassphraseKekCache* kek_cache = nullptr;
};

// The new header (fields and MAC) as bytes. Throws Error(header) if `file_key` does not authenticate
// `parsed` (never rewrite a header nobody verified), Error(usage) for nothing to change, a slot number out of
// range or given twice, a removal credential or recipient that has no slot, an added key file or recipient
// that already has a slot the result keeps (a duplicate), removing every slot, or a result with more slots
// than the format allows (§3.2).
std::vector<std::uint8_t> rekey_header(const ParsedHeader& parsed, const SecretBytes& file_key,
                                       const RekeyChanges& changes);

// `rekey --new-file-key`: the new header's slots. Each opening credential keeps its access as a new slot (an
// identity as a slot for its own recipient), then one per added credential (an added key file also given to
// open the file is Error(usage)). `kept`: the old slots (from 0) an opening credential opens, so their
// holder keeps access; `dropped`: the others, whose holders lose it.
struct NewFileKeySlots {
  std::vector<Credential> credentials;
  std::vector<std::size_t> kept;
  std::vector<std::size_t> dropped;
};
// Appends to `out` the credential that keeps `opening`'s access under a new file key (either format): an
// identity as its own recipient, a key file or passphrase as itself.
void keep_access(const Credential& opening, std::vector<Credential>& out);
NewFileKeySlots new_file_key_slots(const ParsedHeader& parsed, const std::vector<Credential>& opening,
                                   std::vector<Credential> added, const KdfLimits& ceiling,
                                   PassphraseKekCache* cache = nullptr);

}  // namespace pcrypt::core

namespace pcrypt::core {

// `pcrypt rekey --new-file-key`: re-encrypts the payload that follows `parsed` in `payload_in` under a fresh
// file key, in one parallel pass (each record opened under the old payload key and sealed under the new one,
// same chunk size and index), after a new header with one slot per credential (at least one; old slots cannot
// be carried over, their keys are unknown here). `old_file_key` must authenticate `parsed` (Error(header)
// otherwise). Payload damage is Error(payload) as in decrypt; nothing unauthenticated is ever sealed. Does
// not commit `out`.
PipelineStats reencrypt_stream(const ParsedHeader& parsed, const SecretBytes& old_file_key,
                               io::Reader& payload_in, io::Writer& out,
                               const std::vector<Credential>& credentials, const EncryptOptions& options);

// The pass itself, for either format: each record of `payload_in` (at `from`'s record 0) opened with `from`
// and sealed with `to`, same index and length, written to `out` after whatever the caller wrote first.
struct KeyedPayload;
PipelineStats reencrypt_payload(const KeyedPayload& from, const KeyedPayload& to, io::Reader& payload_in,
                                io::Writer& out, const PipelineConfig& config);

}  // namespace pcrypt::core
