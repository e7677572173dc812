// Key slots and credentials in words, and which credential may be offered to which slot, for messages and
// for the choices that follow from it (unlocking, `info -k`, rekey's removals). One entry per slot kind and
// per credential kind: a new kind (ssh-rsa, post-quantum) adds one line to each switch in slot_words.cc.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/keys/credential.h"
#include "core/opened_file.h"
#include "core/pcrypt/format.h"

namespace pcrypt::core {

// "key-file", "passphrase", "X25519 recipient", "SSH ed25519 recipient".
std::string slot_kind_words(SlotKind kind);

// One slot's public facts (`info --json`): its kind under age's name for the same recipient kind where there
// is one, its words, and an SSH slot's tag.
SlotSummary summarize_slot(const KeySlot& slot);

// One slot in words with its public identifying detail: "slot 3 (SSH ed25519 recipient, tag 55707c87)".
// `index` counts from 0; the words count from 1, as `pcrypt info` does.
std::string describe_slot(const FileHeader& header, std::size_t index);

// The header's slots counted by kind, with the tags of SSH slots: "2 X25519 recipient slots and 1 SSH
// ed25519 recipient slot with tag 55707c87".
std::string describe_slot_counts(const FileHeader& header);

// What was given, counted by kind: "1 key file", "1 SSH ed25519 identity with tag 0a1b2c3d", "a passphrase".
std::string describe_credentials(std::span<const Credential> credentials);

// Whether `credential` is worth trying on `slot` at all, from public facts only: the kinds correspond (key
// file -> key-file slot, passphrase -> passphrase slot, X25519 identity -> X25519 slot, post-quantum identity
// -> post-quantum slot, SSH identity -> SSH slot of its key type with the identity's tag). Recipients open
// nothing.
bool may_open(const KeySlot& slot, const Credential& credential);

// The message when no slot could even be tried (no credential fits any slot; FORMAT.md §5 step 5): what was
// given against what the file has. Public facts only, so it reveals nothing §6.5 hides. nullopt when some
// credential fits some slot (then the one "wrong key or passphrase" message applies).
std::optional<std::string> nothing_fits(const FileHeader& header, const std::vector<Credential>& credentials);

// The options that open the header's slot kinds, for hints: "-k KEYFILE or -i SSH-KEY (the ed25519 key
// with tag 55707c87)".
std::string options_for_slots(const FileHeader& header);

}  // namespace pcrypt::core
