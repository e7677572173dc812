// The age-keygen personality: pcrypt run as `age-keygen` (or `pcrypt age-keygen`) takes age 1.3's
// age-keygen command line and does what it does -- a new X25519 or, with -pq, ML-KEM-768 + X25519 identity
// to standard output or a new file (-o: mode 0600, never an existing one), its public key on standard
// error when the identity does not go to a terminal, and -y, an identity file's recipients. Errors are
// age's `age-keygen: error: ...` lines with exit 1, a bad flag Go's message and the usage with exit 2.
// Unlike age, a failure leaves no output file behind (the file appears complete or not at all).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <string_view>
#include <vector>

#include <pcrypt/pcrypt.h>

#include "app/age_personality.h"
#include "app/endpoints.h"
#include "app/go_flags.h"
#include "app/personalities.h"
#include "io/stream.h"

namespace pcrypt::app {
namespace {

constexpr const char* kKeygenName = "age-keygen";

constexpr const char* kKeygenUsage = R"(Usage:
    age-keygen [-pq] [-o OUTPUT]
    age-keygen -y [-o OUTPUT] [INPUT]

Options:
    -pq                    A post-quantum identity: ML-KEM-768 + X25519 (age1pq1...).
    -o, --output OUTPUT    Write to OUTPUT, a new file (mode 0600) that must not exist.
    -y                     Print the recipient of each identity in INPUT, or in
                           standard input, one a line.
    -version               Print the version.

This is pcrypt under age-keygen's name (pcrypt(1), AGE-KEYGEN AND AGE-INSPECT). Without
-o the identity goes to standard output; whenever it does not go to a terminal,
its public key is also printed to standard error ("Public key: age1...").)";

// "2026-11-28T05:10:00+01:00", or "...Z" at UTC: RFC 3339 in local time, as age's key files start.
std::string created_now() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char when[32];
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &local);
  const long offset_minutes = local.tm_gmtoff / 60;
  if (offset_minutes == 0) return std::string(when) + "Z";
  const int magnitude = static_cast<int>((offset_minutes < 0 ? -offset_minutes : offset_minutes) % (24 * 60));
  char zone[16];
  std::snprintf(zone, sizeof zone, "%c%02d:%02d", offset_minutes < 0 ? '-' : '+', magnitude / 60,
                magnitude % 60);
  return when + std::string(zone);
}

std::string read_all(int fd, const std::string& name) {
  std::string text;
  char buffer[1 << 14];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n == 0) return text;
    if (n < 0) {
      if (errno == EINTR) continue;
      throw AgeToolError{"failed to parse input: read " + name + ": " + std::strerror(errno)};
    }
    text.append(buffer, static_cast<std::size_t>(n));
  }
}

// INPUT ("" or "-": standard input) as text.
std::string read_input(const std::string& path) {
  if (path.empty() || path == "-") return read_all(STDIN_FILENO, "/dev/stdin");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw AgeToolError{"failed to open input file \"" + path + "\": " + go_open_error(path, errno)};
  try {
    std::string text = read_all(fd, path);
    ::close(fd);
    return text;
  } catch (...) {
    ::close(fd);
    throw;
  }
}

// `-o PATH` is refused up front when PATH exists, in age's words; the file itself is written whole or not at
// all by open_output (atomic, 0600, never over an existing file).
void refuse_existing_output(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0)
    throw AgeToolError{"failed to open output file \"" + path + "\": " + go_open_error(path, EEXIST)};
}

void write_output(const std::string& path, const std::string& text) {
  const std::unique_ptr<io::Writer> out = open_output(path, false);
  out->write(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  out->commit();
}

// age-keygen writing a secret key to a file anyone may read (`age-keygen > key.txt` under umask 022) says so.
void warn_if_world_readable_stdout() {
  struct stat st {};
  if (::fstat(STDOUT_FILENO, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & S_IROTH) != 0)
    std::fprintf(stderr, "%s: warning: writing secret key to a world-readable file\n", kKeygenName);
}

int generate(const std::string& output, bool post_quantum) {
  if (output.empty()) warn_if_world_readable_stdout();
  const NewIdentity identity = generate_identity(post_quantum);
  // generate_identity's text is "# public key: ..." and the secret line; age's files start with the date.
  const std::string text = "# created: " + created_now() + "\n" + identity.file_text;
  const bool to_terminal = output.empty() && ::isatty(STDOUT_FILENO) != 0;
  if (!to_terminal) std::fprintf(stderr, "Public key: %s\n", identity.recipient.c_str());
  write_output(output, text);
  return 0;
}

int convert(const std::string& input, const std::string& output) {
  const std::string text = read_input(input);
  // Only blank and comment lines: age's "no identities" (the library would call the file malformed).
  bool any = false;
  for (std::size_t at = 0; at < text.size() && !any;) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line = std::string_view(text).substr(at, end - at);
    any = line.find_first_not_of(" \t\r") != std::string_view::npos && line.front() != '#';
    at = end + 1;
  }
  if (!any) throw AgeToolError{"no identities found in the input"};
  std::vector<std::string> recipients;
  try {
    recipients = recipients_of(text);
  } catch (const Error& e) {
    throw AgeToolError{std::string("failed to parse input: ") + e.what()};
  }
  if (recipients.empty()) throw AgeToolError{"no identities found in the input"};
  std::string lines;
  for (const std::string& r : recipients) lines += r + "\n";
  write_output(output, lines);
  return 0;
}

}  // namespace

int run_age_keygen(int argc, char** argv) {
  bool version = false, post_quantum = false, to_recipients = false;
  std::string output;
  GoFlags flags;
  flags.add_bool("version", &version);
  flags.add_bool("pq", &post_quantum);
  flags.add_bool("y", &to_recipients);
  flags.add_string("o", &output);
  flags.add_string("output", &output);
  const GoFlags::Outcome parsed = flags.parse(argc, argv);
  if (const std::optional<int> code = usage_exit_code(parsed, kKeygenUsage)) return *code;
  try {
    if (version) return print_age_version();
    const std::vector<std::string>& args = parsed.arguments;
    if ((!to_recipients && !args.empty()) || args.size() > 1) throw AgeToolError{"too many arguments"};
    if (post_quantum && to_recipients) throw AgeToolError{"-pq cannot be used with -y"};
    if (!output.empty()) refuse_existing_output(output);
    return to_recipients ? convert(args.empty() ? std::string() : args[0], output)
                         : generate(output, post_quantum);
  } catch (const AgeToolError& e) {
    return report_age_error(kKeygenName, e.message);
  } catch (const Error& e) {
    return report_age_error(kKeygenName, e.what());
  } catch (const io::IoError& e) {
    return report_age_error(kKeygenName, e.what());
  }
}

}  // namespace pcrypt::app
