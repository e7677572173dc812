// Kind-5 slot parsing and opening (core/pcrypt/recipient_slot.h, FORMAT.md §10.6): any bytes either do not
// open or give exactly a 32-byte file key; nothing crashes, whatever the encapsulated key holds.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "core/keys/recipient.h"
#include "core/pcrypt/recipient_slot.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace slot = pcrypt::core::recipient_slot;
  static const pcrypt::core::Identity identity = [] {
    pcrypt::SecretBytes seed(32);
    for (std::size_t i = 0; i < 32; ++i) seed.data()[i] = static_cast<std::uint8_t>(i);
    return pcrypt::core::hybrid_identity_from_seed(seed);
  }();
  std::vector<std::uint8_t> bytes(data, data + size);
  if (!bytes.empty())
    bytes[0] = slot::kind_mlkem768_x25519;  // the slot as read from a header, kind byte first
  const auto fk = slot::unwrap(bytes, identity);
  if (fk && fk->size() != slot::file_key_size) std::abort();
  return 0;
}
