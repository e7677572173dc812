// libpcrypt's public API (include/pcrypt/pcrypt.h) over the door (core/door/): each call turns its plain
// arguments into the door's, makes one door call, and turns a core::Error into a pcrypt::Error. Nothing of
// core leaks through the header: sources, sinks and files hold their core objects behind pointers to
// incomplete types.
#define PCRYPT_BUILDING_LIBRARY
#include "pcrypt/pcrypt.h"

#include <cstring>
#include <new>
#include <utility>

#include "core/door/credential_files.h"
#include "core/door/encrypted_file.h"
#include "core/door/limits.h"
#include "core/error.h"
#include "core/keys/key_file.h"
#include "core/keys/recipient.h"
#include "core/range.h"
#include "io/atomic_file.h"
#include "io/fd_stream.h"
#include "io/memory_stream.h"
#include "io/stream.h"
#include "lib/internal.h"

namespace pcrypt {
inline namespace v0 {

struct Access {
  static Source::Impl& of(Source& s) { return *s.impl_; }
  static Sink::Impl& of(Sink& s) { return *s.impl_; }
};

namespace {

// When a core error happens, which decides how a header error reads to the caller.
enum class Phase { open, unlock, other };

[[noreturn]] void rethrow_as_public(Phase phase) {
  try {
    throw;
  } catch (const Error&) {
    throw;
  } catch (const core::Error& e) {
    ErrorKind kind = ErrorKind::io;
    switch (e.kind()) {
      case core::ErrorKind::io:
        kind = ErrorKind::io;
        break;
      case core::ErrorKind::usage:
        kind = ErrorKind::usage;
        break;
      case core::ErrorKind::header:
        kind = phase == Phase::unlock ? ErrorKind::wrong_credential : ErrorKind::damaged_header;
        break;
      case core::ErrorKind::payload:
        kind = ErrorKind::damaged_payload;
        break;
    }
    throw Error(kind, e.what(), e.hint());
  } catch (const io::IoError& e) {
    throw Error(ErrorKind::io, e.what());
  } catch (const std::bad_alloc&) {
    throw Error(ErrorKind::io, "out of memory");
  }
}

template <typename Work>
auto guarded(Phase phase, Work work) {
  try {
    return work();
  } catch (...) {
    rethrow_as_public(phase);
  }
}

// A caller's read-at function as the door's reader: in order for decrypt, positionally for ranges.
class CallbackReader final : public io::Reader, public io::PositionalReader {
 public:
  CallbackReader(std::uint64_t size, Source::ReadAt read_at) : size_(size), read_at_(std::move(read_at)) {}
  std::size_t read(std::uint8_t* buf, std::size_t n) override {
    const std::size_t got = read_at(position_, buf, n);
    position_ += got;
    return got;
  }
  std::string name() const override { return "the source"; }
  io::PositionalReader* positional() override { return this; }
  std::uint64_t size() const override { return size_; }
  std::size_t read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t n) const override {
    std::size_t got = 0;
    // The contract is "fewer only at the end": ask again after a short answer inside the source.
    while (got < n && offset + got < size_) {
      const std::size_t piece = read_at_(offset + got, std::span<std::uint8_t>(buf + got, n - got));
      if (piece == 0) break;
      got += piece;
    }
    return got;
  }
  std::uint64_t position() const override { return position_; }
  void seek(std::uint64_t offset) override { position_ = offset; }

 private:
  std::uint64_t size_;
  Source::ReadAt read_at_;
  std::uint64_t position_ = 0;
};

// Appends to a caller's vector, or hands each piece to a caller's function.
class FunctionWriter final : public io::Writer {
 public:
  explicit FunctionWriter(std::function<void(std::span<const std::uint8_t>)> write)
      : write_(std::move(write)) {}
  void write(const std::uint8_t* buf, std::size_t n) override { write_({buf, n}); }
  void commit() override {}
  std::string name() const override { return "the sink"; }

 private:
  std::function<void(std::span<const std::uint8_t>)> write_;
};

}  // namespace

struct Source::Impl {
  std::unique_ptr<io::Reader> reader;
};

struct Sink::Impl {
  std::unique_ptr<io::Writer> writer;
};

Error::Error(ErrorKind kind, const std::string& message, std::string hint)
    : std::runtime_error(message), kind_(kind), hint_(std::move(hint)) {}

int Error::exit_code() const noexcept {
  switch (kind_) {
    case ErrorKind::io:
      return 1;
    case ErrorKind::usage:
      return 2;
    case ErrorKind::wrong_credential:
    case ErrorKind::damaged_header:
      return 3;
    case ErrorKind::damaged_payload:
      return 4;
  }
  return 1;
}

Source::Source(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Source::Source(Source&&) noexcept = default;
Source& Source::operator=(Source&&) noexcept = default;
Source::~Source() = default;

Source Source::path(const std::string& path) {
  return guarded(Phase::other, [&] {
    if (path.empty() || path == "-") throw core::Error(core::ErrorKind::usage, "a source path is needed");
    return Source(std::make_unique<Impl>(Impl{io::open_input(path)}));
  });
}

Source Source::fd(int fd) {
  return Source(std::make_unique<Impl>(
      Impl{std::make_unique<io::FdReader>(fd, "descriptor " + std::to_string(fd), false)}));
}

Source Source::memory(std::span<const std::uint8_t> bytes) {
  return Source(
      std::make_unique<Impl>(Impl{std::make_unique<io::MemoryReader>(bytes, io::MemoryAccess::positional)}));
}

Source Source::callback(std::uint64_t size, ReadAt read_at) {
  if (!read_at) throw Error(ErrorKind::usage, "Source::callback needs a read_at function");
  return Source(std::make_unique<Impl>(Impl{std::make_unique<CallbackReader>(size, std::move(read_at))}));
}

Sink::Sink(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Sink::Sink(Sink&&) noexcept = default;
Sink& Sink::operator=(Sink&&) noexcept = default;
Sink::~Sink() = default;

Sink Sink::path(const std::string& path, bool overwrite) {
  return guarded(Phase::other, [&] {
    return Sink(std::make_unique<Impl>(Impl{std::make_unique<io::AtomicFileWriter>(
        path, overwrite, io::TempFile::unnamed_if_supported, io::Permissions::owner_only)}));
  });
}

Sink Sink::fd(int fd) {
  return Sink(std::make_unique<Impl>(
      Impl{std::make_unique<io::FdWriter>(fd, "descriptor " + std::to_string(fd), false)}));
}

Sink Sink::memory(std::vector<std::uint8_t>& out) {
  return Sink(std::make_unique<Impl>(Impl{std::make_unique<FunctionWriter>(
      [&out](std::span<const std::uint8_t> piece) { out.insert(out.end(), piece.begin(), piece.end()); })}));
}

Sink Sink::callback(std::function<void(std::span<const std::uint8_t>)> write) {
  if (!write) throw Error(ErrorKind::usage, "Sink::callback needs a write function");
  return Sink(std::make_unique<Impl>(Impl{std::make_unique<FunctionWriter>(std::move(write))}));
}

namespace {

core::door::CredentialReading reading_for(const Credentials* credentials) {
  core::door::CredentialReading reading;
  if (credentials != nullptr && credentials->ssh_key_passphrase) {
    reading.ssh_key_passphrase = [ask = credentials->ssh_key_passphrase](const std::string& key_name) {
      const std::optional<std::string> answer = ask(key_name);
      if (!answer) core::door::refuse_protected_ssh_key(key_name);
      return SecretBytes(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(answer->data()),
                                                       answer->size()));
    };
  }
  return reading;
}

core::Credential passphrase_credential(const std::string& text) {
  if (text.empty()) throw core::Error(core::ErrorKind::usage, "empty passphrase");
  core::Credential c;
  c.kind = core::Credential::Kind::passphrase;
  c.secret = SecretBytes(
      std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  return c;
}

core::door::UnlockLimits limits_for(const Credentials& c) {
  core::door::UnlockLimits limits;
  if (c.max_scrypt_log2 != 0) limits.max_scrypt_log2 = c.max_scrypt_log2;
  if (c.max_argon2id_memory_bytes != 0) limits.argon2id_ceiling.memlimit_bytes = c.max_argon2id_memory_bytes;
  if (c.max_argon2id_passes != 0) limits.argon2id_ceiling.opslimit = c.max_argon2id_passes;
  return limits;
}

Description description_of(const core::door::FileDescription& d) {
  return Description{d.format == core::Format::age ? Format::age : Format::pcrypt,
                     d.armored,
                     d.header_bytes,
                     d.chunk_size,
                     d.slots,
                     d.passphrase_slots,
                     d.slots_in_words};
}

}  // namespace

struct File::Impl {
  Source source;
  std::unique_ptr<core::door::EncryptedFile> file;
  Description description;
  std::vector<core::Credential> credentials;  // given to unlock(): kept, as the door's rekey asks them
  const core::KeyedPayload* payload = nullptr;
  io::PositionalReader* positional = nullptr;

  const core::KeyedPayload& unlocked() const {
    if (payload == nullptr)
      throw core::Error(core::ErrorKind::usage, "the file is not unlocked: call unlock() first");
    return *payload;
  }
};

File::File(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
File::File(File&&) noexcept = default;
File& File::operator=(File&&) noexcept = default;
File::~File() = default;

File File::open(Source source) {
  return guarded(Phase::open, [&] {
    auto impl = std::make_unique<Impl>(Impl{std::move(source), nullptr, {}, {}, nullptr, nullptr});
    io::Reader& reader = *Access::of(impl->source).reader;
    impl->file = std::make_unique<core::door::EncryptedFile>(reader);
    impl->description = description_of(impl->file->description());
    impl->positional = reader.positional();
    return File(std::move(impl));
  });
}

const Description& File::describe() const {
  return impl_->description;
}

std::string File::info() const {
  return guarded(Phase::other, [&] {
    return impl_->file->info(impl_->positional ? std::optional(impl_->positional->size()) : std::nullopt);
  });
}

void File::unlock(const Credentials& given) {
  guarded(Phase::unlock, [&] {
    const core::door::CredentialReading reading = reading_for(&given);
    std::vector<core::Credential> credentials;
    for (const std::string& path : given.key_files)
      credentials.push_back(core::door::read_key_file(path, core::door::KeyFileUse::decrypt));
    for (core::Credential& c : core::door::gather_identities(given.identity_files, reading))
      credentials.push_back(std::move(c));
    for (const std::string& text : given.identities)
      for (core::Identity& id :
           core::parse_identity_file(text, "an identity given", reading.ssh_key_passphrase))
        credentials.push_back(core::Credential::of(std::move(id)));
    if (impl_->description.passphrase_slots > 0 && given.passphrase)
      if (const std::optional<std::string> passphrase = given.passphrase())
        credentials.push_back(passphrase_credential(*passphrase));
    if (credentials.empty())
      throw core::Error(core::ErrorKind::usage,
                        "no credential given: the file has " + impl_->description.slots_in_words,
                        "give identity_files, identities, key_files or a passphrase callback");
    impl_->credentials = std::move(credentials);
    impl_->file->unlock(impl_->credentials, limits_for(given));
    impl_->payload = &impl_->file->payload();
  });
}

Transfer File::decrypt(Sink sink, unsigned threads) {
  return guarded(Phase::other, [&] {
    impl_->unlocked();
    const core::door::Transfer t =
        impl_->file->decrypt(*Access::of(sink).writer, core::door::RunOptions{threads, {}});
    return Transfer{t.plaintext_bytes, t.encrypted_bytes};
  });
}

Transfer File::verify(unsigned threads) {
  return guarded(Phase::other, [&] {
    impl_->unlocked();
    const core::door::Transfer t = impl_->file->verify(core::door::RunOptions{threads, {}});
    return Transfer{t.plaintext_bytes, t.encrypted_bytes};
  });
}

std::size_t File::read_at(std::uint64_t offset, std::span<std::uint8_t> out) const {
  return guarded(Phase::other, [&] {
    const core::KeyedPayload& payload = impl_->unlocked();
    if (impl_->description.armored)
      throw core::Error(core::ErrorKind::usage, "an armored age file cannot be read by ranges",
                        "decrypt it whole, or remove the armor");
    if (impl_->positional == nullptr)
      throw core::Error(core::ErrorKind::usage,
                        "read_at needs a source with random access (a file, memory or a callback)");
    core::RangeOptions options;
    options.threads = 1;  // the caller's threads are the parallelism
    return static_cast<std::size_t>(
        core::decrypt_range_into(*impl_->positional, payload, offset, out, options).bytes_written);
  });
}

std::uint64_t File::plaintext_size() const {
  return guarded(Phase::other, [&] {
    const core::KeyedPayload& payload = impl_->unlocked();
    if (impl_->positional == nullptr)
      throw core::Error(core::ErrorKind::usage, "the plaintext size needs a source whose size is known");
    const std::uint64_t size = impl_->positional->size();
    const std::uint64_t offset = payload.layout.payload_offset;
    const std::optional<std::uint64_t> plain =
        payload.layout.plaintext_bytes(size > offset ? size - offset : 0);
    if (!plain)
      throw core::Error(core::ErrorKind::payload, "truncated payload: a length no complete file has");
    return *plain;
  });
}

void File::rekey(const RekeyRequest& request, Sink sink) {
  guarded(Phase::other, [&] {
    impl_->unlocked();
    const core::door::CredentialReading reading;
    core::door::RekeyRequest door;
    door.new_file_key = request.new_file_key;
    core::RekeyChanges& changes = door.changes;
    changes.remove_slots = request.remove_slots;
    for (const std::string& r : request.remove_recipients)
      changes.remove_recipients.push_back(core::parse_recipient(r));
    for (const std::string& path : request.remove_identity_files)
      for (core::Credential& c : core::door::read_key_or_identity_file(path, reading))
        changes.remove_opened_by.push_back(std::move(c));
    for (const std::string& path : request.add_key_files)
      changes.add.push_back(core::door::read_key_file(path, core::door::KeyFileUse::encrypt));
    for (core::Credential& c : core::door::gather_recipients(request.add_recipients, {}, false, {}, reading))
      changes.add.push_back(std::move(c));
    if (request.add_passphrase) changes.add.push_back(passphrase_credential(*request.add_passphrase));
    core::door::NewFileSettings settings;
    settings.format = impl_->file->description().format;
    impl_->file->rekey(std::move(door), *Access::of(sink).writer, settings, core::door::RunOptions{});
  });
}

Transfer encrypt(Source plaintext, Sink sink, const Recipients& to, const EncryptOptions& options) {
  return guarded(Phase::other, [&] {
    const core::door::CredentialReading reading;
    std::vector<core::Credential> credentials;
    for (const std::string& path : to.key_files)
      credentials.push_back(core::door::read_key_file(path, core::door::KeyFileUse::encrypt));
    for (core::Credential& c :
         core::door::gather_recipients(to.recipients, to.recipient_files, false, {}, reading))
      credentials.push_back(std::move(c));
    if (to.passphrase) credentials.push_back(passphrase_credential(*to.passphrase));
    if (credentials.empty())
      throw core::Error(core::ErrorKind::usage, "no recipient given",
                        "give recipients, recipient_files, key_files or a passphrase");
    core::door::EncryptSettings settings;
    settings.file.format = options.format == Format::age ? core::Format::age : core::Format::pcrypt;
    settings.file.chunk_size = options.chunk_size;
    settings.armor = options.armor;
    if (options.argon2id_memory_bytes != 0)
      settings.file.argon2id.memlimit_bytes = options.argon2id_memory_bytes;
    if (options.argon2id_passes != 0) settings.file.argon2id.opslimit = options.argon2id_passes;
    core::door::check_credentials_for(settings.file.format, to.key_files.size(),
                                      to.recipients.size() + to.recipient_files.size(),
                                      to.passphrase.has_value());
    const core::door::Transfer t =
        core::door::encrypt(*Access::of(plaintext).reader, *Access::of(sink).writer, credentials, settings,
                            core::door::RunOptions{options.threads, {}});
    return Transfer{t.plaintext_bytes, t.encrypted_bytes};
  });
}

NewIdentity generate_identity(bool post_quantum) {
  return guarded(Phase::other, [&] {
    core::door::NewIdentity made = core::door::generate_identity(post_quantum);
    return NewIdentity{std::move(made.text), std::move(made.recipient)};
  });
}

std::string generate_key_file() {
  return guarded(Phase::other, [] {
    const SecretBytes text = core::generate_key_file();
    return std::string(reinterpret_cast<const char*>(text.data()), text.size());
  });
}

std::vector<std::string> recipients_of(std::string_view identity_file_text) {
  return guarded(Phase::other, [&] {
    std::vector<std::string> out;
    for (const core::Identity& id : core::parse_identity_file(identity_file_text, "the identity text"))
      out.push_back(core::door::recipient_text(id));
    return out;
  });
}

void check_recipient(std::string_view text) {
  guarded(Phase::other, [&] {
    (void)core::parse_recipient(text);
    return 0;
  });
}

std::string version() {
  return PCRYPT_VERSION_STRING;
}

// What lib/encryptor.cc shares (lib/internal.h): pcrypt::encrypt's rules for the credentials and settings of
// a new file, so that an Encryptor makes the file encrypt() makes.
namespace detail {

std::unique_ptr<io::Writer> take_writer(Sink& sink) {
  return std::move(Access::of(sink).writer);
}

void rethrow_as_public() {
  rethrow_as_public(Phase::other);
}

std::vector<core::Credential> encryption_credentials(const Recipients& to, const EncryptOptions& options) {
  const core::door::CredentialReading reading;
  std::vector<core::Credential> credentials;
  for (const std::string& path : to.key_files)
    credentials.push_back(core::door::read_key_file(path, core::door::KeyFileUse::encrypt));
  for (core::Credential& c :
       core::door::gather_recipients(to.recipients, to.recipient_files, false, {}, reading))
    credentials.push_back(std::move(c));
  if (to.passphrase) credentials.push_back(passphrase_credential(*to.passphrase));
  if (credentials.empty())
    throw core::Error(core::ErrorKind::usage, "no recipient given",
                      "give recipients, recipient_files, key_files or a passphrase");
  core::door::check_credentials_for(options.format == Format::age ? core::Format::age : core::Format::pcrypt,
                                    to.key_files.size(), to.recipients.size() + to.recipient_files.size(),
                                    to.passphrase.has_value());
  return credentials;
}

core::door::EncryptSettings encrypt_settings(const EncryptOptions& options) {
  core::door::EncryptSettings settings;
  settings.file.format = options.format == Format::age ? core::Format::age : core::Format::pcrypt;
  settings.file.chunk_size = options.chunk_size;
  if (options.argon2id_memory_bytes != 0)
    settings.file.argon2id.memlimit_bytes = options.argon2id_memory_bytes;
  if (options.argon2id_passes != 0) settings.file.argon2id.opslimit = options.argon2id_passes;
  settings.armor = options.armor;
  return settings;
}

}  // namespace detail

}  // namespace v0
}  // namespace pcrypt
