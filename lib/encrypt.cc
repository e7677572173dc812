// New files (pcrypt::encrypt, and the rules the Encryptor shares): the recipients' credentials, checked
// against the format's rules, and the door's settings for the options given.
#define PCRYPT_BUILDING_LIBRARY
#include "core/door/credential_files.h"
#include "lib/internal.h"

namespace pcrypt {
inline namespace v1 {

void check_recipients(const Recipients& to, Format format) {
  detail::guarded(detail::Phase::other, [&] {
    const detail::RecipientCounts n = detail::counts_of(to);
    core::door::check_credentials_for(detail::core_format(format), n.key_files, n.recipients, n.passphrase);
    return 0;
  });
}

Transfer encrypt(Source plaintext, Sink sink, const Recipients& to, const EncryptOptions& options) {
  detail::CallbackFailure progress;
  return detail::guarded_calls(
      detail::Phase::other, {Access::failure(plaintext), Access::failure(sink), &progress}, [&] {
        const std::vector<core::Credential> credentials = detail::encryption_credentials(to, options);
        const core::door::EncryptSettings settings = detail::encrypt_settings(options);
        const core::door::Transfer t = core::door::encrypt(
            *Access::of(plaintext).reader, *Access::of(sink).writer, credentials, settings,
            core::door::RunOptions{detail::checked_threads(options.threads),
                                   detail::kept_progress(options.progress, progress)});
        return detail::transfer_of(t);
      });
}

// What lib/encryptor.cc shares (lib/internal.h): pcrypt::encrypt's rules for the credentials and settings of
// a new file, so that an Encryptor makes the file encrypt() makes.
namespace detail {

core::Format core_format(Format format) {
  switch (format) {
    case Format::age:
      return core::Format::age;
    case Format::cobblestone_128:
      return core::Format::cobblestone_128;
    case Format::cobblestone_256:
      return core::Format::cobblestone_256;
    case Format::pcrypt:
      break;
  }
  return core::Format::pcrypt;
}

Format public_format(core::Format format) {
  switch (format) {
    case core::Format::age:
      return Format::age;
    case core::Format::cobblestone_128:
      return Format::cobblestone_128;
    case core::Format::cobblestone_256:
      return Format::cobblestone_256;
    case core::Format::pcrypt:
      break;
  }
  return Format::pcrypt;
}

RecipientCounts counts_of(const Recipients& to) {
  RecipientCounts n;
  if (to.keys != nullptr)
    for (const core::Credential& c : Access::of(*to.keys).credentials) {
      n.key_files += c.kind == core::Credential::Kind::key_file;
      n.recipients += c.kind == core::Credential::Kind::recipient;
      n.passphrase |= c.kind == core::Credential::Kind::passphrase;
      n.raw_keys += c.kind == core::Credential::Kind::raw_key;
    }
  n.key_files += to.key_files.size();
  n.recipients += to.recipients.size() + to.recipient_files.size() + to.identity_files.size();
  n.passphrase |= to.passphrase.has_value();
  return n;
}

std::vector<core::Credential> encryption_credentials(const Recipients& to, const EncryptOptions& options) {
  const core::door::CredentialReading reading;
  // The format's rules first, before a file is read or Argon2id run.
  const RecipientCounts n = counts_of(to);
  if (n.key_files == 0 && n.recipients == 0 && !n.passphrase && n.raw_keys == 0)
    throw core::Error(PCRYPT_E_NO_CREDENTIAL, "no recipient given",
                      "give recipients, recipient_files, identity_files, key_files or a passphrase");
  core::door::check_credentials_for(core_format(options.format), n.key_files, n.recipients, n.passphrase);
  std::vector<core::Credential> credentials;
  if (to.keys != nullptr)
    for (const core::Credential& c : Access::of(*to.keys).credentials)
      credentials.push_back(core::copy_of(c));
  for (const std::string& path : to.key_files)
    credentials.push_back(core::door::read_key_file(path, core::door::KeyFileUse::encrypt));
  for (core::Credential& c :
       core::door::gather_recipients(to.recipients, to.recipient_files, to.identity_files, reading))
    credentials.push_back(std::move(c));
  if (to.passphrase) credentials.push_back(passphrase_credential(*to.passphrase));
  if (credentials.empty())  // recipients files that held none
    throw core::Error(PCRYPT_E_NO_CREDENTIAL, "no recipient given",
                      "give recipients, recipient_files, identity_files, key_files or a passphrase");
  return credentials;
}

core::door::EncryptSettings encrypt_settings(const EncryptOptions& options) {
  core::door::EncryptSettings settings;
  settings.file.format = core_format(options.format);
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
}  // namespace v1
}  // namespace pcrypt
