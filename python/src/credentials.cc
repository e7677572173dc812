#include "python/src/credentials.h"

#include <algorithm>
#include <span>

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

bool is_cobblestone(pcrypt::Format format) {
  return format == pcrypt::Format::cobblestone_128 || format == pcrypt::Format::cobblestone_256;
}

std::span<const std::uint8_t> bytes_of(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// Whether the credentials are one raw key, checked against the format: a Cobblestone format takes exactly
// one raw key (and a context) and nothing else; the others take none.
bool raw_key_given(const CredentialArgs& args, bool cobblestone) {
  const bool raw = args.raw_key_file || args.raw_key;
  if (!cobblestone) {
    if (raw || args.context)
      throw usage("raw_key= and context= are for C2SP chunked encryption",
                  "name the format: format=\"cobblestone-128\" (or \"cobblestone-256\")");
    return false;
  }
  if (!args.keys.empty() || !args.identities.empty() || !args.recipients.empty() ||
      !args.recipient_files.empty() || args.passphrase)
    throw pcrypt::Error(PCRYPT_E_CREDENTIAL_MIX,
                        *args.format +
                            " has no recipients, passphrases, key files or identities: it is encrypted "
                            "with one raw key",
                        "give the key as raw_key= (and context= if the application uses one)");
  if (!raw)
    throw pcrypt::Error(PCRYPT_E_NO_CREDENTIAL, "format=\"" + *args.format + "\" needs raw_key=",
                        "make a key with pcrypt.keygen(path, raw=" +
                            std::string(args.format->ends_with("128") ? "16" : "32") + ")");
  return true;
}

void add_raw_key(const CredentialArgs& args, pcrypt::Keys& keys) {
  const std::span<const std::uint8_t> context =
      args.context ? bytes_of(*args.context) : std::span<const std::uint8_t>();
  if (args.raw_key_file)
    keys.add_raw_key_file(*args.raw_key_file, context);
  else
    keys.add_raw_key(pcrypt::SecretBytes(bytes_of(*args.raw_key)), context);
}

bool reads_cobblestone(const CredentialArgs& args) {
  return args.format && is_cobblestone(format_named(*args.format));
}

}  // namespace

pcrypt::Format format_named(const std::string& name) {
  if (name == "pcrypt") return pcrypt::Format::pcrypt;
  if (name == "age") return pcrypt::Format::age;
  if (name == "cobblestone-128") return pcrypt::Format::cobblestone_128;
  if (name == "cobblestone-256") return pcrypt::Format::cobblestone_256;
  throw usage("unknown format '" + name + "'",
              "use format=\"pcrypt\", \"age\", \"cobblestone-128\" or \"cobblestone-256\"");
}

pcrypt::Recipients encryption_recipients(const CredentialArgs& args, pcrypt::Format format,
                                         pcrypt::Keys& keys) {
  pcrypt::Recipients to;
  if (raw_key_given(args, is_cobblestone(format))) {
    add_raw_key(args, keys);
    to.keys = &keys;
    return to;
  }
  if (!args.identities.empty())
    throw usage("identities= cannot encrypt",
                "encrypt to the identity's recipient (pcrypt.recipients(path))");
  check_passphrase(args);
  if (args.keys.empty() && args.recipients.empty() && args.recipient_files.empty() && !args.passphrase)
    throw usage("no key given: pass keys=, recipients=, recipient_files= or passphrase=",
                "create a key file with pcrypt.keygen(path)");
  to.key_files = once_each(args.keys);
  to.recipients = args.recipients;
  to.recipient_files = args.recipient_files;
  to.passphrase = args.passphrase;
  return to;
}

pcrypt::Credentials decryption_credentials(const CredentialArgs& args, pcrypt::Keys& keys) {
  pcrypt::Credentials by;
  if (raw_key_given(args, reads_cobblestone(args))) {
    add_raw_key(args, keys);
    by.keys = &keys;
    return by;
  }
  if (!args.recipients.empty() || !args.recipient_files.empty())
    throw usage("recipients cannot decrypt", "pass the identity file that opens them as identities=");
  check_passphrase(args);
  if (args.keys.empty() && args.identities.empty() && !args.passphrase)
    throw usage("no key given: pass keys=, identities= or passphrase=",
                "pcrypt.info(path) lists the file's key slots");
  by.key_files = once_each(args.keys);
  by.identity_files = args.identities;
  if (args.passphrase) by.passphrase = [passphrase = *args.passphrase] { return passphrase; };
  return by;
}

pcrypt::File open_file(pcrypt::Source source, const CredentialArgs& args) {
  if (reads_cobblestone(args)) return pcrypt::File::open(std::move(source), format_named(*args.format));
  return pcrypt::File::open(std::move(source));
}

void unlock(pcrypt::File& file, const CredentialArgs& args, const std::string& name) {
  pcrypt::Keys keys;
  const pcrypt::Credentials credentials = decryption_credentials(args, keys);
  const pcrypt::Description& d = file.describe();
  if (credentials.keys == nullptr && args.keys.empty() && args.identities.empty() && d.passphrase_slots == 0)
    throw pcrypt::Error(
        PCRYPT_E_UNHANDLED_STANZA,
        name + " has no passphrase slot, only " + d.slots_in_words + ": passphrase= cannot open it",
        d.format == pcrypt::Format::age ? "decrypt it with identities="
                                        : "decrypt it with keys= (or identities=)");
  file.unlock(credentials);
}

}  // namespace pcrypt::python
