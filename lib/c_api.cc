// The C API's foundation (include/pcrypt/pcrypt_c.h): errors per thread, sources, sinks, options and
// credentials, each a handle over its C++ counterpart.
#include <string.h>  // explicit_bzero

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <optional>
#include <span>

#include "lib/c_api_internal.h"

namespace pcrypt::c_api {
namespace {

struct LastError {
  pcrypt_code code = PCRYPT_E_NONE;
  std::string message;
  std::string hint;
  pcrypt::ErrorFields fields;
};

LastError& last_error() noexcept {
  thread_local LastError error;
  return error;
}

}  // namespace

int status_of(pcrypt_code code) noexcept {
  if (code == PCRYPT_E_NONE) return PCRYPT_OK;
  switch (pcrypt::kind_of(code)) {
    case pcrypt::ErrorKind::io:
      return PCRYPT_ERROR_IO;
    case pcrypt::ErrorKind::usage:
      return PCRYPT_ERROR_USAGE;
    case pcrypt::ErrorKind::wrong_credential:
      return PCRYPT_ERROR_WRONG_CREDENTIAL;
    case pcrypt::ErrorKind::damaged_header:
      return PCRYPT_ERROR_DAMAGED_HEADER;
    case pcrypt::ErrorKind::damaged_payload:
      return PCRYPT_ERROR_DAMAGED_PAYLOAD;
  }
  return PCRYPT_ERROR_IO;
}

pcrypt::ErrorFields errno_fields(int error_number) {
  pcrypt::ErrorFields fields;
  fields.error_number = error_number;
  return fields;
}

int fail(pcrypt_code code, const char* message, const char* hint, int error_number) noexcept {
  LastError& error = last_error();
  error.code = code;
  error.fields.numbers.clear();  // clear() keeps the capacity: no allocation
  error.fields.stanza_types.clear();
  error.fields.path.clear();
  error.fields.error_number = error_number;
  try {
    error.message = message;
    error.hint = hint;
  } catch (...) {
    error.message.clear();
    error.hint.clear();
  }
  return status_of(code);
}

int fail(const pcrypt::Error& e) noexcept {
  const int status = fail(e.code(), e.what(), e.hint().c_str(), e.error_number());
  try {
    last_error().fields = e.fields();
  } catch (...) {  // out of memory: the code, message and errno are kept
  }
  return status;
}

int with_callback_errno(int status, const pcrypt_source* source, const pcrypt_sink* sink) noexcept {
  LastError& error = last_error();
  if (status != PCRYPT_ERROR_IO || error.fields.error_number != 0) return status;
  for (const CallbackErrno* recorded :
       {source ? &source->callback_errno : nullptr, sink ? &sink->callback_errno : nullptr})
    if (recorded != nullptr && recorded->recorded() != 0) {
      error.fields.error_number = recorded->recorded();
      if (error.code == PCRYPT_E_IO || error.code == PCRYPT_E_INTERNAL) error.code = PCRYPT_E_CALLBACK;
    }
  return status;
}

void require(const void* argument, const char* what) {
  if (argument == nullptr) throw pcrypt::Error(PCRYPT_E_NULL_ARGUMENT, std::string(what) + " is NULL");
}

pcrypt::Source take(pcrypt_source* source) {
  require(source, "the source");
  if (!source->source)
    throw pcrypt::Error(PCRYPT_E_WRONG_ORDER, "the source was used already: a source serves one call");
  pcrypt::Source taken = std::move(*source->source);
  source->source.reset();
  return taken;
}

pcrypt::Sink take(pcrypt_sink* sink) {
  require(sink, "the sink");
  if (!sink->sink)
    throw pcrypt::Error(PCRYPT_E_WRONG_ORDER, "the sink was used already: a sink serves one call");
  pcrypt::Sink taken = std::move(*sink->sink);
  sink->sink.reset();
  return taken;
}

namespace {

std::function<void(std::uint64_t)> progress_of(const pcrypt_options* options) {
  if (options == nullptr || options->progress == nullptr) return {};
  return [fn = options->progress, user = options->progress_user](std::uint64_t done) { fn(user, done); };
}

}  // namespace

pcrypt::RunOptions run_options(const pcrypt_options* options) {
  pcrypt::RunOptions run;
  if (options != nullptr) run.threads = options->encrypt.threads;
  run.progress = progress_of(options);
  return run;
}

pcrypt::Format format_of(std::uint64_t value, const char* what) {
  switch (value) {
    case PCRYPT_FORMAT_PCRYPT:
      return pcrypt::Format::pcrypt;
    case PCRYPT_FORMAT_AGE:
      return pcrypt::Format::age;
    case PCRYPT_FORMAT_COBBLESTONE_128:
      return pcrypt::Format::cobblestone_128;
    case PCRYPT_FORMAT_COBBLESTONE_256:
      return pcrypt::Format::cobblestone_256;
    default:
      throw pcrypt::Error(PCRYPT_E_BAD_ARGUMENT,
                          std::string(what) + " " + std::to_string(value) + " is out of range");
  }
}

pcrypt_format c_format(pcrypt::Format format) {
  switch (format) {
    case pcrypt::Format::age:
      return PCRYPT_FORMAT_AGE;
    case pcrypt::Format::cobblestone_128:
      return PCRYPT_FORMAT_COBBLESTONE_128;
    case pcrypt::Format::cobblestone_256:
      return PCRYPT_FORMAT_COBBLESTONE_256;
    case pcrypt::Format::pcrypt:
      break;
  }
  return PCRYPT_FORMAT_PCRYPT;
}

namespace {

std::span<const std::uint8_t> context_bytes(const void* context, std::size_t context_size) {
  if (context_size == 0) return {};
  require(context, "the context");
  return {static_cast<const std::uint8_t*>(context), context_size};
}

}  // namespace

void add_raw_key(std::unique_ptr<pcrypt::Keys>& keys, const void* key, std::size_t key_size,
                 const void* context, std::size_t context_size) {
  require(key, "the raw key");
  const std::span<const std::uint8_t> bytes(static_cast<const std::uint8_t*>(key), key_size);
  if (!keys) keys = std::make_unique<pcrypt::Keys>();
  keys->add_raw_key(pcrypt::SecretBytes(bytes), context_bytes(context, context_size));
}

void add_raw_key_file(std::unique_ptr<pcrypt::Keys>& keys, const char* path, const void* context,
                      std::size_t context_size) {
  require(path, "the path");
  if (!keys) keys = std::make_unique<pcrypt::Keys>();
  keys->add_raw_key_file(path, context_bytes(context, context_size));
}

pcrypt::EncryptOptions encrypt_options(const pcrypt_options* options) {
  pcrypt::EncryptOptions out = options != nullptr ? options->encrypt : pcrypt::EncryptOptions{};
  out.progress = progress_of(options);
  return out;
}

void put_transfer(const pcrypt::Transfer& from, pcrypt_transfer* to) {
  if (to != nullptr)
    *to = pcrypt_transfer{from.plaintext_bytes, from.encrypted_bytes, from.header_bytes, from.chunks};
}

}  // namespace pcrypt::c_api

void WipedString::wipe() noexcept {
  explicit_bzero(text_.data(), text_.size());
  text_.clear();
}

using pcrypt::c_api::enum_bits;
using pcrypt::c_api::guarded;
using pcrypt::c_api::make_handle;
using pcrypt::c_api::require;

// ---- Errors and version

const char* pcrypt_error_message(void) {
  return pcrypt::c_api::last_error().message.c_str();
}

const char* pcrypt_error_hint(void) {
  return pcrypt::c_api::last_error().hint.c_str();
}

int pcrypt_error_errno(void) {
  return pcrypt::c_api::last_error().fields.error_number;
}

int pcrypt_error_status(void) {
  return pcrypt::c_api::status_of(pcrypt::c_api::last_error().code);
}

int pcrypt_error_code(void) {
  return pcrypt::c_api::last_error().code;
}

namespace {

#define PCRYPT_CODE_NUMBER_(name, number, description) , number
constexpr int kLargestCode = std::max({0 PCRYPT_ERROR_CODES(PCRYPT_CODE_NUMBER_)});
#undef PCRYPT_CODE_NUMBER_

// A caller's number as a code, or nullopt: pcrypt_code has no fixed underlying type, so converting a number
// outside its range (negative, or past the bits its largest code needs) would be undefined behaviour, which
// UBSan aborts on (fuzz_c_api_calls found it with -1).
std::optional<pcrypt_code> code_of(int number) {
  if (number < 0 || number > kLargestCode) return std::nullopt;
  return static_cast<pcrypt_code>(number);
}

}  // namespace

const char* pcrypt_error_code_name(int code) {
  const std::optional<pcrypt_code> known = code_of(code);
  return known ? pcrypt::error_code_name(*known) : "";
}

int pcrypt_error_code_status(int code) {
  const std::optional<pcrypt_code> known = code_of(code);
  if (!known || *pcrypt::error_code_name(*known) == '\0') return PCRYPT_ERROR_USAGE;
  return pcrypt::c_api::status_of(*known);
}

int pcrypt_error_field(int field, uint64_t* value) {
  for (const auto& [which, number] : pcrypt::c_api::last_error().fields.numbers)
    if (which == field) {
      if (value != nullptr) *value = number;
      return 1;
    }
  return 0;
}

const char* pcrypt_error_path(void) {
  return pcrypt::c_api::last_error().fields.path.c_str();
}

size_t pcrypt_error_stanza_type_count(void) {
  return pcrypt::c_api::last_error().fields.stanza_types.size();
}

const char* pcrypt_error_stanza_type(size_t index) {
  const std::vector<std::string>& types = pcrypt::c_api::last_error().fields.stanza_types;
  return index < types.size() ? types[index].c_str() : nullptr;
}

const char* pcrypt_status_name(int status) {
  switch (status) {
    case PCRYPT_OK:
      return "ok";
    case PCRYPT_ERROR_IO:
      return "io";
    case PCRYPT_ERROR_USAGE:
      return "usage";
    case PCRYPT_ERROR_WRONG_CREDENTIAL:
      return "wrong credential";
    case PCRYPT_ERROR_DAMAGED_HEADER:
      return "damaged header";
    case PCRYPT_ERROR_DAMAGED_PAYLOAD:
      return "damaged payload";
    default:
      return "unknown status";
  }
}

const char* pcrypt_version(void) {
  // pcrypt::version() is a std::string: made once, kept for the process (a static string for C).
  static const std::string version = [] {
    try {
      return pcrypt::version();
    } catch (...) {
      return std::string();
    }
  }();
  return version.c_str();
}

// ---- Sources

namespace {

// The largest errno a callback may return negated, as the kernel's system calls do (-4095 .. -1).
constexpr std::int64_t kMaxErrno = 4095;

// The errno a callback's failing result stands for: -result when it is a negated errno, else EIO (a result
// that is no errno: INT64_MIN, whose negation overflows, -2^32, whose errno would be 0, "Success"; a write
// callback's positive result).
int errno_of_callback_result(std::int64_t result) {
  return result < 0 && result >= -kMaxErrno ? static_cast<int>(-result) : EIO;
}

std::string callback_failure_words(std::int64_t result, int error_number) {
  if (result < 0 && result >= -kMaxErrno) return std::strerror(error_number);
  return "it returned " + std::to_string(result) + ", which is neither a byte count nor a negative errno";
}

}  // namespace

pcrypt_source* pcrypt_source_path(const char* path) {
  return make_handle<pcrypt_source>([&] {
    require(path, "the path");
    return new pcrypt_source(pcrypt::Source::path(path));
  });
}

pcrypt_source* pcrypt_source_fd(int fd) {
  return make_handle<pcrypt_source>([&] { return new pcrypt_source(pcrypt::Source::fd(fd)); });
}

pcrypt_source* pcrypt_source_memory(const void* data, size_t size) {
  return make_handle<pcrypt_source>([&] {
    if (size > 0) require(data, "the source's bytes");
    return new pcrypt_source(pcrypt::Source::memory({static_cast<const std::uint8_t*>(data), size}));
  });
}

pcrypt_source* pcrypt_source_callback(uint64_t size, pcrypt_read_at_fn read_at, void* user) {
  return make_handle<pcrypt_source>([&] {
    require(reinterpret_cast<const void*>(read_at), "the read-at callback");
    const CallbackErrno recorded = CallbackErrno::make();
    auto reader = [read_at, user, recorded](std::uint64_t offset,
                                            std::span<std::uint8_t> buffer) -> std::size_t {
      const std::int64_t filled = read_at(user, offset, buffer.data(), buffer.size());
      if (filled < 0) {
        const int error_number = errno_of_callback_result(filled);
        recorded.record(error_number);
        throw pcrypt::Error(PCRYPT_E_CALLBACK,
                            "the read-at callback failed at offset " + std::to_string(offset) + ": " +
                                callback_failure_words(filled, error_number),
                            {}, pcrypt::c_api::errno_fields(error_number));
      }
      if (static_cast<std::uint64_t>(filled) > buffer.size())
        throw pcrypt::Error(PCRYPT_E_CALLBACK, "the read-at callback returned " + std::to_string(filled) +
                                                   " bytes for a buffer of " + std::to_string(buffer.size()));
      return static_cast<std::size_t>(filled);
    };
    return new pcrypt_source(pcrypt::Source::callback(size, reader), recorded);
  });
}

void pcrypt_source_free(pcrypt_source* source) {
  delete source;
}

// ---- Sinks

pcrypt_sink* pcrypt_sink_path(const char* path, int overwrite) {
  return make_handle<pcrypt_sink>([&] {
    require(path, "the path");
    return new pcrypt_sink(pcrypt::Sink::path(path, overwrite != 0));
  });
}

pcrypt_sink* pcrypt_sink_fd(int fd) {
  return make_handle<pcrypt_sink>([&] { return new pcrypt_sink(pcrypt::Sink::fd(fd)); });
}

pcrypt_sink* pcrypt_sink_memory(void) {
  return make_handle<pcrypt_sink>([&] {
    auto* made = new pcrypt_sink();
    made->is_memory = true;
    made->sink.emplace(pcrypt::Sink::memory(made->memory));  // the handle's vector: its address is stable
    return made;
  });
}

pcrypt_sink* pcrypt_sink_callback(pcrypt_write_fn write, void* user) {
  return make_handle<pcrypt_sink>([&] {
    require(reinterpret_cast<const void*>(write), "the write callback");
    const CallbackErrno recorded = CallbackErrno::make();
    auto writer = [write, user, recorded](std::span<const std::uint8_t> piece) {
      const int result = write(user, piece.data(), piece.size());
      if (result != 0) {
        const int error_number = errno_of_callback_result(result);
        recorded.record(error_number);
        throw pcrypt::Error(PCRYPT_E_CALLBACK,
                            "the write callback failed: " + callback_failure_words(result, error_number), {},
                            pcrypt::c_api::errno_fields(error_number));
      }
    };
    return new pcrypt_sink(pcrypt::Sink::callback(writer), recorded);
  });
}

const uint8_t* pcrypt_sink_memory_data(const pcrypt_sink* sink, size_t* size) {
  const bool memory = sink != nullptr && sink->is_memory;
  if (size != nullptr) *size = memory ? sink->memory.size() : 0;
  return memory ? sink->memory.data() : nullptr;
}

void pcrypt_sink_free(pcrypt_sink* sink) {
  delete sink;
}

// ---- Options

pcrypt_options* pcrypt_options_new(void) {
  return make_handle<pcrypt_options>([] { return new pcrypt_options{}; });
}

int pcrypt_options_set(pcrypt_options* options, pcrypt_option option, uint64_t value) {
  return guarded([&] {
    require(options, "the options");
    auto out_of_range = [&](const char* what) {
      throw pcrypt::Error(PCRYPT_E_BAD_ARGUMENT,
                          std::string(what) + " " + std::to_string(value) + " is out of range");
    };
    const auto raw = enum_bits(option);
    switch (raw) {
      case PCRYPT_OPTION_THREADS:
        if (value > pcrypt::limits::max_threads) out_of_range("PCRYPT_OPTION_THREADS");
        options->encrypt.threads = static_cast<unsigned>(value);
        return;
      case PCRYPT_OPTION_FORMAT:
        options->encrypt.format = pcrypt::c_api::format_of(value, "PCRYPT_OPTION_FORMAT");
        return;
      case PCRYPT_OPTION_ARMOR:
        if (value > 1) out_of_range("PCRYPT_OPTION_ARMOR");
        options->encrypt.armor = value == 1;
        return;
      case PCRYPT_OPTION_CHUNK_SIZE:
        if (value < pcrypt::limits::min_chunk_size || value > pcrypt::limits::max_chunk_size)
          out_of_range("PCRYPT_OPTION_CHUNK_SIZE");
        options->encrypt.chunk_size = static_cast<std::size_t>(value);
        return;
      case PCRYPT_OPTION_ARGON2ID_MEMORY:
        options->encrypt.argon2id_memory_bytes = value;
        return;
      case PCRYPT_OPTION_ARGON2ID_PASSES:
        options->encrypt.argon2id_passes = value;
        return;
    }
    throw pcrypt::Error(PCRYPT_E_BAD_ARGUMENT, "unknown option " + std::to_string(raw));
  });
}

int pcrypt_options_set_progress(pcrypt_options* options, pcrypt_progress_fn progress, void* user) {
  return guarded([&] {
    require(options, "the options");
    options->progress = progress;
    options->progress_user = user;
  });
}

void pcrypt_options_free(pcrypt_options* options) {
  delete options;
}

// ---- Credentials

pcrypt_credentials* pcrypt_credentials_new(void) {
  return make_handle<pcrypt_credentials>([] { return new pcrypt_credentials{}; });
}

int pcrypt_credentials_add_identity_file(pcrypt_credentials* credentials, const char* path) {
  return guarded([&] {
    require(credentials, "the credentials");
    require(path, "the path");
    credentials->identity_files.emplace_back(path);
  });
}

int pcrypt_credentials_add_identity(pcrypt_credentials* credentials, const char* text) {
  return guarded([&] {
    require(credentials, "the credentials");
    require(text, "the identity text");
    credentials->identities.emplace_back(std::string(text));
  });
}

int pcrypt_credentials_add_key_file(pcrypt_credentials* credentials, const char* path) {
  return guarded([&] {
    require(credentials, "the credentials");
    require(path, "the path");
    credentials->key_files.emplace_back(path);
  });
}

int pcrypt_credentials_set_passphrase(pcrypt_credentials* credentials, const char* passphrase) {
  return guarded([&] {
    require(credentials, "the credentials");
    require(passphrase, "the passphrase");
    if (*passphrase == '\0') throw pcrypt::Error(PCRYPT_E_EMPTY_PASSPHRASE, "the passphrase is empty");
    credentials->passphrase.emplace(std::string(passphrase));
  });
}

int pcrypt_credentials_add_raw_key(pcrypt_credentials* credentials, const void* key, size_t key_size,
                                   const void* context, size_t context_size) {
  return guarded([&] {
    require(credentials, "the credentials");
    pcrypt::c_api::add_raw_key(credentials->raw_keys, key, key_size, context, context_size);
  });
}

int pcrypt_credentials_add_raw_key_file(pcrypt_credentials* credentials, const char* path,
                                        const void* context, size_t context_size) {
  return guarded([&] {
    require(credentials, "the credentials");
    pcrypt::c_api::add_raw_key_file(credentials->raw_keys, path, context, context_size);
  });
}

int pcrypt_credentials_set_passphrase_callback(pcrypt_credentials* credentials,
                                               pcrypt_passphrase_fn passphrase, void* user) {
  return guarded([&] {
    require(credentials, "the credentials");
    credentials->passphrase_callback = passphrase;
    credentials->passphrase_user = user;
  });
}

int pcrypt_credentials_set_limit(pcrypt_credentials* credentials, pcrypt_limit limit, uint64_t value) {
  return guarded([&] {
    require(credentials, "the credentials");
    const auto raw = enum_bits(limit);
    switch (raw) {
      case PCRYPT_LIMIT_SCRYPT_LOG2:
        if (value > pcrypt::limits::max_scrypt_log2)
          throw pcrypt::Error(PCRYPT_E_BAD_ARGUMENT, "PCRYPT_LIMIT_SCRYPT_LOG2 " + std::to_string(value) +
                                                         " is above " +
                                                         std::to_string(pcrypt::limits::max_scrypt_log2));
        credentials->max_scrypt_log2 = static_cast<unsigned>(value);
        return;
      case PCRYPT_LIMIT_ARGON2ID_MEMORY:
        credentials->max_argon2id_memory_bytes = value;
        return;
      case PCRYPT_LIMIT_ARGON2ID_PASSES:
        credentials->max_argon2id_passes = value;
        return;
    }
    throw pcrypt::Error(PCRYPT_E_BAD_ARGUMENT, "unknown limit " + std::to_string(raw));
  });
}

void pcrypt_credentials_free(pcrypt_credentials* credentials) {
  delete credentials;
}
