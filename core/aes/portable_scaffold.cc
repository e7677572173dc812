// TEMPORARY scaffolding so the registry links while the portable engine is being written; it reports itself as
// unsupported, so it is never selected. Deleted by the commit that adds the real engine.
#include <stdexcept>

#include "core/aes/engine_registry.h"

namespace pcrypt::aes::detail {

bool portable_supported() { return false; }
std::unique_ptr<Gcm> make_portable_gcm(std::span<const std::uint8_t, kGcmKeyBytes>) {
  throw std::logic_error("portable engine not built");
}
std::unique_ptr<BlockCipher> make_portable_block_cipher(std::span<const std::uint8_t>) {
  throw std::logic_error("portable engine not built");
}

}  // namespace pcrypt::aes::detail
