// spdlog on stderr for what -v reports (engine, threads, chunk size, throughput). Errors do not go through
// it: they are printed by report.h so their format stays exact.
#pragma once

namespace pcrypt::app {

enum class Verbosity { quiet, normal, verbose };

void setup_logging(Verbosity verbosity);

}  // namespace pcrypt::app
