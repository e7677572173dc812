#include "core/keys/plugin_host.h"

#include <cctype>
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
// Nothing allocated before main: in libpcrypt.so this initializer runs before the program's own, so before
// it could catch running out of memory (tests/cli/test_startup_memory.sh). The null ui is NoUi.
PluginHost current_host;

}  // namespace

void set_plugin_host(PluginHost host) {
  if (!host.ui) host.ui = std::make_shared<NoUi>();
  std::lock_guard lock(host_mutex);
  current_host = std::move(host);
}

PluginHost plugin_host() {
  PluginHost host;
  {
    std::lock_guard lock(host_mutex);
    host = current_host;
  }
  if (!host.ui) host.ui = std::make_shared<NoUi>();
  return host;
}

bool is_plugin_name(std::string_view name) {
  if (name.empty()) return false;
  for (const char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == '_'))
      return false;
  return true;
}

std::optional<std::string> plugin_of_recipient_prefix(std::string_view hrp) {
  constexpr std::string_view prefix = "age1";
  if (hrp.substr(0, prefix.size()) != prefix) return std::nullopt;
  const std::string name(hrp.substr(prefix.size()));
  if (!is_plugin_name(name)) return std::nullopt;
  return name;
}

std::optional<std::string> plugin_of_identity_prefix(std::string_view hrp) {
  constexpr std::string_view prefix = "age-plugin-";
  if (hrp.size() <= prefix.size() + 1 || hrp.back() != '-') return std::nullopt;
  std::string lower(hrp);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower.substr(0, prefix.size()) != prefix) return std::nullopt;
  std::string name = lower.substr(prefix.size(), lower.size() - prefix.size() - 1);
  if (!is_plugin_name(name)) return std::nullopt;
  return name;
}

}  // namespace pcrypt::core
