// What an age plugin asks of the user (libpcrypt's PluginHost callbacks), on the terminal: messages on
// standard error, PINs and other secrets without echo, public answers and confirmations with echo. Where
// there is no terminal, a request gets `fail`, and the plugin decides.
#pragma once

#include <pcrypt/pcrypt.h>

#include <string>
#include <vector>

namespace pcrypt::app {

// libpcrypt's plugin host (pcrypt::set_plugin_host): plugins found on `search_path`, run with
// `environment`, talking to the terminal. A plugin's message is "pcrypt: age-plugin-NAME: TEXT", or with
// `as_age` (the age personality) age's "age: NAME plugin: TEXT".
PluginHost terminal_plugin_host(std::string search_path, std::vector<std::string> environment,
                                bool as_age = false);

}  // namespace pcrypt::app
