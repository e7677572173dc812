#include "app/credentials.h"

#include <sodium.h>
#include <spdlog/spdlog.h>

#include <unistd.h>

#include <cstring>
#include <optional>
#include <string>

#include "app/endpoints.h"
#include "app/environment.h"
#include "app/header_peek.h"
#include "app/public_key_credentials.h"
#include "app/report.h"
#include "app/secret_file.h"
#include "core/age/detect.h"
#include "core/error.h"
#include "core/keys/key_file.h"
#include "core/pcrypt/file_description.h"
#include "core/pcrypt/format.h"
#include "io/file_info.h"

namespace pcrypt::app {
namespace {

// Key files are tiny (FORMAT.md §7 caps them at 4 KiB); reading a little more lets the parser report the
// oversize instead of us silently truncating.
constexpr std::size_t kKeyFileReadLimit = std::size_t{64} * 1024;

// A missing key file: encrypting, a new one can be made; decrypting, a new key opens nothing.
std::string missing_key_file_hint(const std::string& path, PassphrasePurpose purpose) {
  if (purpose == PassphrasePurpose::encrypt) return "create one with 'pcrypt keygen -o " + path + "'";
  return "check the path: only the key file the data was encrypted with opens it ('pcrypt info FILE' lists "
         "what does)";
}

core::Credential read_key_file(const std::string& path, PassphrasePurpose purpose) {
  SecretBytes text(kKeyFileReadLimit);
  const std::size_t len =
      read_secret_file(path, "key file", text.data(), text.size(), missing_key_file_hint(path, purpose));
  // `-k secret.pcrypt` (the file to decrypt given as the key) is a common slip; say so plainly.
  if (len >= core::kMagic.size() && std::memcmp(text.data(), core::kMagic.data(), core::kMagic.size()) == 0)
    throw core::Error(core::ErrorKind::usage, path + " is an encrypted pcrypt file, not a key file",
                      "give it as the FILE to decrypt, and its key file with -k KEYFILE");
  // An identity, a public key or an age file given to -k: name it and the option that takes it.
  if (const auto other = core::recognise_other_file(text.span().first(len));
      other && other->kind != core::OtherFile::Kind::pcrypt_key_file)
    throw core::Error(core::ErrorKind::usage, path + " is " + other->what + ", not a pcrypt key file",
                      other->hint);
  return core::parse_key_file(core::key_file_text(text).substr(0, len), path);
}

}  // namespace

std::vector<core::Credential> read_key_or_identity_file(const std::string& path) {
  SecretBytes text(kKeyFileReadLimit);
  const std::size_t len = read_secret_file(path, "key or identity file", text.data(), text.size());
  const auto other = core::recognise_other_file(text.span().first(len));
  if (other && (other->kind == core::OtherFile::Kind::identity ||
                other->kind == core::OtherFile::Kind::ssh_private_key))
    return gather_identities({path});
  std::vector<core::Credential> out;
  out.push_back(read_key_file(path, PassphrasePurpose::decrypt));
  return out;
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
  core::Credential key = read_key_file(path, purpose);
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

// Header errors name the input, as every error about the input's bytes does.
template <typename Open>
auto naming_input(const std::string& name, Open open) {
  try {
    return open();
  } catch (const core::Error& e) {
    if (e.kind() != core::ErrorKind::header) throw;
    throw core::Error(e.kind(), with_file_context(e.what(), name), e.hint());
  }
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

const std::vector<core::Credential>& DecryptionKeys::for_header(const core::FileHeader& header,
                                                                const std::string& file) {
  return choose(count_slots(header, core::SlotKind::passphrase), header.slots.size(), describe_slots(header),
                file);
}

const std::vector<core::Credential>& DecryptionKeys::for_age_header(const core::age::Header& header,
                                                                    const std::string& file) {
  return choose(core::age::count_stanzas(header, "scrypt"), header.stanzas.size(),
                core::age::describe_stanzas(header), file);
}

const std::vector<core::Credential>& DecryptionKeys::choose(std::size_t passphrase_slots, std::size_t slots,
                                                            const std::string& described,
                                                            const std::string& file) {
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
                        "decrypt it with -k KEYFILE (or -i IDENTITY)");
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
    : own_keys_(run_keys == nullptr ? std::make_optional<DecryptionKeys>(args) : std::nullopt),
      detected_(in, 0) {
  DecryptionKeys& keys = run_keys != nullptr ? *run_keys : *own_keys_;
  // Read exactly the magic first: a pcrypt input must be left where its header ends (range reads and rekey
  // go on with `in` itself), so only a file that is not pcrypt's is read further ahead.
  const auto magic = detected_.peek(core::kMagic.size());
  const bool pcrypt = std::equal(magic.begin(), magic.end(), core::kMagic.begin(), core::kMagic.end());
  const auto format = pcrypt ? core::age::FileFormat::pcrypt
                             : core::age::detect_format(detected_.peek(core::age::kDetectBytes));
  if (format == core::age::FileFormat::age_binary || format == core::age::FileFormat::age_armored) {
    age_ = naming_input(name, [&] { return std::make_unique<core::age::AgeInput>(detected_); });
    credentials_ = &keys.for_age_header(age_->header(), name);
    return;
  }
  naming_input(name, [&] {
    peeked_.emplace(detected_);
    return true;
  });
  credentials_ = &keys.for_header(peeked_->header(), name);
}

void DecryptionInput::require_pcrypt(const std::string& what) const {
  if (is_age())
    throw core::Error(core::ErrorKind::usage, what + " is not supported on age files yet",
                      "decrypt the whole file with 'pcrypt decrypt'");
}

}  // namespace pcrypt::app
