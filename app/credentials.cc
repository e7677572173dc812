#include "app/credentials.h"

#include <string>

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

}  // namespace

void require_credential(const CryptArgs& args) {
  if (args.key_files.empty() && !wants_passphrase(args))
    throw core::Error(core::ErrorKind::usage, "no key given: use -k KEYFILE or -p",
                      "create a key file with 'pcrypt keygen -o KEYFILE'");
}

std::vector<core::Credential> gather_credentials(const CryptArgs& args, PassphrasePurpose purpose) {
  require_credential(args);
  std::vector<core::Credential> credentials;
  for (const std::string& path : args.key_files) credentials.push_back(read_key_file(path));
  if (wants_passphrase(args))
    credentials.push_back(core::Credential{core::Credential::Kind::passphrase,
                                           obtain_passphrase(args.passphrase_file, purpose)});
  return credentials;
}

}  // namespace pcrypt::app
