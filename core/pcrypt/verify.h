// `pcrypt verify`: decrypt without output. The same header checks and the same pipeline as decrypt_stream
// (core/pcrypt/crypt.h), so the verdict and the error are exactly decrypt's; only the plaintext goes nowhere.
#pragma once

#include <vector>

#include "core/keys/credential.h"
#include "core/pcrypt/crypt.h"
#include "core/pipeline.h"
#include "io/stream.h"

namespace pcrypt::core {

// Authenticates the header and every record of `in`, in parallel, and writes nothing: what
// decrypt_stream(in, <an output that discards>, credentials, options) would do, errors included.
PipelineStats verify_stream(io::Reader& in, const std::vector<Credential>& credentials,
                            const DecryptOptions& options);

}  // namespace pcrypt::core
