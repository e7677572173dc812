#include "app/logging.h"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <memory>

namespace pcrypt::app {
namespace {

spdlog::level::level_enum spdlog_level(log::Level level) {
  return level == log::Level::info ? spdlog::level::info : spdlog::level::warn;
}

}  // namespace

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

void log_warnings_as_age() {
  auto logger = std::make_shared<spdlog::logger>("age", std::make_shared<spdlog::sinks::stderr_sink_mt>());
  logger->set_pattern("age: warning: %v");
  logger->set_level(spdlog::level::warn);
  spdlog::set_default_logger(std::move(logger));
}

namespace log {

bool enabled(Level level) {
  return spdlog::should_log(spdlog_level(level));
}

void write(Level level, std::string_view line) {
  spdlog::log(spdlog_level(level), "{}", line);
}

}  // namespace log
}  // namespace pcrypt::app
