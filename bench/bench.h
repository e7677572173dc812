// `pcrypt bench`: the throughput experiments (keystream, throughput, engines). The CLI's main registers it.
#pragma once

#include <functional>
#include <string>

// CLI11 declared, not included: its header costs each file that includes it seconds of compile time, and
// only the files that build or read the command line (cli.cc, main.cc, ...) need more than these names.
namespace CLI {
class App;
}  // namespace CLI

namespace pcrypt::app {

struct BenchCommand {
  CLI::App* command;         // the `bench` subcommand (its experiments are sub-subcommands)
  std::function<int()> run;  // runs what was parsed; returns the process exit code
};

// `requested_engine(option)`: the engine name to use given --engine's value (the CLI adds $PCRYPT_ENGINE;
// "" means the fastest). The bench reads no environment itself.
BenchCommand add_bench_command(CLI::App& root,
                               std::function<std::string(const std::string& option)> requested_engine);

}  // namespace pcrypt::app
