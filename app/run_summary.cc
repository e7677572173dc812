#include "app/run_summary.h"

#include <cstdio>

#include "io/json.h"

namespace pcrypt::app {

using io::JsonWriter;

void print_json_summary(const RunSummary& run) {
  JsonWriter out;
  out.begin_object().string("command", run.command).string("input", run.input);
  if (run.output.empty())
    out.null("output");
  else
    out.string("output", run.output);
  out.string("format", run.age ? "age" : "pcrypt")
      .number("bytes_in", run.bytes_in)
      .number("bytes_out", run.bytes_out)
      .number("plaintext_bytes", run.plaintext_bytes)
      .real("seconds", run.seconds)
      .real("throughput_bytes_per_second",
            run.seconds > 0 ? static_cast<double>(run.plaintext_bytes) / run.seconds : 0.0)
      .string("engine", run.age ? "chacha20-poly1305" : run.engine)
      .number("threads", run.threads)
      .end_object();
  std::fprintf(stderr, "%s\n", out.text().c_str());
}

}  // namespace pcrypt::app
