// From CLI text to libpcrypt's options (<pcrypt/pcrypt.h>): every size and count is checked here, before any
// file is opened or any passphrase asked for, so a typo costs nothing.
#pragma once

#include <pcrypt/pcrypt.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/cli.h"

namespace pcrypt::app {

// encrypt's choices: the format (--format; -a/--armor without age is Error(usage)), chunk size, engine,
// Argon2id costs, threads. `session` is the run's: its engine, and one Argon2id run for a run's files.
struct EncryptChoices {
  EncryptOptions options;
  std::shared_ptr<Session> session;
};
// Opening a file: the work factors it may ask for (--max-kdf-memory/-ops, --max-work-factor) in `limits`,
// engine and Argon2id cache (`session`), threads.
struct DecryptChoices {
  Credentials limits;
  RunOptions run;
  std::shared_ptr<Session> session;
};

EncryptChoices encrypt_choices(const CryptArgs& args);
DecryptChoices decrypt_choices(const CryptArgs& args);

// The run's session: --engine, else $PCRYPT_ENGINE, else the fastest; Error(usage) when unknown or
// unsupported here.
std::shared_ptr<Session> chosen_session(const std::string& engine_option);

// Workers the pipeline will actually run (0 = one per core this process may use), for -v.
unsigned effective_threads(unsigned requested);

// The library's limits on what can be set, in the options' words.
std::size_t parse_chunk_size(const std::string& text);

// "cobblestone-128" / "cobblestone-256" as a Format; nullopt for any other name.
std::optional<Format> cobblestone_format(const std::string& name);
// Error(usage) for --raw-key/--context without a cobblestone format, for a cobblestone format with -k, -r,
// -R, -i, --plugin or -p (it has none of them), or without --raw-key.
void check_raw_key_options(const CryptArgs& args);
// The context of --context (which must be valid UTF-8: Error(usage) naming --context-file otherwise) or
// --context-file (its bytes, exactly).
std::vector<std::uint8_t> context_bytes(const CryptArgs& args);
bool valid_utf8(std::string_view text);

}  // namespace pcrypt::app
