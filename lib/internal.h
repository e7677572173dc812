// What the library's files share (lib/*.cc, one per concern: errors, sources and sinks, keys, the opened
// file, encrypt, the encryptor, the reader, the session): the public classes' hidden parts and the one way
// a core error becomes a pcrypt::Error. Not installed: the public API is include/pcrypt/.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/door/encrypted_file.h"
#include "core/error.h"
#include "core/keys/credential.h"
#include "io/stream.h"
#include "pcrypt/pcrypt.h"

namespace pcrypt {
inline namespace v0 {

struct Source::Impl {
  std::unique_ptr<io::Reader> reader;
};

struct Sink::Impl {
  std::unique_ptr<io::Writer> writer;
};

struct Session::Impl {
  const aes::Engine* engine = nullptr;
  core::door::RunCache cache;
};

struct Keys::Impl {
  std::vector<core::Credential> credentials;
};

struct File::Impl {
  explicit Impl(Source s) : source(std::move(s)) {}
  Source source;
  std::unique_ptr<core::door::EncryptedFile> file;
  Description description;
  std::vector<core::Credential> credentials;  // given to unlock(): kept, as the door's rekey asks them
  bool is_unlocked = false;
  io::PositionalReader* positional = nullptr;
  // The keyed payload for read_at(), made by the first call that needs it (from any thread): not at
  // unlock(), since an input read in order (armor, a pipe) would then be past the header a rekey needs.
  std::mutex payload_mutex;
  std::atomic<const core::KeyedPayload*> payload{nullptr};

  void unlocked() const;
  const core::KeyedPayload& keyed_payload();
};

// The library's own way into the public classes' hidden parts. A moved-from object has none: every call on
// one is ErrorKind::usage (as core::Error, so it is thrown inside guarded()).
struct Access {
  static Source::Impl& of(Source& s);
  static Sink::Impl& of(Sink& s);
  static Session::Impl& of(const Session& s);
  static const Keys::Impl& of(const Keys& k);
  static Keys::Impl& of(Keys& k);
  static File::Impl& of(const File& f);  // const: read_at() makes the keyed payload on first use
};

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

// The sink's writer, taken from it (the sink is used up).
std::unique_ptr<io::Writer> take_writer(Sink& sink);

// A passphrase as the door's credential (core::Error(usage) when empty).
core::Credential passphrase_credential(std::string_view text);
SecretBytes secret_of(std::string_view text);

// What pcrypt::encrypt makes a new file with: the credentials `to` names, checked against the format's rules
// (ErrorKind::usage as core::Error), and the door's settings for `options`.
std::vector<core::Credential> encryption_credentials(const Recipients& to, const EncryptOptions& options);
core::door::EncryptSettings encrypt_settings(const EncryptOptions& options);

Transfer transfer_of(const core::door::Transfer& t);

}  // namespace detail
}  // namespace v0
}  // namespace pcrypt
