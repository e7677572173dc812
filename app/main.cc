// pcrypt's entry point and its one error-reporting site: every failure becomes exactly one
// "pcrypt: error: ..." line (plus an optional hint) and the exit code documented in man/pcrypt.1.

#include <cxxabi.h>
#include <unistd.h>
#include <CLI/CLI.hpp>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <typeinfo>

#include "app/bench_glue.h"
#include "app/cli.h"
#include "app/commands.h"
#include "app/endpoints.h"
#include "app/environment.h"
#include "app/error_words.h"
#include "app/library.h"
#include "app/logging.h"
#include "app/mount_cli.h"
#include "app/parse_errors.h"
#include "app/personalities.h"
#include "app/plugin_ui.h"
#include "app/report.h"
#include "io/cleanup.h"
#include "io/std_fds.h"
#include "io/stream.h"

namespace pcrypt::app {
namespace {

// Commands whose whole result is what they print: with standard output closed, nothing would be shown.
constexpr const char* kPrintHint = "redirect standard output (> FILE) instead of closing it";

int dispatch(const Subcommands& sub, const MountCommands& mounts, const BenchCommand& bench,
             const ParsedArgs& args, const MountArgs& mount, const UnmountArgs& unmount) {
  if (sub.info->parsed() || sub.recipient->parsed() || bench.command->parsed())
    require_open_stdout(kPrintHint);
  if (sub.encrypt->parsed()) return run_encrypt(args.encrypt, args.verbosity());
  if (sub.decrypt->parsed()) return run_decrypt(args.decrypt, args.verbosity());
  if (sub.keygen->parsed()) return run_keygen(args.keygen);
  if (sub.info->parsed()) return run_info(args.info);
  if (sub.verify->parsed()) return run_verify(args.verify, args.verbosity());
  if (sub.rekey->parsed()) return run_rekey(args.rekey, args.verbosity());
  if (sub.recipient->parsed()) return run_recipient(args.recipient);
  if (mounts.mount->parsed()) return run_mount(mount, args.verbosity());
  if (mounts.unmount->parsed()) return run_unmount(unmount);
  if (bench.command->parsed()) return bench.run();
  throw CliError(PCRYPT_E_BAD_ARGUMENT, "no command given", "see 'pcrypt --help'");
}

// The reader of our output went away (`pcrypt decrypt ... | head`): what it wanted is delivered, so no error
// line, and the exit status 1 still says the output is incomplete (man/pcrypt.1). The errno comes with the
// failure itself: io::IoError from the CLI's own writes, pcrypt::Error::error_number() from the library's.
bool output_closed_early(int error_number, const char* what) {
  if (error_number != EPIPE) return false;
  log::info("output closed early ({})", what);
  return true;
}

int run(int argc, char** argv) {
  // A closed pipe must surface as EPIPE from write() (handled below), not kill us before cleanup runs.
  std::signal(SIGPIPE, SIG_IGN);
  io::install_signal_cleanup();

  CLI::App app{"", "pcrypt"};
  ParsedArgs args;
  const Subcommands sub = define_cli(app, args);
  MountArgs mount_args;
  UnmountArgs unmount_args;
  const MountCommands mounts = define_mount_cli(app, mount_args, unmount_args);
  const BenchCommand bench = add_bench(app);
  name_untyped_values(app);
  HelpRewrite words = rewrite_help_command(app, argc, argv);
  if (words.error) {
    print_error(words.error->message, words.error->hint);
    return kExitUsage;
  }
  try {
    app.parse(static_cast<int>(words.args.size()), words.args.data());
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {  // --help, --version
      if (io::standard_fd_was_closed(STDOUT_FILENO)) {
        print_error("standard output is closed", kPrintHint);
        return kExitIo;
      }
      return app.exit(e);
    }
    const UsageMessage usage =
        describe_parse_error(app, e, static_cast<int>(words.args.size()), words.args.data());
    print_error(usage.message, usage.hint);
    return kExitUsage;
  }
  setup_logging(args.verbosity());
  set_plugin_host(terminal_plugin_host(plugin_search_path(), environment_for_plugins()));

  try {
    return dispatch(sub, mounts, bench, args, mount_args, unmount_args);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::io && output_closed_early(e.error_number(), e.what())) return kExitIo;
    print_error(e);
    return exit_status(e);
  } catch (const io::IoError& e) {
    if (output_closed_early(e.error_number(), e.what())) return kExitIo;
    print_error(e.what());
    return kExitIo;
  } catch (const std::bad_alloc&) {
    print_error_without_allocating("out of memory");
    return kExitIo;
  } catch (const std::exception& e) {
    print_error(e.what());
    return kExitIo;
  }
}

// std::terminate's last word: where even throwing is impossible (out of memory, the exception itself cannot
// be allocated: "terminate called without an active exception") or an exception escapes where none may, one
// error line, the temporaries removed as on a signal, and exit 1 rather than an abort's 134.
// Nothing here may allocate: memory may be what ran out, and a second std::bad_alloc here would call this
// handler again, and again, until the stack overflows. A bad_alloc is told by its type alone (rethrowing it
// would allocate a dependent exception).
[[noreturn]] void on_terminate() noexcept {
  const char* what = "out of memory, or an internal error (std::terminate)";
  if (const std::type_info* type = abi::__cxa_current_exception_type()) {
    if (*type == typeid(std::bad_alloc)) {
      what = "out of memory";
    } else if (const std::exception_ptr current = std::current_exception()) {
      try {
        std::rethrow_exception(current);
      } catch (const std::exception& e) {
        what = e.what();  // (`current` keeps the exception alive)
      } catch (...) {
      }
    }
  }
  print_error_without_allocating(what);
  io::unlink_registered_temp_paths();
  std::_Exit(kExitIo);
}

// Installed before the static constructors of default priority run: CLI11's headers define validators
// (CLI::ExistingFile...) whose construction allocates, and under `ulimit -v` that is where start-up first
// runs out of memory.
__attribute__((constructor(101))) void install_terminate_handler() {
  std::set_terminate(&on_terminate);
}

}  // namespace
}  // namespace pcrypt::app

int main(int argc, char** argv) {
  // Before anything else opens a file, so nothing can take the number of a closed stdin/stdout/stderr.
  if (!pcrypt::io::reserve_standard_fds()) {
    pcrypt::app::print_error("cannot open /dev/null for a closed standard input, output or error");
    return 1;
  }
  // run() reports what the command does wrong; this reports what fails before and around it (the command
  // line's definition, logging, the plugin host: out of memory under `ulimit -v`, say), in the same words:
  // one error line and exit 1, never an abort.
  try {
    // Called as `age` (a link's name, or `pcrypt age ...`): that program's command line, not pcrypt's.
    if (const std::optional<int> status = pcrypt::app::run_personality(argc, argv)) return *status;
    return pcrypt::app::run(argc, argv);
  } catch (const std::bad_alloc&) {
    pcrypt::app::print_error_without_allocating("out of memory");
  } catch (const std::exception& e) {
    pcrypt::app::print_error(e.what());
  } catch (...) {
    pcrypt::app::print_error_without_allocating("an unexpected failure");
  }
  return 1;
}
