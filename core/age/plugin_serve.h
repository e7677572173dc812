// age plugins as a program (C2SP age-plugin.md, the plugin's side): pcrypt run as `age-plugin-NAME
// --age-plugin=recipient-v1|identity-v1` answers an age client (age, rage, typage, pcrypt's own `age`) over
// its standard input and output. This file is the two state machines; what the plugin does with its keys
// (age 1.3's helper plugins, batchpass and pq) is core/age/helper_plugins.h.
//
// A client that breaks the protocol (a command of the wrong shape, a reply that is not the one asked for,
// input that ends mid-exchange) ends the exchange with Error(io); a recipient, identity or stanza the plugin
// refuses is reported to the client as the protocol's `error`, and the client decides.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/aes/secret_bytes.h"
#include "core/age/header.h"
#include "core/age/plugin.h"
#include "io/buffered_input.h"

namespace pcrypt::core::age {

// What one recipient (or identity encrypted to) becomes: a way to wrap file keys. Its errors (Error) go to
// the client as that recipient's.
using PluginWrapper = std::function<PluginWrap(const SecretBytes& file_key)>;
// What one identity becomes: given every stanza of one file, its file key; nullopt when none of them is
// this identity's; Error when the file is one it must refuse (reported as the file's error).
using PluginUnwrapper = std::function<std::optional<SecretBytes>(const std::vector<Stanza>& stanzas)>;

// A plugin: its name and the encodings it handles, each given the Bech32 payload of a recipient
// (age1NAME1…), or of an identity (AGE-PLUGIN-NAME-1…) to encrypt to or to decrypt with. An empty function:
// not supported (the client is told so). Each may throw Error to refuse the key.
struct PluginKeys {
  std::string name;
  std::function<PluginWrapper(std::span<const std::uint8_t> data)> recipient;
  std::function<PluginWrapper(std::span<const std::uint8_t> data)> identity_as_recipient;
  std::function<PluginUnwrapper(std::span<const std::uint8_t> data)> identity;
};

// The exchange's end, as the plugin's exit status says it (age's plugin framework's numbers).
enum class PluginExit : int {
  done = 0,         // every request answered
  key_refused = 3,  // a recipient or identity was refused (the client was told why)
};

// Runs `state_machine` ("recipient-v1" or "identity-v1") with the client whose messages are `in` and to
// whom `send` writes (the text of whole stanzas). Error(usage) for another state machine; Error(io) when
// the client breaks the protocol or goes away.
PluginExit serve_plugin(const PluginKeys& keys, std::string_view state_machine, io::BufferedInput& in,
                        const std::function<void(std::string_view text)>& send);

}  // namespace pcrypt::core::age
