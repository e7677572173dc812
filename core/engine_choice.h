// Which AES engine a command runs, from the name the user gave (--engine, or $PCRYPT_ENGINE as read by the
// CLI): the one place a bad engine name becomes a usage error, with the one hint; and the one place an
// operation's "no engine chosen" becomes the fastest.
#pragma once

#include <string_view>

#include "core/aes/engine.h"

namespace pcrypt::core {

// "" or "auto": the fastest engine this CPU supports. Throws Error(usage) for an unknown name or one this CPU
// cannot run.
const aes::Engine& choose_engine(std::string_view name);

// The engine an operation runs: `chosen` (an options struct's engine), or the fastest this CPU supports when
// it is nullptr.
const aes::Engine& engine_for(const aes::Engine* chosen);

}  // namespace pcrypt::core
