#include "core/age/plugin_channel.h"

#include <signal.h>
#include <sodium.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "core/error.h"
#include "core/keys/plugin_host.h"

namespace pcrypt::core::age {
namespace {

// The longest stanza a plugin may send: a few KiB is what real plugins use; this only bounds a hostile one.
constexpr std::size_t kMaxMessageBytes = std::size_t{1} << 20;

// The first executable regular file named `program` in the plugin host's search path
// (core/keys/plugin_host.h, ':'-separated as $PATH; an empty entry is the current
// folder, as execvp has it), or "". Looked up here rather than left to posix_spawnp, whose "not found" is
// lost where the spawn cannot wait for the exec (qemu-user, some libcs): the plugin would seem to start and
// then die.
std::string find_on_path(const std::string& program) {
  const std::string path = plugin_host().search_path;
  std::string_view dirs = path;
  if (dirs.empty()) return {};
  while (true) {
    const std::size_t colon = dirs.find(':');
    const std::string_view dir = dirs.substr(0, colon);
    std::string candidate = (dir.empty() ? std::string(".") : std::string(dir)) + "/" + program;
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
    if (colon == std::string_view::npos) return {};
    dirs.remove_prefix(colon + 1);
  }
}

}  // namespace

PluginChannel::PluginChannel(const std::string& plugin_name, std::string_view state_machine)
    : program_("age-plugin-" + plugin_name) {
  const std::string executable = find_on_path(program_);
  if (executable.empty())
    // The list of plugins is age's own page (its message points there too, and its tests check for it).
    throw Error(
        PCRYPT_E_PLUGIN_NOT_FOUND, program_ + " was not found on PATH",
        "install " + program_ +
            " (https://age-encryption.org/awesome#plugins lists age's plugins) or add its folder to PATH");
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    throw Error(PCRYPT_E_PLUGIN, "cannot connect to " + program_ + ": " + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  // The plugin's end becomes its stdin and stdout (dup2 clears close-on-exec on the copies; the original,
  // close-on-exec, goes away at exec).
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  const std::string flag = "--age-plugin=" + std::string(state_machine);
  char* argv[] = {program_.data(), const_cast<char*>(flag.c_str()), nullptr};
  // The plugin runs with the environment its host gives it (core/keys/plugin_host.h).
  std::vector<std::string> environment = plugin_host().environment;
  std::vector<char*> envp;
  envp.reserve(environment.size() + 1);
  for (std::string& entry : environment) envp.push_back(entry.data());
  envp.push_back(nullptr);
  const int rc = ::posix_spawn(&pid_, executable.c_str(), &actions, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    pid_ = -1;
    throw Error(PCRYPT_E_PLUGIN, "cannot start " + program_ + ": " + std::strerror(rc));
  }
  fd_ = fds[0];
  reader_ = std::make_unique<io::FdReader>(fd_, program_, false);
  // No read-ahead: a plugin's next message may depend on our reply, so never wait for more than one byte.
  input_ = std::make_unique<io::BufferedInput>(*reader_, 0);
}

PluginChannel::~PluginChannel() {
  close_and_reap(true);
}

void PluginConnection::send(std::vector<std::string> args, std::span<const std::uint8_t> body) {
  Stanza stanza{std::move(args), std::vector<std::uint8_t>(body.begin(), body.end())};
  send(stanza);
  sodium_memzero(stanza.body.data(), stanza.body.size());
}

void PluginChannel::send(const Stanza& stanza) {
  std::string text;
  append_stanza(text, stanza);
  // The text may hold a secret (an identity, a file key, a PIN): wiped however the sending ends.
  struct Wipe {
    std::string& text;
    ~Wipe() { sodium_memzero(text.data(), text.size()); }
  } wipe{text};
  std::size_t at = 0;
  while (at < text.size()) {
    const ssize_t n = ::send(fd_, text.data() + at, text.size() - at, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw Error(PCRYPT_E_PLUGIN, program_ + " exited in the middle of the exchange (writing to it: " +
                                       std::strerror(errno) + ")");
    at += static_cast<std::size_t>(n);
  }
}

Stanza read_plugin_message(io::BufferedInput& in, const std::string& program) {
  const std::uint64_t start = in.consumed();
  bool ended = false;
  try {
    ended = in.peek(1).empty();
  } catch (const io::IoError& e) {
    // A plugin that exits (or is killed) before reading what we sent resets the connection: the same
    // failure as an end of its output, reported as one (unwrap_with_plugin passes it over).
    throw Error(PCRYPT_E_PLUGIN, program + " exited in the middle of the exchange (reading from it: " +
                                     std::strerror(e.error_number()) + ")");
  }
  if (ended) throw Error(PCRYPT_E_PLUGIN, program + " exited in the middle of the exchange");
  try {
    Stanza s = read_stanza(in);
    if (in.consumed() - start > kMaxMessageBytes) throw Error(PCRYPT_E_PLUGIN, "a message longer than 1 MiB");
    return s;
  } catch (const io::IoError& e) {
    throw Error(PCRYPT_E_PLUGIN, program + ": " + e.what());
  } catch (const Error& e) {
    std::string what = e.what();
    // read_stanza speaks of the age header; here the stanza is a protocol message.
    constexpr std::string_view prefix = "malformed age header: ";
    if (what.rfind(prefix, 0) == 0) what.erase(0, prefix.size());
    if (what.find("ends before") != std::string::npos)
      throw Error(PCRYPT_E_PLUGIN, program + " exited in the middle of a message");
    throw Error(PCRYPT_E_PLUGIN, program + " sent a malformed message: " + what,
                "the plugin does not speak age-plugin.md's protocol as pcrypt understands it");
  }
}

void PluginChannel::finish() {
  close_and_reap(false);
}

void PluginChannel::close_and_reap(bool terminate) {
  if (fd_ >= 0) {
    input_.reset();
    reader_.reset();
    ::close(fd_);
    fd_ = -1;
  }
  if (pid_ > 0) {
    int status = 0;
    if (terminate) {
      // Asked to stop, then, if it has not within about a second (a plugin that ignores SIGTERM), killed:
      // pcrypt must not hang on a plugin it has given up on.
      ::kill(pid_, SIGTERM);
      for (int i = 0; i < 100 && ::waitpid(pid_, &status, WNOHANG) == 0; ++i) ::usleep(10000);
      if (::waitpid(pid_, &status, WNOHANG) == 0) ::kill(pid_, SIGKILL);
    }
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
}

std::optional<std::size_t> parse_protocol_index(const std::string& text) {
  if (text.empty() || text.size() > 9 || (text.size() > 1 && text[0] == '0')) return std::nullopt;
  std::size_t v = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<std::size_t>(c - '0');
  }
  return v;
}

}  // namespace pcrypt::core::age
