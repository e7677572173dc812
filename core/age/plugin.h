// age plugins as a client (C2SP age-plugin.md): a recipient `age1NAME1…` or identity `AGE-PLUGIN-NAME-1…`
// is handed to the program `age-plugin-NAME` (core/age/plugin_channel.h), which wraps or unwraps the file key
// through the recipient-v1 and identity-v1 state machines. pcrypt never looks inside a plugin's recipient,
// identity or stanzas: only their plugin knows what they hold.
//
// One plugin process serves all of its recipients (or identities) for one file, as the state machines
// allow, so a plugin that asks for a PIN asks once per file, not once per key.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/aes/secret_bytes.h"
#include "core/age/header.h"
#include "core/age/plugin_channel.h"
#include "core/keys/plugin_host.h"

namespace pcrypt::core::age {

// The user a plugin talks to and where its program is found: core/keys/plugin_host.h.
using core::PluginUi;

// Plugin names and the Bech32 prefixes that name them: core/keys/plugin_host.h.
using core::is_plugin_name;
using core::plugin_of_identity_prefix;
using core::plugin_of_recipient_prefix;

// What a plugin's recipient-v1 run gives: its stanzas (one per recipient at most) and, when it answered
// pcrypt's `extension-labels` with `labels`, the labels of its recipients, sorted (age 1.3's rule: every
// recipient of a file must carry the same set, so a post-quantum plugin cannot share a file with X25519, nor
// a passphrase plugin with anything). No labels: the empty set, as for X25519 and SSH keys.
struct PluginWrap {
  std::vector<Stanza> stanzas;
  std::vector<std::string> labels;
};

// recipient-v1: the stanzas plugin `name` makes for `file_key` and its `recipients` (their full age1NAME1…
// encodings, or AGE-PLUGIN-NAME-1… identities to encrypt to, sent as `add-identity`), one per recipient at
// most. Error(usage) when the plugin reports a recipient it cannot encrypt
// to (its message), Error(io) for a plugin that fails or breaks the protocol; encryption stops either way
// (age-plugin.md: failures during encryption are always the user's to see).
// The two state machines over any connection (the functions above run them over a PluginChannel); they
// throw Error(io) for a broken protocol, and wrap's Error(usage) for the plugin's errors, as above.
PluginWrap wrap_over(PluginConnection& plugin, const std::vector<std::string>& recipients,
                     const SecretBytes& file_key);
std::optional<SecretBytes> unwrap_over(PluginConnection& plugin,
                                       const std::vector<std::string_view>& identities,
                                       const std::vector<Stanza>& stanzas,
                                       std::vector<std::string>& failures);

PluginWrap wrap_with_plugin(const std::string& name, const std::vector<std::string>& recipients,
                            const SecretBytes& file_key);

// identity-v1: the file key if plugin `name`, given `identities` (their AGE-PLUGIN-NAME-1… encodings) and
// every stanza of one file, unwraps one; nullopt if none of its identities opens the file. What went wrong
// (the plugin missing, failing, its `error` messages) is appended to `failures` rather than thrown: during
// decryption another identity may still open the file (age-plugin.md lets clients go on).
std::optional<SecretBytes> unwrap_with_plugin(const std::string& name,
                                              const std::vector<std::string_view>& identities,
                                              const std::vector<Stanza>& stanzas,
                                              std::vector<std::string>& failures);

}  // namespace pcrypt::core::age
