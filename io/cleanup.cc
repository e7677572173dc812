#include "io/cleanup.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>

namespace pcrypt::io {
namespace {

// A handful of outputs can be open at once (one per command today); slots are cheap.
constexpr int kSlots = 16;
constexpr std::size_t kMaxPath = 4096;

enum SlotState : int { kFree = 0, kBusy = 1, kLive = 2 };

struct Slot {
  // kFree -> kBusy (claimed, path being written) -> kLive (handler may unlink) -> kBusy -> kFree. Written by
  // the registering thread; read by the signal handler, which only acts on kLive.
  std::atomic<int> state{kFree};
  char path[kMaxPath];  // written only while kBusy by the slot's owner; read by the handler while kLive
};

Slot g_slots[kSlots];

static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free atomics");

void on_fatal_signal(int sig) {
  const int saved_errno = errno;
  unlink_registered_temp_paths();
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, nullptr);
  errno = saved_errno;
  // Still blocked while this handler runs; delivered with the default action as soon as it returns.
  raise(sig);
}

}  // namespace

void unlink_registered_temp_paths() {
  for (Slot& slot : g_slots)
    if (slot.state.load(std::memory_order_acquire) == kLive) ::unlink(slot.path);
}

int register_temp_path(const char* path) {
  const std::size_t len = std::strlen(path);
  if (len >= kMaxPath) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (g_slots[i].state.compare_exchange_strong(expected, kBusy, std::memory_order_acquire)) {
      std::memcpy(g_slots[i].path, path, len + 1);
      g_slots[i].state.store(kLive, std::memory_order_release);
      return i;
    }
  }
  return -1;
}

void unregister_temp_path(int slot) {
  if (slot < 0 || slot >= kSlots) return;
  g_slots[slot].state.store(kBusy, std::memory_order_release);
  g_slots[slot].state.store(kFree, std::memory_order_release);
}

void install_signal_cleanup() {
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    struct sigaction sa {};
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    // Block the other cleanup signals meanwhile, so two of them cannot interleave their unlinks and
    // re-raises.
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaddset(&sa.sa_mask, SIGHUP);
    sa.sa_flags = 0;
    sigaction(sig, &sa, nullptr);
  }
}

}  // namespace pcrypt::io
