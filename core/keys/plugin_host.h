// What an age plugin (an identity or recipient handled by a program `age-plugin-NAME`, core/age/plugin.h)
// needs from the program that runs pcrypt: where to look for plugin programs, and a user to talk to. Core
// reads neither the environment nor a terminal: the caller hands them in here (the CLI: $PATH and the
// terminal, app/main.cc; a library user: its own), once per process, before any plugin runs.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/aes/secret_bytes.h"

namespace pcrypt::core {

// What a plugin may ask of the user in its interactive phase. Each request names the plugin's program
// ("age-plugin-yubikey"). A UI that cannot show something says so (false / nullopt), and the plugin gets
// `fail`, as the protocol says; it then decides whether that is fatal.
class PluginUi {
 public:
  virtual ~PluginUi() = default;
  // `msg`: a message to show (e.g. "touch your YubiKey"). True once shown.
  virtual bool message(const std::string& program, const std::string& text) = 0;
  // `confirm`: yes (true) or no (false) between the two labels (`no` empty when there is only one choice).
  virtual std::optional<bool> confirm(const std::string& program, const std::string& text,
                                      const std::string& yes, const std::string& no) = 0;
  // `request-public` (shown as typed) and `request-secret` (not echoed, e.g. a PIN).
  virtual std::optional<std::string> request_public(const std::string& program, const std::string& text) = 0;
  virtual std::optional<SecretBytes> request_secret(const std::string& program, const std::string& text) = 0;
  // Not a plugin request: a plugin failed (it exited, closed its output, was killed, reported an error) and
  // another identity opened the file, so the failure is only worth a warning (`text` names the plugin).
  virtual void warning(const std::string& text) { (void)text; }
};

struct PluginHost {
  // Folders searched for `age-plugin-NAME`, ':'-separated as $PATH is (an empty entry is the current
  // folder). Empty: plugins are not found.
  std::string search_path;
  // nullptr: every request is answered `fail` and messages are not shown.
  std::shared_ptr<PluginUi> ui;
  // The environment a plugin program runs with ("NAME=value" each; the CLI passes its own on).
  std::vector<std::string> environment;
};

// A plugin name ("yubikey"): 1 or more of a-z 0-9 + - . _ (it becomes part of a program name on the search
// path).
bool is_plugin_name(std::string_view name);
// The plugin a recipient's Bech32 prefix names: "age1yubikey" -> "yubikey"; nullopt when it names none.
std::optional<std::string> plugin_of_recipient_prefix(std::string_view hrp);
// The plugin an identity's Bech32 prefix names: "age-plugin-yubikey-" (any case) -> "yubikey".
std::optional<std::string> plugin_of_identity_prefix(std::string_view hrp);

// Sets the process's plugin host (thread-safe; plugins started afterwards use it).
void set_plugin_host(PluginHost host);
// A copy of the current one (never a null ui).
PluginHost plugin_host();

}  // namespace pcrypt::core
