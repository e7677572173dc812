// `pcrypt verify`: decrypt's checks and exit status, without an output; several files as decrypt takes them.
#include <spdlog/spdlog.h>

#include <chrono>

#include "app/commands.h"
#include "app/credentials.h"
#include "app/crypt_options.h"
#include "app/endpoints.h"
#include "app/progress.h"
#include "app/report.h"
#include "app/run_files.h"
#include "core/byte_size.h"
#include "core/error.h"
#include "core/pcrypt/verify.h"
#include "io/memory_stream.h"

namespace pcrypt::app {
namespace {

// One file. `run_keys`: the run's (several files), or nullptr for a single file's own.
void verify_file(const CryptArgs& args, Verbosity verbosity, core::DecryptOptions options,
                 DecryptionKeys* run_keys) {
  Input input = open_input(args.file);
  refuse_terminal_input(input);
  DecryptionInput opened(args, *input.reader, input.name, run_keys);

  spdlog::info("engine {}, worker threads {}", options.engine->name, effective_threads(options.threads));
  ProgressLine progress("verifying", input.size,
                        progress_wanted(verbosity == Verbosity::quiet, args.progress));
  options.progress = [&progress](std::uint64_t bytes) { progress.update(bytes); };
  auto start = std::chrono::steady_clock::now();
  options.unlocked = unlocked_reporter(progress, start);

  core::PipelineStats stats;
  try {
    if (opened.is_age()) {
      // Decrypt into nothing: the same pipeline and checks as decrypt's.
      core::age::DecryptOptions age_options = age_decrypt_options(args);
      age_options.progress = options.progress;
      io::NullWriter nothing;
      stats = core::age::decrypt_stream(opened.age(), nothing, opened.credentials(), age_options);
    } else {
      stats = core::verify_stream(opened.reader(), opened.credentials(), options);
    }
  } catch (const core::Error& e) {
    // Worded as decrypt words it (cmd_crypt.cc): header and payload errors name the input.
    if (e.kind() == core::ErrorKind::header || e.kind() == core::ErrorKind::payload)
      throw core::Error(e.kind(), with_file_context(e.what(), input.name), e.hint());
    throw;
  }
  progress.finish();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  spdlog::info("verified {} in {} chunks, {:.2f} s ({:.2f} GB/s)", core::format_bytes(stats.plaintext_bytes),
               stats.chunks, seconds,
               seconds > 0 ? static_cast<double>(stats.plaintext_bytes) / seconds / 1e9 : 0.0);
}

DecryptionKeys verification_keys(const CryptArgs& args) {
  return DecryptionKeys(args);
}

}  // namespace

int run_verify(const CryptArgs& args, Verbosity verbosity) {
  require_credential(args, PassphrasePurpose::decrypt);
  return run_files(args, verbosity, decrypt_options(args), &verification_keys, &verify_file);
}

}  // namespace pcrypt::app
