// The age armor decoder (core/age/armor.h) with the header parser behind it, as decrypt reads an armored
// file: any input either throws core::Error or decodes; what decodes, armored again, decodes to the same
// bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "core/age/armor.h"
#include "core/error.h"
#include "io/buffered_input.h"
#include "io/memory_stream.h"

namespace {

std::vector<std::uint8_t> dearmor(const std::uint8_t* data, std::size_t size) {
  pcrypt::io::MemoryReader raw({data, size});
  pcrypt::io::BufferedInput in(raw);
  pcrypt::core::age::ArmorReader armor(in);
  std::vector<std::uint8_t> out;
  std::uint8_t buf[4096];
  while (const std::size_t n = armor.read(buf, sizeof buf)) out.insert(out.end(), buf, buf + n);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const std::vector<std::uint8_t> decoded = dearmor(data, size);
    if (decoded.size() > size) std::abort();
    pcrypt::io::MemoryWriter text;
    pcrypt::core::age::ArmorWriter armor(text);
    armor.write(decoded.data(), decoded.size());
    armor.commit();
    if (dearmor(text.data().data(), text.data().size()) != decoded) std::abort();
  } catch (const pcrypt::core::Error&) {
    // Rejected: the expected outcome for most inputs. Anything else escapes and crashes.
  }
  return 0;
}
