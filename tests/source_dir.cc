#include "tests/source_dir.h"

namespace pcrypt::test {

const char* source_dir() {
  return PCRYPT_SOURCE_DIR;
}

}  // namespace pcrypt::test
