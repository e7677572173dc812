// `pcrypt info`: the header in plain words (no key needed), and/or the engine table.
#include <cstdio>

#include "app/commands.h"
#include "app/endpoints.h"
#include "app/report.h"
#include "core/crypt.h"
#include "core/error.h"

namespace pcrypt::app {

int run_info(const InfoArgs& args) {
  if (args.engines) std::fputs(engine_table().c_str(), stdout);
  // `info --engines` alone is about this machine, not a file: don't wait on standard input.
  if (args.engines && args.file.empty()) return 0;

  Input input = open_input(args.file);
  refuse_terminal_input(input);
  std::string description;
  try {
    description = core::describe_header(*input.reader);
  } catch (const core::Error& e) {
    throw core::Error(e.kind(), with_file_context(e.what(), input.name), e.hint());
  }
  if (args.engines) std::fputc('\n', stdout);
  std::fputs(description.c_str(), stdout);
  if (std::fflush(stdout) != 0) throw core::Error(core::ErrorKind::io, "cannot write to standard output");
  return 0;
}

}  // namespace pcrypt::app
