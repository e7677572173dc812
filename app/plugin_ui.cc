#include "app/plugin_ui.h"

#include <pcrypt/pcrypt.h>

#include <cctype>
#include <cstdio>
#include <string>
#include <string_view>

#include "app/logging.h"
#include "app/tty_prompt.h"

namespace pcrypt::app {
namespace {

bool same_ignoring_case(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

class TerminalPluginUi {
 public:
  static void warning(const std::string& text) { log::warn("{}", text); }

  static bool message(const std::string& program, const std::string& text) {
    // Not through log::warn: -q must not hide "touch your security key".
    std::fprintf(stderr, "pcrypt: %s: %s\n", program.c_str(), text.c_str());
    std::fflush(stderr);
    return true;
  }

  static std::optional<bool> confirm(const std::string& program, const std::string& text,
                                     const std::string& yes, const std::string& no) {
    try {
      if (no.empty()) {
        prompt_visible(program + ": " + text + " [press Enter to " + yes + "] ");
        return true;
      }
      std::string prompt = program;
      prompt += ": ";
      prompt += text;
      prompt += " [";
      prompt += yes;
      prompt += '/';
      prompt += no;
      prompt += "] ";
      for (;;) {
        const std::string answer = prompt_visible(prompt);
        if (same_ignoring_case(answer, yes)) return true;
        if (same_ignoring_case(answer, no)) return false;
      }
    } catch (const Error&) {
      return std::nullopt;  // no terminal, or end of input: the plugin gets `fail`
    }
  }

  static std::optional<std::string> request_public(const std::string& program, const std::string& text) {
    try {
      return prompt_visible(program + ": " + text + " ");
    } catch (const Error&) {
      return std::nullopt;
    }
  }

  static std::optional<std::string> request_secret(const std::string& program, const std::string& text) {
    try {
      return std::string(prompt_hidden(program + ": " + text + " ").text());  // wiped by the library
    } catch (const Error&) {
      return std::nullopt;
    }
  }
};

}  // namespace

PluginHost terminal_plugin_host(std::string search_path, std::vector<std::string> environment, bool as_age) {
  PluginHost host;
  host.search_path = std::move(search_path);
  host.environment = std::move(environment);
  host.message = &TerminalPluginUi::message;
  if (as_age)
    host.message = [](const std::string& program, const std::string& text) {
      constexpr std::string_view prefix = "age-plugin-";
      const std::string name = program.starts_with(prefix) ? program.substr(prefix.size()) : program;
      std::fprintf(stderr, "age: %s plugin: %s\n", name.c_str(), text.c_str());
      std::fflush(stderr);
      return true;
    };
  host.confirm = &TerminalPluginUi::confirm;
  host.request_public = &TerminalPluginUi::request_public;
  host.request_secret = &TerminalPluginUi::request_secret;
  host.warning = &TerminalPluginUi::warning;
  return host;
}

}  // namespace pcrypt::app
