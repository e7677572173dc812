// The opened file (pcrypt::File): open, describe, unlock, then decrypt, verify, ranges, read_at and rekey,
// each one door call (core/door/encrypted_file.h).
#define PCRYPT_BUILDING_LIBRARY
#include <utility>

#include "core/door/credential_files.h"
#include "core/keys/recipient.h"
#include "core/range.h"
#include "lib/internal.h"

namespace pcrypt {
inline namespace v1 {

namespace {

core::door::CredentialReading reading_for(const Credentials* credentials) {
  core::door::CredentialReading reading;
  if (credentials != nullptr && credentials->ssh_key_passphrase) {
    reading.ssh_key_passphrase = [ask = credentials->ssh_key_passphrase](const std::string& key_name) {
      const detail::WipedAnswer answer([&] { return ask(key_name); });
      if (!answer.get()) core::door::refuse_protected_ssh_key(key_name);
      return detail::secret_of(*answer.get());
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
  return Description{detail::public_format(d.format),
                     d.armored,
                     d.header_bytes,
                     d.chunk_size,
                     d.slots,
                     d.passphrase_slots,
                     d.slots_in_words};
}

}  // namespace

void detail::FileImpl::unlocked() const {
  if (!is_unlocked) throw core::Error(PCRYPT_E_WRONG_ORDER, "the file is not unlocked: call unlock() first");
}

const detail::FileImpl::RandomAccess& detail::FileImpl::random_access() {
  unlocked();
  if (const RandomAccess* made = random_access_ready.load(std::memory_order_acquire)) return *made;
  const std::lock_guard lock(random_access_mutex);
  if (const RandomAccess* made = random_access_ready.load(std::memory_order_relaxed)) return *made;
  if (description.armored)
    throw core::Error(PCRYPT_E_NOT_SEEKABLE, "an armored age file cannot be read by ranges",
                      "decrypt it whole, or remove the armor");
  if (positional == nullptr)
    throw core::Error(PCRYPT_E_NOT_SEEKABLE,
                      "read_at and plaintext_size need a source with random access (a file, memory or a "
                      "callback)");
  const core::KeyedPayload& payload = file->payload();
  random_access_made.emplace(RandomAccess{&payload, core::authenticated_size(*positional, payload)});
  random_access_ready.store(&*random_access_made, std::memory_order_release);
  return *random_access_made;
}

detail::CallbackFailure* Access::failure(const File& f) {
  return f.impl_ ? f.impl_->source.impl_->failure : nullptr;
}

detail::FileImpl& Access::of(const File& f) {
  detail::require_not_moved_from(f.impl_.get(), "File");
  return *f.impl_;
}

File::File(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
File::File(File&&) noexcept = default;
File& File::operator=(File&&) noexcept = default;
File::~File() = default;

File File::open(Source source) {
  return open(std::move(source), Format::pcrypt);  // pcrypt or age: told by the first bytes
}

File File::open(Source source, Format format) {
  return detail::guarded(detail::Phase::open, [&] {
    auto impl = std::make_unique<Impl>(std::move(source));
    io::Reader& reader = *Access::of(impl->source).reader;
    impl->file = std::make_unique<core::door::EncryptedFile>(reader, detail::core_format(format));
    impl->description = description_of(impl->file->description());
    impl->positional = reader.positional();
    return File(std::move(impl));
  });
}

const Description& File::describe() const {
  try {
    return Access::of(*this).description;
  } catch (...) {
    detail::rethrow_as_public();
  }
}

std::string File::info(bool all_bytes) const {
  return detail::guarded(detail::Phase::other, [&] {
    Impl& impl = Access::of(*this);
    return impl.file->info(impl.positional ? std::optional(impl.positional->size()) : std::nullopt,
                           all_bytes ? core::door::InfoDetail::all_bytes : core::door::InfoDetail::summary);
  });
}

std::vector<SlotSummary> File::slot_list() const {
  std::vector<SlotSummary> out;
  for (const core::SlotSummary& s : Access::of(*this).file->description().slot_list)
    out.push_back({s.type, s.words, s.tag});
  return out;
}

Sizes File::measure() {
  return detail::guarded(detail::Phase::other, [&] {
    Impl& impl = Access::of(*this);
    const core::door::FileSizes s =
        impl.file->measure(impl.positional ? std::optional(impl.positional->size()) : std::nullopt);
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
  return detail::guarded(detail::Phase::unlock, [&] {
    Impl& impl = Access::of(*this);
    std::vector<std::vector<std::string>> out;
    for (const core::Credential& c : Access::of(keys).credentials)
      out.push_back(impl.file->slots_opened_by(c, limits_for(limits)));
    return out;
  });
}

std::string File::unlock(const Credentials& given) {
  return detail::guarded(detail::Phase::unlock, [&] {
    Impl& impl = Access::of(*this);
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
    if (impl.description.passphrase_slots > 0 && given.passphrase)
      if (const detail::WipedAnswer passphrase([&] { return given.passphrase(); }); passphrase.get())
        credentials.push_back(detail::passphrase_credential(*passphrase.get()));
    if (credentials.empty()) {
      const bool raw_key = impl.description.format == Format::cobblestone_128 ||
                           impl.description.format == Format::cobblestone_256;
      throw core::Error(
          PCRYPT_E_NO_CREDENTIAL, "no credential given: the file has " + impl.description.slots_in_words,
          raw_key ? "give the raw key it was encrypted with in keys (Keys::add_raw_key), with its "
                    "context"
                  : "give identity_files, identities, key_files or a passphrase callback");
    }
    impl.credentials = std::move(credentials);
    std::string opened_by = impl.file->unlock(impl.credentials, limits_for(given));
    impl.is_unlocked = true;
    return opened_by;
  });
}

namespace {

core::door::RunOptions run_options(const RunOptions& options, detail::CallbackFailure& progress_failure) {
  return core::door::RunOptions{detail::checked_threads(options.threads),
                                detail::kept_progress(options.progress, progress_failure)};
}

}  // namespace

Transfer File::decrypt(Sink sink, const RunOptions& options) {
  detail::CallbackFailure progress;
  return detail::guarded_calls(
      detail::Phase::other, {Access::failure(*this), Access::failure(sink), &progress}, [&] {
        Impl& impl = Access::of(*this);
        impl.unlocked();
        return detail::transfer_of(
            impl.file->decrypt(*Access::of(sink).writer, run_options(options, progress)));
      });
}

Transfer File::verify(const RunOptions& options) {
  detail::CallbackFailure progress;
  return detail::guarded_calls(detail::Phase::other, {Access::failure(*this), &progress}, [&] {
    Impl& impl = Access::of(*this);
    impl.unlocked();
    return detail::transfer_of(impl.file->verify(run_options(options, progress)));
  });
}

RangeRead File::read_range(std::uint64_t offset, std::optional<std::uint64_t> length, Sink sink,
                           const RunOptions& options) {
  detail::CallbackFailure progress;
  return detail::guarded_calls(
      detail::Phase::other, {Access::failure(*this), Access::failure(sink), &progress}, [&] {
        Impl& impl = Access::of(*this);
        impl.unlocked();
        io::Writer& out = *Access::of(sink).writer;
        const core::door::RangeRead read =
            impl.file->read_range(core::ByteRange{offset, length}, out, run_options(options, progress));
        return RangeRead{read.result.bytes_written, read.result.records_opened, read.positional};
      });
}

std::size_t File::read_at(std::uint64_t offset, std::span<std::uint8_t> out) const {
  return detail::guarded(detail::Phase::other, [&] {
    Impl& impl = Access::of(*this);
    const Impl::RandomAccess& access = impl.random_access();
    if (offset >= access.size.plaintext_bytes) return std::size_t{0};  // as pread at or past the end
    // The size reported was the one authenticated: a source cut or grown since is not read by its new size.
    if (const std::uint64_t now = impl.positional->size(); now != access.size.file_bytes)
      // Cut or extended since: a payload that changed, as decrypt and verify report it.
      throw core::Error(now < access.size.file_bytes ? PCRYPT_E_TRUNCATED : PCRYPT_E_DAMAGED_RECORD,
                        "the file changed size since it was opened (" +
                            std::to_string(access.size.file_bytes) + " bytes then, " + std::to_string(now) +
                            " now)",
                        "read it again once nothing writes to it");
    core::RangeOptions options;
    options.threads = 1;  // the caller's threads are the parallelism
    return static_cast<std::size_t>(
        core::decrypt_range_into(*impl.positional, *access.payload, offset, out, options).bytes_written);
  });
}

std::uint64_t File::plaintext_size() const {
  return detail::guarded(detail::Phase::other,
                         [&] { return Access::of(*this).random_access().size.plaintext_bytes; });
}

RekeyResult File::rekey(const RekeyRequest& request, Sink sink, const RunOptions& options) {
  detail::CallbackFailure progress;
  return detail::guarded_calls(
      detail::Phase::other, {Access::failure(*this), Access::failure(sink), &progress}, [&] {
        Impl& impl = Access::of(*this);
        impl.unlocked();
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
        for (core::Credential& c : core::door::gather_recipients(request.add_recipients, {}, {}, reading))
          changes.add.push_back(std::move(c));
        if (request.add_passphrase)
          changes.add.push_back(detail::passphrase_credential(*request.add_passphrase));
        if (request.add_keys != nullptr)
          for (const core::Credential& c : Access::of(*request.add_keys).credentials)
            changes.add.push_back(core::copy_of(c));
        core::door::NewFileSettings settings;
        settings.format = impl.file->description().format;
        if (request.argon2id_memory_bytes != 0)
          settings.argon2id.memlimit_bytes = request.argon2id_memory_bytes;
        if (request.argon2id_passes != 0) settings.argon2id.opslimit = request.argon2id_passes;
        if (options.session != nullptr) {
          settings.engine = Access::of(*options.session).engine;
          settings.kek_cache = Access::of(*options.session).cache.get();
        }
        changes.kdf = settings.argon2id;
        const core::door::RekeyResult r = impl.file->rekey(std::move(door), *Access::of(sink).writer,
                                                           settings, run_options(options, progress));
        return RekeyResult{
            r.slots_before, r.slots_after, r.header_bytes_before, r.header_bytes_after, r.copied_bytes,
            r.kept,         r.dropped};
      });
}

namespace detail {

std::function<void(std::uint64_t)> kept_progress(const std::function<void(std::uint64_t)>& progress,
                                                 CallbackFailure& failure) {
  if (!progress) return {};
  return [&progress, &failure](std::uint64_t bytes) {
    try {
      progress(bytes);
    } catch (...) {
      failure.keep_and_rethrow();
    }
  };
}

Transfer transfer_of(const core::door::Transfer& t) {
  return Transfer{t.plaintext_bytes, t.encrypted_bytes, t.header_bytes, t.chunks};
}

}  // namespace detail
}  // namespace v1
}  // namespace pcrypt
