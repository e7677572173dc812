#include "app/crypt_options.h"

#include <stdexcept>

#include "app/environment.h"
#include "app/size_arg.h"
#include "core/byte_size.h"
#include "core/engine_choice.h"
#include "core/error.h"
#include "core/pcrypt/format.h"
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
  if (bytes / 1024 < core::kMinKdfMemoryKib)
    throw core::Error(core::ErrorKind::usage,
                      given + " is below the minimum of " +
                          core::format_bytes(std::uint64_t{core::kMinKdfMemoryKib} * 1024));
  if (bytes / 1024 > core::kMaxKdfMemoryKib)
    throw core::Error(core::ErrorKind::usage,
                      given + " is above the maximum of " + std::to_string(core::kMaxKdfMemoryKib) + " KiB");
  return bytes;
}

}  // namespace

const aes::Engine& chosen_engine(const std::string& option) {
  return core::choose_engine(requested_engine(option));
}

unsigned effective_threads(unsigned requested) {
  return core::pipeline_workers(requested);
}

core::EncryptOptions encrypt_options(const CryptArgs& args) {
  core::EncryptOptions options;
  if (!args.chunk_size.empty()) {
    const std::uint64_t chunk = core::parse_size(args.chunk_size, "--chunk-size");
    if (!core::chunk_size_in_range(chunk))
      throw core::Error(core::ErrorKind::usage, "--chunk-size " + args.chunk_size + " is out of range",
                        "the chunk size must be between " + core::format_bytes(core::kMinChunkSize) +
                            " and " + core::format_bytes(core::kMaxChunkSize));
    options.chunk_size = static_cast<std::size_t>(chunk);
  }
  options.threads = parse_threads(args.threads);
  options.engine = &chosen_engine(args.engine);
  if (!args.kdf_memory.empty())
    options.kdf.memlimit_bytes = parse_kdf_memory(args.kdf_memory, "--kdf-memory");
  if (!args.kdf_ops.empty())
    options.kdf.opslimit = parse_count(args.kdf_ops, "--kdf-ops", core::kMinKdfOps, core::kMaxKdfOps);
  return options;
}

core::DecryptOptions decrypt_options(const CryptArgs& args) {
  core::DecryptOptions options;
  options.threads = parse_threads(args.threads);
  options.engine = &chosen_engine(args.engine);
  if (!args.max_kdf_memory.empty())
    options.kdf_ceiling.memlimit_bytes = parse_kdf_memory(args.max_kdf_memory, "--max-kdf-memory");
  if (!args.max_kdf_ops.empty())
    options.kdf_ceiling.opslimit =
        parse_count(args.max_kdf_ops, "--max-kdf-ops", core::kMinKdfOps, core::kMaxKdfOps);
  return options;
}

bool encrypts_to_age(const CryptArgs& args) {
  const bool age = args.format == "age";
  if (args.armor && !age)
    throw core::Error(core::ErrorKind::usage, "-a/--armor is for age files", "add --format age");
  if (age && !args.chunk_size.empty())
    throw core::Error(core::ErrorKind::usage, "--chunk-size cannot be used with --format age",
                      "age's chunks are always 64 KiB");
  if (age && (!args.kdf_memory.empty() || !args.kdf_ops.empty()))
    throw core::Error(core::ErrorKind::usage, "--kdf-memory/--kdf-ops cannot be used with --format age",
                      "age passphrases use scrypt with age's work factor 2^18");
  return age;
}

core::age::EncryptOptions age_encrypt_options(const CryptArgs& args) {
  core::age::EncryptOptions options;
  options.threads = parse_threads(args.threads);
  return options;
}

core::age::DecryptOptions age_decrypt_options(const CryptArgs& args) {
  core::age::DecryptOptions options;
  options.threads = parse_threads(args.threads);
  if (!args.max_work_factor.empty())
    options.max_scrypt_log2 = static_cast<unsigned>(
        parse_count(args.max_work_factor, "--max-work-factor", 1, core::age::kMaxScryptLog2));
  return options;
}

}  // namespace pcrypt::app
