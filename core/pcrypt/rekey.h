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
#include "core/reencrypt.h"
#include "core/rekey_policy.h"

namespace pcrypt::core {

// The new header (fields and MAC) as bytes. The slots removed and the additions refused are rekey's one
// policy for both formats (core/rekey_policy.h: RekeyChanges). Throws Error(header) if `file_key` does not
// authenticate `parsed` (never rewrite a header nobody verified), Error(usage) for nothing to change, what
// the policy refuses, removing every slot, or a result with more slots than the format allows (§3.2).
std::vector<std::uint8_t> rekey_header(const ParsedHeader& parsed, const SecretBytes& file_key,
                                       const RekeyChanges& changes);

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

}  // namespace pcrypt::core
