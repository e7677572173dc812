// Placeholder entry point; the CLI lands with issue 2.
#include <cstdio>

#include "core/aes/engine.h"

int main() {
  std::fputs(pcrypt::aes::describe_engines().c_str(), stdout);
  return 0;
}
