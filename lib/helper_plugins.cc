// Serving as age 1.3's helper plugins (include/pcrypt/pcrypt.h: serve_age_plugin), over core/door/.
#define PCRYPT_BUILDING_LIBRARY
#include "core/door/helper_plugins.h"

#include "lib/internal.h"

namespace pcrypt {
inline namespace v1 {
namespace {

// The caller's passphrase callback for the door: its Error, code and words for the client, becomes the
// core's.
std::function<core::door::PluginPassphrase()> adapt(const std::function<AgePluginPassphrase()>& ask) {
  if (!ask) return {};
  return [ask]() {
    try {
      AgePluginPassphrase given = ask();
      return core::door::PluginPassphrase{SecretBytes(given.passphrase.span()), given.work_factor};
    } catch (const Error& e) {
      throw core::Error(e.code(), e.what(), e.hint());
    }
  };
}

}  // namespace

int serve_age_plugin(const AgeHelperPlugin& plugin, std::string_view state_machine, int in_fd, int out_fd) {
  return detail::guarded(detail::Phase::other, [&] {
    return core::door::serve_helper_plugin(
        plugin.name, state_machine, in_fd, out_fd,
        core::door::HelperPluginSource{adapt(plugin.passphrase_for_encrypting),
                                       adapt(plugin.passphrase_for_decrypting)});
  });
}

std::vector<std::string> age_pq_plugin_identities(std::string_view identity_file_text,
                                                  std::string_view name) {
  return detail::guarded(detail::Phase::other,
                         [&] { return core::door::pq_plugin_identities(identity_file_text, name); });
}

}  // namespace v1
}  // namespace pcrypt
