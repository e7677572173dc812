#include "python/src/credentials.h"

#include <sodium.h>

#include <algorithm>

#include "core/door/credential_files.h"
#include "core/error.h"

namespace pcrypt::python {
namespace {

core::Error usage(const std::string& message, const std::string& hint) {
  return core::Error(core::ErrorKind::usage, message, hint);
}

enum class Purpose { encrypt, decrypt };

// The door's readers, as the CLI uses them (a protected SSH key cannot be asked for: Python has no terminal
// here), each key file once; then the passphrase given as a string.
std::vector<core::Credential> gather(const CredentialArgs& args, Purpose purpose) {
  const core::door::CredentialReading reading;
  std::vector<core::Credential> credentials;
  for (const std::string& path : args.keys) {
    core::Credential key =
        core::door::read_key_file(path, purpose == Purpose::encrypt ? core::door::KeyFileUse::encrypt
                                                                    : core::door::KeyFileUse::decrypt);
    const bool repeated = std::any_of(credentials.begin(), credentials.end(), [&](const core::Credential& c) {
      return c.secret.size() == key.secret.size() &&
             sodium_memcmp(c.secret.data(), key.secret.data(), key.secret.size()) == 0;
    });
    if (!repeated) credentials.push_back(std::move(key));
  }
  if (purpose == Purpose::encrypt) {
    for (core::Credential& c :
         core::door::gather_recipients(args.recipients, args.recipient_files, false, {}, reading))
      credentials.push_back(std::move(c));
  } else {
    for (core::Credential& c : core::door::gather_identities(args.identities, reading))
      credentials.push_back(std::move(c));
  }
  if (args.passphrase) {
    if (args.passphrase->empty()) throw usage("empty passphrase", "give a non-empty passphrase=");
    SecretBytes secret(args.passphrase->size());
    std::copy(args.passphrase->begin(), args.passphrase->end(), secret.data());
    // Built in place: moving a temporary Credential makes GCC 12 warn (-Wmaybe-uninitialized) about the
    // disengaged optional<Identity> inside it, and clang 14 has no parenthesized aggregate init.
    core::Credential& passphrase = credentials.emplace_back();
    passphrase.kind = core::Credential::Kind::passphrase;
    passphrase.secret = std::move(secret);
  }
  return credentials;
}

}  // namespace

std::vector<core::Credential> encryption_credentials(const CredentialArgs& args) {
  if (!args.identities.empty())
    throw usage("identities= cannot encrypt",
                "encrypt to the identity's recipient (pcrypt.recipients(path))");
  std::vector<core::Credential> credentials = gather(args, Purpose::encrypt);
  if (credentials.empty())
    throw usage("no key given: pass keys=, recipients=, recipient_files= or passphrase=",
                "create a key file with pcrypt.keygen(path)");
  return credentials;
}

std::vector<core::Credential> decryption_credentials(const CredentialArgs& args) {
  if (!args.recipients.empty() || !args.recipient_files.empty())
    throw usage("recipients cannot decrypt", "pass the identity file that opens them as identities=");
  std::vector<core::Credential> credentials = gather(args, Purpose::decrypt);
  if (credentials.empty())
    throw usage("no key given: pass keys=, identities= or passphrase=",
                "pcrypt.info(path) lists the file's key slots");
  return credentials;
}

}  // namespace pcrypt::python
