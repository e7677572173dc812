// `pcrypt encrypt` and `pcrypt decrypt`.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <fstream>
#include <functional>
#include <new>
#include <optional>

#include "app/commands.h"
#include "app/credentials.h"
#include "app/crypt_options.h"
#include "app/endpoints.h"
#include "app/output_name.h"
#include "app/progress.h"
#include "app/report.h"
#include "app/run_files.h"
#include "core/age/armor.h"
#include "core/age/file.h"
#include "core/byte_size.h"
#include "core/error.h"
#include "core/pcrypt/format.h"
#include "io/file_info.h"
#include "io/stream.h"

namespace pcrypt::app {
namespace {

// Output path for the run: "" means standard output.
std::string output_path(const CryptArgs& args, bool encrypting) {
  if (args.output_given) return is_standard_stream(args.output) ? std::string() : args.output;
  // A descriptor path (/dev/stdin, /dev/fd/3) has no file name to derive one from: like "-", standard output.
  if (is_standard_stream(args.file) || io::descriptor_path(args.file)) return {};
  if (encrypting) return args.format == "age" ? age_encrypted_name(args.file) : encrypted_name(args.file);
  return decrypted_name(args.file);
}

// Header and payload errors are about the input; say which one (stdin included). Anything else, I/O errors
// with their errno included, goes on unchanged.
[[noreturn]] void rethrow_with_context(const core::Error& e, const Input& input) {
  if (e.kind() == core::ErrorKind::header || e.kind() == core::ErrorKind::payload)
    throw core::Error(e.kind(), with_file_context(e.what(), input.name), e.hint());
  throw;
}

// -v's last line, zstd style: "NAME: IN -> OUT in T s, RATE".
void log_summary(const std::string& out_path, std::uint64_t in_bytes, std::uint64_t out_bytes,
                 std::chrono::steady_clock::time_point start) {
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  spdlog::info("{}",
               format_summary(out_path.empty() ? "standard output" : out_path, in_bytes, out_bytes, seconds));
}

// What encrypt_stream wrote before the payload (docs/FORMAT.md §3): fixed fields, one slot per credential,
// MAC.
std::uint64_t header_bytes(const std::vector<core::Credential>& credentials) {
  std::uint64_t bytes = core::kFixedHeaderBytes + core::kHeaderMacBytes;
  for (const core::Credential& c : credentials)
    bytes +=
        c.kind == core::Credential::Kind::passphrase ? core::kPassphraseSlotBytes : core::kKeyFileSlotBytes;
  return bytes;
}

// `pcrypt encrypt x.pcrypt` is usually a slip for decrypt: say so, but do it (encrypting twice is
// legitimate).
void warn_if_encrypted(const Input& input) {
  if (input.path.empty() || !io::is_regular_file(input.path)) return;
  std::array<char, core::kMagic.size()> start{};
  std::ifstream file(input.path, std::ios::binary);
  if (!file.read(start.data(), start.size())) return;
  if (std::equal(start.begin(), start.end(), core::kMagic.begin(),
                 [](char a, std::uint8_t b) { return static_cast<std::uint8_t>(a) == b; }))
    spdlog::warn("{} is already a pcrypt file; encrypting it again (to decrypt it: pcrypt decrypt)",
                 input.path);
}

// encrypt --format age [-a]: the same input, output and credentials as pcrypt's format (FORMAT.md "age
// format"); the armor, when asked for, wraps the output and finishes it on commit.
void encrypt_age_file(const CryptArgs& args, Input& input, io::Writer& out,
                      const std::vector<core::Credential>& credentials,
                      std::function<void(std::uint64_t)> progress) {
  core::age::EncryptOptions options = age_encrypt_options(args);
  options.progress = std::move(progress);
  std::optional<core::age::ArmorWriter> armored;
  if (args.armor) armored.emplace(out);
  io::Writer& target = args.armor ? static_cast<io::Writer&>(*armored) : out;
  try {
    core::age::encrypt_stream(*input.reader, target, credentials, options);
  } catch (const core::Error& e) {
    rethrow_with_context(e, input);
  }
  target.commit();
}

// One file. `credentials`: the run's, or nullptr to gather them here, after the checks on the input and
// output (a single file's mistakes are reported before a passphrase is asked for).
void encrypt_file(const CryptArgs& args, Verbosity verbosity, core::EncryptOptions options,
                  const std::vector<core::Credential>* credentials) {
  const std::string out_path = output_path(args, true);
  Input input = open_input(args.file);
  warn_if_encrypted(input);
  if (out_path.empty()) {
    check_stdout_target(input);
    // Armor is text, made to be shown: age writes it to a terminal too.
    refuse_terminal_stdout(args.force || args.armor || (args.output_given && args.output == "-"));
  } else {
    check_output_path(input, out_path, args.force);
    refuse_terminal_output(out_path, args.force);
  }
  std::vector<core::Credential> gathered;
  if (credentials == nullptr) {
    gathered = gather_credentials(args, PassphrasePurpose::encrypt);
    credentials = &gathered;
  }

  spdlog::info("engine {}, worker threads {}, chunk size {}", options.engine->name,
               effective_threads(options.threads), core::format_bytes(options.chunk_size));
  const std::unique_ptr<io::Writer> out = open_output(out_path, args.force);
  ProgressLine progress("encrypting", input.size,
                        progress_wanted(verbosity == Verbosity::quiet, args.progress));
  options.progress = [&progress](std::uint64_t bytes) { progress.update(bytes); };
  auto start = std::chrono::steady_clock::now();
  // The rate counts the payload only, not Argon2id for passphrase slots.
  options.header_written = [&progress, &start] {
    progress.restart();
    start = std::chrono::steady_clock::now();
  };
  if (encrypts_to_age(args)) {
    encrypt_age_file(args, input, *out, *credentials, options.progress);
  } else {
    core::PipelineStats stats;
    try {
      stats = core::encrypt_stream(*input.reader, *out, *credentials, options);
    } catch (const core::Error& e) {
      rethrow_with_context(e, input);
    }
    out->commit();
    log_summary(out_path, stats.plaintext_bytes, header_bytes(*credentials) + stats.ciphertext_bytes, start);
  }
  progress.finish();
}

// One file. `run_keys`: the run's (several files), or nullptr for a single file's own; either way its
// credentials are chosen from its header (DecryptionInput).
void decrypt_file(const CryptArgs& args, Verbosity verbosity, core::DecryptOptions options,
                  DecryptionKeys* run_keys) {
  const std::string out_path = output_path(args, false);
  Input input = open_decrypt_input(args.file, out_path, args.force);
  DecryptionInput opened(args, *input.reader, input.name, run_keys);

  spdlog::info("engine {}, worker threads {}", options.engine->name, effective_threads(options.threads));
  // Plaintext is an ordinary file again: the umask decides, as for any file the user creates (man page).
  const std::unique_ptr<io::Writer> out = open_output(out_path, args.force, io::Permissions::umask);
  // The known size is the ciphertext's, which the plaintext approaches from below: a fair percentage.
  ProgressLine progress("decrypting", input.size,
                        progress_wanted(verbosity == Verbosity::quiet, args.progress));
  options.progress = [&progress](std::uint64_t bytes) { progress.update(bytes); };
  auto start = std::chrono::steady_clock::now();
  options.unlocked = unlocked_reporter(progress, start);
  core::PipelineStats stats;
  std::uint64_t header_bytes = 0;
  try {
    if (opened.is_age()) {
      core::age::DecryptOptions age_options = age_decrypt_options(args);
      age_options.progress = options.progress;
      stats = core::age::decrypt_stream(opened.age(), *out, opened.credentials(), age_options);
      header_bytes = opened.age().header().total_bytes + 16;
    } else {
      stats = core::decrypt_stream(opened.reader(), *out, opened.credentials(), options);
      header_bytes = opened.reader().header_bytes();
    }
  } catch (const core::Error& e) {
    rethrow_with_context(e, input);
  }
  out->commit();
  progress.finish();
  log_summary(out_path, header_bytes + stats.ciphertext_bytes, stats.plaintext_bytes, start);
}

// Several inputs go each to its default output name (as gzip and zstd do): app/run_files.h.

std::vector<core::Credential> encryption_credentials(const CryptArgs& args) {
  return gather_credentials(args, PassphrasePurpose::encrypt);
}

// Decrypting several files, a passphrase is asked for only when a file needs one, and then only once.
DecryptionKeys decryption_keys(const CryptArgs& args) {
  return DecryptionKeys(args);
}

}  // namespace

int run_encrypt(const CryptArgs& args, Verbosity verbosity) {
  require_credential(args, PassphrasePurpose::encrypt);
  // age's rules on recipients are checked before any file is touched or passphrase asked for.
  if (encrypts_to_age(args))
    core::age::check_credential_mix(
        args.key_files.size(),
        args.recipients.size() + args.recipient_files.size() + args.identity_files.size(),
        wants_passphrase(args));
  const core::EncryptOptions options = encrypt_options(args);
  if (!wants_passphrase(args) && (!args.kdf_memory.empty() || !args.kdf_ops.empty()))
    spdlog::warn("--kdf-memory/--kdf-ops only matter with -p; ignored");
  return run_files(args, verbosity, options, &encryption_credentials, &encrypt_file);
}

int run_decrypt(const CryptArgs& args, Verbosity verbosity) {
  if (!args.offset.empty() || !args.length.empty()) return run_decrypt_range(args, verbosity);
  require_credential(args, PassphrasePurpose::decrypt);
  return run_files(args, verbosity, decrypt_options(args), &decryption_keys, &decrypt_file);
}

}  // namespace pcrypt::app
