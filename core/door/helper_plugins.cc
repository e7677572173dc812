#include "core/door/helper_plugins.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/age/helper_plugins.h"
#include "core/age/plugin_serve.h"
#include "core/error.h"
#include "io/buffered_input.h"
#include "io/fd_stream.h"
#include "io/stream.h"

namespace pcrypt::core::door {
namespace {

age::BatchpassSource batchpass_source(HelperPluginSource source) {
  const auto adapt = [](std::function<PluginPassphrase()> ask) {
    return [ask = std::move(ask)]() -> age::BatchpassSecret {
      if (!ask) throw Error(PCRYPT_E_NO_CREDENTIAL, "no passphrase was given to the plugin");
      PluginPassphrase given = ask();
      return age::BatchpassSecret{std::move(given.passphrase), given.work_factor};
    };
  };
  return age::BatchpassSource{adapt(std::move(source.encrypting)), adapt(std::move(source.decrypting))};
}

}  // namespace

bool is_helper_plugin(std::string_view name) {
  return name == "batchpass" || name == "pq";
}

int serve_helper_plugin(std::string_view name, std::string_view state_machine, int in_fd, int out_fd,
                        HelperPluginSource source) {
  if (!is_helper_plugin(name))
    throw Error(PCRYPT_E_BAD_ARGUMENT, "pcrypt is no age plugin named '" + std::string(name) + "'");
  const age::PluginKeys keys =
      name == "pq" ? age::pq_plugin() : age::batchpass_plugin(batchpass_source(std::move(source)));
  io::FdReader reader(in_fd, "the age client", false);
  // No read-ahead: the client waits for our answer after each of its requests, so never ask for more.
  io::BufferedInput in(reader, 0);
  const auto send = [out_fd](std::string_view text) {
    while (!text.empty()) {
      const ssize_t n = ::write(out_fd, text.data(), text.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        throw Error(PCRYPT_E_IO,
                    std::string("the age client went away (writing to it: ") + std::strerror(errno) + ")", {},
                    ErrorFields().errno_value(errno));
      text.remove_prefix(static_cast<std::size_t>(n));
    }
  };
  return static_cast<int>(age::serve_plugin(keys, state_machine, in, send));
}

std::vector<std::string> pq_plugin_identities(std::string_view identity_file, std::string_view name) {
  return age::pq_plugin_identities(identity_file, name);
}

}  // namespace pcrypt::core::door
