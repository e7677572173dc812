// age recipient stanzas (core/age/stanzas.h) on a parsed header: an X25519 and a post-quantum identity (the
// ones the CCTV x25519* and hybrid* vectors use) tried on every stanza. Any input either throws core::Error
// or gives a 16-byte file key. A seed's CCTV text part (up to the empty line) is skipped, so the vectors' own
// files are where mutation starts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "core/age/header.h"
#include "core/age/stanzas.h"
#include "core/error.h"
#include "core/keys/recipient.h"
#include "io/buffered_input.h"
#include "io/memory_stream.h"

namespace {

const std::vector<pcrypt::core::Credential>& credentials() {
  static const std::vector<pcrypt::core::Credential> all = [] {
    std::vector<pcrypt::core::Credential> out;
    const std::string_view file =
        "AGE-SECRET-KEY-1EGTZVFFV20835NWYV6270LXYVK2VKNX2MMDKWYKLMGR48UAWX40Q2P2LM0\n"
        "AGE-SECRET-KEY-PQ-1HZLGZUPT4ETPKDEV8HSGFDCYZ4E522W0A7PU2LHT8EH9W6YLNC3SW78XKG\n";
    for (pcrypt::core::Identity& id : pcrypt::core::parse_identity_file(file, "fuzz"))
      out.push_back(pcrypt::core::Credential::of(std::move(id)));
    return out;
  }();
  return all;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::size_t start = text.find("\n\nage-encryption.org/");
  if (start != std::string_view::npos && text.rfind("expect: ", 0) == 0) {
    data += start + 2;
    size -= start + 2;
  }
  pcrypt::io::MemoryReader raw({data, size});
  pcrypt::io::BufferedInput in(raw);
  try {
    const pcrypt::core::age::Header header = pcrypt::core::age::parse_header(in);
    const pcrypt::SecretBytes key = pcrypt::core::age::unwrap_file_key(header, credentials(), 10);
    if (key.size() != pcrypt::core::age::kFileKeyBytes) std::abort();
  } catch (const pcrypt::core::Error&) {
    // Rejected or not for these identities: the expected outcome for most inputs.
  }
  return 0;
}
