#include "core/engine_choice.h"

#include <stdexcept>

#include "core/error.h"

namespace pcrypt::core {

const aes::Engine& choose_engine(std::string_view name) {
  try {
    return aes::select_engine(name);
  } catch (const std::invalid_argument& e) {
    throw Error(PCRYPT_E_UNKNOWN_ENGINE, e.what(), "aes_engines() lists the engines this CPU supports");
  }
}

const aes::Engine& engine_for(const aes::Engine* chosen) {
  return chosen != nullptr ? *chosen : aes::best_engine();
}

}  // namespace pcrypt::core
