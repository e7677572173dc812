#include "core/pcrypt/rekey.h"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <string>
#include <variant>

#include "core/error.h"
#include "core/pcrypt/recipient_slot.h"
#include "core/pcrypt/slot_words.h"

namespace pcrypt::core {
namespace {

// The policy's questions (core/rekey_policy.h), answered from the header and the unlocked file key.
class PcryptSlots final : public SlotQuestions {
 public:
  PcryptSlots(const ParsedHeader& parsed, const SecretBytes& file_key, PassphraseKekCache* cache)
      : parsed_(parsed), file_key_(file_key), cache_(cache) {}
  std::size_t count() const override { return parsed_.header.slots.size(); }
  std::string noun() const override { return "slot"; }
  std::string words(std::size_t index) const override { return describe_slot(parsed_.header, index); }
  bool opened_by(std::size_t index, const Credential& credential) const override {
    const KeySlot& slot = parsed_.header.slots[index];
    if (!may_open(slot, credential) || !slot_within_ceiling(slot, default_kdf_ceiling())) return false;
    const std::optional<SecretBytes> key = open_slot(slot, credential, cache_);
    return key && key->size() == file_key_.size() &&
           sodium_memcmp(key->data(), file_key_.data(), key->size()) == 0;
  }
  bool carries_tag_of(std::size_t index, const Recipient& recipient) const override {
    const KeySlot& slot = parsed_.header.slots[index];
    const std::vector<std::uint8_t>* blob = nullptr;
    SlotKind kind = SlotKind::ssh_ed25519;
    if (const auto* ed = std::get_if<SshEd25519Recipient>(&recipient)) blob = &ed->blob;
    if (const auto* rsa = std::get_if<SshRsaRecipient>(&recipient)) {
      blob = &rsa->key.blob;
      kind = SlotKind::ssh_rsa;
    }
    if (blob == nullptr || slot.kind != kind || slot.recipient_slot.size() < 5) return false;
    const std::array<std::uint8_t, 4> tag = recipient_slot::ssh_tag(*blob);
    return std::equal(tag.begin(), tag.end(), slot.recipient_slot.begin() + 1);
  }

 private:
  const ParsedHeader& parsed_;
  const SecretBytes& file_key_;
  PassphraseKekCache* cache_;
};

void check_slot_counts(const std::vector<KeySlot>& slots) {
  const auto passphrases = static_cast<std::size_t>(std::count_if(
      slots.begin(), slots.end(), [](const KeySlot& s) { return s.kind == SlotKind::passphrase; }));
  if (slots.size() > kMaxSlots)
    throw Error(PCRYPT_E_TOO_MANY_SLOTS,
                "the result would have " + std::to_string(slots.size()) + " slots; the format allows " +
                    std::to_string(kMaxSlots),
                "remove slots (remove_slots) in the same rekey; for a larger team, decrypt and encrypt "
                "again in the age format (Format::age), which has no such limit",
                ErrorFields().set(PCRYPT_FIELD_SLOT, slots.size()).found_to_be(PCRYPT_FILE_PCRYPT_ENCRYPTED));
  if (passphrases > kMaxPassphraseSlots)
    throw Error(PCRYPT_E_TOO_MANY_PASSPHRASES,
                "the result would have " + std::to_string(passphrases) +
                    " passphrase slots; the format allows " + std::to_string(kMaxPassphraseSlots),
                "remove a passphrase slot (remove_slots) in the same rekey",
                ErrorFields().set(PCRYPT_FIELD_SLOT, passphrases).found_to_be(PCRYPT_FILE_PCRYPT_ENCRYPTED));
}

}  // namespace

std::vector<std::uint8_t> rekey_header(const ParsedHeader& parsed, const SecretBytes& file_key,
                                       const RekeyChanges& changes) {
  if (!header_mac_matches(file_key, parsed))
    throw Error(PCRYPT_E_WRONG_CREDENTIAL, "the header does not authenticate under this file key");
  if (changes.changes_nothing())
    throw Error(PCRYPT_E_NOTHING_TO_CHANGE, "nothing to change",
                "add a slot (add_key_files, add_passphrase) or remove one (remove_slots)",
                ErrorFields().found_to_be(PCRYPT_FILE_PCRYPT_ENCRYPTED));

  const std::vector<KeySlot>& old_slots = parsed.header.slots;
  const PcryptSlots questions(parsed, file_key, changes.kek_cache);
  const std::vector<bool> remove = slots_to_remove(questions, changes);
  refuse_duplicate_additions(questions, changes, remove);
  FileHeader header = parsed.header;
  header.slots.clear();
  for (std::size_t i = 0; i < old_slots.size(); ++i)
    if (!remove[i]) header.slots.push_back(old_slots[i]);
  if (header.slots.empty() && changes.add.empty())
    throw Error(PCRYPT_E_LAST_SLOT, "refusing to remove the last slot: nothing could open the file any more",
                "add another credential in the same rekey (add_key_files, add_passphrase)",
                ErrorFields().found_to_be(PCRYPT_FILE_PCRYPT_ENCRYPTED));
  // Counted before any Argon2id runs for the new slots.
  std::vector<KeySlot> counted = header.slots;
  for (const Credential& c : changes.add) {
    KeySlot placeholder;
    placeholder.kind = c.kind == Credential::Kind::passphrase ? SlotKind::passphrase : SlotKind::key_file;
    counted.push_back(placeholder);
  }
  check_slot_counts(counted);

  for (const Credential& credential : changes.add)
    header.slots.push_back(make_slot(file_key, credential, changes.kdf, changes.kek_cache));
  header.version = format_version_for(header.slots);
  header.mac = compute_header_mac(file_key, serialize_header_without_mac(header));
  return serialize_header(header);
}

}  // namespace pcrypt::core
