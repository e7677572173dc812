#include "core/byte_size.h"

#include "core/error.h"

namespace pcrypt::core {

std::uint64_t parse_size(std::string_view text, std::string_view option) {
  try {
    return io::parse_size(text, option);
  } catch (const io::SizeSyntaxError& e) {
    throw Error(PCRYPT_E_BAD_ARGUMENT, e.what(), e.hint());
  }
}

}  // namespace pcrypt::core
