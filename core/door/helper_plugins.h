// age 1.3's helper plugins (age-plugin-batchpass, age-plugin-pq) served to an age client over a pair of file
// descriptors (the plugin's standard input and output): the door to core/age/helper_plugins.h and
// core/age/plugin_serve.h for the library. What the plugins need from the environment comes from the caller.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/aes/secret_bytes.h"

namespace pcrypt::core::door {

struct PluginPassphrase {
  SecretBytes passphrase;
  unsigned work_factor = 0;  // encrypting: the one to write; decrypting: the largest to run
};

// batchpass's passphrase, asked for when an identity comes; each throws Error with the client's words.
struct HelperPluginSource {
  std::function<PluginPassphrase()> encrypting;
  std::function<PluginPassphrase()> decrypting;
};

// Whether `name` is a helper plugin pcrypt can be ("batchpass", "pq").
bool is_helper_plugin(std::string_view name);

// Runs plugin `name`'s `state_machine` with the client at `in_fd` (its messages) and `out_fd` (ours); the
// exit status the plugin ends with (0, or 3 when a key was refused and the client told). Error(usage) for
// an unknown plugin or state machine, Error(io) when the client breaks the protocol or goes away.
int serve_helper_plugin(std::string_view name, std::string_view state_machine, int in_fd, int out_fd,
                        HelperPluginSource source);

// `age-plugin-pq -identity`: core/age/helper_plugins.h.
std::vector<std::string> pq_plugin_identities(std::string_view identity_file, std::string_view name);

}  // namespace pcrypt::core::door
