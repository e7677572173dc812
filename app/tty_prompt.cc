#include "app/tty_prompt.h"
#include "app/error_words.h"

#include <pcrypt/pcrypt.h>

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <optional>
#include <string>

namespace pcrypt::app {
namespace {

// The state a signal handler needs to put the terminal back. Only touched with the handlers installed.
volatile sig_atomic_t g_tty_fd = -1;
termios g_saved_termios;

constexpr std::array kRestoreSignals{SIGINT, SIGTERM, SIGHUP, SIGQUIT};

extern "C" void restore_and_die(int sig) {
  if (g_tty_fd >= 0) {
    tcsetattr(g_tty_fd, TCSANOW, &g_saved_termios);
    (void)!write(g_tty_fd, "\n", 1);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

// Echo off for the lifetime of the object; the previous terminal state and signal dispositions come back in
// the destructor or, if the process is killed meanwhile, in restore_and_die().
class EchoOff {
 public:
  explicit EchoOff(int fd) : fd_(fd) {
    if (tcgetattr(fd, &saved_) != 0) throw CliError(PCRYPT_E_IO, "cannot read the terminal settings");
    g_saved_termios = saved_;
    g_tty_fd = fd;
    struct sigaction action {};
    action.sa_handler = restore_and_die;
    sigemptyset(&action.sa_mask);
    for (std::size_t i = 0; i < kRestoreSignals.size(); ++i)
      sigaction(kRestoreSignals[i], &action, &previous_[i]);
    termios quiet = saved_;
    quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
    quiet.c_lflag |= ECHONL;  // the user still sees that Enter was taken
    // TCSANOW, never TCSAFLUSH: what was typed before the prompt appeared (type-ahead, or a script feeding
    // the terminal both answers at once) is the answer, not noise to discard.
    tcsetattr(fd, TCSANOW, &quiet);
  }
  ~EchoOff() {
    tcsetattr(fd_, TCSANOW, &saved_);  // the next answer may be waiting already
    for (std::size_t i = 0; i < kRestoreSignals.size(); ++i)
      sigaction(kRestoreSignals[i], &previous_[i], nullptr);
    g_tty_fd = -1;
  }
  EchoOff(const EchoOff&) = delete;
  EchoOff& operator=(const EchoOff&) = delete;

 private:
  int fd_;
  termios saved_{};
  std::array<struct sigaction, kRestoreSignals.size()> previous_{};
};

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

void write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw CliError(PCRYPT_E_IO, "cannot write to the terminal: " + std::string(strerror(errno)));
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

}  // namespace

namespace {

// Writes `prompt` to the terminal and reads one line (without its newline or a trailing '\r') into a
// SecretBytes, echo off when `hidden`. `what` names the answer in errors ("passphrase", "answer").
SecretBytes read_tty_line(std::string_view prompt, bool hidden, const std::string& what) {
  const Fd tty(open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC));
  if (tty.get() < 0)
    throw CliError(PCRYPT_E_BAD_ARGUMENT, "no terminal to ask for a " + what,
                   "set PCRYPT_PASSPHRASE or use --passphrase-file FILE");

  SecretBytes line(kMaxPassphraseBytes);
  std::size_t len = 0;
  {
    // Echo goes off before the prompt appears (as getpass does): nothing typed after the prompt is shown.
    std::optional<EchoOff> echo_off;
    if (hidden) echo_off.emplace(tty.get());
    write_all(tty.get(), prompt);
    for (;;) {
      char c = 0;
      const ssize_t n = read(tty.get(), &c, 1);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0)
        throw CliError(PCRYPT_E_IO, "cannot read from the terminal: " + std::string(strerror(errno)));
      if (n == 0) throw CliError(PCRYPT_E_IO, "no " + what + " entered (end of input on the terminal)");
      if (c == '\n') break;
      if (len == line.size()) throw CliError(PCRYPT_E_BAD_ARGUMENT, what + " too long");
      line.data()[len++] = static_cast<std::uint8_t>(c);
    }
  }
  if (len > 0 && line.data()[len - 1] == '\r') --len;
  return SecretBytes(std::span<const std::uint8_t>(line.data(), len));
}

}  // namespace

void tell_terminal(std::string_view text) {
  const Fd tty(open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC));
  if (tty.get() < 0) throw CliError(PCRYPT_E_IO, "no terminal to show a message on");
  write_all(tty.get(), text);
}

SecretBytes prompt_hidden(std::string_view prompt) {
  return read_tty_line(prompt, true, "passphrase");
}

std::string prompt_visible(std::string_view prompt) {
  return std::string(read_tty_line(prompt, false, "answer").text());
}

}  // namespace pcrypt::app
