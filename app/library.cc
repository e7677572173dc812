#include "app/library.h"

#include <spdlog/spdlog.h>

#include <optional>

#include "app/tty_prompt.h"
#include "io/atomic_file.h"
#include "io/fd_stream.h"

namespace pcrypt::app {

Source source_of(const Input& input) {
  const auto& reader = dynamic_cast<const io::FdReader&>(*input.reader);
  return Source::fd(reader.fd(), input.name);
}

Sink sink_of(io::Writer& out) {
  if (const auto* file = dynamic_cast<const io::AtomicFileWriter*>(&out))
    return Sink::unpublished_file(file->fd(), out.name());
  return Sink::fd(dynamic_cast<const io::FdWriter&>(out).fd(), out.name());
}

Keys terminal_keys() {
  Keys keys;
  // The passphrase of a protected OpenSSH key, asked on the terminal when a slot needs the key (as age
  // does); without a terminal, the library's refusal.
  keys.ssh_key_passphrase = [](const std::string& key_name) -> std::optional<std::string> {
    try {
      const SecretBytes secret = prompt_hidden("Enter passphrase for SSH key " + key_name + ": ");
      return std::string(reinterpret_cast<const char*>(secret.data()), secret.size());
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::usage) throw;
      return std::nullopt;
    }
  };
  keys.warn = [](const std::string& line) { spdlog::warn("{}", line); };
  return keys;
}

}  // namespace pcrypt::app
