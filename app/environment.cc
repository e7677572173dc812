#include "app/environment.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <string_view>

extern char** environ;

namespace pcrypt::app {

const char* passphrase_from_environment() {
  return std::getenv("PCRYPT_PASSPHRASE");
}

const char* ssh_key_passphrase_from_environment() {
  return std::getenv("PCRYPT_SSH_KEY_PASSPHRASE");
}

std::string requested_engine(const std::string& option) {
  if (!option.empty()) return option;
  const char* env = std::getenv("PCRYPT_ENGINE");
  return env != nullptr ? env : "";
}

const char* threads_from_environment() {
  return std::getenv("PCRYPT_THREADS");
}

std::string batchpass_variable(const char* name) {
  const std::string_view known[] = {"AGE_PASSPHRASE", "AGE_PASSPHRASE_FD", "AGE_PASSPHRASE_WORK_FACTOR",
                                    "AGE_PASSPHRASE_MAX_WORK_FACTOR"};
  if (std::find(std::begin(known), std::end(known), name) == std::end(known)) return {};
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

std::string plugin_search_path() {
  const char* path = std::getenv("PATH");
  return path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
}

std::vector<std::string> environment_for_plugins() {
  std::vector<std::string> out;
  for (char** entry = environ; *entry != nullptr; ++entry) out.emplace_back(*entry);
  return out;
}

}  // namespace pcrypt::app
