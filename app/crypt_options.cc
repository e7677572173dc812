#include "app/crypt_options.h"

#include <stdexcept>
#include <string>

#include "app/endpoints.h"
#include "app/environment.h"
#include "app/size_arg.h"
#include "core/byte_size.h"
#include "core/door/limits.h"
#include "core/engine_choice.h"
#include "core/error.h"
#include "core/pipeline.h"

namespace pcrypt::app {
namespace {

// The format's chunk and Argon2id bounds (core/pcrypt/format.h) are checked here too, so the message names
// the option.
constexpr std::uint64_t kMaxThreads = 1024;

unsigned parse_threads(const std::string& text) {
  if (text.empty()) return 0;
  return static_cast<unsigned>(parse_count(text, "--threads", 0, kMaxThreads));
}

std::uint64_t parse_kdf_memory(const std::string& text, const char* option) {
  const std::uint64_t bytes = core::parse_size(text, option);
  const std::string given = std::string(option) + " " + text;
  // Say which rule is broken: "9000" or "1MB" is a fine size, just not one Argon2id can take.
  if (bytes % 1024 != 0)
    throw core::Error(core::ErrorKind::usage,
                      given + " is not a whole number of KiB (" + std::to_string(bytes) + " bytes)",
                      "Argon2id memory is counted in KiB: use a multiple of 1024 bytes, e.g. 64MiB");
  if (bytes / 1024 < core::door::kMinKdfMemoryKib)
    throw core::Error(core::ErrorKind::usage,
                      given + " is below the minimum of " +
                          core::format_bytes(std::uint64_t{core::door::kMinKdfMemoryKib} * 1024));
  if (bytes / 1024 > core::door::kMaxKdfMemoryKib)
    throw core::Error(core::ErrorKind::usage, given + " is above the maximum of " +
                                                  std::to_string(core::door::kMaxKdfMemoryKib) + " KiB");
  return bytes;
}

}  // namespace

const aes::Engine& chosen_engine(const std::string& option) {
  return core::choose_engine(requested_engine(option));
}

unsigned effective_threads(unsigned requested) {
  return core::pipeline_workers(requested);
}

EncryptChoices encrypt_choices(const CryptArgs& args) {
  EncryptChoices choices;
  core::door::EncryptSettings& settings = choices.settings;
  // An output named *.age is an age file: without --format it selects age's format, and pcrypt's format
  // under that name (which age would then refuse) is a usage error.
  std::string format = args.format;
  const bool age_name =
      args.output_given && !is_standard_stream(args.output) && args.output.ends_with(".age");
  if (age_name && format == "pcrypt")
    throw core::Error(core::ErrorKind::usage,
                      "--format pcrypt cannot write to a file named *.age (" + args.output + ")",
                      "name the output *.pcrypt, or drop --format pcrypt to write an age file");
  if (age_name && format.empty()) format = "age";
  const bool age = format == "age";
  if (!format.empty()) settings.file.format = core::door::parse_format(format);
  if (args.armor && !age)
    throw core::Error(core::ErrorKind::usage, "-a/--armor is for age files", "add --format age");
  if (age && !args.chunk_size.empty())
    throw core::Error(core::ErrorKind::usage, "--chunk-size cannot be used with --format age",
                      "age's chunks are always 64 KiB");
  if (age && (!args.kdf_memory.empty() || !args.kdf_ops.empty()))
    throw core::Error(core::ErrorKind::usage, "--kdf-memory/--kdf-ops cannot be used with --format age",
                      "age passphrases use scrypt with age's work factor 2^18");
  settings.armor = args.armor;
  if (!args.chunk_size.empty()) settings.file.chunk_size = parse_chunk_size(args.chunk_size);
  choices.run.threads = parse_threads(args.threads);
  settings.file.engine = &chosen_engine(args.engine);
  if (!args.kdf_memory.empty())
    settings.file.argon2id.memlimit_bytes = parse_kdf_memory(args.kdf_memory, "--kdf-memory");
  if (!args.kdf_ops.empty())
    settings.file.argon2id.opslimit =
        parse_count(args.kdf_ops, "--kdf-ops", core::door::kMinKdfOps, core::door::kMaxKdfOps);
  return choices;
}

DecryptChoices decrypt_choices(const CryptArgs& args) {
  DecryptChoices choices;
  choices.run.threads = parse_threads(args.threads);
  choices.limits.engine = &chosen_engine(args.engine);
  if (!args.max_kdf_memory.empty())
    choices.limits.argon2id_ceiling.memlimit_bytes =
        parse_kdf_memory(args.max_kdf_memory, "--max-kdf-memory");
  if (!args.max_kdf_ops.empty())
    choices.limits.argon2id_ceiling.opslimit =
        parse_count(args.max_kdf_ops, "--max-kdf-ops", core::door::kMinKdfOps, core::door::kMaxKdfOps);
  if (!args.max_work_factor.empty())
    choices.limits.max_scrypt_log2 = static_cast<unsigned>(
        parse_count(args.max_work_factor, "--max-work-factor", 1, core::door::kMaxScryptLog2));
  return choices;
}

std::size_t parse_chunk_size(const std::string& text) {
  const std::uint64_t chunk = core::parse_size(text, "--chunk-size");
  if (!core::door::chunk_size_in_range(chunk))
    throw core::Error(core::ErrorKind::usage, "--chunk-size " + text + " is out of range",
                      "the chunk size must be between " + core::format_bytes(core::door::kMinChunkSize) +
                          " and " + core::format_bytes(core::door::kMaxChunkSize));
  return static_cast<std::size_t>(chunk);
}

}  // namespace pcrypt::app
