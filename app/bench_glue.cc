#include "app/bench_glue.h"

#include <pcrypt/pcrypt.h>
#include <CLI/CLI.hpp>

#include <utility>

#include "app/environment.h"
#include "core/error.h"
#include "core/pipeline_error.h"

namespace pcrypt::app {

BenchCommand add_bench(CLI::App& root) {
  BenchCommand bench = add_bench_command(root, &requested_engine);
  bench.run = [run = std::move(bench.run)] {
    try {
      return run();
    } catch (const core::Error& e) {
      const auto* stream_error = dynamic_cast<const core::StreamError*>(&e);
      ErrorFields fields;
      fields.error_number = stream_error != nullptr ? stream_error->error_number() : 0;
      throw Error(e.code(), e.what(), e.hint(), std::move(fields));
    }
  };
  return bench;
}

}  // namespace pcrypt::app
