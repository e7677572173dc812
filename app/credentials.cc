#include "app/credentials.h"

#include <sodium.h>
#include <spdlog/spdlog.h>

#include <unistd.h>

#include <cstring>
#include <optional>
#include <string>

#include "app/endpoints.h"
#include "app/environment.h"
#include "app/public_key_credentials.h"
#include "app/report.h"
#include "core/door/credential_files.h"
#include "core/error.h"
#include "io/file_info.h"

namespace pcrypt::app {
namespace {

core::door::KeyFileUse key_file_use(PassphrasePurpose purpose) {
  return purpose == PassphrasePurpose::encrypt ? core::door::KeyFileUse::encrypt
                                               : core::door::KeyFileUse::decrypt;
}

}  // namespace

std::vector<core::Credential> read_key_or_identity_file(const std::string& path) {
  return core::door::read_key_or_identity_file(path, terminal_reading());
}

namespace {

bool same_secret(const core::Credential& a, const core::Credential& b) {
  return a.secret.size() == b.secret.size() &&
         sodium_memcmp(a.secret.data(), b.secret.data(), a.secret.size()) == 0;
}

// The same key named twice (`-k k -k k`, a symlink, a hard link or a copy) would get two identical slots
// (or be tried twice): identity is the key itself, not the path. Warns once per key, on the first repeat.
void add_key_file(std::vector<core::Credential>& credentials, std::vector<std::string>& paths,
                  std::vector<bool>& warned, const std::string& path, PassphrasePurpose purpose) {
  core::Credential key = core::door::read_key_file(path, key_file_use(purpose));
  for (std::size_t i = 0; i < credentials.size(); ++i) {
    if (!same_secret(credentials[i], key)) continue;
    if (!warned[i] && path == paths[i])
      spdlog::warn("key file {} is given more than once; using it once", path);
    else if (!warned[i])
      spdlog::warn("key files {} and {} hold the same key; using it once", paths[i], path);
    warned[i] = true;
    return;
  }
  credentials.push_back(std::move(key));
  paths.push_back(path);
  warned.push_back(false);
}

bool can_ask_passphrase() {
  return io::is_terminal(STDIN_FILENO) && io::is_terminal(STDERR_FILENO);
}

core::Error no_decryption_credential(const std::string& hint) {
  return core::Error(core::ErrorKind::usage, "no key given: use -k KEYFILE, -i IDENTITY or -p", hint);
}

// Key files, recipients and identities: everything but the passphrase, which may wait for the header.
// Encrypting, an identity (-i) stands for its recipient; decrypting, it opens slots.
std::vector<core::Credential> gather_key_files(const CryptArgs& args, PassphrasePurpose purpose) {
  std::vector<core::Credential> credentials;
  std::vector<std::string> paths;
  std::vector<bool> warned;
  for (const std::string& path : args.key_files) add_key_file(credentials, paths, warned, path, purpose);
  const bool data_from_stdin = is_standard_stream(args.file);
  if (purpose == PassphrasePurpose::encrypt) {
    for (core::Credential& c :
         gather_recipients(args.recipients, args.recipient_files, data_from_stdin, args.identity_files))
      credentials.push_back(std::move(c));
  } else {
    for (core::Credential& c : gather_identities(args.identity_files)) credentials.push_back(std::move(c));
    for (const std::string& name : args.plugin_names)
      credentials.push_back(core::Credential::of(core::default_plugin_identity(name)));
  }
  return credentials;
}

}  // namespace

void require_credential(const CryptArgs& args, PassphrasePurpose purpose) {
  if (!args.key_files.empty() || wants_passphrase(args) || !args.recipients.empty() ||
      !args.recipient_files.empty() || !args.identity_files.empty() || !args.plugin_names.empty())
    return;
  if (purpose == PassphrasePurpose::encrypt)
    throw core::Error(core::ErrorKind::usage,
                      "no key given: use -k KEYFILE, -r RECIPIENT, -R FILE, -i IDENTITY or -p",
                      "create a key file with 'pcrypt keygen -o KEYFILE'");
  if (!can_ask_passphrase() && passphrase_from_environment() == nullptr)
    throw no_decryption_credential("'pcrypt info FILE' lists the file's key slots");
}

std::vector<core::Credential> gather_credentials(const CryptArgs& args, PassphrasePurpose purpose) {
  require_credential(args, purpose);
  std::vector<core::Credential> credentials = gather_key_files(args, purpose);
  if (wants_passphrase(args))
    credentials.push_back(
        core::Credential{core::Credential::Kind::passphrase,
                         obtain_passphrase(args.passphrase_file, purpose, args.passphrase_role)});
  return credentials;
}

DecryptionKeys::DecryptionKeys(const CryptArgs& args)
    : wants_passphrase_(wants_passphrase(args)),
      keys_(gather_key_files(args, PassphrasePurpose::decrypt)),
      role_(args.passphrase_role) {
  // With no credential at all, $PCRYPT_PASSPHRASE stands in for the prompt (for passphrase-only files, as
  // for_header() says), as -p would take it.
  const bool no_credential = keys_.empty() && !wants_passphrase_;
  if ((wants_passphrase_ || no_credential) &&
      (!args.passphrase_file.empty() || passphrase_from_environment() != nullptr)) {
    passphrase_ = obtain_passphrase(args.passphrase_file, PassphrasePurpose::decrypt);
    has_passphrase_ = true;
  }
}

const std::vector<core::Credential>& DecryptionKeys::for_file(const core::door::FileDescription& described,
                                                              const std::string& file) {
  return choose(described, file);
}

const std::vector<core::Credential>& DecryptionKeys::choose(const core::door::FileDescription& description,
                                                            const std::string& file) {
  const std::size_t passphrase_slots = description.passphrase_slots;
  const std::size_t slots = description.slots;
  const std::string& described = description.slots_in_words;
  // keys_ holds a passphrase only when the previous file was lent it: take it back.
  if (!keys_.empty() && keys_.back().kind == core::Credential::Kind::passphrase) {
    passphrase_ = std::move(keys_.back().secret);
    keys_.pop_back();
  }
  const auto with_passphrase = [this]() -> const std::vector<core::Credential>& {
    if (!has_passphrase_) {
      passphrase_ = ask_passphrase(role_);
      has_passphrase_ = true;
    }
    keys_.push_back(core::Credential{core::Credential::Kind::passphrase, std::move(passphrase_)});
    return keys_;
  };
  if (wants_passphrase_ && passphrase_slots == 0) {
    if (keys_.empty())
      throw core::Error(core::ErrorKind::header,
                        file + " has no passphrase slot, only " + described + ": -p cannot open it",
                        description.format == core::Format::age
                            ? "decrypt it with -i IDENTITY (an age file has no key-file slots)"
                            : "decrypt it with -k KEYFILE (or -i IDENTITY)");
    spdlog::warn("{} has no passphrase slot; -p ignored", file);
    return keys_;
  }
  if (wants_passphrase_) return with_passphrase();
  if (!keys_.empty()) return keys_;
  // No credential at all: require_credential let this through only on a terminal or with $PCRYPT_PASSPHRASE.
  if (passphrase_slots == slots && (has_passphrase_ || can_ask_passphrase())) return with_passphrase();
  throw no_decryption_credential(file + " has " + described);
}

DecryptionInput::DecryptionInput(const CryptArgs& args, io::Reader& in, const std::string& name,
                                 DecryptionKeys* run_keys)
    : own_keys_(run_keys == nullptr ? std::make_optional<DecryptionKeys>(args) : std::nullopt), name_(name) {
  DecryptionKeys& keys = run_keys != nullptr ? *run_keys : *own_keys_;
  file_ = naming_input(name, [&] { return std::make_unique<core::door::EncryptedFile>(in); });
  credentials_ = &keys.for_file(file_->description(), name);
}

std::string DecryptionInput::unlock(const core::door::UnlockLimits& limits) {
  return naming_input(name_, [&] { return file_->unlock(*credentials_, limits); });
}

}  // namespace pcrypt::app
