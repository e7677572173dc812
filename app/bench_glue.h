// `pcrypt bench` in the CLI: the bench measures the engines themselves, below libpcrypt's API, and links them
// statically (bench/); this glue is the one place in app/ that sees core, to turn the bench's core::Error
// into the pcrypt::Error app/main.cc reports (scripts/check-layering.sh: app-through-library).
#pragma once

#include "bench/bench.h"

namespace pcrypt::app {

// bench/bench.h's add_bench_command, with the engine name the CLI asks for, its errors as pcrypt::Error.
BenchCommand add_bench(CLI::App& root);

}  // namespace pcrypt::app
