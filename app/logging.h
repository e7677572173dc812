// What -v reports (engine, threads, chunk size, throughput) and the CLI's warnings, on stderr through spdlog.
// Errors do not go through it: they are printed by report.h so their format stays exact.
//
// Only logging.cc includes spdlog: its header costs each file that includes it several seconds of compile
// time (measured: app/cmd_verify.cc 15 s -> 10.5 s of CPU with GCC -O3 without it), in every build CI makes
// (GCC, clang's sanitizer build, ARM64), and 15 files logged. Here a line is formatted with fmt's light
// core header (format strings still checked at compile time) and handed over whole, only when its level is
// on.
#pragma once

#include <fmt/core.h>

#include <string_view>
#include <utility>

namespace pcrypt::app {

enum class Verbosity { quiet, normal, verbose };

void setup_logging(Verbosity verbosity);
// `age` and its siblings: warnings on standard error as "age: warning: ..." (spdlog's own default logger
// would write to standard output, into the data).
void log_warnings_as_age();

namespace log {

enum class Level { info, warn };

bool enabled(Level level);
void write(Level level, std::string_view line);

template <class... Args>
void info(fmt::format_string<Args...> format, Args&&... args) {
  if (enabled(Level::info)) write(Level::info, fmt::format(format, std::forward<Args>(args)...));
}

template <class... Args>
void warn(fmt::format_string<Args...> format, Args&&... args) {
  if (enabled(Level::warn)) write(Level::warn, fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace log
}  // namespace pcrypt::app
