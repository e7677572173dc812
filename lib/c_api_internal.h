// What the C API's files (lib/c_api*.cc) share: the handles' definitions and the guard every C entry point
// runs its body in. The C layer is a client of the public C++ API (<pcrypt/pcrypt.h>) like any other: it
// includes nothing of core/ or io/, so that the C and C++ APIs cannot drift apart.
#pragma once

#define PCRYPT_BUILDING_LIBRARY
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "pcrypt/encryptor.h"
#include "pcrypt/pcrypt.h"
#include "pcrypt/pcrypt_c.h"
#include "pcrypt/reader.h"

// A callback's failure as its errno, recorded by the callback's adapter: whole-file calls report a callback's
// exception as an io error of their own, without its errno, which the C layer then restores from here. Shared
// by the adapter (inside the C++ source or sink, which may outlive the C handle) and the handles; counted by
// hand, not a std::shared_ptr, whose control block's type information would be exported from the library.
class CallbackErrno {
 public:
  CallbackErrno() = default;
  static CallbackErrno make() {
    CallbackErrno made;
    made.cell_ = new Cell;
    return made;
  }
  CallbackErrno(const CallbackErrno& other) noexcept : cell_(other.cell_) {
    if (cell_ != nullptr) cell_->references.fetch_add(1, std::memory_order_relaxed);
  }
  CallbackErrno& operator=(const CallbackErrno& other) noexcept {
    CallbackErrno copy(other);
    std::swap(cell_, copy.cell_);
    return *this;
  }
  ~CallbackErrno() {
    if (cell_ != nullptr && cell_->references.fetch_sub(1, std::memory_order_acq_rel) == 1) delete cell_;
  }
  void record(int error_number) const noexcept {
    if (cell_ != nullptr) cell_->error_number.store(error_number);
  }
  int recorded() const noexcept { return cell_ != nullptr ? cell_->error_number.load() : 0; }

 private:
  struct Cell {
    std::atomic<int> error_number{0};
    std::atomic<int> references{1};
  };
  Cell* cell_ = nullptr;
};

struct pcrypt_source {
  explicit pcrypt_source(std::optional<pcrypt::Source> made, CallbackErrno recorded = {})
      : source(std::move(made)), callback_errno(std::move(recorded)) {}
  std::optional<pcrypt::Source> source;  // empty once a call has used it
  CallbackErrno callback_errno;          // a callback source's
};

struct pcrypt_sink {
  pcrypt_sink() = default;
  explicit pcrypt_sink(std::optional<pcrypt::Sink> made, CallbackErrno recorded = {})
      : sink(std::move(made)), callback_errno(std::move(recorded)) {}
  std::optional<pcrypt::Sink> sink;  // empty once a call has used it
  CallbackErrno callback_errno;      // a callback sink's
  bool is_memory = false;
  std::vector<std::uint8_t> memory;  // a memory sink's bytes (Sink::memory appends here)
};

// The C++ options themselves, so that their defaults are written once (EncryptOptions'); RunOptions are made
// of the same fields.
struct pcrypt_options {
  pcrypt::EncryptOptions encrypt;
  pcrypt_progress_fn progress = nullptr;
  void* progress_user = nullptr;
};

// A string whose bytes are wiped when it is destroyed or replaced: passphrases and identity text.
class WipedString {
 public:
  WipedString() = default;
  explicit WipedString(std::string text) : text_(std::move(text)) {}
  WipedString(const WipedString&) = delete;
  WipedString& operator=(const WipedString&) = delete;
  WipedString(WipedString&& other) noexcept : text_(std::move(other.text_)) { other.wipe(); }
  WipedString& operator=(WipedString&& other) noexcept {
    if (this != &other) {
      wipe();
      text_ = std::move(other.text_);
      other.wipe();
    }
    return *this;
  }
  ~WipedString() { wipe(); }
  const std::string& text() const { return text_; }
  void wipe() noexcept;

 private:
  std::string text_;
};

struct pcrypt_credentials {
  std::vector<std::string> identity_files;
  std::vector<WipedString> identities;
  std::vector<std::string> key_files;
  std::optional<WipedString> passphrase;
  pcrypt_passphrase_fn passphrase_callback = nullptr;
  void* passphrase_user = nullptr;
  unsigned max_scrypt_log2 = 0;
  std::uint64_t max_argon2id_memory_bytes = 0;
  std::uint64_t max_argon2id_passes = 0;
  std::unique_ptr<pcrypt::Keys> raw_keys;  // the Cobblestone formats' raw keys, in guarded memory
};

struct pcrypt_file {
  pcrypt_file(pcrypt::File opened, CallbackErrno recorded)
      : file(std::move(opened)), description(file->describe()), source{std::nullopt, std::move(recorded)} {}
  std::optional<pcrypt::File> file;  // empty once a reader has taken it
  pcrypt::Description description;   // kept for the getters, a reader or not
  pcrypt_source source;              // no source (the File has it), only its callback's errno
  std::string info;                  // the last pcrypt_file_info() text
};

struct pcrypt_reader {
  pcrypt_reader(pcrypt::Reader made, CallbackErrno recorded)
      : reader(std::move(made)), source{std::nullopt, std::move(recorded)} {}
  pcrypt::Reader reader;
  pcrypt_source source;  // no source (the Reader has it), only its callback's errno
};

struct pcrypt_recipients {
  pcrypt::Recipients to;
  std::optional<WipedString> passphrase;
  std::unique_ptr<pcrypt::Keys> raw_keys;  // the Cobblestone formats' raw keys, in guarded memory
};

struct pcrypt_rekey {
  pcrypt::RekeyRequest request;
  std::optional<WipedString> add_passphrase;
};

struct pcrypt_encryptor {
  pcrypt_encryptor(pcrypt::Encryptor made, CallbackErrno recorded)
      : encryptor(std::move(made)), sink{std::nullopt, std::move(recorded)} {}
  pcrypt::Encryptor encryptor;
  pcrypt_sink sink;  // no sink, only its callback's errno
};

struct pcrypt_key {
  WipedString text;
  std::string recipient;
};

namespace pcrypt::c_api {

// The integer a C caller passed for an enum parameter. C may pass any int there (an option a later library
// knows, a cast), while C++ makes loading an enum object whose value lies outside its enumerators' range
// undefined (UBSan: "not a valid value for type"): the parameter's bytes are read as its underlying integer
// instead, and the callers switch on that.
template <typename Enum>
std::underlying_type_t<Enum> enum_bits(const Enum& value) noexcept {
  std::underlying_type_t<Enum> bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// Records a failure as this thread's last error and returns its status. Never throws: without memory for
// the message, the message says so.
int fail(pcrypt_code code, const char* message, const char* hint = "", int error_number = 0) noexcept;
// Fields with just an errno.
pcrypt::ErrorFields errno_fields(int error_number);
// The status a code is grouped under (PCRYPT_OK for PCRYPT_E_NONE).
int status_of(pcrypt_code code) noexcept;
int fail(const pcrypt::Error& error) noexcept;

// Runs `body` (which returns nothing) and turns whatever it throws into a status: the one place where C++
// exceptions stop.
template <typename Body>
int guarded(Body&& body) noexcept {
  try {
    std::forward<Body>(body)();
    return PCRYPT_OK;
  } catch (const pcrypt::Error& e) {
    return fail(e);
  } catch (const std::bad_alloc&) {
    return fail(PCRYPT_E_OUT_OF_MEMORY, "out of memory", "", ENOMEM);
  } catch (const std::exception& e) {
    return fail(PCRYPT_E_INTERNAL, e.what());
  } catch (...) {
    return fail(PCRYPT_E_INTERNAL, "an unknown failure");
  }
}

// Allocates a handle, or records the failure and returns nullptr.
template <typename Handle, typename Make>
Handle* make_handle(Make&& make) noexcept {
  Handle* made = nullptr;
  guarded([&] { made = std::forward<Make>(make)(); });
  return made;
}

// `status`, with this thread's last error given the errno a callback of `source` or `sink` (either may be
// NULL) recorded when it failed, where the error has none.
int with_callback_errno(int status, const pcrypt_source* source, const pcrypt_sink* sink) noexcept;

// The opened file: PCRYPT_E_NULL_ARGUMENT (or PCRYPT_E_WRONG_ORDER) when `file` is NULL or a reader has taken
// it.
pcrypt::File& opened(pcrypt_file* file);
const pcrypt::File& opened(const pcrypt_file* file);

// PCRYPT_E_NULL_ARGUMENT naming the argument, for a NULL where a handle or a string is needed.
void require(const void* argument, const char* what);

// The source or sink a call uses up: PCRYPT_E_NULL_ARGUMENT (or PCRYPT_E_WRONG_ORDER) when it is NULL or was
// used already.
pcrypt::Source take(pcrypt_source* source);
pcrypt::Sink take(pcrypt_sink* sink);

// The C++ options a call takes (defaults for NULL).
pcrypt::RunOptions run_options(const pcrypt_options* options);
pcrypt::EncryptOptions encrypt_options(const pcrypt_options* options);

void put_transfer(const pcrypt::Transfer& from, pcrypt_transfer* to);

// A pcrypt_format's value as the C++ API's Format (PCRYPT_E_BAD_ARGUMENT naming `what` for another), and
// back.
pcrypt::Format format_of(std::uint64_t value, const char* what);
pcrypt_format c_format(pcrypt::Format format);

// A Cobblestone raw key (and its context) added to `keys`, made at the first.
void add_raw_key(std::unique_ptr<pcrypt::Keys>& keys, const void* key, std::size_t key_size,
                 const void* context, std::size_t context_size);
void add_raw_key_file(std::unique_ptr<pcrypt::Keys>& keys, const char* path, const void* context,
                      std::size_t context_size);

}  // namespace pcrypt::c_api
