// The authorized_keys line grammar (sshd(8)): options are scanned with their quotes, so a space inside
// command="uptime -p" does not end them.
#include "core/keys/authorized_keys.h"

namespace pcrypt::core {
namespace {

// sshd(8)'s separators between an authorized_keys line's fields: a space or a tab.
bool separates_fields(char c) {
  return c == ' ' || c == '\t';
}

bool is_option_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

std::string_view skip_blanks(std::string_view s) {
  while (!s.empty() && separates_fields(s.front())) s.remove_prefix(1);
  return s;
}

// The next blank-separated word of `s`, removed from it.
std::string_view next_word(std::string_view& s) {
  s = skip_blanks(s);
  std::size_t end = 0;
  while (end < s.size() && !separates_fields(s[end])) ++end;
  const std::string_view word = s.substr(0, end);
  s.remove_prefix(end);
  return word;
}

// Length of the options field at the start of `s`, or nullopt if it breaks the grammar.
std::optional<std::size_t> options_length(std::string_view s) {
  std::size_t i = 0;
  for (;;) {
    const std::size_t name_start = i;
    while (i < s.size() && is_option_name_char(s[i])) ++i;
    if (i == name_start) return std::nullopt;  // empty option (",," or a leading comma) or a stray character
    if (i < s.size() && s[i] == '=') {
      if (++i >= s.size() || s[i] != '"') return std::nullopt;  // sshd requires quoted values
      for (++i;; ++i) {
        if (i >= s.size()) return std::nullopt;  // unterminated quote
        if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '"') {
          ++i;
          continue;
        }
        if (s[i] == '"') break;
      }
      ++i;
    }
    if (i == s.size() || separates_fields(s[i])) return i;
    if (s[i] != ',') return std::nullopt;
    ++i;
  }
}

}  // namespace

bool is_ssh_key_type(std::string_view word) {
  return word.starts_with("ssh-") || word.starts_with("ecdsa-") || word.starts_with("sk-");
}

std::optional<SshKeyLine> split_ssh_key_line(std::string_view line) {
  std::string_view rest = skip_blanks(line);
  SshKeyLine out;
  std::string_view probe = rest;
  if (!is_ssh_key_type(next_word(probe))) {
    const std::optional<std::size_t> n = options_length(rest);
    if (!n) return std::nullopt;
    out.options = rest.substr(0, *n);
    rest.remove_prefix(*n);
  }
  out.type = next_word(rest);
  if (!is_ssh_key_type(out.type)) return std::nullopt;
  out.data = next_word(rest);
  if (out.data.empty()) return std::nullopt;
  return out;
}

}  // namespace pcrypt::core
