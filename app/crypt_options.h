// From CLI text to core option structs: every size and count is checked here, before any file is opened or
// any passphrase asked for, so a typo costs nothing.
#pragma once

#include "app/cli.h"
#include "core/age/file.h"
#include "core/pcrypt/crypt.h"

namespace pcrypt::app {

core::EncryptOptions encrypt_options(const CryptArgs& args);
core::DecryptOptions decrypt_options(const CryptArgs& args);

// encrypt --format age: whether it was asked for; -a/--armor without it is core::Error(usage).
bool encrypts_to_age(const CryptArgs& args);
core::age::EncryptOptions age_encrypt_options(const CryptArgs& args);
// Reading age files: threads and --max-work-factor.
core::age::DecryptOptions age_decrypt_options(const CryptArgs& args);

// --engine, else $PCRYPT_ENGINE, else the fastest; core::Error(usage) when unknown or unsupported here.
const aes::Engine& chosen_engine(const std::string& option);

// Workers the pipeline will actually run (0 = one per core this process may use), for -v.
unsigned effective_threads(unsigned requested);

}  // namespace pcrypt::app
