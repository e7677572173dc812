// Where a passphrase comes from (-p): never the command line itself.
#pragma once

#include <string>

#include "core/aes/secret_bytes.h"

namespace pcrypt::app {

enum class PassphrasePurpose { encrypt, decrypt };

// In order: --passphrase-file FILE if given (its first line), else $PCRYPT_PASSPHRASE if set, else a no-echo
// prompt on the terminal, asked twice for encryption (both entries must match). An empty passphrase is
// refused (core::Error(usage)).
SecretBytes obtain_passphrase(const std::string& passphrase_file, PassphrasePurpose purpose);

}  // namespace pcrypt::app
