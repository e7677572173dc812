// Ctrl-C during `pcrypt bench`: the handler only sets a flag; experiments poll it between samples, print what
// they have and the command exits 130.
#pragma once

#include <csignal>

namespace pcrypt::app::bench {

bool interrupted();

// Installs the SIGINT handler for its lifetime and restores the previous disposition afterwards.
class SigintScope {
 public:
  SigintScope();
  ~SigintScope();
  SigintScope(const SigintScope&) = delete;
  SigintScope& operator=(const SigintScope&) = delete;

 private:
  struct sigaction previous_ {};
};

}  // namespace pcrypt::app::bench
