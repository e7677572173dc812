#include "app/output_name.h"

#include <pcrypt/pcrypt.h>

#include <string_view>

#include "app/error_words.h"

namespace pcrypt::app {

std::string encrypted_name(const std::string& input) {
  return input + kEncryptedSuffix;
}

std::string age_encrypted_name(const std::string& input) {
  return input + kAgeSuffix;
}

std::string decrypted_name(const std::string& input) {
  const std::string_view name = input;
  // An age file (FORMAT.md "age format") is read as well as pcrypt's own: either suffix names it.
  const std::string_view suffix = name.ends_with(kAgeSuffix)           ? kAgeSuffix
                                  : name.ends_with(kCobblestoneSuffix) ? kCobblestoneSuffix
                                                                       : kEncryptedSuffix;
  const std::size_t base_len = name.size() >= suffix.size() ? name.size() - suffix.size() : 0;
  const bool has_suffix = name.ends_with(suffix);
  // "dir/.pcrypt" would decrypt to "dir/": a directory, not a file name.
  const bool empty_base = has_suffix && (base_len == 0 || name[base_len - 1] == '/');
  if (!has_suffix || empty_base)
    throw CliError(
        PCRYPT_E_BAD_ARGUMENT, "cannot derive an output name from '" + input + "'",
        "it does not end in .pcrypt, .age or .cobblestone; name the output with -o FILE (or -o - for "
        "standard output)");
  return std::string(name.substr(0, base_len));
}

}  // namespace pcrypt::app
