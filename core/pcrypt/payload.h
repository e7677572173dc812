// pcrypt's payload (docs/FORMAT.md §4, "Payload"): the chunked-AEAD records of core/records.h (STREAM nonce,
// record rules and their error wording, shared with age) over AES-256-GCM, under a key derived from the file
// key. This file is the only place that says which key and which cipher.
#pragma once

#include "core/aes/engine.h"
#include "core/aes/secret_bytes.h"
#include "core/records.h"

namespace pcrypt::core {

// The cipher of a file's payload: AES-256-GCM from `engine` under KDF(file_key, "PCPAYLOD") (docs/FORMAT.md
// §4), never the file key itself. Every path that seals or opens a payload gets its cipher here, so they
// cannot disagree.
ChunkCipher payload_cipher(const aes::Engine& engine, const SecretBytes& file_key);

}  // namespace pcrypt::core
