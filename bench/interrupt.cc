#include "bench/interrupt.h"

#include <atomic>

namespace pcrypt::app::bench {
namespace {

std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the flag is set from a signal handler");

extern "C" void on_sigint(int) {
  g_interrupted.store(true, std::memory_order_relaxed);
}

}  // namespace

bool interrupted() {
  return g_interrupted.load(std::memory_order_relaxed);
}

SigintScope::SigintScope() {
  g_interrupted.store(false);
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &previous_);
}

SigintScope::~SigintScope() {
  sigaction(SIGINT, &previous_, nullptr);
}

}  // namespace pcrypt::app::bench
