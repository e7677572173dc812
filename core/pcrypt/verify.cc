#include "core/pcrypt/verify.h"

#include "io/memory_stream.h"

namespace pcrypt::core {

PipelineStats verify_stream(io::Reader& in, const std::vector<Credential>& credentials,
                            const DecryptOptions& options) {
  io::DiscardWriter nowhere;
  return decrypt_stream(in, nowhere, credentials, options);
}

}  // namespace pcrypt::core
