#include "python/src/credentials.h"

#include <algorithm>

namespace pcrypt::python {
namespace {

pcrypt::Error usage(const std::string& message, const std::string& hint) {
  return pcrypt::Error(PCRYPT_E_BAD_ARGUMENT, message, hint);
}

// Each path once: a key file named twice makes one slot, as on the command line.
std::vector<std::string> once_each(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& p : paths)
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  return out;
}

void check_passphrase(const CredentialArgs& args) {
  if (args.passphrase && args.passphrase->empty())
    throw usage("empty passphrase", "give a non-empty passphrase=");
}

}  // namespace

pcrypt::Recipients encryption_recipients(const CredentialArgs& args) {
  if (!args.identities.empty())
    throw usage("identities= cannot encrypt",
                "encrypt to the identity's recipient (pcrypt.recipients(path))");
  check_passphrase(args);
  if (args.keys.empty() && args.recipients.empty() && args.recipient_files.empty() && !args.passphrase)
    throw usage("no key given: pass keys=, recipients=, recipient_files= or passphrase=",
                "create a key file with pcrypt.keygen(path)");
  pcrypt::Recipients to;
  to.key_files = once_each(args.keys);
  to.recipients = args.recipients;
  to.recipient_files = args.recipient_files;
  to.passphrase = args.passphrase;
  return to;
}

pcrypt::Credentials decryption_credentials(const CredentialArgs& args) {
  if (!args.recipients.empty() || !args.recipient_files.empty())
    throw usage("recipients cannot decrypt", "pass the identity file that opens them as identities=");
  check_passphrase(args);
  if (args.keys.empty() && args.identities.empty() && !args.passphrase)
    throw usage("no key given: pass keys=, identities= or passphrase=",
                "pcrypt.info(path) lists the file's key slots");
  pcrypt::Credentials by;
  by.key_files = once_each(args.keys);
  by.identity_files = args.identities;
  if (args.passphrase) by.passphrase = [passphrase = *args.passphrase] { return passphrase; };
  return by;
}

void unlock(pcrypt::File& file, const CredentialArgs& args, const std::string& name) {
  const pcrypt::Credentials credentials = decryption_credentials(args);
  const pcrypt::Description& d = file.describe();
  if (args.keys.empty() && args.identities.empty() && d.passphrase_slots == 0)
    throw pcrypt::Error(
        PCRYPT_E_UNHANDLED_STANZA,
        name + " has no passphrase slot, only " + d.slots_in_words + ": passphrase= cannot open it",
        d.format == pcrypt::Format::age ? "decrypt it with identities="
                                        : "decrypt it with keys= (or identities=)");
  file.unlock(credentials);
}

}  // namespace pcrypt::python
