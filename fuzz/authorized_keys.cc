// The authorized_keys line splitter (core/keys/authorized_keys.h): any text either is refused or yields views
// inside the line, options before the type before the key data, the type a key type and the data non-empty.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/keys/authorized_keys.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  const auto split = pcrypt::core::split_ssh_key_line(line);
  if (!split) return 0;
  const auto inside = [&](std::string_view part) {
    return part.empty() ||
           (part.data() >= line.data() && part.data() + part.size() <= line.data() + line.size());
  };
  if (!inside(split->options) || !inside(split->type) || !inside(split->data)) std::abort();
  if (!pcrypt::core::is_ssh_key_type(split->type) || split->data.empty()) std::abort();
  if (!split->options.empty() && split->options.data() + split->options.size() > split->type.data())
    std::abort();
  if (split->type.data() + split->type.size() > split->data.data()) std::abort();
  return 0;
}
