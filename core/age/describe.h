// `pcrypt info` on an age file: its header in plain words, without any key (the stanzas' types and public
// arguments, the MAC, where the payload starts) and, for a binary file of known size, what its payload holds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/age/file.h"

namespace pcrypt::core::age {

// One stanza in words, from its type and public arguments: "SSH ed25519 recipient, tag 0a1b2c3d".
std::string stanza_words(const Stanza& stanza);
// The public tag of an SSH or hardware-token recipient's stanza (its first argument), "" for the rest.
std::string stanza_tag(const Stanza& stanza);

// "name: value" lines. file_bytes: the file's size when known (binary files only give a payload summary).
std::string describe(const AgeInput& input, std::optional<std::uint64_t> file_bytes);

}  // namespace pcrypt::core::age
