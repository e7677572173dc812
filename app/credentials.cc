#include "app/credentials.h"

#include <sodium.h>
#include <spdlog/spdlog.h>

#include <string>

#include "app/public_key_credentials.h"
#include "app/secret_file.h"
#include "core/error.h"
#include "core/key_file.h"

namespace pcrypt::app {
namespace {

// Key files are tiny (FORMAT.md §7 caps them at 4 KiB); reading a little more lets the parser report the
// oversize instead of us silently truncating.
constexpr std::size_t kKeyFileReadLimit = 64 * 1024;

core::Credential read_key_file(const std::string& path) {
  SecretBytes text(kKeyFileReadLimit);
  const std::size_t len = read_secret_file(path, "key file", text.data(), text.size(),
                                           "create one with 'pcrypt keygen -o " + path + "'");
  return core::parse_key_file(core::key_file_text(text).substr(0, len), path);
}

bool same_secret(const core::Credential& a, const core::Credential& b) {
  return a.secret.size() == b.secret.size() &&
         sodium_memcmp(a.secret.data(), b.secret.data(), a.secret.size()) == 0;
}

// The same key named twice (`-k k -k k`, a symlink, a hard link or a copy) would get two identical slots
// (or be tried twice): identity is the key itself, not the path. Warns once per key, on the first repeat.
void add_key_file(std::vector<core::Credential>& credentials, std::vector<std::string>& paths,
                  std::vector<bool>& warned, const std::string& path) {
  core::Credential key = read_key_file(path);
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

}  // namespace

void require_credential(const CryptArgs& args) {
  if (args.key_files.empty() && !wants_passphrase(args) && args.recipients.empty() &&
      args.recipient_files.empty() && args.identity_files.empty())
    throw core::Error(core::ErrorKind::usage,
                      "no key given: use -k KEYFILE or -p (or -r/-R to encrypt, -i to decrypt)",
                      "create a key file with 'pcrypt keygen -o KEYFILE'");
}

std::vector<core::Credential> gather_credentials(const CryptArgs& args, PassphrasePurpose purpose) {
  require_credential(args);
  std::vector<core::Credential> credentials;
  std::vector<std::string> paths;
  std::vector<bool> warned;
  for (const std::string& path : args.key_files) add_key_file(credentials, paths, warned, path);
  const bool data_from_stdin = args.file.empty() || args.file == "-";
  for (core::Credential& c : gather_recipients(args.recipients, args.recipient_files, data_from_stdin))
    credentials.push_back(std::move(c));
  for (core::Credential& c : gather_identities(args.identity_files)) credentials.push_back(std::move(c));
  if (wants_passphrase(args))
    credentials.push_back(core::Credential{core::Credential::Kind::passphrase,
                                           obtain_passphrase(args.passphrase_file, purpose)});
  return credentials;
}

}  // namespace pcrypt::app
