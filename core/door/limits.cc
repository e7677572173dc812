// The door's numbers are the formats' own.
#include "core/door/limits.h"

#include "core/age/header.h"
#include "core/age/payload.h"
#include "core/age/stanzas.h"
#include "core/pcrypt/format.h"

namespace pcrypt::core::door {

static_assert(kMinChunkSize == core::kMinChunkSize && kMaxChunkSize == core::kMaxChunkSize &&
              kDefaultChunkSize == core::kDefaultChunkSize);
static_assert(kMinKdfOps == core::kMinKdfOps && kMaxKdfOps == core::kMaxKdfOps &&
              kMinKdfMemoryKib == core::kMinKdfMemoryKib && kMaxKdfMemoryKib == core::kMaxKdfMemoryKib);
static_assert(kMaxSlots == core::kMaxSlots);
static_assert(kMaxHeaderBytes == age::kMaxHeaderBytes + age::kPayloadNonceBytes);
static_assert(kDefaultScryptLog2 == age::kDefaultScryptLog2 &&
              kDefaultMaxScryptLog2 == age::kDefaultMaxScryptLog2 && kMaxScryptLog2 == age::kMaxScryptLog2);

}  // namespace pcrypt::core::door
