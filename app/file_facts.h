// What anyone can learn of an encrypted file without its key, gathered once for the two commands that print
// it for scripts: `pcrypt info --json` (pcrypt's schema, man/pcrypt.1 "JSON OUTPUT") and the age-inspect
// personality (age 1.3's schema, so that its users' scripts keep working).
#pragma once

#include <optional>
#include <string>

#include <pcrypt/pcrypt.h>

namespace pcrypt::app {

struct FileFacts {
  Description description;
  std::vector<SlotSummary> slots;
  Sizes sizes;
  // Whether every slot resists a quantum computer, as age-inspect judges it from the slot types: "no" when
  // one is classical (X25519, SSH, P-256 tags), "yes" when all are post-quantum or symmetric (ML-KEM
  // hybrids, passphrases, key files), "unknown" when some type is not known (a plugin's).
  std::string post_quantum;
};

// Reads the header and measures the file: reads an input without random access (a pipe, armor) to its end.
FileFacts gather_facts(File& file);

// pcrypt's schema: one object on one line (man/pcrypt.1 "JSON OUTPUT").
std::string info_json(const std::string& name, const FileFacts& facts);

// age-inspect's schema (age 1.3's internal/inspect Metadata), indented by four spaces like age's, one line
// break at the end. Only for age files.
std::string age_inspect_json(const FileFacts& facts);

}  // namespace pcrypt::app
