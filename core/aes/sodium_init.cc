#include "core/aes/sodium_init.h"

#include <sodium.h>

#include <stdexcept>

namespace pcrypt {

bool sodium_ready() noexcept {
  static const bool ready = sodium_init() >= 0;
  return ready;
}

void require_sodium() {
  if (!sodium_ready()) throw std::runtime_error("libsodium failed to initialise");
}

}  // namespace pcrypt
