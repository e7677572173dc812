// `rekey --new-file-key`'s pass over a payload, for either format: each record opened with the old key
// (refusing, as decrypt does, anything that does not authenticate) and sealed again under the new one, same
// index and length, through the pipeline.
#pragma once

#include "core/pipeline.h"
#include "core/range.h"
#include "io/stream.h"

namespace pcrypt::core {

// Each record of `payload_in` (at `from`'s record 0) opened with `from` and sealed with `to`, same index and
// length, written to `out` after whatever the caller wrote first. Payload damage is Error(payload) as in
// decrypt; nothing unauthenticated is ever sealed. Does not commit `out`.
PipelineStats reencrypt_payload(const KeyedPayload& from, const KeyedPayload& to, io::Reader& payload_in,
                                io::Writer& out, const PipelineConfig& config);

}  // namespace pcrypt::core
