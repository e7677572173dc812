// age 1.3's two helper plugins, as pcrypt serves them (core/age/plugin_serve.h runs the protocol):
//  - batchpass: the identity AGE-PLUGIN-BATCHPASS-1 (no payload; `age -j batchpass`) stands for a passphrase
//    the plugin's caller found (age: the environment). Encrypting, it is one scrypt stanza, labelled with a
//    fresh random label so that no other recipient can share the file; decrypting, it opens a file whose only
//    stanza is scrypt, with a work-factor limit. Files are ordinary age passphrase files.
//  - pq: the hybrid post-quantum keys of age 1.3 for clients without them: recipients are the native
//    age1pq1… (whose Bech32 prefix names plugin "pq"), identities AGE-PLUGIN-PQ-1… carrying the same 32-byte
//    seed as the native AGE-SECRET-KEY-PQ-1…, so files made with either form open with the other.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/aes/secret_bytes.h"
#include "core/age/plugin_serve.h"

namespace pcrypt::core::age {

struct BatchpassSecret {
  SecretBytes passphrase;
  // Encrypting: the scrypt work factor (log2 N) to write. Decrypting: the largest one to run.
  unsigned work_factor = 0;
};

// What the batchpass plugin is told, asked for once per identity and only when one comes: each throws Error
// with the words the client is to show (a missing or unreadable passphrase, a bad work factor).
struct BatchpassSource {
  std::function<BatchpassSecret()> encrypting;
  std::function<BatchpassSecret()> decrypting;
};

PluginKeys batchpass_plugin(BatchpassSource source);
PluginKeys pq_plugin();

// `age-plugin-pq -identity`: every identity of an identity file's text (`name` names it in errors), each
// of which must be a native post-quantum one, in its plugin form AGE-PLUGIN-PQ-1…. Error(usage) naming the
// first that is not.
std::vector<std::string> pq_plugin_identities(std::string_view identity_file, std::string_view name);

}  // namespace pcrypt::core::age
