#include "core/rekey.h"

#include <algorithm>
#include <string>

#include "core/error.h"

namespace pcrypt::core {
namespace {

std::vector<bool> slots_to_remove(const std::vector<std::size_t>& numbers, std::size_t slot_count) {
  std::vector<bool> remove(slot_count, false);
  for (const std::size_t n : numbers) {
    if (n < 1 || n > slot_count)
      throw Error(ErrorKind::usage,
                  "there is no slot " + std::to_string(n) + " (the file has " + std::to_string(slot_count) +
                      (slot_count == 1 ? " slot)" : " slots)"),
                  "'pcrypt info FILE' lists the slots");
    if (remove[n - 1]) throw Error(ErrorKind::usage, "slot " + std::to_string(n) + " is given twice");
    remove[n - 1] = true;
  }
  return remove;
}

void check_slot_counts(const std::vector<KeySlot>& slots) {
  const auto passphrases = static_cast<std::size_t>(std::count_if(
      slots.begin(), slots.end(), [](const KeySlot& s) { return s.kind == SlotKind::passphrase; }));
  if (slots.size() > kMaxSlots)
    throw Error(ErrorKind::usage,
                "the result would have " + std::to_string(slots.size()) + " slots; the format allows " +
                    std::to_string(kMaxSlots),
                "remove slots with --remove-slot N in the same run");
  if (passphrases > kMaxPassphraseSlots)
    throw Error(ErrorKind::usage,
                "the result would have " + std::to_string(passphrases) +
                    " passphrase slots; the format allows " + std::to_string(kMaxPassphraseSlots),
                "remove a passphrase slot with --remove-slot N in the same run");
}

}  // namespace

std::vector<std::uint8_t> rekey_header(const ParsedHeader& parsed, const SecretBytes& file_key,
                                       const RekeyChanges& changes) {
  if (!header_mac_matches(file_key, parsed))
    throw Error(ErrorKind::header, "the header does not authenticate under this file key");
  if (changes.remove_slots.empty() && changes.add.empty())
    throw Error(ErrorKind::usage, "nothing to change",
                "add a slot with --add-key/--add-passphrase, or remove one with --remove-slot N");

  const std::vector<KeySlot>& old_slots = parsed.header.slots;
  const std::vector<bool> remove = slots_to_remove(changes.remove_slots, old_slots.size());
  FileHeader header = parsed.header;
  header.slots.clear();
  for (std::size_t i = 0; i < old_slots.size(); ++i)
    if (!remove[i]) header.slots.push_back(old_slots[i]);
  if (header.slots.empty() && changes.add.empty())
    throw Error(ErrorKind::usage, "refusing to remove the last slot: nothing could open the file any more",
                "add another credential in the same run (--add-key, --add-passphrase)");
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
