// bech32 per BIP 173: the BIP's own valid and invalid test strings, case rules, limits and byte conversion.
#include <catch2/catch.hpp>

#include <string>

#include "core/keys/bech32.h"

using namespace pcrypt::core;

TEST_CASE("BIP 173 valid bech32 strings decode and re-encode to themselves (lower case)") {
  const char* valid[] = {
      "A12UEL5L",
      "a12uel5l",
      "an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs",
      "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
      "11qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqc8247j",
      "split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w",
      "?1ezyfcl",
  };
  for (const std::string s : valid) {
    INFO(s);
    const bech32::Decoded d = bech32::decode(s);
    std::string lower = s;
    for (char& c : lower)
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    CHECK(bech32::encode(d.hrp, d.words) == lower);
  }
}

TEST_CASE("BIP 173 invalid bech32 strings are refused with a reason") {
  struct Case {
    std::string text;
    std::string reason;
  };
  const Case invalid[] = {
      {std::string("\x20") + "1nwldj5", "printable ASCII"},
      {std::string("\x7f") + "1axkwrx", "printable ASCII"},
      {std::string("\x80") + "1eym55h", "printable ASCII"},
      {"an84characterslonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1569pvx",
       "too long"},
      {"pzry9x0s0muk", "separator"},
      {"1pzry9x0s0muk", "empty human-readable"},
      {"x1b4n0q5v", "invalid character 'b'"},
      {"li1dgmt3", "too short"},
      {std::string("de1lg7wt") + "\xff", "printable ASCII"},
      {"A1G7SGD8", "checksum"},
      {"10a06t8", "empty human-readable"},
      {"1qzzfhee", "empty human-readable"},
  };
  for (const auto& c : invalid) {
    INFO(c.text);
    try {
      bech32::decode(c.text);
      FAIL("accepted");
    } catch (const bech32::DecodeError& e) {
      CHECK_THAT(e.what(), Catch::Matchers::Contains(c.reason));
    }
  }
}

TEST_CASE("mixed case is refused; upper-case encoding round-trips") {
  CHECK_THROWS_WITH(bech32::decode("A12uEL5L"), Catch::Matchers::Contains("mixes upper and lower case"));
  const std::vector<std::uint8_t> words = {0, 1, 2, 31};
  const std::string up = bech32::encode("age-secret-key-", words, true);
  CHECK(up.rfind("AGE-SECRET-KEY-1", 0) == 0);
  const auto d = bech32::decode(up);
  CHECK(d.hrp == "age-secret-key-");
  CHECK(d.words == words);
}

TEST_CASE("a single changed character fails the checksum") {
  std::string s = "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw";
  s[10] = s[10] == 'q' ? 'p' : 'q';
  CHECK_THROWS_WITH(bech32::decode(s), Catch::Matchers::Contains("checksum"));
}

TEST_CASE("bytes <-> 5-bit words, padding rules") {
  const std::vector<std::uint8_t> bytes = {0xff, 0x00, 0x12, 0x34, 0x56};
  CHECK(bech32::from_words(bech32::to_words(bytes)) == bytes);
  std::vector<std::uint8_t> words = bech32::to_words(std::vector<std::uint8_t>{0xff});  // 2 words, 2 pad bits
  words.back() |= 1;                                                                    // non-zero padding
  CHECK_THROWS_WITH(bech32::from_words(words), Catch::Matchers::Contains("padding"));
  CHECK_THROWS(bech32::from_words(std::vector<std::uint8_t>{32}));
}
