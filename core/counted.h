// Counts of things in messages, in English: "1 identity", "2 identities", "1 byte", "3 key files". One place
// for the plural, so no message says "identitys" or "1 bytes" (tests/test_sizes.cc checks the forms).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pcrypt::core {

// The plural of a noun phrase: its last word takes the ending ("key file" -> "key files", "identity" ->
// "identities", "passphrase" -> "passphrases"); a parenthesised note at the end stays as it is
// ("age plugin identity (age-plugin-x)" -> "age plugin identities (age-plugin-x)").
inline std::string plural(std::string_view noun) {
  std::string_view note;
  if (noun.ends_with(')'))
    if (const std::size_t open = noun.rfind(" ("); open != std::string_view::npos) {
      note = noun.substr(open);
      noun = noun.substr(0, open);
    }
  std::string out(noun);
  const auto vowel = [](char c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'; };
  if (out.size() >= 2 && out.back() == 'y' && !vowel(out[out.size() - 2])) {
    out.back() = 'i';
    out += "es";
  } else if (out.ends_with('s') || out.ends_with('x') || out.ends_with("ch") || out.ends_with("sh")) {
    out += "es";
  } else {
    out += 's';
  }
  return out.append(note);
}

// "N noun" with the noun in the singular exactly when N is 1.
inline std::string counted(std::uint64_t n, std::string_view singular) {
  return std::to_string(n) + " " + (n == 1 ? std::string(singular) : plural(singular));
}

}  // namespace pcrypt::core
