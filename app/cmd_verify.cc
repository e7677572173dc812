// `pcrypt verify`: decrypt's checks and exit status, without an output; several files as decrypt takes them.

#include <chrono>

#include <pcrypt/pcrypt.h>

#include "app/commands.h"
#include "app/credentials.h"
#include "app/crypt_options.h"
#include "app/endpoints.h"
#include "app/logging.h"
#include "app/progress.h"
#include "app/report.h"
#include "app/run_files.h"
#include "app/run_summary.h"
#include "app/size_arg.h"
#include "app/unlocked_run.h"

namespace pcrypt::app {
namespace {

// One file. `run_keys`: the run's (several files), or nullptr for a single file's own.
void verify_file(const CryptArgs& args, Verbosity verbosity, DecryptChoices choices,
                 DecryptionKeys* run_keys) {
  Input input = open_input(args.file);
  refuse_terminal_input(input);
  DecryptionInput opened(args, input, run_keys);

  const std::string engine = choices.session->engine();
  const unsigned threads = effective_threads(choices.run.threads);
  const auto run = run_unlocked(opened, std::move(choices), input.name, "verifying", input.size,
                                progress_wanted(verbosity == Verbosity::quiet, args.progress),
                                [](File& file, const RunOptions& options) { return file.verify(options); });
  const Transfer& done = run.result;
  const double seconds = run.seconds;
  log::info("verified {} in {}, {:.2f} s ({:.2f} GB/s)", format_bytes(done.plaintext_bytes),
            counted(done.chunks, "chunk"), seconds,
            seconds > 0 ? static_cast<double>(done.plaintext_bytes) / seconds / 1e9 : 0.0);
  if (args.json)
    print_json_summary({"verify", input.name, "", opened.file().describe().format == Format::age,
                        done.encrypted_bytes, 0, done.plaintext_bytes, seconds, engine, threads});
}

DecryptionKeys verification_keys(const CryptArgs& args) {
  return DecryptionKeys(args);
}

}  // namespace

int run_verify(const CryptArgs& args, Verbosity verbosity) {
  require_credential(args, PassphrasePurpose::decrypt);
  return run_files(args, verbosity, decrypt_choices(args), &verification_keys, &verify_file);
}

}  // namespace pcrypt::app
