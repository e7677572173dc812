// The CLI's words for library errors (app/cli_words.h) on any text: no crash, an end (each replacement moves
// past itself), and text holding no library phrase comes back unchanged in both personalities.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "app/cli_words.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using pcrypt::app::CliPersonality;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string pcrypt_words = pcrypt::app::in_cli_words(text);
  const std::string age_words = pcrypt::app::in_cli_words(text, CliPersonality::age);
  bool has_phrase = false;
  for (const pcrypt::app::CliPhrase& phrase : pcrypt::app::cli_phrases())
    has_phrase |= text.find(phrase.library.substr(0, phrase.library.find("{}"))) != std::string_view::npos;
  if (!has_phrase && (pcrypt_words != text || age_words != text)) std::abort();
  return 0;
}
