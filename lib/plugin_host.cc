#include "lib/plugin_host.h"

#include <string.h>

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "core/keys/plugin_host.h"

namespace pcrypt::lib {
namespace {

class CallbackPluginUi final : public core::PluginUi {
 public:
  explicit CallbackPluginUi(PluginHost host) : host_(std::move(host)) {}
  bool message(const std::string& program, const std::string& text) override {
    return host_.message ? host_.message(program, text) : false;
  }
  std::optional<bool> confirm(const std::string& program, const std::string& text, const std::string& yes,
                              const std::string& no) override {
    return host_.confirm ? host_.confirm(program, text, yes, no) : std::nullopt;
  }
  std::optional<std::string> request_public(const std::string& program, const std::string& text) override {
    return host_.request_public ? host_.request_public(program, text) : std::nullopt;
  }
  std::optional<SecretBytes> request_secret(const std::string& program, const std::string& text) override {
    if (!host_.request_secret) return std::nullopt;
    // The PIN, initialised straight from the callback's result and wiped once copied into guarded memory.
    std::optional<std::string> answer = host_.request_secret(program, text);
    if (!answer) return std::nullopt;
    SecretBytes secret(
        std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(answer->data()), answer->size()));
    ::explicit_bzero(answer->data(), answer->size());
    return secret;
  }
  void warning(const std::string& text) override {
    if (host_.warning) host_.warning(text);
  }

 private:
  PluginHost host_;
};

}  // namespace

void set_core_plugin_host(PluginHost host) {
  std::string search_path = host.search_path;
  std::vector<std::string> environment = host.environment;
  core::set_plugin_host(core::PluginHost{
      std::move(search_path), std::make_shared<CallbackPluginUi>(std::move(host)), std::move(environment)});
}

}  // namespace pcrypt::lib
