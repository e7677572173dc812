#include "app/passphrase.h"

#include <pcrypt/pcrypt.h>

#include <fcntl.h>
#include <sodium.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <optional>
#include <span>

#include "app/environment.h"
#include "app/error_words.h"
#include "app/tty_prompt.h"
#include "io/fd_stream.h"
#include "io/file_info.h"
#include "io/std_fds.h"

namespace pcrypt::app {
namespace {

using Bytes = std::span<const std::uint8_t>;

SecretBytes checked(SecretBytes passphrase, const std::string& source) {
  if (passphrase.empty())
    throw CliError(PCRYPT_E_EMPTY_PASSPHRASE, "empty passphrase refused (" + source + ")");
  return passphrase;
}

// The first line of buf[0, len), without its line ending.
SecretBytes first_line(const SecretBytes& buf, std::size_t len, const std::string& path) {
  const auto* newline = static_cast<const std::uint8_t*>(std::memchr(buf.data(), '\n', len));
  std::size_t line = newline != nullptr ? static_cast<std::size_t>(newline - buf.data()) : len;
  if (line > kMaxPassphraseBytes)
    throw CliError(PCRYPT_E_BAD_ARGUMENT, "passphrase in " + path + " is longer than " +
                                              std::to_string(kMaxPassphraseBytes) + " bytes");
  if (line > 0 && buf.data()[line - 1] == '\r') --line;
  return checked(SecretBytes(Bytes(buf.data(), line)), "passphrase file " + path);
}

// Reads fd one byte at a time up to and including the first newline, so that not a byte more is consumed:
// the rest of a pipe or of standard input is left for whoever reads it next (the data, with
// `{ echo pw; cat data; } | pcrypt encrypt --passphrase-file -`). A passphrase is short; the cost is nil.
std::size_t read_line_bytewise(int fd, SecretBytes& buf, const std::string& path) {
  std::size_t len = 0;
  while (len < buf.size()) {
    const ssize_t got = ::read(fd, buf.data() + len, 1);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0)
      throw CliError(PCRYPT_E_IO, "cannot read passphrase file " + path + ": " + std::strerror(errno));
    if (got == 0) break;
    if (buf.data()[len++] == '\n') break;
  }
  return len;
}

// A passphrase file that is not a regular file: "-" or a descriptor path (/dev/stdin, /dev/fd/N, ...) is
// read from that very descriptor, whose offset the data reader shares (opening /dev/stdin anew would
// start a regular file over at byte 0); a FIFO or device is read up to the newline only.
std::optional<std::size_t> read_if_stream(const std::string& path, SecretBytes& buf) {
  std::optional<int> fd = path == "-" ? std::optional<int>(STDIN_FILENO) : io::descriptor_path(path);
  if (fd) {
    if (*fd == STDIN_FILENO && io::standard_fd_was_closed(STDIN_FILENO))
      throw CliError(PCRYPT_E_IO, "standard input is closed",
                     "redirect standard input, or give the passphrase file by name");
    return read_line_bytewise(*fd, buf, path);
  }
  if (io::is_regular_file(path) || !io::file_exists(path)) return std::nullopt;
  const int own = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (own < 0) return std::nullopt;  // read_secret_file reports the error the usual way
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{own};
  return read_line_bytewise(own, buf, path);
}

// A regular passphrase file, read straight into `buf` (guarded memory): no stray copy of the secret is left
// in memory nobody wipes.
std::size_t read_secret_file(const std::string& path, SecretBytes& buf) {
  std::unique_ptr<io::FdReader> file;
  try {
    file = io::open_input(path);
  } catch (const io::IoError& e) {
    throw CliError(PCRYPT_E_IO,
                   "cannot open passphrase file " + path + ": " + std::strerror(e.error_number()));
  }
  try {
    return file->read(buf.data(), buf.size());
  } catch (const io::IoError& e) {
    throw CliError(PCRYPT_E_IO,
                   "cannot read passphrase file " + path + ": " + std::strerror(e.error_number()));
  }
}

// First line of the file, without its line ending; read straight into guarded memory.
SecretBytes read_passphrase_file(const std::string& path) {
  SecretBytes buf(kMaxPassphraseBytes + 1);
  if (const std::optional<std::size_t> len = read_if_stream(path, buf)) return first_line(buf, *len, path);
  const std::size_t len = read_secret_file(path, buf);
  return first_line(buf, len, path);
}

bool same_bytes(const SecretBytes& a, const SecretBytes& b) {
  return a.size() == b.size() && sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace

SecretBytes passphrase_from_file(const std::string& path) {
  return read_passphrase_file(path);
}

SecretBytes passphrase_from_variable(const char* value, const std::string& name) {
  const std::size_t len = std::strlen(value);
  if (len > kMaxPassphraseBytes)
    throw CliError(PCRYPT_E_BAD_ARGUMENT,
                   name + " is longer than " + std::to_string(kMaxPassphraseBytes) + " bytes");
  return checked(SecretBytes(Bytes(reinterpret_cast<const std::uint8_t*>(value), len)), name);
}

SecretBytes obtain_passphrase(const std::string& passphrase_file, PassphrasePurpose purpose,
                              const std::string& role) {
  if (!passphrase_file.empty()) return read_passphrase_file(passphrase_file);
  if (const char* env = passphrase_from_environment(); env != nullptr)
    return passphrase_from_variable(env, "PCRYPT_PASSPHRASE");

  if (purpose == PassphrasePurpose::decrypt) return ask_passphrase(role);
  const std::string words = role.empty() ? std::string("passphrase: ") : role + " passphrase: ";
  SecretBytes first = checked(prompt_hidden("Enter " + words), "terminal");
  const SecretBytes second = prompt_hidden("Confirm " + words);
  if (!same_bytes(first, second)) throw CliError(PCRYPT_E_BAD_ARGUMENT, "the two passphrases do not match");
  return first;
}

SecretBytes ask_passphrase(const std::string& role) {
  std::string prompt = role.empty() ? std::string("Passphrase: ") : role + " passphrase: ";
  prompt[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(prompt[0])));
  return checked(prompt_hidden(prompt), "terminal");
}

}  // namespace pcrypt::app
