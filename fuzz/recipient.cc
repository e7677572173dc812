// Recipient parsing (core/keys/recipient.h): any text either throws core::Error or yields a well-formed
// recipient, both as one recipient string and as a recipients file.
// Recipient parsing (core/keys/recipient.h): any text either throws core::Error or yields a well-formed
// recipient, both as one recipient string and as a recipients file; tag recipients (age1tag1…, age1tagpq1…)
// also print back to the same key.
// Recipient parsing (core/keys/recipient.h): any text either throws core::Error or yields a well-formed
// recipient, both as one recipient string and as a recipients file; tag recipients (age1tag1…, age1tagpq1…)
// also print back to the same key.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <variant>

#include "core/error.h"
#include "core/keys/recipient.h"
#include "core/pq/mlkem768.h"
#include "core/pq/mlkem768p256.h"
#include "core/pq/p256.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const pcrypt::core::Recipient r = pcrypt::core::parse_recipient(text);
    if (const auto* ssh = std::get_if<pcrypt::core::SshEd25519Recipient>(&r); ssh && ssh->blob.size() != 51)
      std::abort();
    // An accepted age1pq1 key always passes FIPS 203's modulus check.
    if (const auto* pq = std::get_if<pcrypt::core::HybridRecipient>(&r);
        pq && !pcrypt::pq::mlkem768::encapsulation_key_valid(std::span(pq->public_key).first(1184)))
      std::abort();
    // An accepted age1tag1 key is a valid compressed P-256 point, kept with its uncompressed form.
    if (const auto* t = std::get_if<pcrypt::core::TagRecipient>(&r)) {
      const auto point = pcrypt::pq::p256::decode_point(t->compressed);
      if (!point || *point != t->point) std::abort();
    }
    // An accepted age1tagpq1 key passes both halves' checks.
    if (const auto* t = std::get_if<pcrypt::core::HybridTagRecipient>(&r);
        t && !pcrypt::pq::mlkem768p256::valid_public_key(t->public_key))
      std::abort();
    // Tag recipients print back to what parses as the same key.
    if (const auto* t = std::get_if<pcrypt::core::TagRecipient>(&r);
        t && !pcrypt::core::same_recipient(
                 r, pcrypt::core::parse_recipient(pcrypt::core::format_tag_recipient(*t))))
      std::abort();
    if (const auto* t = std::get_if<pcrypt::core::HybridTagRecipient>(&r);
        t && !pcrypt::core::same_recipient(
                 r, pcrypt::core::parse_recipient(pcrypt::core::format_tag_recipient(*t))))
      std::abort();
  } catch (const pcrypt::core::Error&) {
  }
  try {
    if (pcrypt::core::parse_recipients_file(text, "fuzz.txt").empty()) std::abort();
  } catch (const pcrypt::core::Error&) {
  }
  return 0;
}
