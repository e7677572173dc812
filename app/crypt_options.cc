#include "app/crypt_options.h"

#include <pcrypt/pcrypt.h>

#include <stdexcept>
#include <string>

#include "app/endpoints.h"
#include "app/environment.h"
#include "app/report.h"
#include "app/size_arg.h"

namespace pcrypt::app {
namespace {

// The format's chunk and Argon2id bounds (pcrypt::limits) are checked here too, so the message names the
// option.
constexpr std::uint64_t kMaxThreads = 1024;

unsigned parse_threads(const std::string& text) {
  if (text.empty()) return 0;
  return static_cast<unsigned>(parse_count(text, "--threads", 0, kMaxThreads));
}

std::uint64_t parse_kdf_memory(const std::string& text, const char* option) {
  const std::uint64_t bytes = parse_size(text, option);
  const std::string given = std::string(option) + " " + text;
  // Say which rule is broken: "9000" or "1MB" is a fine size, just not one Argon2id can take.
  if (bytes % 1024 != 0)
    throw Error(PCRYPT_E_BAD_ARGUMENT,
                given + " is not a whole number of KiB (" + counted(bytes, "byte") + ")",
                "Argon2id memory is counted in KiB: use a multiple of 1024 bytes, e.g. 64MiB");
  if (bytes / 1024 < limits::min_argon2id_memory_kib)
    throw Error(PCRYPT_E_BAD_ARGUMENT,
                given + " is below the minimum of " +
                    format_bytes(std::uint64_t{limits::min_argon2id_memory_kib} * 1024));
  if (bytes / 1024 > limits::max_argon2id_memory_kib)
    throw Error(PCRYPT_E_BAD_ARGUMENT, given + " is above the maximum of " +
                                           std::to_string(limits::max_argon2id_memory_kib) + " KiB");
  return bytes;
}

}  // namespace

std::shared_ptr<Session> chosen_session(const std::string& engine_option) {
  return std::make_shared<Session>(requested_engine(engine_option));
}

unsigned effective_threads(unsigned requested) {
  return worker_threads(requested);
}

EncryptChoices encrypt_choices(const CryptArgs& args) {
  EncryptChoices choices;
  EncryptOptions& settings = choices.options;
  // An output named *.age is an age file: without --format it selects age's format, and pcrypt's format
  // under that name (which age would then refuse) is a usage error.
  std::string format = args.format;
  const bool age_name =
      args.output_given && !is_standard_stream(args.output) && args.output.ends_with(".age");
  if (age_name && format == "pcrypt")
    throw Error(PCRYPT_E_BAD_ARGUMENT,
                "--format pcrypt cannot write to a file named *.age (" + args.output + ")",
                "name the output *.pcrypt, or drop --format pcrypt to write an age file");
  if (age_name && format.empty()) format = "age";
  const bool age = format == "age";
  // pcrypt's own format unless age is asked for (--format is checked by the command line's parser).
  settings.format = age ? Format::age : Format::pcrypt;
  if (!format.empty() && !age && format != "pcrypt")
    throw Error(PCRYPT_E_BAD_ARGUMENT, "unknown format '" + format + "'", "use 'pcrypt' or 'age'");
  if (args.armor && !age)
    throw Error(PCRYPT_E_BAD_ARGUMENT, "-a/--armor is for age files", "add --format age");
  if (age && !args.chunk_size.empty())
    throw Error(PCRYPT_E_BAD_ARGUMENT, "--chunk-size cannot be used with --format age",
                "age's chunks are always 64 KiB");
  if (age && (!args.kdf_memory.empty() || !args.kdf_ops.empty()))
    throw Error(PCRYPT_E_BAD_ARGUMENT, "--kdf-memory/--kdf-ops cannot be used with --format age",
                "age passphrases use scrypt with age's work factor 2^18");
  settings.armor = args.armor;
  if (!args.chunk_size.empty()) settings.chunk_size = parse_chunk_size(args.chunk_size);
  settings.threads = parse_threads(args.threads);
  choices.session = chosen_session(args.engine);
  settings.session = choices.session.get();
  if (!args.kdf_memory.empty())
    settings.argon2id_memory_bytes = parse_kdf_memory(args.kdf_memory, "--kdf-memory");
  if (!args.kdf_ops.empty())
    settings.argon2id_passes =
        parse_count(args.kdf_ops, "--kdf-ops", limits::min_argon2id_passes, limits::max_argon2id_passes);
  return choices;
}

DecryptChoices decrypt_choices(const CryptArgs& args) {
  DecryptChoices choices;
  choices.run.threads = parse_threads(args.threads);
  choices.session = chosen_session(args.engine);
  choices.limits.session = choices.session.get();
  choices.run.session = choices.session.get();
  if (!args.max_kdf_memory.empty())
    choices.limits.max_argon2id_memory_bytes = parse_kdf_memory(args.max_kdf_memory, "--max-kdf-memory");
  if (!args.max_kdf_ops.empty())
    choices.limits.max_argon2id_passes = parse_count(
        args.max_kdf_ops, "--max-kdf-ops", limits::min_argon2id_passes, limits::max_argon2id_passes);
  if (!args.max_work_factor.empty())
    choices.limits.max_scrypt_log2 = static_cast<unsigned>(
        parse_count(args.max_work_factor, "--max-work-factor", 1, limits::max_scrypt_log2));
  return choices;
}

std::size_t parse_chunk_size(const std::string& text) {
  const std::uint64_t chunk = parse_size(text, "--chunk-size");
  if (chunk < limits::min_chunk_size || chunk > limits::max_chunk_size)
    throw Error(PCRYPT_E_BAD_ARGUMENT, "--chunk-size " + text + " is out of range",
                "the chunk size must be between " + format_bytes(limits::min_chunk_size) + " and " +
                    format_bytes(limits::max_chunk_size));
  return static_cast<std::size_t>(chunk);
}

}  // namespace pcrypt::app
