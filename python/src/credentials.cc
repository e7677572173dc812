#include "python/src/credentials.h"

#include "app/cli.h"
#include "app/credentials.h"
#include "app/passphrase.h"
#include "core/error.h"

namespace pcrypt::python {
namespace {

core::Error usage(const std::string& message, const std::string& hint) {
  return core::Error(core::ErrorKind::usage, message, hint);
}

// The CLI's gathering of key files, recipients and identities (app::gather_credentials without -p), then the
// passphrase given as a string.
std::vector<core::Credential> gather(const CredentialArgs& args, app::PassphrasePurpose purpose) {
  app::CryptArgs cli;
  cli.file = "<python>";  // not standard input: a recipients file "-" may be read
  cli.key_files = args.keys;
  cli.recipients = args.recipients;
  cli.recipient_files = args.recipient_files;
  cli.identity_files = args.identities;
  std::vector<core::Credential> credentials;
  if (!cli.key_files.empty() || !cli.recipients.empty() || !cli.recipient_files.empty() ||
      !cli.identity_files.empty())
    credentials = app::gather_credentials(cli, purpose);
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
  std::vector<core::Credential> credentials = gather(args, app::PassphrasePurpose::encrypt);
  if (credentials.empty())
    throw usage("no key given: pass keys=, recipients=, recipient_files= or passphrase=",
                "create a key file with pcrypt.keygen(path)");
  return credentials;
}

std::vector<core::Credential> decryption_credentials(const CredentialArgs& args) {
  if (!args.recipients.empty() || !args.recipient_files.empty())
    throw usage("recipients cannot decrypt", "pass the identity file that opens them as identities=");
  std::vector<core::Credential> credentials = gather(args, app::PassphrasePurpose::decrypt);
  if (credentials.empty())
    throw usage("no key given: pass keys=, identities= or passphrase=",
                "pcrypt.info(path) lists the file's key slots");
  return credentials;
}

}  // namespace pcrypt::python
