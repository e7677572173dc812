// TEMPORARY scaffolding so the registry links while the vaes engine is being written; it reports itself as
// unsupported, so it is never selected. Deleted by the commit that adds the real engine.
#include <stdexcept>

#include "core/aes/engine_registry.h"

namespace pcrypt::aes::detail {

bool vaes_supported() { return false; }
std::unique_ptr<Gcm> make_vaes_gcm(std::span<const std::uint8_t, kGcmKeyBytes>) {
  throw std::logic_error("vaes engine not built");
}
std::unique_ptr<BlockCipher> make_vaes_block_cipher(std::span<const std::uint8_t>) {
  throw std::logic_error("vaes engine not built");
}

}  // namespace pcrypt::aes::detail
