// From CLI text to the door's settings (core/door/encrypted_file.h): every size and count is checked here,
// before any file is opened or any passphrase asked for, so a typo costs nothing.
#pragma once

#include "app/cli.h"
#include "core/door/encrypted_file.h"

namespace pcrypt::app {

// encrypt's choices: the format (--format; -a/--armor without age is core::Error(usage)), chunk size,
// engine, Argon2id costs, threads.
struct EncryptChoices {
  core::door::EncryptSettings settings;
  core::door::RunOptions run;
  core::PassphraseKekCache* kek_cache = nullptr;  // set by run_files: one Argon2id run for a run's files
};
// Opening a file: the work factors it may ask for (--max-kdf-memory/-ops, --max-work-factor), engine,
// threads.
struct DecryptChoices {
  core::door::UnlockLimits limits;
  core::door::RunOptions run;
  core::PassphraseKekCache* kek_cache = nullptr;
};

EncryptChoices encrypt_choices(const CryptArgs& args);
DecryptChoices decrypt_choices(const CryptArgs& args);

// --engine, else $PCRYPT_ENGINE, else the fastest; core::Error(usage) when unknown or unsupported here.
const aes::Engine& chosen_engine(const std::string& option);

// Workers the pipeline will actually run (0 = one per core this process may use), for -v.
unsigned effective_threads(unsigned requested);

// The door's limits on what can be set, in the options' words.
std::size_t parse_chunk_size(const std::string& text);

}  // namespace pcrypt::app
