// `pcrypt rekey`'s slot policy, one for both formats (FORMAT.md §3.4, §11.7): which of a file's slots
// (pcrypt) or stanzas (age) a request removes, and which additions would only duplicate a slot the result
// keeps. Each format answers a few questions about its slots (SlotQuestions); the rules and their messages
// are here, so the same request gets the same answer on a .pcrypt and a .age file. What the result may hold
// (slot counts, age's mixing rules) is each format's own and stays in its folder.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/keys/credential.h"
#include "core/keys/kdf_limits.h"

namespace pcrypt::core {

class PassphraseKekCache;

struct RekeyChanges {
  // Slots to drop, numbered from 1 as `pcrypt info` numbers them (in the header being changed).
  std::vector<std::size_t> remove_slots;
  // Also drop every slot each of these opens (key files, identities: `--remove-key`); one that opens none is
  // Error(usage). Numbers shift after each removal; credentials do not.
  std::vector<Credential> remove_opened_by;
  // Also drop the slots of these recipients (`--remove-recipient`): SSH and tag recipients by their public
  // tag. X25519 and post-quantum slots are anonymous: found only through an opening identity whose recipient
  // it is, else Error(usage) with a hint to give the identity instead.
  std::vector<Recipient> remove_recipients;
  // The credentials that opened the file, if known: an identity among them recognises its own anonymous
  // slot, so removing or adding its recipient works.
  const std::vector<Credential>* opening = nullptr;
  // One new slot each, appended after the kept slots in this order.
  std::vector<Credential> add;
  KdfLimits kdf = default_kdf_params();  // costs of new pcrypt passphrase slots
  PassphraseKekCache* kek_cache = nullptr;

  bool changes_nothing() const {
    return remove_slots.empty() && remove_opened_by.empty() && remove_recipients.empty() && add.empty();
  }
};

// What the policy needs to know of an unlocked file's slots.
class SlotQuestions {
 public:
  virtual ~SlotQuestions() = default;
  virtual std::size_t count() const = 0;
  // "slot" or "stanza".
  virtual std::string noun() const = 0;
  // Slot `index` (from 0) in words, starting with its noun and number: "slot 2 (key file)", "stanza 1 (...)".
  virtual std::string words(std::size_t index) const = 0;
  // Whether `credential` opens slot `index` to this file's key.
  virtual bool opened_by(std::size_t index, const Credential& credential) const = 0;
  // Whether slot `index` carries the public tag of `recipient` (SSH and tag recipients have one).
  virtual bool carries_tag_of(std::size_t index, const Recipient& recipient) const = 0;
};

// remove[i]: slot i goes. Error(usage) for a slot number out of range or given twice, a --remove-key
// credential that opens no slot, a --remove-recipient that has none (anonymous kinds: with the hint to give
// the identity).
std::vector<bool> slots_to_remove(const SlotQuestions& slots, const RekeyChanges& changes);

// Error(usage) when an added key file already opens, or an added recipient already has, a slot that
// `remove` keeps: it would only duplicate it.
void refuse_duplicate_additions(const SlotQuestions& slots, const RekeyChanges& changes,
                                const std::vector<bool>& remove);

// Appends to `out` the credential that keeps `opening`'s access under a new file key (either format): an
// identity as its own recipient, a key file or passphrase as itself.
void keep_access(const Credential& opening, std::vector<Credential>& out);

// `rekey --new-file-key`'s slots, for either format: each opening credential keeps its access as a new slot
// (keep_access; key files skipped where the format has none), then one per added credential (an added key
// file also given to open the file is Error(usage); an added recipient already kept is kept once). `kept`:
// the old slots (from 0) an opening credential opens (`opened_by`), so their holder keeps access; `dropped`:
// the others, whose holders lose it.
struct NewFileKeyPlan {
  std::vector<Credential> credentials;
  std::vector<std::size_t> kept;
  std::vector<std::size_t> dropped;
};
NewFileKeyPlan plan_new_file_key(std::size_t slot_count, const std::vector<Credential>& opening,
                                 std::vector<Credential> added, bool format_has_key_files,
                                 const std::function<std::vector<std::size_t>(const Credential&)>& opened_by);

}  // namespace pcrypt::core
