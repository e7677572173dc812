// The header parser (core/pcrypt/format.h read_header) and `pcrypt info`'s rendering of what it accepted: any
// input either throws core::Error or yields a header no longer than the input that describe_parsed_header
// renders.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "core/error.h"
#include "core/pcrypt/format.h"
#include "io/memory_stream.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  pcrypt::io::MemoryReader in({data, size});
  try {
    const pcrypt::core::ParsedHeader parsed = pcrypt::core::read_header(in);
    if (parsed.total_bytes() > size) std::abort();
    if (pcrypt::core::describe_parsed_header(parsed).empty()) std::abort();
  } catch (const pcrypt::core::Error&) {
    // Rejected with a pcrypt error: the expected outcome for most inputs. Anything else escapes and crashes.
  }
  return 0;
}
