#include "app/logging.h"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <memory>

namespace pcrypt::app {

void setup_logging(Verbosity verbosity) {
  // Plain (uncoloured) sink: stderr may be a log file; one writer thread at a time logs, but the mutex
  // version costs nothing at this volume and keeps lines whole if that ever changes.
  auto logger = std::make_shared<spdlog::logger>("pcrypt", std::make_shared<spdlog::sinks::stderr_sink_mt>());
  logger->set_pattern("pcrypt: %v");
  switch (verbosity) {
    case Verbosity::quiet:
      logger->set_level(spdlog::level::err);
      break;
    case Verbosity::normal:
      logger->set_level(spdlog::level::warn);
      break;
    case Verbosity::verbose:
      logger->set_level(spdlog::level::info);
      break;
  }
  spdlog::set_default_logger(std::move(logger));
}

}  // namespace pcrypt::app
