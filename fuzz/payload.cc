// The payload/record path (core/pcrypt/crypt.h decrypt_stream) with the fixed key
// tests/vectors/files/test.key: the seeds are files made with that key, so mutations past the header reach
// the record rules (authentication, order, truncation, trailing data). Any input either decrypts or throws
// core::Error; a run that succeeds must have written no more bytes than it read.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "core/error.h"
#include "core/keys/key_file.h"
#include "core/pcrypt/crypt.h"
#include "io/memory_stream.h"

namespace {

const std::vector<pcrypt::core::Credential>& test_key() {
  static const std::vector<pcrypt::core::Credential> keys = [] {
    std::ifstream file(PCRYPT_SOURCE_DIR "/tests/vectors/files/test.key");
    std::ostringstream text;
    text << file.rdbuf();
    std::vector<pcrypt::core::Credential> result;
    result.push_back(pcrypt::core::parse_key_file(text.str(), "test.key"));
    return result;
  }();
  return keys;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  pcrypt::io::MemoryReader in({data, size});
  pcrypt::io::MemoryWriter out;
  pcrypt::core::DecryptOptions options;
  options.threads = 1;
  try {
    pcrypt::core::decrypt_stream(in, out, test_key(), options);
    if (out.data().size() > size) std::abort();
  } catch (const pcrypt::core::Error&) {
    // Rejected with a pcrypt error; anything else escapes and crashes.
  }
  return 0;
}
