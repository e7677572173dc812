// Asking the user something on the controlling terminal without echo (passphrases).
#pragma once

#include <string>
#include <string_view>

#include "app/secret_bytes.h"

namespace pcrypt::app {

inline constexpr std::size_t kMaxPassphraseBytes = 4096;

// Writes `prompt` to /dev/tty, reads one line with echo off and returns it without the newline. Works when
// stdin/stdout are pipes (the data streams), since it talks to /dev/tty directly. Throws Error(usage)
// when there is no terminal, Error(io) on end of input or a line longer than kMaxPassphraseBytes.
// If SIGINT/SIGTERM/SIGHUP arrives while echo is off, echo is restored before the process dies.
SecretBytes prompt_hidden(std::string_view prompt);
// The same with echo on, for answers that are not secret (an age plugin's request-public or confirm).
std::string prompt_visible(std::string_view prompt);

}  // namespace pcrypt::app
