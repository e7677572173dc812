// Decrypt-side: find the file key from the given credentials and authenticate the header (FORMAT.md §5).
#include <algorithm>
#include <string>
#include <vector>

#include "core/byte_size.h"
#include "core/error.h"
#include "core/pcrypt/keys.h"
#include "core/pcrypt/slot_words.h"

namespace pcrypt::core {
namespace {

// The slots' types, each once, as SlotSummary names them ("key-file", "X25519", ...).
std::vector<std::string> slot_types(const FileHeader& header) {
  std::vector<std::string> types;
  for (const KeySlot& slot : header.slots) {
    std::string type = summarize_slot(slot).type;
    if (std::find(types.begin(), types.end(), type) == types.end()) types.push_back(std::move(type));
  }
  return types;
}

// One message for "no slot opened" and "a slot opened but the header MAC failed" (FORMAT.md §6.5); what was
// tried on what is public, and the same in both cases.
Error wrong_credentials(const FileHeader& header, std::span<const Credential> credentials) {
  return Error(
      PCRYPT_E_WRONG_CREDENTIAL,
      "wrong key or passphrase, or the header was modified (given " + describe_credentials(credentials) +
          "; the file has " + describe_slot_counts(header) + ")",
      "check the key file, identity or passphrase; if they are right, this copy of the file is damaged",
      ErrorFields().types(slot_types(header)));
}

Error over_ceiling(const KeySlot& slot, std::size_t index, const KdfLimits& ceiling) {
  return Error(PCRYPT_E_EXCESSIVE_ARGON2ID_WORK,
               "key slot " + std::to_string(index + 1) + " asks for Argon2id with " +
                   format_bytes(std::uint64_t{slot.kdf_memory_kib} * 1024) + " and " +
                   std::to_string(slot.kdf_ops) + " passes, above the limit of " +
                   format_bytes(ceiling.memlimit_bytes) + " and " + std::to_string(ceiling.opslimit) +
                   " passes",
               "if you trust this file, raise the Argon2id memory and passes limits",
               ErrorFields()
                   .set(PCRYPT_FIELD_SLOT, index + 1)
                   .set(PCRYPT_FIELD_ARGON2ID_MEMORY_ASKED, std::uint64_t{slot.kdf_memory_kib} * 1024)
                   .set(PCRYPT_FIELD_ARGON2ID_MEMORY_ALLOWED, ceiling.memlimit_bytes)
                   .set(PCRYPT_FIELD_ARGON2ID_PASSES_ASKED, slot.kdf_ops)
                   .set(PCRYPT_FIELD_ARGON2ID_PASSES_ALLOWED, ceiling.opslimit));
}

}  // namespace

SecretBytes unlock_file_key(const ParsedHeader& parsed, const std::vector<Credential>& credentials,
                            const KdfLimits& ceiling, PassphraseKekCache* cache, std::size_t* opened_slot) {
  if (credentials.empty()) throw Error(PCRYPT_E_NO_CREDENTIAL, "no key file, identity or passphrase given");
  const FileHeader& header = parsed.header;
  const std::vector<KeySlot>& slots = header.slots;
  // Nothing fits any slot (a key file on a file with only recipient slots, an SSH key whose tag no slot
  // has): say so with what was given and what the file has, before anything is tried.
  if (const std::optional<std::string> message = nothing_fits(header, credentials))
    throw Error(PCRYPT_E_UNHANDLED_STANZA, *message, "it opens with " + options_for_slots(header),
                ErrorFields().types(slot_types(header)));
  std::optional<std::size_t> skipped;  // first passphrase slot refused for its costs
  // Cheapest first: a key file costs a hash, an identity one X25519 per slot of its kind (SSH ones only on
  // slots with their tag, checked in open_slot), a passphrase an Argon2id run. At most 255 slots (§10.4).
  for (const Credential::Kind kind :
       {Credential::Kind::key_file, Credential::Kind::identity, Credential::Kind::passphrase}) {
    for (const Credential& credential : credentials) {
      if (credential.kind != kind) continue;
      for (std::size_t i = 0; i < slots.size(); ++i) {
        if (!may_open(slots[i], credential)) continue;
        if (!slot_within_ceiling(slots[i], ceiling)) {
          if (!skipped) skipped = i;
          continue;
        }
        std::optional<SecretBytes> file_key = open_slot(slots[i], credential, cache);
        if (!file_key) continue;
        if (!header_mac_matches(*file_key, parsed)) throw wrong_credentials(header, credentials);
        if (opened_slot != nullptr) *opened_slot = i;
        return std::move(*file_key);
      }
    }
  }
  if (skipped) throw over_ceiling(slots[*skipped], *skipped, ceiling);
  throw wrong_credentials(header, credentials);
}

std::vector<std::size_t> slots_opened_by(const ParsedHeader& parsed, const Credential& credential,
                                         const KdfLimits& ceiling, PassphraseKekCache* cache) {
  const std::vector<KeySlot>& slots = parsed.header.slots;
  std::vector<std::size_t> opened;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    if (!may_open(slots[i], credential)) continue;
    if (!slot_within_ceiling(slots[i], ceiling)) throw over_ceiling(slots[i], i, ceiling);
    std::optional<SecretBytes> file_key = open_slot(slots[i], credential, cache);
    if (!file_key) continue;
    // A slot that opens to a key the MAC rejects is reported as if it had not opened (§6.5).
    if (!header_mac_matches(*file_key, parsed))
      throw wrong_credentials(parsed.header, std::span(&credential, 1));
    opened.push_back(i);
  }
  return opened;
}

}  // namespace pcrypt::core
