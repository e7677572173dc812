#include "app/passphrase.h"

#include <sodium.h>

#include <cstring>
#include <span>

#include "app/environment.h"
#include "app/secret_file.h"
#include "app/tty_prompt.h"
#include "core/error.h"

namespace pcrypt::app {
namespace {

using Bytes = std::span<const std::uint8_t>;

SecretBytes checked(SecretBytes passphrase, const std::string& source) {
  if (passphrase.empty())
    throw core::Error(core::ErrorKind::usage, "empty passphrase refused (" + source + ")");
  return passphrase;
}

// First line of the file, without its line ending; read straight into guarded memory.
SecretBytes read_passphrase_file(const std::string& path) {
  SecretBytes buf(kMaxPassphraseBytes + 1);
  const std::size_t len = read_secret_file(path, "passphrase file", buf.data(), buf.size());
  const auto* newline = static_cast<const std::uint8_t*>(std::memchr(buf.data(), '\n', len));
  std::size_t line = newline != nullptr ? static_cast<std::size_t>(newline - buf.data()) : len;
  if (line > kMaxPassphraseBytes)
    throw core::Error(core::ErrorKind::usage, "passphrase in " + path + " is longer than " +
                                                  std::to_string(kMaxPassphraseBytes) + " bytes");
  if (line > 0 && buf.data()[line - 1] == '\r') --line;
  return checked(SecretBytes(Bytes(buf.data(), line)), "passphrase file " + path);
}

SecretBytes from_environment(const char* value) {
  const std::size_t len = std::strlen(value);
  if (len > kMaxPassphraseBytes)
    throw core::Error(core::ErrorKind::usage,
                      "PCRYPT_PASSPHRASE is longer than " + std::to_string(kMaxPassphraseBytes) + " bytes");
  return checked(SecretBytes(Bytes(reinterpret_cast<const std::uint8_t*>(value), len)), "PCRYPT_PASSPHRASE");
}

bool same_bytes(const SecretBytes& a, const SecretBytes& b) {
  return a.size() == b.size() && sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace

SecretBytes obtain_passphrase(const std::string& passphrase_file, PassphrasePurpose purpose) {
  if (!passphrase_file.empty()) return read_passphrase_file(passphrase_file);
  if (const char* env = passphrase_from_environment(); env != nullptr) return from_environment(env);

  if (purpose == PassphrasePurpose::decrypt) return checked(prompt_hidden("Passphrase: "), "terminal");
  SecretBytes first = checked(prompt_hidden("Enter passphrase: "), "terminal");
  const SecretBytes second = prompt_hidden("Confirm passphrase: ");
  if (!same_bytes(first, second))
    throw core::Error(core::ErrorKind::usage, "the two passphrases do not match");
  return first;
}

}  // namespace pcrypt::app
