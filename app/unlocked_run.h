// What decrypt, verify and range reads do alike once their input is opened (DecryptionInput): say the
// engine and workers (-v), draw a progress line, unlock the file (-v names the slot that opened it, and the
// clock starts after any prompt or Argon2id), then run the one library call they differ in, with header and
// payload errors naming the input.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "app/credentials.h"
#include "app/crypt_options.h"
#include "app/logging.h"
#include "app/progress.h"

namespace pcrypt::app {

template <typename Result>
struct UnlockedRun {
  Result result;
  double seconds = 0;  // from unlock to the end of the work
};

// `work(file, run)`: the library call on the unlocked file, with the progress callback set in `run`.
template <typename Work>
auto run_unlocked(DecryptionInput& opened, DecryptChoices choices, const std::string& input_name,
                  const std::string& verb, std::optional<std::uint64_t> total, bool show_progress,
                  Work work) {
  log::info("engine {}, worker threads {}", choices.session->engine(),
            effective_threads(choices.run.threads));
  ProgressLine progress(verb, total, show_progress);
  choices.run.progress = [&progress](std::uint64_t bytes) { progress.update(bytes); };
  auto start = std::chrono::steady_clock::now();
  report_unlocked(opened.unlock(choices.limits), progress, start);
  auto result = naming_input(input_name, [&] { return work(opened.file(), choices.run); });
  progress.finish();
  return UnlockedRun<decltype(result)>{
      std::move(result), std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
}

}  // namespace pcrypt::app
