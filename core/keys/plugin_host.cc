#include "core/keys/plugin_host.h"

#include <mutex>

namespace pcrypt::core {
namespace {

class NoUi final : public PluginUi {
 public:
  bool message(const std::string&, const std::string&) override { return false; }
  std::optional<bool> confirm(const std::string&, const std::string&, const std::string&,
                              const std::string&) override {
    return std::nullopt;
  }
  std::optional<std::string> request_public(const std::string&, const std::string&) override {
    return std::nullopt;
  }
  std::optional<SecretBytes> request_secret(const std::string&, const std::string&) override {
    return std::nullopt;
  }
};

std::mutex host_mutex;
PluginHost current_host{std::string(), std::make_shared<NoUi>(), {}};

}  // namespace

void set_plugin_host(PluginHost host) {
  if (!host.ui) host.ui = std::make_shared<NoUi>();
  std::lock_guard lock(host_mutex);
  current_host = std::move(host);
}

PluginHost plugin_host() {
  std::lock_guard lock(host_mutex);
  return current_host;
}

}  // namespace pcrypt::core
