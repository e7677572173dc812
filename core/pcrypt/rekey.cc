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

// The SSH public key blob of an SSH recipient, nullptr for the anonymous kinds (X25519, post-quantum).
const std::vector<std::uint8_t>* ssh_blob(const Recipient& r) {
  if (const auto* ed = std::get_if<SshEd25519Recipient>(&r)) return &ed->blob;
  if (const auto* rsa = std::get_if<SshRsaRecipient>(&r)) return &rsa->key.blob;
  return nullptr;
}

// The old slots that are for `recipient`: SSH slots with its tag; X25519 and post-quantum slots that an
// opening identity with this very recipient opens (the only way to recognise an anonymous slot).
std::vector<std::size_t> slots_of_recipient(const ParsedHeader& parsed, const Recipient& recipient,
                                            const std::vector<Credential>* opening) {
  std::vector<std::size_t> found;
  const std::vector<KeySlot>& slots = parsed.header.slots;
  if (const std::vector<std::uint8_t>* blob = ssh_blob(recipient)) {
    const SlotKind kind =
        std::holds_alternative<SshRsaRecipient>(recipient) ? SlotKind::ssh_rsa : SlotKind::ssh_ed25519;
    const std::array<std::uint8_t, 4> tag = recipient_slot::ssh_tag(*blob);
    for (std::size_t i = 0; i < slots.size(); ++i)
      if (slots[i].kind == kind && slots[i].recipient_slot.size() >= 5 &&
          std::equal(tag.begin(), tag.end(), slots[i].recipient_slot.begin() + 1))
        found.push_back(i);
    return found;
  }
  if (opening == nullptr) return found;
  for (const Credential& c : *opening) {
    if (c.kind != Credential::Kind::identity || !c.identity || c.identity->kind == Identity::Kind::plugin ||
        !same_recipient(recipient_of(*c.identity), recipient))
      continue;
    for (std::size_t i = 0; i < slots.size(); ++i)
      if (may_open(slots[i], c) && open_slot(slots[i], c)) found.push_back(i);
  }
  return found;
}

std::string slot_list(const FileHeader& header, const std::vector<std::size_t>& indices) {
  std::string out;
  for (std::size_t i = 0; i < indices.size(); ++i)
    out += (i == 0 ? "" : ", ") + describe_slot(header, indices[i]);
  return out;
}

std::vector<bool> slots_to_remove(const RekeyChanges& changes, const ParsedHeader& parsed) {
  const std::vector<std::size_t>& numbers = changes.remove_slots;
  const std::size_t slot_count = parsed.header.slots.size();
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
  for (const Credential& c : changes.remove_opened_by) {
    const std::vector<std::size_t> opened = slots_opened_by(parsed, c, default_kdf_ceiling());
    if (opened.empty())
      throw Error(ErrorKind::usage,
                  std::string("a ") + (c.kind == Credential::Kind::key_file ? "key file" : "identity") +
                      " given with --remove-key opens no slot of this file",
                  "'pcrypt info FILE -k KEYFILE' (or -i) says which slot a credential opens");
    for (const std::size_t i : opened) remove[i] = true;
  }
  for (const Recipient& r : changes.remove_recipients) {
    const std::vector<std::size_t> found = slots_of_recipient(parsed, r, changes.opening);
    if (found.empty() && std::holds_alternative<X25519Recipient>(r))
      throw Error(ErrorKind::usage,
                  "X25519 recipient slots are anonymous: no slot can be found from an age1... public key",
                  "give the identity instead: --remove-key IDENTITY-FILE");
    if (found.empty() && is_post_quantum(r))
      throw Error(
          ErrorKind::usage,
          "post-quantum recipient slots are anonymous: no slot can be found from an age1pq1... public key",
          "give the identity instead: --remove-key IDENTITY-FILE");
    if (found.empty())
      throw Error(ErrorKind::usage, "the recipient given with --remove-recipient has no slot in this file",
                  "'pcrypt info FILE' lists the slots and the tags of SSH ones");
    for (const std::size_t i : found) remove[i] = true;
  }
  return remove;
}

// An added key file or recipient that already has a slot the result keeps would only duplicate it.
void refuse_duplicates(const ParsedHeader& parsed, const RekeyChanges& changes,
                       const std::vector<bool>& remove) {
  const std::vector<KeySlot>& slots = parsed.header.slots;
  for (const Credential& c : changes.add) {
    std::vector<std::size_t> has;
    if (c.kind == Credential::Kind::key_file) {
      for (std::size_t i = 0; i < slots.size(); ++i)
        if (may_open(slots[i], c) && open_slot(slots[i], c)) has.push_back(i);
    } else if (c.kind == Credential::Kind::recipient && c.recipient) {
      has = slots_of_recipient(parsed, *c.recipient, changes.opening);
    }
    std::erase_if(has, [&remove](std::size_t i) { return remove[i]; });
    if (!has.empty())
      throw Error(
          ErrorKind::usage,
          std::string("a ") +
              (c.kind == Credential::Kind::key_file ? "key file given with --add-key already opens "
                                                    : "recipient given with --add-recipient already has ") +
              slot_list(parsed.header, has),
          "remove the old slot in the same run (--remove-slot N) to replace it");
  }
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
  if (changes.remove_slots.empty() && changes.remove_opened_by.empty() && changes.remove_recipients.empty() &&
      changes.add.empty())
    throw Error(ErrorKind::usage, "nothing to change",
                "add a slot with --add-key/--add-passphrase, or remove one with --remove-slot N");

  const std::vector<KeySlot>& old_slots = parsed.header.slots;
  const std::vector<bool> remove = slots_to_remove(changes, parsed);
  refuse_duplicates(parsed, changes, remove);
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

namespace pcrypt::core {
namespace {

bool same_secret(const Credential& a, const Credential& b) {
  return a.kind == b.kind && a.secret.size() == b.secret.size() &&
         sodium_memcmp(a.secret.data(), b.secret.data(), a.secret.size()) == 0;
}

}  // namespace

void keep_access(const Credential& opening, std::vector<Credential>& out) {
  // An identity keeps its access as a slot (or stanza) for its own public key.
  if (opening.kind == Credential::Kind::identity && opening.identity) {
    out.push_back(Credential::of(recipient_of(*opening.identity)));
    return;
  }
  // Built in place: GCC 12 at -O3 misreports a moved temporary Credential as uninitialised.
  Credential& copy = out.emplace_back();
  copy.kind = opening.kind;
  copy.secret = SecretBytes(opening.secret.span());
}

NewFileKeySlots new_file_key_slots(const ParsedHeader& parsed, const std::vector<Credential>& opening,
                                   std::vector<Credential> added, const KdfLimits& ceiling,
                                   PassphraseKekCache* cache) {
  NewFileKeySlots plan;
  std::vector<bool> kept(parsed.header.slots.size(), false);
  for (const Credential& c : opening) {
    for (const std::size_t i : slots_opened_by(parsed, c, ceiling, cache)) kept[i] = true;
    keep_access(c, plan.credentials);
  }
  for (Credential& c : added) {
    const bool repeated = std::any_of(
        plan.credentials.begin(), plan.credentials.end(),
        [&](const Credential& s) { return s.kind == Credential::Kind::key_file && same_secret(s, c); });
    if (repeated) throw Error(ErrorKind::usage, "a key file given with --add-key is also given with -k");
    plan.credentials.push_back(std::move(c));
  }
  for (std::size_t i = 0; i < kept.size(); ++i) (kept[i] ? plan.kept : plan.dropped).push_back(i);
  return plan;
}

}  // namespace pcrypt::core
