// The subcommands. Each returns the process exit code on success paths and throws pcrypt::Error / io::IoError
// on failure; main() turns exceptions into the one error line and exit code. Outputs are RAII objects local
// to these functions, so by the time main() prints an error every temporary file is already gone.
#pragma once

#include "app/cli.h"

namespace pcrypt::app {

int run_encrypt(const CryptArgs& args, Verbosity verbosity);
int run_decrypt(const CryptArgs& args, Verbosity verbosity);
int run_keygen(const KeygenArgs& args);
int run_keygen_identity(const KeygenArgs& args);  // keygen --identity
int run_info(const InfoArgs& args);
int run_verify(const CryptArgs& args, Verbosity verbosity);
// `decrypt --offset/--length` (run_decrypt hands over when either is given).
int run_decrypt_range(const CryptArgs& args, Verbosity verbosity);
int run_rekey(const RekeyArgs& args, Verbosity verbosity);
int run_recipient(const RecipientArgs& args);

}  // namespace pcrypt::app
