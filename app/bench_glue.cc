#include "app/bench_glue.h"

#include <pcrypt/pcrypt.h>

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
      const ErrorKind kind = e.kind() == core::ErrorKind::usage     ? ErrorKind::usage
                             : e.kind() == core::ErrorKind::header  ? ErrorKind::damaged_header
                             : e.kind() == core::ErrorKind::payload ? ErrorKind::damaged_payload
                                                                    : ErrorKind::io;
      throw Error(kind, e.what(), e.hint(), stream_error != nullptr ? stream_error->error_number() : 0);
    }
  };
  return bench;
}

}  // namespace pcrypt::app
