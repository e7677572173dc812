#include "app/endpoints.h"
#include "app/error_words.h"

#include <pcrypt/pcrypt.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "io/atomic_file.h"
#include "io/fd_stream.h"
#include "io/file_info.h"
#include "io/std_fds.h"
#include "io/stream.h"

namespace pcrypt::app {

void refuse_recipients_from_data_input(const std::vector<std::string>& recipient_files,
                                       bool data_from_stdin) {
  for (const std::string& path : recipient_files)
    if (path == "-" && data_from_stdin)
      throw CliError(PCRYPT_E_BAD_ARGUMENT, "-R - reads recipients from standard input, which is the data",
                     "give the data as FILE, or the recipients in a file");
}
namespace {

// Path names the kernel resolves to whatever descriptor 0/1 is, so "same file?" also covers redirections.
constexpr const char* kStdinPath = "/dev/stdin";
constexpr const char* kStdoutPath = "/dev/stdout";

std::string path_of(const Input& input) {
  return input.is_stdin ? kStdinPath : input.path;
}

// Data cannot come from (or go to) a standard stream that was closed at start (io/std_fds.h): it is
// /dev/null now, and reading it as empty input or writing into it would report a success that is not one.
void require_open_stdin() {
  if (io::standard_fd_was_closed(STDIN_FILENO))
    throw CliError(PCRYPT_E_IO, "standard input is closed",
                   "give a FILE, or redirect standard input (< FILE)");
}

// -o /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: the descriptor must be open for writing now (a
// standard one closed at start is /dev/null by now, which would swallow the output).
void check_descriptor_output(int fd, const std::string& path) {
  if (fd == STDOUT_FILENO) require_open_stdout();
  const int flags = ::fcntl(fd, F_GETFL);
  if (io::standard_fd_was_closed(fd) || flags < 0)
    throw CliError(PCRYPT_E_IO,
                   "cannot write to " + path + ": descriptor " + std::to_string(fd) + " is not open",
                   "open it in the shell (e.g. " + std::to_string(fd) + "> FILE), or use -o FILE");
  if ((flags & O_ACCMODE) == O_RDONLY)
    throw CliError(PCRYPT_E_IO, "cannot write to " + path + ": descriptor " + std::to_string(fd) +
                                    " is open for reading only");
}

}  // namespace

void require_open_stdout(const char* hint) {
  if (io::standard_fd_was_closed(STDOUT_FILENO))
    throw CliError(PCRYPT_E_IO, "standard output is closed", hint);
}

void flush_stdout() {
  if (std::fflush(stdout) != 0) {
    const int error_number = errno;
    throw io::IoError(std::string("cannot write to standard output: ") + std::strerror(error_number),
                      error_number);
  }
}

Input open_input(const std::string& path) {
  if (is_standard_stream(path)) require_open_stdin();
  std::unique_ptr<io::FdReader> reader;
  if (const std::optional<int> fd = io::descriptor_path(path)) {
    // The descriptor itself, not the file behind it opened anew: its offset is shared (with a passphrase
    // read from the same standard input, for one), and a closed one is reported as such.
    if (*fd == STDIN_FILENO) require_open_stdin();
    if (io::standard_fd_was_closed(*fd) || ::fcntl(*fd, F_GETFD) < 0)
      throw CliError(PCRYPT_E_IO,
                     "cannot read " + path + ": descriptor " + std::to_string(*fd) + " is not open");
    reader = std::make_unique<io::FdReader>(*fd, path, false);
  } else {
    reader = io::open_input(path);
  }
  Input input;
  input.is_stdin = is_standard_stream(path);
  input.path = input.is_stdin ? std::string() : path;
  input.name = reader->name();
  input.size = reader->size();
  input.is_terminal = io::is_terminal(reader->fd());
  input.reader = std::move(reader);
  return input;
}

void check_output_path(const Input& input, const std::string& output_path, bool force) {
  if (input.reader && io::same_file(path_of(input), output_path))
    throw CliError(PCRYPT_E_IO, "refusing to write over the input (" + output_path + ")",
                   "choose another output file with -o");
  // A descriptor path is the descriptor, as -o - is standard output: written in place, never replaced.
  if (const std::optional<int> fd = io::descriptor_path(output_path))
    return check_descriptor_output(*fd, output_path);
  if (io::is_stream_file(output_path)) return;  // /dev/null, a FIFO: written in place, nothing is lost
  if (!io::file_exists(output_path)) return;
  // Not "exists, use -f": -f could not help, and cp's habit (write into it) is not what -o means here.
  std::error_code ignored;
  if (std::filesystem::is_directory(output_path, ignored))
    throw CliError(PCRYPT_E_IO, "output is a directory (" + output_path + ")",
                   "-o takes a file name: to write into the directory, use -o " +
                       (output_path.ends_with('/') ? output_path : output_path + "/") + "NAME");
  if (!force)
    throw CliError(PCRYPT_E_OUTPUT_EXISTS, "output file exists (" + output_path + ")",
                   "use -f to overwrite it, or -o to choose another name");
  // A link into /dev or /proc leads to a device or a descriptor: replacing it would, for /dev/stdout,
  // break the system's /dev/stdout and lose the output.
  if (io::is_link_into_dev_or_proc(output_path))
    throw CliError(PCRYPT_E_OUTPUT_EXISTS,
                   "refusing to replace a symlink into /dev or /proc (" + output_path + ")",
                   "to write to standard output, use -o -");
  // Only a regular file (or a symlink to one) may be replaced by the renamed temporary: never a directory
  // or a block device, and never a dangling symlink's target silently turned into a file.
  if (!io::is_regular_file(output_path))
    throw CliError(PCRYPT_E_OUTPUT_EXISTS, "output exists and is not a regular file (" + output_path + ")",
                   "choose another output file with -o");
}

void check_stdout_target(const Input& input) {
  require_open_stdout();
  if (input.reader && io::same_file(path_of(input), kStdoutPath))
    throw CliError(PCRYPT_E_IO, "refusing to write over the input (standard output is " + input.name + ")");
}

void refuse_terminal_stdout(bool insisted) {
  if (!insisted && io::is_terminal(STDOUT_FILENO))
    throw CliError(PCRYPT_E_IO, "refusing to write encrypted data to a terminal",
                   "redirect standard output or use -o FILE (-o - or -f writes it to the terminal anyway)");
}

void refuse_terminal_output(const std::string& output_path, bool insisted) {
  if (insisted) return;
  bool terminal = false;
  if (const std::optional<int> descriptor = io::descriptor_path(output_path)) {
    terminal = io::is_terminal(*descriptor);
  } else if (io::is_character_device(output_path)) {
    // Only a terminal answers isatty, and that needs a descriptor. O_NOCTTY: never become its controlling
    // process; O_NONBLOCK: never wait for a modem line.
    const int fd = ::open(output_path.c_str(), O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) {
      terminal = io::is_terminal(fd);
      ::close(fd);
    }
  }
  if (terminal)
    throw CliError(PCRYPT_E_IO, "refusing to write encrypted data to a terminal (" + output_path + ")",
                   "use -f to write it to the terminal anyway, or -o FILE");
}

void refuse_terminal_input(const Input& input) {
  if (input.is_terminal)
    throw CliError(PCRYPT_E_IO,
                   input.is_stdin ? std::string("refusing to read encrypted data from a terminal")
                                  : "refusing to read encrypted data from a terminal (" + input.name + ")",
                   input.is_stdin ? "give a FILE or redirect standard input" : "give an encrypted FILE");
}

Input open_decrypt_input(const std::string& path, const std::string& out_path, bool force) {
  Input input = open_input(path);
  refuse_terminal_input(input);
  if (out_path.empty())
    check_stdout_target(input);
  else
    check_output_path(input, out_path, force);
  return input;
}

std::unique_ptr<io::Writer> open_output(const std::string& path, bool force, io::Permissions permissions) {
  if (is_standard_stream(path)) {
    require_open_stdout();
    return io::stdout_writer();
  }
  if (const std::optional<int> fd = io::descriptor_path(path))
    return std::make_unique<io::FdWriter>(*fd, path, false);
  if (io::is_stream_file(path)) return io::open_stream_output(path);
  return std::make_unique<io::AtomicFileWriter>(path, force, io::TempFile::unnamed_if_supported, permissions);
}

}  // namespace pcrypt::app
