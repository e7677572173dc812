// Where a passphrase comes from (-p): never the command line itself.
#pragma once

#include <string>

#include <pcrypt/secret_bytes.h>

namespace pcrypt::app {

enum class PassphrasePurpose { encrypt, decrypt };

// In order: --passphrase-file FILE if given (its first line), else $PCRYPT_PASSPHRASE if set, else a no-echo
// prompt on the terminal, asked twice for encryption (both entries must match). An empty passphrase is
// refused (Error(usage)). `role` ("current", "new"; "" for none) goes into the prompts when one command
// asks for two passphrases (rekey -p --add-passphrase), so the user knows which is which.
SecretBytes obtain_passphrase(const std::string& passphrase_file, PassphrasePurpose purpose,
                              const std::string& role = {});

// A passphrase file read as --passphrase-file reads it (its first line; `-` and pipes up to the newline
// only), and a passphrase from the environment variable `name` (its value), each refused when empty or too
// long. For the other passphrases the CLI takes the same ways (a protected SSH key's,
// app/ssh_key_passphrase.h).
SecretBytes passphrase_from_file(const std::string& path);
SecretBytes passphrase_from_variable(const char* value, const std::string& name);

// The terminal prompt alone (no file, no environment): decrypting a passphrase-only file with no credential
// given. An empty passphrase is refused as above.
SecretBytes ask_passphrase(const std::string& role = {});

}  // namespace pcrypt::app
