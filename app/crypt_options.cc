#include "app/crypt_options.h"

#include <pcrypt/pcrypt.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <utility>

#include "app/endpoints.h"
#include "app/environment.h"
#include "app/error_words.h"
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
    throw CliError(PCRYPT_E_BAD_ARGUMENT,
                   given + " is not a whole number of KiB (" + counted(bytes, "byte") + ")",
                   "Argon2id memory is counted in KiB: use a multiple of 1024 bytes, e.g. 64MiB");
  if (bytes / 1024 < limits::min_argon2id_memory_kib)
    throw CliError(PCRYPT_E_BAD_ARGUMENT,
                   given + " is below the minimum of " +
                       format_bytes(std::uint64_t{limits::min_argon2id_memory_kib} * 1024));
  if (bytes / 1024 > limits::max_argon2id_memory_kib)
    throw CliError(PCRYPT_E_BAD_ARGUMENT, given + " is above the maximum of " +
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
    throw CliError(PCRYPT_E_BAD_ARGUMENT,
                   "--format pcrypt cannot write to a file named *.age (" + args.output + ")",
                   "name the output *.pcrypt, or drop --format pcrypt to write an age file");
  if (age_name && format.empty()) format = "age";
  const bool age = format == "age";
  // pcrypt's own format unless age is asked for (--format is checked by the command line's parser).
  settings.format = age ? Format::age : Format::pcrypt;
  if (const std::optional<Format> cobblestone = cobblestone_format(format)) {
    settings.format = *cobblestone;
    if (args.armor) throw CliError(PCRYPT_E_FORMAT_OPTION, "-a/--armor is for age files, not " + format);
    if (!args.chunk_size.empty())
      throw CliError(PCRYPT_E_FORMAT_OPTION, "--chunk-size cannot be used with --format " + format,
                     "C2SP chunked encryption's chunks are always 16 KiB");
    if (!args.kdf_memory.empty() || !args.kdf_ops.empty())
      throw CliError(PCRYPT_E_FORMAT_OPTION, "--kdf-memory/--kdf-ops cannot be used with --format " + format,
                     format + " has no passphrases");
    choices.session = chosen_session(args.engine);
    settings.session = choices.session.get();
    settings.threads = parse_threads(args.threads);
    return choices;
  }
  if (!format.empty() && !age && format != "pcrypt")
    throw CliError(PCRYPT_E_BAD_ARGUMENT, "unknown format '" + format + "'", "use 'pcrypt' or 'age'");
  if (args.armor && !age)
    throw CliError(PCRYPT_E_BAD_ARGUMENT, "-a/--armor is for age files", "add --format age");
  if (age && !args.chunk_size.empty())
    throw CliError(PCRYPT_E_BAD_ARGUMENT, "--chunk-size cannot be used with --format age",
                   "age's chunks are always 64 KiB");
  if (age && (!args.kdf_memory.empty() || !args.kdf_ops.empty()))
    throw CliError(PCRYPT_E_BAD_ARGUMENT, "--kdf-memory/--kdf-ops cannot be used with --format age",
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

std::optional<Format> cobblestone_format(const std::string& name) {
  if (name == "cobblestone-128") return Format::cobblestone_128;
  if (name == "cobblestone-256") return Format::cobblestone_256;
  return std::nullopt;
}

void check_raw_key_options(const CryptArgs& args) {
  const bool cobblestone = cobblestone_format(args.format).has_value();
  const bool raw_options = !args.raw_key.empty() || args.context_given || !args.context_file.empty();
  if (!cobblestone) {
    if (raw_options)
      throw CliError(PCRYPT_E_BAD_ARGUMENT,
                     "--raw-key, --context and --context-file are for C2SP chunked encryption",
                     "add --format cobblestone-128 (or cobblestone-256)");
    return;
  }
  if (!args.key_files.empty() || !args.recipients.empty() || !args.recipient_files.empty() ||
      !args.identity_files.empty() || !args.plugin_names.empty() || args.passphrase ||
      !args.passphrase_file.empty())
    throw CliError(PCRYPT_E_CREDENTIAL_MIX,
                   args.format +
                       " has no recipients, passphrases, key files or identities: it is encrypted "
                       "with one raw key",
                   "give the key with --raw-key FILE (and --context TEXT if the application uses one)");
  if (args.raw_key.empty())
    throw CliError(PCRYPT_E_NO_CREDENTIAL, "--format " + args.format + " needs --raw-key FILE",
                   "make a key with `pcrypt keygen --raw " +
                       std::string(args.format.ends_with("128") ? "16" : "32") + " -o FILE`");
}

std::vector<std::uint8_t> context_bytes(const CryptArgs& args) {
  if (!args.context_file.empty()) {
    std::ifstream in(args.context_file, std::ios::binary);
    if (!in) {
      ErrorFields fields;
      fields.error_number = errno;
      throw CliError(PCRYPT_E_IO,
                     "cannot open context file " + args.context_file + ": " + std::strerror(errno), {},
                     std::move(fields));
    }
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw CliError(PCRYPT_E_IO, "cannot read context file " + args.context_file);
    return bytes;
  }
  if (!valid_utf8(args.context))
    throw CliError(PCRYPT_E_BAD_ARGUMENT, "--context is not valid UTF-8",
                   "give a context of arbitrary bytes with --context-file FILE");
  return {args.context.begin(), args.context.end()};
}

bool valid_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto b = static_cast<unsigned char>(text[i]);
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (b < 0x80) {
      ++i;
      continue;
    }
    if ((b & 0xe0) == 0xc0) {
      n = 1;
      cp = b & 0x1f;
    } else if ((b & 0xf0) == 0xe0) {
      n = 2;
      cp = b & 0x0f;
    } else if ((b & 0xf8) == 0xf0) {
      n = 3;
      cp = b & 0x07;
    } else {
      return false;
    }
    for (std::size_t k = 1; k <= n; ++k) {
      if (i + k >= text.size()) return false;
      const auto c = static_cast<unsigned char>(text[i + k]);
      if ((c & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (c & 0x3f);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
    const std::uint32_t min[] = {0, 0x80, 0x800, 0x10000};
    if (cp < min[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += n + 1;
  }
  return true;
}

std::size_t parse_chunk_size(const std::string& text) {
  const std::uint64_t chunk = parse_size(text, "--chunk-size");
  if (chunk < limits::min_chunk_size || chunk > limits::max_chunk_size)
    throw CliError(PCRYPT_E_BAD_ARGUMENT, "--chunk-size " + text + " is out of range",
                   "the chunk size must be between " + format_bytes(limits::min_chunk_size) + " and " +
                       format_bytes(limits::max_chunk_size));
  return static_cast<std::size_t>(chunk);
}

}  // namespace pcrypt::app
