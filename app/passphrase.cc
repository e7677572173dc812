#include "app/passphrase.h"

#include <fcntl.h>
#include <sodium.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <span>

#include "app/tty_prompt.h"
#include "core/error.h"

namespace pcrypt::app {
namespace {

using Bytes = std::span<const std::uint8_t>;

core::SecretBytes checked(core::SecretBytes passphrase, const std::string& source) {
  if (passphrase.empty())
    throw core::Error(core::ErrorKind::usage, "empty passphrase refused (" + source + ")");
  return passphrase;
}

// First line of the file, without its line ending; read straight into guarded memory.
core::SecretBytes read_passphrase_file(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    throw core::Error(core::ErrorKind::io,
                      "cannot open passphrase file " + path + ": " + std::strerror(errno));
  core::SecretBytes buf(kMaxPassphraseBytes + 1);
  std::size_t len = 0;
  int read_errno = 0;
  while (len < buf.size()) {
    const ssize_t n = read(fd, buf.data() + len, buf.size() - len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) read_errno = errno;
    if (n <= 0) break;
    len += static_cast<std::size_t>(n);
  }
  close(fd);
  if (read_errno != 0)
    throw core::Error(core::ErrorKind::io,
                      "cannot read passphrase file " + path + ": " + std::strerror(read_errno));
  const auto* newline = static_cast<const std::uint8_t*>(std::memchr(buf.data(), '\n', len));
  std::size_t line = newline != nullptr ? static_cast<std::size_t>(newline - buf.data()) : len;
  if (line > kMaxPassphraseBytes)
    throw core::Error(core::ErrorKind::usage, "passphrase in " + path + " is longer than " +
                                                  std::to_string(kMaxPassphraseBytes) + " bytes");
  if (line > 0 && buf.data()[line - 1] == '\r') --line;
  return checked(core::SecretBytes(Bytes(buf.data(), line)), "passphrase file " + path);
}

core::SecretBytes from_environment(const char* value) {
  const std::size_t len = std::strlen(value);
  if (len > kMaxPassphraseBytes)
    throw core::Error(core::ErrorKind::usage,
                      "PCRYPT_PASSPHRASE is longer than " + std::to_string(kMaxPassphraseBytes) + " bytes");
  return checked(core::SecretBytes(Bytes(reinterpret_cast<const std::uint8_t*>(value), len)),
                 "PCRYPT_PASSPHRASE");
}

bool same_bytes(const core::SecretBytes& a, const core::SecretBytes& b) {
  return a.size() == b.size() && sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace

core::SecretBytes obtain_passphrase(const std::string& passphrase_file, PassphrasePurpose purpose) {
  if (!passphrase_file.empty()) return read_passphrase_file(passphrase_file);
  if (const char* env = std::getenv("PCRYPT_PASSPHRASE"); env != nullptr) return from_environment(env);

  if (purpose == PassphrasePurpose::decrypt) return checked(prompt_hidden("Passphrase: "), "terminal");
  core::SecretBytes first = checked(prompt_hidden("Enter passphrase: "), "terminal");
  const core::SecretBytes second = prompt_hidden("Confirm passphrase: ");
  if (!same_bytes(first, second))
    throw core::Error(core::ErrorKind::usage, "the two passphrases do not match");
  return first;
}

}  // namespace pcrypt::app
