// What `pcrypt info` says beyond the header's fields (docs/FORMAT.md §8): the payload's size and chunk count,
// computed from the file's size (§4), and what a file that is not a pcrypt file is, when it is one of the
// key files people mix up with encrypted files.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include <pcrypt/errors.h>

#include "core/pcrypt/format.h"

namespace pcrypt::core {

// "unlocked by", "plaintext size", "chunks" and "payload" lines for a file of `file_bytes` bytes (nullopt:
// not a regular file, the size is unknown). A length no complete payload has is reported as truncated.
std::string describe_payload(const ParsedHeader& parsed, std::optional<std::uint64_t> file_bytes);

struct OtherFile {
  // Every kind of key pcrypt reads, and the files people mix up with them.
  enum class Kind { pcrypt_key_file, identity, recipient, age_file, ssh_private_key, ssh_public_key };
  Kind kind;
  std::string what;  // "a pcrypt key file", "an X25519 identity (secret key) file", ...
  std::string hint;  // the option that takes it
};

// Recognises, by its first line that is not blank or a comment (for age-keygen's output and pcrypt key
// files, whose first lines are comments), a pcrypt key file, an X25519 identity or recipient (age's encoding,
// which pcrypt shares), an age-encrypted file, or an OpenSSH private or public key. nullopt for anything
// else, pcrypt files included. The one place that tells these apart: `info`, -k and -i use it for their
// "this is X, use option Y" refusals.
std::optional<OtherFile> recognise_other_file(std::span<const std::uint8_t> start);

// The kind as errors carry it (PCRYPT_FIELD_FILE_KIND).
pcrypt_file_kind file_kind_of(OtherFile::Kind kind);

}  // namespace pcrypt::core
