// The repository's root, where the tests find their vectors (tests/vectors/) and data files.
// It is compiled into one object, tests/source_dir.cc, the only test file whose command line holds the
// checkout's absolute path: every other test file compiles the same from any clone, so a compiler cache
// (CI's fresh clones, the ARM64 cross build) reuses their objects.
#pragma once

namespace pcrypt::test {

const char* source_dir();

}  // namespace pcrypt::test
