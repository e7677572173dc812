#include "core/age/rekey.h"

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include "core/age/stanzas.h"
#include "core/error.h"

namespace pcrypt::core::age {
namespace {

// The policy's questions (core/rekey_policy.h), answered from the header and the unlocked file key.
class AgeStanzas final : public SlotQuestions {
 public:
  AgeStanzas(const Header& header, const SecretBytes& file_key, unsigned max_scrypt_log2)
      : header_(header), file_key_(file_key), max_scrypt_log2_(max_scrypt_log2) {}
  std::size_t count() const override { return header_.stanzas.size(); }
  std::string noun() const override { return "stanza"; }
  std::string words(std::size_t index) const override {
    return "stanza " + std::to_string(index + 1) + " (" + header_.stanzas[index].args[0] + ")";
  }
  bool opened_by(std::size_t index, const Credential& credential) const override {
    return opens(header_.stanzas[index], credential, file_key_, max_scrypt_log2_);
  }
  bool carries_tag_of(std::size_t index, const Recipient& recipient) const override {
    return age::carries_tag_of(header_.stanzas[index], recipient);
  }

 private:
  const Header& header_;
  const SecretBytes& file_key_;
  unsigned max_scrypt_log2_;
};

}  // namespace

std::string rekey_header(const Header& header, const SecretBytes& file_key, const RekeyChanges& changes,
                         unsigned scrypt_log2, unsigned max_scrypt_log2) {
  if (file_key.size() != kFileKeyBytes || !mac_matches(header, file_key))
    throw Error(PCRYPT_E_HEADER_MAC, "the header does not authenticate under this file key");
  if (changes.changes_nothing())
    throw Error(PCRYPT_E_NOTHING_TO_CHANGE, "nothing to change",
                "add a stanza (add_recipients, add_passphrase) or remove one (remove_slots)",
                ErrorFields().found_to_be(PCRYPT_FILE_AGE_ENCRYPTED));
  const AgeStanzas questions(header, file_key, max_scrypt_log2);
  const std::vector<bool> remove = slots_to_remove(questions, changes);
  refuse_duplicate_additions(questions, changes, remove);

  std::vector<Stanza> stanzas;
  for (std::size_t i = 0; i < header.stanzas.size(); ++i)
    if (!remove[i]) stanzas.push_back(header.stanzas[i]);
  std::size_t key_files = 0, recipients = 0, passphrases = 0;
  for (const Credential& c : changes.add) {
    if (c.kind == Credential::Kind::key_file) ++key_files;
    if (c.kind == Credential::Kind::passphrase) ++passphrases;
    if (c.kind == Credential::Kind::recipient) ++recipients;
  }
  if (stanzas.empty() && changes.add.empty())
    throw Error(PCRYPT_E_LAST_SLOT,
                "refusing to remove the last stanza: nothing could open the file any more",
                "add another recipient or a passphrase in the same run",
                ErrorFields().found_to_be(PCRYPT_FILE_AGE_ENCRYPTED));
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
