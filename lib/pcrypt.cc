// libpcrypt's public API (include/pcrypt/pcrypt.h) over the door (core/door/): each call turns its plain
// arguments into the door's, makes one door call, and turns a core::Error into a pcrypt::Error. Nothing of
// core leaks through the header: sources, sinks and files hold their core objects behind pointers to
// incomplete types.
#define PCRYPT_BUILDING_LIBRARY
#include "pcrypt/pcrypt.h"

#include <unistd.h>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <new>
#include <utility>

#include "core/aes/engine.h"
#include "core/byte_size.h"
#include "core/chacha/chacha20poly1305.h"
#include "core/door/credential_files.h"
#include "core/door/encrypted_file.h"
#include "core/door/limits.h"
#include "core/engine_choice.h"
#include "core/error.h"
#include "core/keys/key_file.h"
#include "core/keys/plugin_host.h"
#include "core/keys/recipient.h"
#include "core/pipeline.h"
#include "core/pipeline_error.h"
#include "core/range.h"
#include "io/atomic_file.h"
#include "io/fd_io.h"
#include "io/fd_stream.h"
#include "io/memory_stream.h"
#include "io/stream.h"
#include "lib/internal.h"
#include "lib/plugin_host.h"

namespace pcrypt {
inline namespace v0 {

struct Access {
  static Source::Impl& of(Source& s) { return *s.impl_; }
  static Sink::Impl& of(Sink& s) { return *s.impl_; }
  static Session::Impl& of(Session& s) { return *s.impl_; }
  static const Keys::Impl& of(const Keys& k) { return *k.impl_; }
};

namespace {

// When a core error happens, which decides how a header error reads to the caller.
enum class Phase { open, unlock, other };

[[noreturn]] void rethrow_as_public(Phase phase) {
  try {
    throw;
  } catch (const Error&) {
    throw;
  } catch (const core::StreamError& e) {
    // A write or read the pipeline made failed: the errno says whether the reader went away (EPIPE).
    throw Error(e.kind() == core::ErrorKind::usage ? ErrorKind::usage : ErrorKind::io, e.what(), e.hint(),
                e.error_number());
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
    throw Error(ErrorKind::io, e.what(), {}, e.error_number());
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

// A temporary file the caller publishes: pwrite from any worker, records in any order; written in order
// through the descriptor's own offset, as io::AtomicFileWriter writes its temporary (so rekey's
// copy_file_range continues where the header ends).
class UnpublishedFileWriter final : public io::Writer, public io::PositionalWriter {
 public:
  UnpublishedFileWriter(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
  void write(const std::uint8_t* buf, std::size_t n) override { io::detail::write_all(fd_, buf, n, name_); }
  void write_at(std::uint64_t offset, const std::uint8_t* buf, std::size_t n) override {
    io::detail::pwrite_all(fd_, offset, buf, n, name_);
  }
  void commit() override {
    if (::fsync(fd_) != 0) {
      const int err = errno;
      throw io::IoError(io::detail::describe("cannot sync output", name_, err), err);
    }
  }
  std::string name() const override { return name_; }
  io::PositionalWriter* positional() override { return this; }
  int file_descriptor() const override { return fd_; }
  std::uint64_t position() const override { return io::detail::offset_of(fd_, name_); }
  void seek(std::uint64_t offset) override { io::detail::seek_to(fd_, offset, name_); }

 private:
  int fd_;
  std::string name_;
};

}  // namespace

struct Source::Impl {
  std::unique_ptr<io::Reader> reader;
};

struct Sink::Impl {
  std::unique_ptr<io::Writer> writer;
};

Error::Error(ErrorKind kind, const std::string& message, std::string hint, int error_number)
    : std::runtime_error(message), kind_(kind), hint_(std::move(hint)), error_number_(error_number) {}

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

Source Source::fd(int fd, const std::string& name) {
  return Source(std::make_unique<Impl>(Impl{
      std::make_unique<io::FdReader>(fd, name.empty() ? "descriptor " + std::to_string(fd) : name, false)}));
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

Sink Sink::fd(int fd, const std::string& name) {
  return Sink(std::make_unique<Impl>(Impl{
      std::make_unique<io::FdWriter>(fd, name.empty() ? "descriptor " + std::to_string(fd) : name, false)}));
}

Sink Sink::unpublished_file(int fd, const std::string& name) {
  return Sink(std::make_unique<Impl>(Impl{std::make_unique<UnpublishedFileWriter>(
      fd, name.empty() ? "descriptor " + std::to_string(fd) : name)}));
}

Sink Sink::memory(std::vector<std::uint8_t>& out) {
  return Sink(std::make_unique<Impl>(Impl{std::make_unique<FunctionWriter>(
      [&out](std::span<const std::uint8_t> piece) { out.insert(out.end(), piece.begin(), piece.end()); })}));
}

Sink Sink::callback(std::function<void(std::span<const std::uint8_t>)> write) {
  if (!write) throw Error(ErrorKind::usage, "Sink::callback needs a write function");
  return Sink(std::make_unique<Impl>(Impl{std::make_unique<FunctionWriter>(std::move(write))}));
}

struct Session::Impl {
  const aes::Engine* engine = nullptr;
  core::door::RunCache cache;
};

Session::Session(const std::string& engine) : impl_(std::make_unique<Impl>()) {
  guarded(Phase::other, [&] {
    impl_->engine = &core::choose_engine(engine);
    return 0;
  });
}
Session::Session(Session&&) noexcept = default;
Session& Session::operator=(Session&&) noexcept = default;
Session::~Session() = default;

std::string Session::engine() const {
  return std::string(impl_->engine->name);
}

std::size_t Session::argon2id_runs() const {
  return impl_->cache.argon2id_runs();
}

unsigned worker_threads(unsigned threads) {
  return core::pipeline_workers(threads);
}

namespace {

SecretBytes secret_of(std::string_view text) {
  return SecretBytes(
      std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

core::Credential passphrase_credential(const std::string& text) {
  if (text.empty()) throw core::Error(core::ErrorKind::usage, "empty passphrase");
  core::Credential c;
  c.kind = core::Credential::Kind::passphrase;
  c.secret = SecretBytes(
      std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  return c;
}

bool same_secret(const core::Credential& a, const core::Credential& b) {
  return a.secret.size() == b.secret.size() &&
         std::memcmp(a.secret.data(), b.secret.data(), a.secret.size()) == 0;
}

}  // namespace

struct Keys::Impl {
  std::vector<core::Credential> credentials;
};

Keys::Keys() : impl_(std::make_unique<Impl>()) {}
Keys::Keys(Keys&&) noexcept = default;
Keys& Keys::operator=(Keys&&) noexcept = default;
Keys::~Keys() = default;

namespace {

core::door::CredentialReading reading_of(const Keys& keys) {
  core::door::CredentialReading reading;
  if (keys.ssh_key_passphrase) {
    reading.ssh_key_passphrase = [ask = keys.ssh_key_passphrase](const std::string& key_name) {
      const std::optional<std::string> answer = ask(key_name);
      if (!answer) core::door::refuse_protected_ssh_key(key_name);
      return secret_of(*answer);
    };
  }
  if (keys.warn) reading.warn = keys.warn;
  return reading;
}

}  // namespace

std::optional<std::size_t> Keys::add_key_file(const std::string& path, bool encrypting) {
  return guarded(Phase::other, [&]() -> std::optional<std::size_t> {
    core::Credential key = core::door::read_key_file(
        path, encrypting ? core::door::KeyFileUse::encrypt : core::door::KeyFileUse::decrypt);
    for (std::size_t i = 0; i < impl_->credentials.size(); ++i)
      if (impl_->credentials[i].kind == core::Credential::Kind::key_file &&
          same_secret(impl_->credentials[i], key))
        return i;
    impl_->credentials.push_back(std::move(key));
    return std::nullopt;
  });
}

void Keys::add_recipients(const std::vector<std::string>& recipients,
                          const std::vector<std::string>& recipient_files, bool data_from_stdin,
                          const std::vector<std::string>& identity_files) {
  guarded(Phase::other, [&] {
    for (core::Credential& c : core::door::gather_recipients(recipients, recipient_files, data_from_stdin,
                                                             identity_files, reading_of(*this)))
      impl_->credentials.push_back(std::move(c));
    return 0;
  });
}

std::size_t Keys::add_identity_file(const std::string& path) {
  return guarded(Phase::other, [&] {
    std::vector<core::Credential> read = core::door::gather_identities({path}, reading_of(*this));
    for (core::Credential& c : read) impl_->credentials.push_back(std::move(c));
    return read.size();
  });
}

std::size_t Keys::add_key_or_identity_file(const std::string& path) {
  return guarded(Phase::other, [&] {
    std::vector<core::Credential> read = core::door::read_key_or_identity_file(path, reading_of(*this));
    for (core::Credential& c : read) impl_->credentials.push_back(std::move(c));
    return read.size();
  });
}

void Keys::add_plugin(const std::string& name) {
  guarded(Phase::other, [&] {
    impl_->credentials.push_back(core::Credential::of(core::default_plugin_identity(name)));
    return 0;
  });
}

void Keys::add_passphrase(const std::string& passphrase) {
  guarded(Phase::other, [&] {
    impl_->credentials.push_back(passphrase_credential(passphrase));
    return 0;
  });
}

std::vector<std::string> Keys::recipients() const {
  return guarded(Phase::other, [&] {
    std::vector<std::string> out;
    for (const core::Credential& c : impl_->credentials)
      if (c.identity) out.push_back(core::door::recipient_text(*c.identity));
    return out;
  });
}

std::size_t Keys::size() const {
  return impl_->credentials.size();
}

void set_plugin_host(PluginHost host) {
  guarded(Phase::other, [&] {
    lib::set_core_plugin_host(std::move(host));
    return 0;
  });
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

core::door::UnlockLimits limits_for(const Credentials& c) {
  core::door::UnlockLimits limits;
  if (c.max_scrypt_log2 != 0) limits.max_scrypt_log2 = c.max_scrypt_log2;
  if (c.max_argon2id_memory_bytes != 0) limits.argon2id_ceiling.memlimit_bytes = c.max_argon2id_memory_bytes;
  if (c.max_argon2id_passes != 0) limits.argon2id_ceiling.opslimit = c.max_argon2id_passes;
  if (c.session != nullptr) {
    limits.engine = Access::of(*c.session).engine;
    limits.kek_cache = Access::of(*c.session).cache.get();
  }
  return limits;
}

Description description_of(const core::door::FileDescription& d) {
  return Description{d.format == core::Format::age ? Format::age : Format::pcrypt,
                     d.armored,
                     d.header_bytes,
                     d.chunk_size,
                     d.slots,
                     d.passphrase_slots,
                     d.slots_in_words,
                     d.slot_noun};
}

}  // namespace

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

  void unlocked() const {
    if (!is_unlocked)
      throw core::Error(core::ErrorKind::usage, "the file is not unlocked: call unlock() first");
  }
  const core::KeyedPayload& keyed_payload() {
    unlocked();
    if (const core::KeyedPayload* made = payload.load(std::memory_order_acquire)) return *made;
    const std::lock_guard lock(payload_mutex);
    if (payload.load(std::memory_order_relaxed) == nullptr)
      payload.store(&file->payload(), std::memory_order_release);
    return *payload.load(std::memory_order_relaxed);
  }
};

File::File(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
File::File(File&&) noexcept = default;
File& File::operator=(File&&) noexcept = default;
File::~File() = default;

File File::open(Source source) {
  return guarded(Phase::open, [&] {
    auto impl = std::make_unique<Impl>(std::move(source));
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

std::string File::info(bool all_bytes) const {
  return guarded(Phase::other, [&] {
    return impl_->file->info(impl_->positional ? std::optional(impl_->positional->size()) : std::nullopt,
                             all_bytes ? core::door::InfoDetail::all_bytes : core::door::InfoDetail::summary);
  });
}

std::vector<SlotSummary> File::slot_list() const {
  std::vector<SlotSummary> out;
  for (const core::SlotSummary& s : impl_->file->description().slot_list)
    out.push_back({s.type, s.words, s.tag});
  return out;
}

Sizes File::measure() {
  return guarded(Phase::other, [&] {
    const core::door::FileSizes s =
        impl_->file->measure(impl_->positional ? std::optional(impl_->positional->size()) : std::nullopt);
    Sizes sizes;
    sizes.file_bytes = s.stored_bytes;
    sizes.header_bytes = s.header_only_bytes;
    sizes.armor_bytes = s.stored_bytes - s.decoded_bytes;
    sizes.plaintext_bytes = s.plaintext_bytes;
    sizes.chunks = s.records;
    if (s.plaintext_bytes) sizes.overhead_bytes = s.decoded_bytes - s.header_only_bytes - *s.plaintext_bytes;
    return sizes;
  });
}

std::vector<std::vector<std::string>> File::slots_opened_by(const Keys& keys, const Credentials& limits) {
  return guarded(Phase::unlock, [&] {
    std::vector<std::vector<std::string>> out;
    for (const core::Credential& c : Access::of(keys).credentials)
      out.push_back(impl_->file->slots_opened_by(c, limits_for(limits)));
    return out;
  });
}

std::string File::unlock(const Credentials& given) {
  return guarded(Phase::unlock, [&] {
    const core::door::CredentialReading reading = reading_for(&given);
    std::vector<core::Credential> credentials;
    if (given.keys != nullptr)
      for (const core::Credential& c : Access::of(*given.keys).credentials)
        credentials.push_back(core::copy_of(c));
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
    std::string opened_by = impl_->file->unlock(impl_->credentials, limits_for(given));
    impl_->is_unlocked = true;
    return opened_by;
  });
}

namespace {

core::door::RunOptions run_options(const RunOptions& options) {
  return core::door::RunOptions{options.threads, options.progress};
}

Transfer transfer_of(const core::door::Transfer& t) {
  return Transfer{t.plaintext_bytes, t.encrypted_bytes, t.header_bytes, t.chunks};
}

}  // namespace

Transfer File::decrypt(Sink sink, unsigned threads) {
  RunOptions options;
  options.threads = threads;
  return decrypt(std::move(sink), options);
}

Transfer File::decrypt(Sink sink, const RunOptions& options) {
  return guarded(Phase::other, [&] {
    impl_->unlocked();
    return transfer_of(impl_->file->decrypt(*Access::of(sink).writer, run_options(options)));
  });
}

Transfer File::verify(unsigned threads) {
  RunOptions options;
  options.threads = threads;
  return verify(options);
}

Transfer File::verify(const RunOptions& options) {
  return guarded(Phase::other, [&] {
    impl_->unlocked();
    return transfer_of(impl_->file->verify(run_options(options)));
  });
}

RangeRead File::read_range(std::uint64_t offset, std::optional<std::uint64_t> length, Sink sink,
                           const RunOptions& options) {
  return guarded(Phase::other, [&] {
    impl_->unlocked();
    io::Writer& out = *Access::of(sink).writer;
    const core::door::RangeRead read =
        impl_->file->read_range(core::ByteRange{offset, length}, out, run_options(options));
    return RangeRead{read.result.bytes_written, read.result.records_opened, read.positional};
  });
}

std::size_t File::read_at(std::uint64_t offset, std::span<std::uint8_t> out) const {
  return guarded(Phase::other, [&] {
    const core::KeyedPayload& payload = impl_->keyed_payload();
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
    const core::KeyedPayload& payload = impl_->keyed_payload();
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
  rekey(request, std::move(sink), RunOptions{});
}

RekeyResult File::rekey(const RekeyRequest& request, Sink sink, const RunOptions& options) {
  return guarded(Phase::other, [&] {
    impl_->unlocked();
    const core::door::CredentialReading reading;
    core::door::RekeyRequest door;
    door.new_file_key = request.new_file_key;
    door.keep_opening_access = request.keep_opening_access;
    core::RekeyChanges& changes = door.changes;
    changes.remove_slots = request.remove_slots;
    for (const std::string& r : request.remove_recipients)
      changes.remove_recipients.push_back(core::parse_recipient(r));
    for (const std::string& path : request.remove_identity_files)
      for (core::Credential& c : core::door::read_key_or_identity_file(path, reading))
        changes.remove_opened_by.push_back(std::move(c));
    if (request.remove_keys != nullptr)
      for (const core::Credential& c : Access::of(*request.remove_keys).credentials)
        changes.remove_opened_by.push_back(core::copy_of(c));
    for (const std::string& path : request.add_key_files)
      changes.add.push_back(core::door::read_key_file(path, core::door::KeyFileUse::encrypt));
    for (core::Credential& c : core::door::gather_recipients(request.add_recipients, {}, false, {}, reading))
      changes.add.push_back(std::move(c));
    if (request.add_passphrase) changes.add.push_back(passphrase_credential(*request.add_passphrase));
    if (request.add_keys != nullptr)
      for (const core::Credential& c : Access::of(*request.add_keys).credentials)
        changes.add.push_back(core::copy_of(c));
    core::door::NewFileSettings settings;
    settings.format = impl_->file->description().format;
    if (request.argon2id_memory_bytes != 0) settings.argon2id.memlimit_bytes = request.argon2id_memory_bytes;
    if (request.argon2id_passes != 0) settings.argon2id.opslimit = request.argon2id_passes;
    if (options.session != nullptr) {
      settings.engine = Access::of(*options.session).engine;
      settings.kek_cache = Access::of(*options.session).cache.get();
    }
    changes.kdf = settings.argon2id;
    const core::door::RekeyResult r =
        impl_->file->rekey(std::move(door), *Access::of(sink).writer, settings, run_options(options));
    return RekeyResult{
        r.slots_before, r.slots_after, r.header_bytes_before, r.header_bytes_after, r.copied_bytes,
        r.kept,         r.dropped};
  });
}

void check_recipients_for(Format format, std::size_t key_files, std::size_t recipients, bool passphrase) {
  guarded(Phase::other, [&] {
    core::door::check_credentials_for(format == Format::age ? core::Format::age : core::Format::pcrypt,
                                      key_files, recipients, passphrase);
    return 0;
  });
}

Transfer encrypt(Source plaintext, Sink sink, const Recipients& to, const EncryptOptions& options) {
  return guarded(Phase::other, [&] {
    const std::vector<core::Credential> credentials = detail::encryption_credentials(to, options);
    const core::door::EncryptSettings settings = detail::encrypt_settings(options);
    const core::door::Transfer t =
        core::door::encrypt(*Access::of(plaintext).reader, *Access::of(sink).writer, credentials, settings,
                            core::door::RunOptions{options.threads, options.progress});
    return transfer_of(t);
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

static_assert(limits::min_chunk_size == core::door::kMinChunkSize &&
              limits::max_chunk_size == core::door::kMaxChunkSize);
static_assert(limits::min_argon2id_passes == core::door::kMinKdfOps &&
              limits::max_argon2id_passes == core::door::kMaxKdfOps);
static_assert(limits::min_argon2id_memory_kib == core::door::kMinKdfMemoryKib &&
              limits::max_argon2id_memory_kib == core::door::kMaxKdfMemoryKib);
static_assert(limits::max_slots == core::door::kMaxSlots &&
              limits::max_scrypt_log2 == core::door::kMaxScryptLog2);

std::uint64_t parse_size(std::string_view text, std::string_view option) {
  return guarded(Phase::other, [&] { return core::parse_size(text, option); });
}

std::string format_bytes(std::uint64_t bytes) {
  return guarded(Phase::other, [&] { return core::format_bytes(bytes); });
}

std::string describe_engines(const std::optional<std::string>& chosen) {
  return guarded(Phase::other, [&] {
    std::string table = aes::describe_engines(chosen ? &core::choose_engine(*chosen) : nullptr);
    table += "age payloads, ChaCha20-Poly1305:";
    for (const chacha::ChaChaBackend backend : chacha::available_chacha_backends()) {
      table += ' ';
      table += chacha::backend_name(backend);
    }
    table += " (the first is used)\n";
    return table;
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
  std::size_t read_key_files = 0, read_recipients = 0;
  bool read_passphrase = false;
  if (to.keys != nullptr)
    for (const core::Credential& c : Access::of(*to.keys).credentials) {
      read_key_files += c.kind == core::Credential::Kind::key_file;
      read_recipients += c.kind == core::Credential::Kind::recipient;
      read_passphrase |= c.kind == core::Credential::Kind::passphrase;
      credentials.push_back(core::copy_of(c));
    }
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
                                    read_key_files + to.key_files.size(),
                                    read_recipients + to.recipients.size() + to.recipient_files.size(),
                                    read_passphrase || to.passphrase.has_value());
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
  settings.header_written = options.header_written;
  if (options.session != nullptr) {
    settings.file.engine = Access::of(*options.session).engine;
    settings.file.kek_cache = Access::of(*options.session).cache.get();
  }
  return settings;
}

}  // namespace detail

}  // namespace v0
}  // namespace pcrypt
