#include "core/age/rekey.h"

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include "core/age/stanzas.h"
#include "core/error.h"

namespace pcrypt::core::age {
namespace {

std::string stanza_count(std::size_t n) {
  return std::to_string(n) + (n == 1 ? " stanza" : " stanzas");
}

// The stanzas for `recipient`: an SSH one's, by its tag; an X25519 one's, those an opening identity whose
// recipient it is opens (the only way to recognise an anonymous stanza).
std::vector<std::size_t> stanzas_of(const Header& header, const Recipient& recipient,
                                    const SecretBytes& file_key, const std::vector<Credential>* opening,
                                    unsigned max_scrypt_log2) {
  std::vector<std::size_t> found;
  const auto* x25519 = std::get_if<X25519Recipient>(&recipient);
  for (std::size_t i = 0; i < header.stanzas.size(); ++i) {
    const Stanza& s = header.stanzas[i];
    if (!x25519) {
      if (carries_tag_of(s, recipient)) found.push_back(i);
      continue;
    }
    if (opening == nullptr || s.args[0] != "X25519") continue;
    for (const Credential& c : *opening)
      if (c.kind == Credential::Kind::identity && c.identity && c.identity->kind == Identity::Kind::x25519 &&
          c.identity->public_key == x25519->public_key && opens(s, c, file_key, max_scrypt_log2)) {
        found.push_back(i);
        break;
      }
  }
  return found;
}

std::vector<bool> stanzas_to_remove(const Header& header, const SecretBytes& file_key,
                                    const RekeyChanges& changes, unsigned max_scrypt_log2) {
  const std::size_t count = header.stanzas.size();
  std::vector<bool> remove(count, false);
  for (const std::size_t n : changes.remove_slots) {
    if (n < 1 || n > count)
      throw Error(ErrorKind::usage,
                  "there is no stanza " + std::to_string(n) + " (the file has " + stanza_count(count) + ")",
                  "'pcrypt info FILE' lists the stanzas");
    if (remove[n - 1]) throw Error(ErrorKind::usage, "stanza " + std::to_string(n) + " is given twice");
    remove[n - 1] = true;
  }
  for (const Credential& c : changes.remove_opened_by) {
    bool any = false;
    for (std::size_t i = 0; i < count; ++i)
      if (opens(header.stanzas[i], c, file_key, max_scrypt_log2)) remove[i] = any = true;
    if (!any)
      throw Error(ErrorKind::usage,
                  std::string("a ") + (c.kind == Credential::Kind::key_file ? "key file" : "identity") +
                      " given with --remove-key opens no stanza of this age file",
                  "'pcrypt info FILE' lists the stanzas; --remove-slot N removes one by number");
  }
  for (const Recipient& r : changes.remove_recipients) {
    const std::vector<std::size_t> found = stanzas_of(header, r, file_key, changes.opening, max_scrypt_log2);
    if (found.empty() && std::holds_alternative<X25519Recipient>(r))
      throw Error(ErrorKind::usage,
                  "X25519 stanzas are anonymous: no stanza can be found from an age1... public key",
                  "give the identity instead: --remove-key IDENTITY-FILE");
    if (found.empty())
      throw Error(ErrorKind::usage, "the recipient given with --remove-recipient has no stanza in this file",
                  "'pcrypt info FILE' lists the stanzas and the tags of SSH ones");
    for (const std::size_t i : found) remove[i] = true;
  }
  return remove;
}

}  // namespace

std::string rekey_header(const Header& header, const SecretBytes& file_key, const RekeyChanges& changes,
                         unsigned scrypt_log2, unsigned max_scrypt_log2) {
  if (file_key.size() != kFileKeyBytes || !mac_matches(header, file_key))
    throw Error(ErrorKind::header, "the header does not authenticate under this file key");
  if (changes.remove_slots.empty() && changes.remove_opened_by.empty() && changes.remove_recipients.empty() &&
      changes.add.empty())
    throw Error(ErrorKind::usage, "nothing to change",
                "add a stanza with --add-recipient/--add-passphrase, or remove one with --remove-slot N");
  const std::vector<bool> remove = stanzas_to_remove(header, file_key, changes, max_scrypt_log2);

  std::vector<Stanza> stanzas;
  for (std::size_t i = 0; i < header.stanzas.size(); ++i)
    if (!remove[i]) stanzas.push_back(header.stanzas[i]);
  std::size_t key_files = 0, recipients = 0, passphrases = 0;
  for (const Credential& c : changes.add) {
    if (c.kind == Credential::Kind::key_file) ++key_files;
    if (c.kind == Credential::Kind::passphrase) ++passphrases;
    if (c.kind == Credential::Kind::recipient) {
      ++recipients;
      std::vector<std::size_t> has =
          stanzas_of(header, *c.recipient, file_key, changes.opening, max_scrypt_log2);
      std::erase_if(has, [&remove](std::size_t i) { return remove[i]; });
      if (!has.empty())
        throw Error(ErrorKind::usage,
                    "a recipient given with --add-recipient already has stanza " + std::to_string(has[0] + 1),
                    "remove the old stanza in the same run (--remove-slot N) to replace it");
    }
  }
  if (stanzas.empty() && changes.add.empty())
    throw Error(ErrorKind::usage, "refusing to remove the last stanza: nothing could open the file any more",
                "add another recipient or a passphrase in the same run");
  // age's rules on the result, before any scrypt runs: what is kept counts as recipients (or as the
  // passphrase).
  const auto kept_scrypt = static_cast<std::size_t>(
      std::count_if(stanzas.begin(), stanzas.end(), [](const Stanza& s) { return s.args[0] == "scrypt"; }));
  check_credential_mix(key_files, recipients + stanzas.size() - kept_scrypt + (passphrases + kept_scrypt > 1),
                       passphrases + kept_scrypt > 0);
  std::size_t post_quantum = 0, classical = 0;
  for (const Stanza& s : stanzas) {
    if (s.args[0] == "mlkem768x25519") ++post_quantum;
    if (s.args[0] == "X25519" || s.args[0] == "ssh-ed25519" || s.args[0] == "ssh-rsa") ++classical;
  }
  for (const Credential& c : changes.add)
    if (c.kind == Credential::Kind::recipient && c.recipient)
      ++(is_post_quantum(*c.recipient) ? post_quantum : classical);
  check_no_quantum_mix(post_quantum, classical);
  if (!changes.add.empty())
    for (Stanza& s : wrap_file_key(file_key, changes.add, scrypt_log2)) stanzas.push_back(std::move(s));
  return serialize_header(stanzas, file_key);
}

}  // namespace pcrypt::core::age
