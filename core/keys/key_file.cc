// Key files (FORMAT.md §7): "PCRYPT-KEY-1:" + base64url(key || first 4 bytes of SHA-256(key)).
#include <sodium.h>

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

#include "core/aes/sodium_init.h"
#include "core/error.h"
#include "core/keys/key_file.h"

namespace pcrypt::core {
namespace {

constexpr std::string_view kPrefix = "PCRYPT-KEY-1:";
constexpr std::string_view kAnyVersionPrefix = "PCRYPT-KEY-";
constexpr std::size_t kChecksumBytes = 4;
constexpr std::size_t kEncodedBytes = kKeyFileKeyBytes + kChecksumBytes;
constexpr std::size_t kEncodedChars = 48;  // base64 of 36 bytes, no padding
constexpr std::size_t kMaxKeyFileBytes = 4096;
constexpr std::string_view kComment =
    "# pcrypt key file: anyone holding it can decrypt files made with it; keep it secret and backed up.\n";
constexpr const char* kKeygenHint = "create a new key file";

std::array<std::uint8_t, kChecksumBytes> checksum(const std::uint8_t* key) {
  std::array<std::uint8_t, crypto_hash_sha256_BYTES> digest{};
  crypto_hash_sha256(digest.data(), key, kKeyFileKeyBytes);
  return {digest[0], digest[1], digest[2], digest[3]};
}

bool is_blank(char c) {
  return c == ' ' || c == '\t';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

// The one line that is neither blank nor a comment.
std::string_view key_line(std::string_view text, const std::string& source) {
  std::string_view rest = text, found;
  bool have = false;
  while (!rest.empty()) {
    const std::size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    line = trim(line);
    if (line.empty() || line.front() == '#') continue;
    if (have)
      throw Error(PCRYPT_E_NOT_A_KEY_FILE, source + " is not a pcrypt key file (more than one key line)",
                  kKeygenHint, ErrorFields().at_path(source));
    found = line;
    have = true;
  }
  if (!have)
    throw Error(PCRYPT_E_NOT_A_KEY_FILE, source + " is not a pcrypt key file (no key line)", kKeygenHint,
                ErrorFields().at_path(source));
  return found;
}

}  // namespace

SecretBytes generate_key_file() {
  require_sodium();
  SecretBytes raw(kEncodedBytes);
  randombytes_buf(raw.data(), kKeyFileKeyBytes);
  const auto sum = checksum(raw.data());
  std::copy(sum.begin(), sum.end(), raw.data() + kKeyFileKeyBytes);
  SecretBytes encoded(kEncodedChars + 1);  // sodium_bin2base64 adds a NUL
  sodium_bin2base64(reinterpret_cast<char*>(encoded.data()), encoded.size(), raw.data(), raw.size(),
                    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  SecretBytes text(kComment.size() + kPrefix.size() + kEncodedChars + 1);
  std::uint8_t* p = text.data();
  p = std::copy(kComment.begin(), kComment.end(), p);
  p = std::copy(kPrefix.begin(), kPrefix.end(), p);
  p = std::copy_n(encoded.data(), kEncodedChars, p);
  *p = '\n';
  return text;
}

Credential parse_key_file(std::string_view text, const std::string& source) {
  require_sodium();
  if (text.size() > kMaxKeyFileBytes)
    throw Error(PCRYPT_E_NOT_A_KEY_FILE, source + " is not a pcrypt key file (larger than 4 KiB)",
                kKeygenHint, ErrorFields().at_path(source));
  // Some editors (Notepad before 2019) start a UTF-8 file with a byte order mark; it is not part of the text.
  std::string_view body = text;
  if (body.starts_with("\xEF\xBB\xBF")) body.remove_prefix(3);
  const std::string_view line = key_line(body, source);
  if (line.substr(0, kPrefix.size()) != kPrefix) {
    if (line.substr(0, kAnyVersionPrefix.size()) == kAnyVersionPrefix)
      throw Error(PCRYPT_E_NOT_A_KEY_FILE, source + " is a key file of an unsupported version",
                  "it may have been made by a newer pcrypt", ErrorFields().at_path(source));
    throw Error(PCRYPT_E_NOT_A_KEY_FILE, source + " is not a pcrypt key file (no PCRYPT-KEY-1: line)",
                kKeygenHint, ErrorFields().at_path(source));
  }
  const std::string_view encoded = line.substr(kPrefix.size());
  SecretBytes raw(kEncodedBytes);
  std::size_t raw_len = 0;
  const char* end = nullptr;
  if (encoded.size() != kEncodedChars ||
      sodium_base642bin(raw.data(), raw.size(), encoded.data(), encoded.size(), nullptr, &raw_len, &end,
                        sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
      raw_len != kEncodedBytes || end != encoded.data() + encoded.size())
    throw Error(PCRYPT_E_NOT_A_KEY_FILE, source + " is not a pcrypt key file (malformed key)", kKeygenHint,
                ErrorFields().at_path(source));
  const auto sum = checksum(raw.data());
  if (sodium_memcmp(sum.data(), raw.data() + kKeyFileKeyBytes, kChecksumBytes) != 0)
    throw Error(PCRYPT_E_NOT_A_KEY_FILE, source + " is a damaged pcrypt key file (checksum mismatch)",
                "restore the key file from a backup; a changed character cannot be guessed back",
                ErrorFields().at_path(source));
  return Credential{Credential::Kind::key_file,
                    SecretBytes(std::span<const std::uint8_t>(raw.data(), kKeyFileKeyBytes))};
}

}  // namespace pcrypt::core
