// `pcrypt verify`: decrypt's checks and exit status, without an output.
#include <spdlog/spdlog.h>

#include <chrono>

#include "app/commands.h"
#include "app/credentials.h"
#include "app/crypt_options.h"
#include "app/endpoints.h"
#include "app/progress.h"
#include "app/report.h"
#include "core/byte_size.h"
#include "core/error.h"
#include "core/verify.h"
#include "io/memory_stream.h"

namespace pcrypt::app {

int run_verify(const CryptArgs& args, Verbosity verbosity) {
  require_credential(args, PassphrasePurpose::decrypt);
  const core::DecryptOptions parsed = decrypt_options(args);
  Input input = open_input(args.file);
  refuse_terminal_input(input);
  DecryptionInput opened(args, *input.reader, input.name);

  spdlog::info("engine {}, worker threads {}", parsed.engine->name, effective_threads(parsed.threads));
  ProgressLine progress("verifying", input.size,
                        progress_wanted(verbosity == Verbosity::quiet, args.progress));
  core::DecryptOptions options = parsed;
  options.progress = [&progress](std::uint64_t bytes) { progress.update(bytes); };

  const auto start = std::chrono::steady_clock::now();
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
  return 0;
}

}  // namespace pcrypt::app
