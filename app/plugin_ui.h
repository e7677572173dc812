// What an age plugin asks of the user (core/age/plugin.h), on the terminal: messages on standard error, PINs
// and other secrets without echo, public answers and confirmations with echo. Where there is no terminal, a
// request gets `fail`, and the plugin decides.
#pragma once

#include <memory>

#include "core/keys/plugin_host.h"

namespace pcrypt::app {

std::shared_ptr<core::PluginUi> terminal_plugin_ui();

}  // namespace pcrypt::app
