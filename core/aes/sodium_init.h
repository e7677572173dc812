// libsodium must be initialised once before any of its functions runs (guarded memory, randomness, Argon2id,
// the sodium engine). This is the one place pcrypt does it; every user asks here first.
#pragma once

namespace pcrypt {

// True once libsodium is initialised (thread-safe; initialises on the first call).
bool sodium_ready() noexcept;
// Throws std::runtime_error("libsodium failed to initialise") unless sodium_ready().
void require_sodium();

}  // namespace pcrypt
