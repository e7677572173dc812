// A running age plugin (C2SP age-plugin.md): the binary `age-plugin-NAME` found on PATH, started with
// `--age-plugin=STATE_MACHINE`, and the stanzas exchanged with it over its standard input and output. Its
// standard error stays the user's, so what a plugin says there is shown as it happens (age-plugin.md: a
// client may display it). The state machines themselves are core/age/plugin.h.
//
// The two ends are a socket pair rather than pipes so that writing to a plugin that has already exited is an
// error we report (send with MSG_NOSIGNAL), not a SIGPIPE that would kill pcrypt mid-way.
#pragma once

#include <sys/types.h>

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/age/header.h"
#include "io/buffered_input.h"
#include "io/fd_stream.h"

namespace pcrypt::core::age {

// One end of the protocol as the state machines (core/age/plugin.h) see it: a running plugin, below, or a
// recorded conversation (the fuzzer's).
class PluginConnection {
 public:
  virtual ~PluginConnection() = default;
  virtual const std::string& program() const = 0;  // "age-plugin-NAME", for messages
  virtual void send(const Stanza& stanza) = 0;
  // The body may be a secret (a file key, a PIN): the copy made here is wiped once sent.
  void send(std::vector<std::string> args, std::span<const std::uint8_t> body = {});
  // The plugin's next message. Error(io) naming the program when it ends first ("exited in the middle of
  // the exchange") or sends anything that is not a stanza ("sent a malformed message: ...").
  virtual Stanza receive() = 0;
  // The exchange is over (both sides said done).
  virtual void finish() = 0;
};

// receive() for a plugin whose output is `in`: one stanza, read as the header's are, with the errors above.
Stanza read_plugin_message(io::BufferedInput& in, const std::string& program);

class PluginChannel final : public PluginConnection {
 public:
  // Starts the plugin, found on PATH here (not by posix_spawnp). Error(usage) when no `age-plugin-NAME` is
  // on PATH (the hint says so), Error(io) when it cannot be started.
  PluginChannel(const std::string& plugin_name, std::string_view state_machine);
  // Closes our end and reaps the plugin; one still running after an unfinished exchange is terminated.
  ~PluginChannel() override;
  PluginChannel(const PluginChannel&) = delete;
  PluginChannel& operator=(const PluginChannel&) = delete;

  const std::string& program() const override { return program_; }
  using PluginConnection::send;
  void send(const Stanza& stanza) override;
  Stanza receive() override { return read_plugin_message(*input_, program_); }
  // Closes our end and waits for the plugin to exit.
  void finish() override;

 private:
  void close_and_reap(bool terminate);

  std::string program_;
  int fd_ = -1;
  pid_t pid_ = -1;
  std::unique_ptr<io::FdReader> reader_;
  std::unique_ptr<io::BufferedInput> input_;
};

// A decimal index as age-plugin.md's protocol writes it ("0", "12"), for both sides of the exchange; nullopt
// for anything else (a sign, a leading zero, more than nine digits).
std::optional<std::size_t> parse_protocol_index(const std::string& text);

}  // namespace pcrypt::core::age
