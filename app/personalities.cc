#include "app/personalities.h"

#include <array>
#include <csignal>
#include <string_view>

#include "io/cleanup.h"

namespace pcrypt::app {
namespace {

struct Personality {
  std::string_view name;
  int (*run)(int argc, char** argv);
};

// The names pcrypt answers to besides its own. A name is listed once its command line is implemented.
constexpr std::array kPersonalities{
    Personality{"age", &run_age},
    Personality{"age-keygen", &run_age_keygen},
    Personality{"age-inspect", &run_age_inspect},
    Personality{"age-plugin-batchpass", &run_age_plugin_batchpass},
    Personality{"age-plugin-pq", &run_age_plugin_pq},
};

const Personality* personality_named(std::string_view name) {
  for (const Personality& p : kPersonalities)
    if (p.name == name) return &p;
  return nullptr;
}

std::string_view file_name(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

int run_as(const Personality& personality, int argc, char** argv) {
  // As for pcrypt's own command line (app/main.cc): a closed pipe is EPIPE from write(), not a silent death
  // before the temporaries are removed, and a signal removes them too.
  std::signal(SIGPIPE, SIG_IGN);
  io::install_signal_cleanup();
  return personality.run(argc, argv);
}

}  // namespace

std::optional<int> run_personality(int argc, char** argv) {
  if (argc < 1 || argv[0] == nullptr) return std::nullopt;
  if (const Personality* p = personality_named(file_name(argv[0]))) return run_as(*p, argc, argv);
  // `pcrypt age ARGS...`: the personality sees its own name as argv[0], as through a link.
  if (argc >= 2)
    if (const Personality* p = personality_named(argv[1])) return run_as(*p, argc - 1, argv + 1);
  return std::nullopt;
}

}  // namespace pcrypt::app
