// Recipient parsing (core/recipient.h): any text either throws core::Error or yields a well-formed recipient,
// both as one recipient string and as a recipients file.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <variant>

#include "core/error.h"
#include "core/pq/mlkem768.h"
#include "core/recipient.h"

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
  } catch (const pcrypt::core::Error&) {
  }
  try {
    if (pcrypt::core::parse_recipients_file(text, "fuzz.txt").empty()) std::abort();
  } catch (const pcrypt::core::Error&) {
  }
  return 0;
}
