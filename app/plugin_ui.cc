#include "app/plugin_ui.h"

#include <cctype>
#include <cstdio>
#include <string>

#include <spdlog/spdlog.h>

#include "app/tty_prompt.h"
#include "core/error.h"

namespace pcrypt::app {
namespace {

bool same_ignoring_case(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

class TerminalPluginUi final : public core::PluginUi {
 public:
  void warning(const std::string& text) override { spdlog::warn("{}", text); }

  bool message(const std::string& program, const std::string& text) override {
    // Not through spdlog: -q must not hide "touch your security key".
    std::fprintf(stderr, "pcrypt: %s: %s\n", program.c_str(), text.c_str());
    std::fflush(stderr);
    return true;
  }

  std::optional<bool> confirm(const std::string& program, const std::string& text, const std::string& yes,
                              const std::string& no) override {
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
    } catch (const core::Error&) {
      return std::nullopt;  // no terminal, or end of input: the plugin gets `fail`
    }
  }

  std::optional<std::string> request_public(const std::string& program, const std::string& text) override {
    try {
      return prompt_visible(program + ": " + text + " ");
    } catch (const core::Error&) {
      return std::nullopt;
    }
  }

  std::optional<SecretBytes> request_secret(const std::string& program, const std::string& text) override {
    try {
      return prompt_hidden(program + ": " + text + " ");
    } catch (const core::Error&) {
      return std::nullopt;
    }
  }
};

}  // namespace

std::shared_ptr<core::PluginUi> terminal_plugin_ui() {
  return std::make_shared<TerminalPluginUi>();
}

}  // namespace pcrypt::app
