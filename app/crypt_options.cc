#include "app/crypt_options.h"

#include <limits>
#include <stdexcept>

#include "app/size_arg.h"
#include "core/error.h"
#include "core/pipeline_sizing.h"

namespace pcrypt::app {
namespace {

// FORMAT.md §3.1 bounds, checked here too so the message names the option.
constexpr std::uint64_t kMinChunk = 4 * 1024;
constexpr std::uint64_t kMaxChunk = 64 * 1024 * 1024;
constexpr std::uint64_t kMaxThreads = 1024;
// FORMAT.md §3.2: Argon2id passes and memory (in KiB) are uint32 fields; memory at least 8 KiB.
constexpr std::uint64_t kMinKdfMemory = 8 * 1024;
constexpr std::uint64_t kMaxKdfMemory = std::uint64_t{std::numeric_limits<std::uint32_t>::max()} * 1024;
constexpr std::uint64_t kMaxKdfOps = std::numeric_limits<std::uint32_t>::max();

unsigned parse_threads(const std::string& text) {
  if (text.empty()) return 0;
  return static_cast<unsigned>(parse_count(text, "--threads", 0, kMaxThreads));
}

std::uint64_t parse_kdf_memory(const std::string& text, const char* option) {
  const std::uint64_t bytes = parse_size(text, option);
  const std::string given = std::string(option) + " " + text;
  // Say which rule is broken: "9000" or "1MB" is a fine size, just not one Argon2id can take.
  if (bytes % 1024 != 0)
    throw core::Error(core::ErrorKind::usage,
                      given + " is not a whole number of KiB (" + std::to_string(bytes) + " bytes)",
                      "Argon2id memory is counted in KiB: use a multiple of 1024 bytes, e.g. 64MiB");
  if (bytes < kMinKdfMemory)
    throw core::Error(core::ErrorKind::usage, given + " is below the minimum of 8 KiB");
  if (bytes > kMaxKdfMemory)
    throw core::Error(core::ErrorKind::usage,
                      given + " is above the maximum of " + std::to_string(kMaxKdfMemory / 1024) + " KiB");
  return bytes;
}

}  // namespace

const aes::Engine& chosen_engine(const std::string& requested) {
  try {
    return aes::select_engine(requested);
  } catch (const std::invalid_argument& e) {
    throw core::Error(core::ErrorKind::usage, e.what(),
                      "'pcrypt --version' lists the engines this CPU supports");
  }
}

unsigned effective_threads(unsigned requested) {
  return core::pipeline_workers(requested);
}

core::EncryptOptions encrypt_options(const CryptArgs& args) {
  core::EncryptOptions options;
  if (!args.chunk_size.empty()) {
    const std::uint64_t chunk = parse_size(args.chunk_size, "--chunk-size");
    if (chunk < kMinChunk || chunk > kMaxChunk)
      throw core::Error(core::ErrorKind::usage, "--chunk-size " + args.chunk_size + " is out of range",
                        "the chunk size must be between 4KiB and 64MiB");
    options.chunk_size = static_cast<std::size_t>(chunk);
  }
  options.threads = parse_threads(args.threads);
  options.engine = &chosen_engine(args.engine);
  if (!args.kdf_memory.empty())
    options.kdf.memlimit_bytes = parse_kdf_memory(args.kdf_memory, "--kdf-memory");
  if (!args.kdf_ops.empty()) options.kdf.opslimit = parse_count(args.kdf_ops, "--kdf-ops", 1, kMaxKdfOps);
  return options;
}

core::DecryptOptions decrypt_options(const CryptArgs& args) {
  core::DecryptOptions options;
  options.threads = parse_threads(args.threads);
  options.engine = &chosen_engine(args.engine);
  if (!args.max_kdf_memory.empty())
    options.kdf_ceiling.memlimit_bytes = parse_kdf_memory(args.max_kdf_memory, "--max-kdf-memory");
  if (!args.max_kdf_ops.empty())
    options.kdf_ceiling.opslimit = parse_count(args.max_kdf_ops, "--max-kdf-ops", 1, kMaxKdfOps);
  return options;
}

}  // namespace pcrypt::app
