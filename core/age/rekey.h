// `pcrypt rekey` of an age file: a new header for the same file key. The payload key is HKDF(file key,
// payload nonce), so the nonce and payload after the header are copied unchanged (the caller's business, as
// for pcrypt's format in core/pcrypt/rekey.h). Pure: from the parsed header, the file key it opened to and
// the requested changes, the new header's bytes. The changes are core::RekeyChanges, whose "slots" are
// stanzas here, numbered from 1 as `pcrypt info` lists them.
#pragma once

#include <string>

#include "core/aes/secret_bytes.h"
#include "core/age/header.h"
#include "core/rekey_policy.h"

namespace pcrypt::core::age {

// The new header: the kept stanzas in their order (unknown types included: they may be a plugin's), then one
// per added credential. The stanzas removed and the additions refused are rekey's one policy for both
// formats (core/rekey_policy.h). Throws Error(header) if `file_key` does not authenticate `header`;
// Error(usage) for nothing to change, what the policy refuses, an added key file (age has none), a result
// with no stanza, and a result that breaks age's rules: an scrypt stanza is the only stanza, and
// post-quantum stanzas are not mixed with classical ones (check_no_quantum_mix).
std::string rekey_header(const Header& header, const SecretBytes& file_key, const RekeyChanges& changes,
                         unsigned scrypt_log2, unsigned max_scrypt_log2);

}  // namespace pcrypt::core::age
