// `pcrypt bench`: the throughput experiments (keystream, throughput, engines). The CLI's main registers it.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace pcrypt::app {

struct BenchCommand {
  CLI::App* command;         // the `bench` subcommand (its experiments are sub-subcommands)
  std::function<int()> run;  // runs what was parsed; returns the process exit code
};

BenchCommand add_bench_command(CLI::App& root);

}  // namespace pcrypt::app
