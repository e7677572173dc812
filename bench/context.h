// What every experiment gets from the `bench` command: the method, where finished tables go, and how to
// report progress. Experiments poll stop() between samples and return early (with the rows done so far) when
// it is set.
#pragma once

#include <functional>
#include <string>

#include "bench/interrupt.h"
#include "bench/report.h"
#include "bench/sampler.h"

namespace pcrypt::app::bench {

struct Context {
  Method method;
  bool quick = false;
  std::string engine;                                // --engine; empty = each experiment's default
  std::function<void(const Table&)> emit;            // prints one finished (or partial) table
  std::function<void(const std::string&)> progress;  // one status line; a no-op unless stderr is a terminal
  std::function<bool()> stop = [] { return interrupted(); };
};

}  // namespace pcrypt::app::bench
