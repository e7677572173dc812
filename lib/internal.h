// What the library's files share (lib/*.cc, one per concern: errors, sources and sinks, keys, the opened
// file, encrypt, the encryptor, the reader, the session): the public classes' hidden parts and the one way
// a core error becomes a pcrypt::Error. Not installed: the public API is include/pcrypt/.
#pragma once

#include <atomic>
#include <exception>
#include <functional>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/door/encrypted_file.h"
#include "core/error.h"
#include "core/keys/credential.h"
#include "io/stream.h"
#include "pcrypt/pcrypt.h"

namespace pcrypt {
inline namespace v1 {

namespace detail {

// The first exception a caller's callback threw during a call (docs/LIBRARY.md, "Callbacks": it reaches the
// caller unchanged). Kept by the wrapper that calls the callback, since the pipeline turns whatever its
// stages throw into its own error; the call's boundary (guarded_calls) throws it instead of that.
class CallbackFailure {
 public:
  // Inside a catch block: keeps the exception in flight unless one is kept already, and rethrows it.
  [[noreturn]] void keep_and_rethrow() {
    {
      const std::lock_guard lock(mutex_);
      if (!first_) first_ = std::current_exception();
    }
    throw;
  }
  std::exception_ptr first() const {
    const std::lock_guard lock(mutex_);
    return first_;
  }
  void clear() {
    const std::lock_guard lock(mutex_);
    first_ = nullptr;
  }

 private:
  mutable std::mutex mutex_;
  std::exception_ptr first_;
};

}  // namespace detail

// The public classes' hidden parts are hidden from the ABI too (a nested class takes its exported class's
// visibility otherwise), as is every std::shared_ptr instantiation (none is used here: lib/plugin_host.h).
#define PCRYPT_HIDDEN __attribute__((visibility("hidden")))

struct PCRYPT_HIDDEN detail::SourceImpl {
  explicit SourceImpl(std::unique_ptr<io::Reader> r, detail::CallbackFailure* f = nullptr)
      : reader(std::move(r)), failure(f) {}
  std::unique_ptr<io::Reader> reader;
  detail::CallbackFailure* failure;  // a callback source's, kept by its reader
};

struct PCRYPT_HIDDEN detail::SinkImpl {
  explicit SinkImpl(std::unique_ptr<io::Writer> w, detail::CallbackFailure* f = nullptr)
      : writer(std::move(w)), failure(f) {}
  std::unique_ptr<io::Writer> writer;
  detail::CallbackFailure* failure;  // a callback sink's, kept by its writer (valid while the sink has it)
};

struct PCRYPT_HIDDEN detail::SessionImpl {
  const aes::Engine* engine = nullptr;
  core::door::RunCache cache;
};

struct PCRYPT_HIDDEN detail::KeysImpl {
  std::vector<core::Credential> credentials;
};

struct PCRYPT_HIDDEN detail::FileImpl {
  explicit FileImpl(Source s) : source(std::move(s)) {}
  Source source;
  std::unique_ptr<core::door::EncryptedFile> file;
  Description description;
  std::vector<core::Credential> credentials;  // given to unlock(): kept, as the door's rekey asks them
  bool is_unlocked = false;
  io::PositionalReader* positional = nullptr;
  // What read_at() and plaintext_size() read by: the keyed payload and the size, authenticated (the final
  // record opened, core::authenticated_size), made by the first call that needs them (from any thread): not
  // at unlock(), since an input read in order (armor, a pipe) would then be past the header a rekey needs.
  struct RandomAccess {
    const core::KeyedPayload* payload = nullptr;
    core::AuthenticatedSize size;
  };
  std::mutex random_access_mutex;
  std::optional<RandomAccess> random_access_made;
  std::atomic<const RandomAccess*> random_access_ready{nullptr};

  void unlocked() const;
  // Error(usage) for an armored file or a source without random access; the final record's failure as
  // Error(payload), again on every call.
  const RandomAccess& random_access();
};

// The library's own way into the public classes' hidden parts (the friend the public headers name). A
// moved-from object has none: every call on one is ErrorKind::usage (as core::Error, so it is thrown inside
// guarded()).
struct detail::LibraryAccess {
  static detail::SourceImpl& of(Source& s);
  static detail::SinkImpl& of(Sink& s);
  static detail::SessionImpl& of(const Session& s);
  static const detail::KeysImpl& of(const Keys& k);
  static detail::KeysImpl& of(Keys& k);
  static detail::FileImpl& of(const File& f);
  // The callback failures of a source, a file's source, a sink (nullptr where none, or moved from).
  static detail::CallbackFailure* failure(Source& s);
  static detail::CallbackFailure* failure(const File& f);
  static detail::CallbackFailure* failure(Sink& s);  // const: read_at() makes the keyed payload on first use
};

using Access = detail::LibraryAccess;

namespace detail {

// Throws core::Error(usage) naming `what` ("File", "Encryptor") when `impl` is null: the object was moved
// from.
void require_not_moved_from(const void* impl, const char* what);

// When a core error happens, which decides how a header error reads to the caller.
enum class Phase { open, unlock, other };

// Called inside a catch block: the exception in flight, a core or io error, rethrown as a pcrypt::Error.
[[noreturn]] void rethrow_as_public(Phase phase = Phase::other);

template <typename Work>
auto guarded(Phase phase, Work work) {
  try {
    return work();
  } catch (...) {
    rethrow_as_public(phase);
  }
}

// guarded() for a call that runs callbacks given with `failures` (a source's, a sink's, progress; null where
// there is none): the first exception one of them threw, unchanged, else the failure as guarded() says.
template <typename Work>
auto guarded_calls(Phase phase, std::initializer_list<CallbackFailure*> failures, Work work) {
  for (CallbackFailure* f : failures)
    if (f != nullptr) f->clear();
  try {
    return work();
  } catch (...) {
    for (CallbackFailure* f : failures)
      if (f != nullptr)
        if (const std::exception_ptr first = f->first()) std::rethrow_exception(first);
    rethrow_as_public(phase);
  }
}

// `threads` (RunOptions::threads, EncryptOptions::threads), or core::Error(usage) above limits::max_threads.
unsigned checked_threads(unsigned threads);

// A progress callback whose exceptions are kept in `failure`.
std::function<void(std::uint64_t)> kept_progress(const std::function<void(std::uint64_t)>& progress,
                                                 CallbackFailure& failure);

// The sink's writer, taken from it (the sink is used up).
std::unique_ptr<io::Writer> take_writer(Sink& sink);

// A secret a caller's callback returns as text (a passphrase), held for as long as the library copies it
// into guarded memory, then wiped: the library leaves no copy of it in ordinary memory. Initialised straight
// from the callback's result (no moved-from string is left behind unwiped); the caller's copies are its own.
class WipedAnswer {
 public:
  template <typename Ask>
  explicit WipedAnswer(Ask ask) : answer_(ask()) {}
  WipedAnswer(const WipedAnswer&) = delete;
  WipedAnswer& operator=(const WipedAnswer&) = delete;
  ~WipedAnswer();
  const std::optional<std::string>& get() const { return answer_; }

 private:
  std::optional<std::string> answer_;
};

// A passphrase as the door's credential (core::Error(usage) when empty).
core::Credential passphrase_credential(std::string_view text);
SecretBytes secret_of(std::string_view text);

// What `to` names, counted without reading a file (core::door::check_credentials_for's counts).
struct RecipientCounts {
  std::size_t key_files = 0, recipients = 0;
  bool passphrase = false;
  std::size_t raw_keys = 0;  // Cobblestone's (Keys::add_raw_key), held by Recipients::keys only
};
RecipientCounts counts_of(const Recipients& to);

// What pcrypt::encrypt makes a new file with: the credentials `to` names, checked against the format's rules
// (ErrorKind::usage as core::Error), and the door's settings for `options`.
std::vector<core::Credential> encryption_credentials(const Recipients& to, const EncryptOptions& options);
// The public Format and the door's, one to one.
core::Format core_format(Format format);
Format public_format(core::Format format);
core::door::EncryptSettings encrypt_settings(const EncryptOptions& options);

Transfer transfer_of(const core::door::Transfer& t);

}  // namespace detail
}  // namespace v1
}  // namespace pcrypt
