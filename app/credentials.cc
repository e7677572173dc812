#include "app/credentials.h"

#include <unistd.h>

#include <optional>
#include <string>

#include "app/crypt_options.h"
#include "app/endpoints.h"
#include "app/environment.h"
#include "app/error_words.h"
#include "app/logging.h"
#include "app/report.h"
#include "io/file_info.h"

namespace pcrypt::app {
namespace {

// The same key named twice (`-k k -k k`, a symlink, a hard link or a copy) would get two identical slots
// (or be tried twice): identity is the key itself, not the path. Warns once per key, on the first repeat.
void add_key_files(Keys& keys, const std::vector<std::string>& key_files, PassphrasePurpose purpose) {
  std::vector<std::string> paths;  // of the keys held, by index
  std::vector<bool> warned;
  for (const std::string& path : key_files) {
    const Keys::Added held = keys.add_key_file(path, purpose == PassphrasePurpose::encrypt);
    if (held.added) {
      paths.resize(keys.size());
      warned.resize(keys.size());
      paths.back() = path;
      continue;
    }
    const std::size_t i = held.index;
    if (!warned[i] && path == paths[i])
      log::warn("key file {} is given more than once; using it once", path);
    else if (!warned[i])
      log::warn("key files {} and {} hold the same key; using it once", paths[i], path);
    warned[i] = true;
  }
}

bool can_ask_passphrase() {
  return io::is_terminal(STDIN_FILENO) && io::is_terminal(STDERR_FILENO);
}

CliError no_decryption_credential(const std::string& hint) {
  return CliError(PCRYPT_E_NO_CREDENTIAL, "no key given: use -k KEYFILE, -i IDENTITY or -p", hint);
}

// Key files, recipients and identities: everything but the passphrase, which may wait for the header.
// Encrypting, an identity (-i) stands for its recipient; decrypting, it opens slots.
Keys gather_key_files(const CryptArgs& args, PassphrasePurpose purpose) {
  Keys keys = terminal_keys();
  if (!args.raw_key.empty()) {
    const std::vector<std::uint8_t> context = context_bytes(args);
    keys.add_raw_key_file(args.raw_key, context);
    return keys;  // check_raw_key_options: nothing else comes with a raw key
  }
  add_key_files(keys, args.key_files, purpose);
  if (purpose == PassphrasePurpose::encrypt) {
    if (!args.recipients.empty() || !args.recipient_files.empty() || !args.identity_files.empty()) {
      refuse_recipients_from_data_input(args.recipient_files, is_standard_stream(args.file));
      keys.add_recipients(args.recipients, args.recipient_files, args.identity_files);
    }
  } else {
    for (const std::string& path : args.identity_files) keys.add_identity_file(path);
    for (const std::string& name : args.plugin_names) keys.add_plugin(name);
  }
  return keys;
}

}  // namespace

void require_credential(const CryptArgs& args, PassphrasePurpose purpose) {
  check_raw_key_options(args);
  if (!args.raw_key.empty()) return;
  if (!args.key_files.empty() || wants_passphrase(args) || !args.recipients.empty() ||
      !args.recipient_files.empty() || !args.identity_files.empty() || !args.plugin_names.empty())
    return;
  if (purpose == PassphrasePurpose::encrypt)
    throw CliError(PCRYPT_E_NO_CREDENTIAL,
                   "no key given: use -k KEYFILE, -r RECIPIENT, -R FILE, -i IDENTITY or -p",
                   "create a key file with 'pcrypt keygen -o KEYFILE'");
  if (!can_ask_passphrase() && passphrase_from_environment() == nullptr)
    throw no_decryption_credential("'pcrypt info FILE' lists the file's key slots");
}

Keys gather_credentials(const CryptArgs& args, PassphrasePurpose purpose) {
  require_credential(args, purpose);
  Keys keys = gather_key_files(args, purpose);
  if (wants_passphrase(args)) {
    keys.add_passphrase(obtain_passphrase(args.passphrase_file, purpose, args.passphrase_role));
  }
  return keys;
}

DecryptionKeys::DecryptionKeys(const CryptArgs& args)
    : wants_passphrase_(wants_passphrase(args)),
      keys_(gather_key_files(args, PassphrasePurpose::decrypt)),
      role_(args.passphrase_role) {
  // With no credential at all, $PCRYPT_PASSPHRASE stands in for the prompt (for passphrase-only files, as
  // choose() says), as -p would take it.
  const bool no_credential = keys_.size() == 0 && !wants_passphrase_;
  if ((wants_passphrase_ || no_credential) &&
      (!args.passphrase_file.empty() || passphrase_from_environment() != nullptr)) {
    passphrase_ = obtain_passphrase(args.passphrase_file, PassphrasePurpose::decrypt);
    has_passphrase_ = true;
  }
}

bool DecryptionKeys::choose(const Description& description, const std::string& file) {
  const std::size_t passphrase_slots = description.passphrase_slots;
  const std::size_t slots = description.slots;
  const std::string& described = description.slots_in_words;
  const bool no_keys = keys_.size() == 0;
  const auto with_passphrase = [this] {
    if (!has_passphrase_) {
      passphrase_ = ask_passphrase(role_);
      has_passphrase_ = true;
    }
    return true;
  };
  if (wants_passphrase_ && passphrase_slots == 0) {
    if (no_keys)
      throw CliError(PCRYPT_E_UNHANDLED_STANZA,
                     file + " has no passphrase slot, only " + described + ": -p cannot open it",
                     description.format == Format::age
                         ? "decrypt it with -i IDENTITY (an age file has no key-file slots)"
                         : "decrypt it with -k KEYFILE (or -i IDENTITY)");
    log::warn("{} has no passphrase slot; -p ignored", file);
    return false;
  }
  if (wants_passphrase_) return with_passphrase();
  if (!no_keys) return false;
  // No credential at all: require_credential let this through only on a terminal or with $PCRYPT_PASSPHRASE.
  if (passphrase_slots == slots && (has_passphrase_ || can_ask_passphrase())) return with_passphrase();
  throw no_decryption_credential(file + " has " + described);
}

Credentials DecryptionKeys::credentials(const Credentials& base, bool with_passphrase) const {
  Credentials c = base;
  c.keys = &keys_;
  // The library copies the answer into guarded memory and wipes the string.
  if (with_passphrase) c.passphrase = [this] { return std::optional<std::string>(passphrase_.text()); };
  return c;
}

DecryptionInput::DecryptionInput(const CryptArgs& args, const Input& input, DecryptionKeys* run_keys)
    : DecryptionInput(args, source_of(input), input.name, run_keys) {}

DecryptionInput::DecryptionInput(const CryptArgs& args, Source source, const std::string& name,
                                 DecryptionKeys* run_keys)
    : keys_(run_keys), name_(name) {
  if (keys_ == nullptr) keys_ = &own_keys_.emplace(args);                        // read before the header
  const Format told = cobblestone_format(args.format).value_or(Format::pcrypt);  // else: by its first bytes
  file_.emplace(naming_input(name_, [&] { return File::open(std::move(source), told); }));
  with_passphrase_ = keys_->choose(file_->describe(), name_);
}

std::string DecryptionInput::unlock(const Credentials& base) {
  return naming_input(name_, [&] { return file_->unlock(keys_->credentials(base, with_passphrase_)); });
}

}  // namespace pcrypt::app
