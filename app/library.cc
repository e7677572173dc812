#include "app/library.h"

#include <optional>

#include "app/logging.h"
#include "app/ssh_key_passphrase.h"
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

void commit_written(io::Writer& out) {
  if (auto* file = dynamic_cast<io::AtomicFileWriter*>(&out)) return file->commit_synced();
  if (dynamic_cast<io::FdWriter*>(&out) != nullptr) return;  // its commit() is the fsync the sink made
  out.commit();
}

Keys terminal_keys() {
  // --ssh-key-passphrase-file is read now, before the data: `--ssh-key-passphrase-file -` takes standard
  // input's first line and leaves the rest for the data (as --passphrase-file - does).
  read_given_ssh_key_passphrase();
  Keys keys;
  // The passphrase of a protected OpenSSH key when a slot needs the key: from the option or the
  // environment, else asked on the terminal (as age does); without any, a usage error naming the ways.
  keys.ssh_key_passphrase = [](const std::string& key_name) -> std::optional<std::string> {
    // The library copies the answer into guarded memory and wipes this string.
    return std::string(obtain_ssh_key_passphrase(key_name).text());
  };
  keys.warn = [](const std::string& line) { log::warn("{}", line); };
  return keys;
}

}  // namespace pcrypt::app
