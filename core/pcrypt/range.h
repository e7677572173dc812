// Range reads of a pcrypt file (core/range.h does the reading, for any format): unlocking its header once,
// the KeyedPayload of a header and file key, and overloads of the range functions that take the parsed
// header and file key, so that a job handed only those (unlocked on another machine) can read a range.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/aes/engine.h"
#include "core/aes/secret_bytes.h"
#include "core/keys/credential.h"
#include "core/pcrypt/format.h"
#include "core/pcrypt/keys.h"
#include "core/range.h"
#include "io/stream.h"

namespace pcrypt::core {

// A header whose MAC has been verified, and the file key it wraps.
struct UnlockedHeader {
  ParsedHeader parsed;
  SecretBytes file_key;
};

// Reads the header from `in` (leaving it at the payload) and unlocks it as decrypt does (FORMAT.md §5 steps
// 1-6): Error(header) for a malformed header, wrong credentials or a modified header.
UnlockedHeader unlock_header(io::Reader& in, const std::vector<Credential>& credentials,
                             const KdfLimits& ceiling);

// A pcrypt file's: Error(header) if `file_key` does not authenticate `header` (a key from outside, e.g.
// unlocked on another machine, must belong to this header). engine nullptr = aes::best_engine().
KeyedPayload keyed_payload(const ParsedHeader& header, const SecretBytes& file_key,
                           const aes::Engine* engine = nullptr);

// core/range.h's functions on a pcrypt file given its header and file key: each first verifies the header
// MAC with `file_key` (Error(header) if it does not match: a wrong key or a header that is not this file's),
// then reads as the KeyedPayload overload does, with the payload cipher of options.engine.
RangeResult decrypt_range(const io::PositionalReader& file, const ParsedHeader& header,
                          const SecretBytes& file_key, const ByteRange& range, io::Writer& out,
                          const RangeOptions& options);
RangeResult decrypt_range_into(const io::PositionalReader& file, const ParsedHeader& header,
                               const SecretBytes& file_key, std::uint64_t offset, std::span<std::uint8_t> out,
                               const RangeOptions& options);
RangeResult decrypt_range_stream(io::Reader& in, const ParsedHeader& header, const SecretBytes& file_key,
                                 const ByteRange& range, io::Writer& out, const RangeOptions& options);

}  // namespace pcrypt::core
