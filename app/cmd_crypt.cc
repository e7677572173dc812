// `pcrypt encrypt` and `pcrypt decrypt`.

#include <algorithm>
#include <chrono>
#include <functional>
#include <new>
#include <optional>

#include <pcrypt/pcrypt.h>

#include "app/commands.h"
#include "app/credentials.h"
#include "app/crypt_options.h"
#include "app/endpoints.h"
#include "app/error_words.h"
#include "app/library.h"
#include "app/logging.h"
#include "app/output_name.h"
#include "app/progress.h"
#include "app/report.h"
#include "app/run_files.h"
#include "app/run_summary.h"
#include "app/size_arg.h"
#include "app/unlocked_run.h"
#include "io/fd_stream.h"
#include "io/file_info.h"
#include "io/stream.h"

namespace pcrypt::app {
namespace {

// Output path for the run: "" means standard output.
std::string output_path(const CryptArgs& args, bool encrypting) {
  if (args.output_given) return is_standard_stream(args.output) ? std::string() : args.output;
  // A descriptor path (/dev/stdin, /dev/fd/3) has no file name to derive one from: like "-", standard output.
  if (is_standard_stream(args.file) || io::descriptor_path(args.file)) return {};
  if (encrypting && cobblestone_format(args.format)) return args.file + kCobblestoneSuffix;
  if (encrypting) return args.format == "age" ? age_encrypted_name(args.file) : encrypted_name(args.file);
  return decrypted_name(args.file);
}

// -v's last line, zstd style: "NAME: IN -> OUT in T s, RATE".
void log_summary(const std::string& out_path, std::uint64_t in_bytes, std::uint64_t out_bytes,
                 double seconds) {
  log::info("{}",
            format_summary(out_path.empty() ? "standard output" : out_path, in_bytes, out_bytes, seconds));
}

// `pcrypt encrypt x.pcrypt` is usually a slip for decrypt: say so, but do it (encrypting twice is
// legitimate).
void warn_if_encrypted(const Input& input) {
  if (input.path.empty() || !io::is_regular_file(input.path)) return;
  std::unique_ptr<io::FdReader> file;
  try {
    file = io::open_input(input.path);
    const File encrypted = File::open(Source::fd(file->fd(), input.path));
    log::warn("{} is already {} file; encrypting it again (to decrypt it: pcrypt decrypt)", input.path,
              encrypted.describe().format == Format::age ? "an age" : "a pcrypt");
  } catch (const std::exception&) {
    // Not an encrypted file (or not readable here: open_input below says so).
  }
}

// One file. `credentials`: the run's, or nullptr to gather them here, after the checks on the input and
// output (a single file's mistakes are reported before a passphrase is asked for).
void encrypt_file(const CryptArgs& args, Verbosity verbosity, EncryptChoices choices,
                  const Keys* credentials) {
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
  std::optional<Keys> gathered;
  if (credentials == nullptr)
    credentials = &gathered.emplace(gather_credentials(args, PassphrasePurpose::encrypt));

  EncryptOptions& settings = choices.options;
  const bool age = settings.format == Format::age;
  const bool cobblestone = cobblestone_format(args.format).has_value();
  log::info("format {}, engine {}, worker threads {}, chunk size {}",
            cobblestone ? args.format
            : age       ? "age"
                        : "pcrypt",
            choices.session->engine(), effective_threads(settings.threads),
            format_bytes(cobblestone ? 16 * 1024
                         : age       ? 64 * 1024
                                     : settings.chunk_size));
  const std::unique_ptr<io::Writer> out = open_output(out_path, args.force);
  ProgressLine progress("encrypting", input.size,
                        progress_wanted(verbosity == Verbosity::quiet, args.progress));
  settings.progress = [&progress](std::uint64_t bytes) { progress.update(bytes); };
  auto start = std::chrono::steady_clock::now();
  // The rate counts the payload only, not Argon2id for passphrase slots.
  settings.header_written = [&progress, &start] {
    progress.restart();
    start = std::chrono::steady_clock::now();
  };
  Recipients to;
  to.keys = credentials;
  const Transfer done =
      naming_input(input.name, [&] { return encrypt(source_of(input), sink_of(*out), to, settings); });
  commit_written(*out);
  progress.finish();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  log_summary(out_path, done.plaintext_bytes, done.encrypted_bytes, seconds);
  if (args.json)
    print_json_summary({"encrypt", input.name, out_path.empty() ? "standard output" : out_path, age,
                        done.plaintext_bytes, done.encrypted_bytes, done.plaintext_bytes, seconds,
                        choices.session->engine(), effective_threads(settings.threads)});
}

// One file. `run_keys`: the run's (several files), or nullptr for a single file's own; either way its
// credentials are chosen from its header (DecryptionInput).
void decrypt_file(const CryptArgs& args, Verbosity verbosity, DecryptChoices choices,
                  DecryptionKeys* run_keys) {
  const std::string out_path = output_path(args, false);
  Input input = open_decrypt_input(args.file, out_path, args.force);
  DecryptionInput opened(args, input, run_keys);

  // Plaintext is an ordinary file again: the umask decides, as for any file the user creates (man page).
  const std::unique_ptr<io::Writer> out = open_output(out_path, args.force, io::Permissions::umask);
  const std::string engine = choices.session->engine();
  const unsigned threads = effective_threads(choices.run.threads);
  // The known size is the ciphertext's, which the plaintext approaches from below: a fair percentage.
  const auto run = run_unlocked(opened, std::move(choices), input.name, "decrypting", input.size,
                                progress_wanted(verbosity == Verbosity::quiet, args.progress),
                                [&](File& file, const RunOptions& options) {
                                  const Transfer done = file.decrypt(sink_of(*out), options);
                                  commit_written(*out);
                                  return done;
                                });
  log_summary(out_path, run.result.encrypted_bytes, run.result.plaintext_bytes, run.seconds);
  if (args.json)
    print_json_summary({"decrypt", input.name, out_path.empty() ? "standard output" : out_path,
                        opened.file().describe().format == Format::age, run.result.encrypted_bytes,
                        run.result.plaintext_bytes, run.result.plaintext_bytes, run.seconds, engine,
                        threads});
}

// Several inputs go each to its default output name (as gzip and zstd do): app/run_files.h.

Keys encryption_credentials(const CryptArgs& args) {
  return gather_credentials(args, PassphrasePurpose::encrypt);
}

// Decrypting several files, a passphrase is asked for only when a file needs one, and then only once.
DecryptionKeys decryption_keys(const CryptArgs& args) {
  return DecryptionKeys(args);
}

}  // namespace

int run_encrypt(const CryptArgs& args, Verbosity verbosity) {
  require_credential(args, PassphrasePurpose::encrypt);
  const EncryptChoices choices = encrypt_choices(args);
  // The format's rules on credentials are checked before any file is touched or passphrase asked for.
  try {
    Recipients named;  // what the command line names, checked before anything is read
    named.recipients = args.recipients;
    named.recipient_files = args.recipient_files;
    named.identity_files = args.identity_files;
    named.key_files = args.key_files;
    if (wants_passphrase(args)) named.passphrase.emplace();  // to be asked for
    check_recipients(named, choices.options.format);
  } catch (const Error& e) {
    if (!args.format.empty() || choices.options.format != Format::age) throw;
    // The age format came from the output's name, not from --format: say so.
    const std::string hint = hint_for(e);
    throw CliError(e.code(), std::string(e.what()) + " (the output " + args.output + " is named *.age)",
                   hint.empty() ? "name the output *.pcrypt for pcrypt's format"
                                : hint + "; or name the output *.pcrypt for pcrypt's format");
  }
  if (!wants_passphrase(args) && (!args.kdf_memory.empty() || !args.kdf_ops.empty()))
    log::warn("--kdf-memory/--kdf-ops only matter with -p; ignored");
  return run_files(args, verbosity, choices, &encryption_credentials, &encrypt_file);
}

int run_decrypt(const CryptArgs& args, Verbosity verbosity) {
  if (!args.offset.empty() || !args.length.empty()) return run_decrypt_range(args, verbosity);
  require_credential(args, PassphrasePurpose::decrypt);
  return run_files(args, verbosity, decrypt_choices(args), &decryption_keys, &decrypt_file);
}

}  // namespace pcrypt::app
