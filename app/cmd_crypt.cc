// `pcrypt encrypt` and `pcrypt decrypt`.
#include <spdlog/spdlog.h>

#include <chrono>

#include "app/commands.h"
#include "app/credentials.h"
#include "app/crypt_options.h"
#include "app/endpoints.h"
#include "app/output_name.h"
#include "app/progress.h"
#include "app/report.h"
#include "core/byte_size.h"
#include "core/error.h"
#include "io/file_info.h"

namespace pcrypt::app {
namespace {

// Output path for the run: "" means standard output.
std::string output_path(const CryptArgs& args, bool encrypting) {
  if (args.output_given) return is_standard_stream(args.output) ? std::string() : args.output;
  // A descriptor path (/dev/stdin, /dev/fd/3) has no file name to derive one from: like "-", standard output.
  if (is_standard_stream(args.file) || io::descriptor_path(args.file)) return {};
  return encrypting ? encrypted_name(args.file) : decrypted_name(args.file);
}

// Header and payload errors are about the input; say which one (stdin included). Anything else, I/O errors
// with their errno included, goes on unchanged.
[[noreturn]] void rethrow_with_context(const core::Error& e, const Input& input) {
  if (e.kind() == core::ErrorKind::header || e.kind() == core::ErrorKind::payload)
    throw core::Error(e.kind(), with_file_context(e.what(), input.name), e.hint());
  throw;
}

void log_throughput(const char* verb, std::uint64_t bytes, std::chrono::steady_clock::time_point start) {
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double rate = seconds > 0 ? static_cast<double>(bytes) / seconds / 1e9 : 0.0;
  spdlog::info("{} {} in {:.2f} s ({:.2f} GB/s)", verb, core::format_bytes(bytes), seconds, rate);
}

}  // namespace

int run_encrypt(const CryptArgs& args, Verbosity verbosity) {
  require_credential(args);
  core::EncryptOptions options = encrypt_options(args);
  const std::string out_path = output_path(args, true);
  Input input = open_input(args.file);
  if (out_path.empty()) {
    check_stdout_target(input);
    refuse_terminal_stdout(args.force || (args.output_given && args.output == "-"));
  } else {
    check_output_path(input, out_path, args.force);
    refuse_terminal_output(out_path, args.force);
  }
  if (!wants_passphrase(args) && (!args.kdf_memory.empty() || !args.kdf_ops.empty()))
    spdlog::warn("--kdf-memory/--kdf-ops only matter with -p; ignored");
  const std::vector<core::Credential> credentials = gather_credentials(args, PassphrasePurpose::encrypt);

  spdlog::info("engine {}, worker threads {}, chunk size {}", options.engine->name,
               effective_threads(options.threads), core::format_bytes(options.chunk_size));
  const std::unique_ptr<io::Writer> out = open_output(out_path, args.force);
  ProgressLine progress("encrypting", input.size, progress_wanted(verbosity == Verbosity::quiet));
  options.progress = [&progress](std::uint64_t bytes) { progress.update(bytes); };

  const auto start = std::chrono::steady_clock::now();
  core::PipelineStats stats;
  try {
    stats = core::encrypt_stream(*input.reader, *out, credentials, options);
  } catch (const core::Error& e) {
    rethrow_with_context(e, input);
  }
  out->commit();
  progress.finish();
  log_throughput("encrypted", stats.plaintext_bytes, start);
  return 0;
}

int run_decrypt(const CryptArgs& args, Verbosity verbosity) {
  if (!args.offset.empty() || !args.length.empty()) return run_decrypt_range(args, verbosity);
  require_credential(args);
  core::DecryptOptions options = decrypt_options(args);
  const std::string out_path = output_path(args, false);
  Input input = open_input(args.file);
  refuse_terminal_input(input);
  if (out_path.empty())
    check_stdout_target(input);
  else
    check_output_path(input, out_path, args.force);
  const std::vector<core::Credential> credentials = gather_credentials(args, PassphrasePurpose::decrypt);

  spdlog::info("engine {}, worker threads {}", options.engine->name, effective_threads(options.threads));
  const std::unique_ptr<io::Writer> out = open_output(out_path, args.force);
  // The known size is the ciphertext's, which the plaintext approaches from below: a fair percentage.
  ProgressLine progress("decrypting", input.size, progress_wanted(verbosity == Verbosity::quiet));
  options.progress = [&progress](std::uint64_t bytes) { progress.update(bytes); };

  const auto start = std::chrono::steady_clock::now();
  core::PipelineStats stats;
  try {
    stats = core::decrypt_stream(*input.reader, *out, credentials, options);
  } catch (const core::Error& e) {
    rethrow_with_context(e, input);
  }
  out->commit();
  progress.finish();
  log_throughput("decrypted", stats.plaintext_bytes, start);
  return 0;
}

}  // namespace pcrypt::app
