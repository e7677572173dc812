// The caller's plugin host (pcrypt::PluginHost: callbacks) as core's (core::PluginHost: a PluginUi object).
// Apart from lib/keys.cc and built into a static library so that --exclude-libs hides what it instantiates
// (std::shared_ptr's control block would otherwise be exported beside the public API).
#pragma once

#include "pcrypt/pcrypt.h"

namespace pcrypt::lib {

void set_core_plugin_host(PluginHost host);

}  // namespace pcrypt::lib
