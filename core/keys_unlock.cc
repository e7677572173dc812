// Decrypt-side: find the file key from the given credentials and authenticate the header (FORMAT.md §5).
#include <string>

#include "core/byte_size.h"
#include "core/error.h"
#include "core/keys.h"

namespace pcrypt::core {
namespace {

// One message for "no slot opened" and "a slot opened but the header MAC failed" (FORMAT.md §6.5).
Error wrong_credentials() {
  return Error(
      ErrorKind::header, "wrong key or passphrase, or the header was modified",
      "check the key file, identity or passphrase; if they are right, this copy of the file is damaged");
}

Error over_ceiling(const KeySlot& slot, std::size_t index, const KdfLimits& ceiling) {
  return Error(ErrorKind::header,
               "key slot " + std::to_string(index + 1) + " asks for Argon2id with " +
                   format_bytes(std::uint64_t{slot.kdf_memory_kib} * 1024) + " and " +
                   std::to_string(slot.kdf_ops) + " passes, above the limit of " +
                   format_bytes(ceiling.memlimit_bytes) + " and " + std::to_string(ceiling.opslimit) +
                   " passes",
               "if you trust this file, raise the limit with --max-kdf-memory / --max-kdf-ops");
}

bool slot_fits(SlotKind slot, Credential::Kind credential) {
  switch (credential) {
    case Credential::Kind::key_file:
      return slot == SlotKind::key_file;
    case Credential::Kind::passphrase:
      return slot == SlotKind::passphrase;
    case Credential::Kind::identity:
      return is_recipient_slot(slot);
    case Credential::Kind::recipient:
      return false;
  }
  return false;
}

}  // namespace

SecretBytes unlock_file_key(const ParsedHeader& parsed, const std::vector<Credential>& credentials,
                            const KdfLimits& ceiling, PassphraseKekCache* cache) {
  if (credentials.empty()) throw Error(ErrorKind::usage, "no key file, identity or passphrase given");
  const std::vector<KeySlot>& slots = parsed.header.slots;
  std::optional<std::size_t> skipped;  // first passphrase slot refused for its costs
  // Cheapest first: a key file costs a hash, an identity one X25519 per slot of its kind (SSH ones only on
  // slots with their tag, checked in open_slot), a passphrase an Argon2id run. At most 255 slots (§10.4).
  for (const Credential::Kind kind :
       {Credential::Kind::key_file, Credential::Kind::identity, Credential::Kind::passphrase}) {
    for (const Credential& credential : credentials) {
      if (credential.kind != kind) continue;
      for (std::size_t i = 0; i < slots.size(); ++i) {
        if (!slot_fits(slots[i].kind, kind)) continue;
        if (!slot_within_ceiling(slots[i], ceiling)) {
          if (!skipped) skipped = i;
          continue;
        }
        std::optional<SecretBytes> file_key = open_slot(slots[i], credential, cache);
        if (!file_key) continue;
        if (header_mac_matches(*file_key, parsed)) return std::move(*file_key);
        throw wrong_credentials();
      }
    }
  }
  if (skipped) throw over_ceiling(slots[*skipped], *skipped, ceiling);
  throw wrong_credentials();
}

}  // namespace pcrypt::core
