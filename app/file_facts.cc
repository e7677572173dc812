#include "app/file_facts.h"

#include <array>
#include <string_view>

#include "io/json.h"

namespace pcrypt::app {

using io::JsonWriter;
namespace {

// age-inspect's two lists, plus pcrypt's own symmetric kinds (a 256-bit key file or an Argon2id passphrase
// resists Grover's algorithm as scrypt does).
constexpr std::array<std::string_view, 5> kClassical = {"X25519", "ssh-rsa", "ssh-ed25519", "p256tag",
                                                        "piv-p256"};
constexpr std::array<std::string_view, 5> kPostQuantum = {"mlkem768x25519", "scrypt", "mlkem768p256tag",
                                                          "key-file", "passphrase"};

bool listed(std::string_view type, std::span<const std::string_view> list) {
  for (const std::string_view t : list)
    if (t == type) return true;
  return false;
}

std::string post_quantum_of(const std::vector<SlotSummary>& slots) {
  std::string verdict = "unknown";
  for (const SlotSummary& slot : slots) {
    if (listed(slot.type, kClassical))
      verdict = "no";
    else if (listed(slot.type, kPostQuantum) && verdict != "no")
      verdict = "yes";
  }
  return verdict;
}

}  // namespace

FileFacts gather_facts(File& file) {
  FileFacts facts{file.describe(), file.slot_list(), file.measure(), {}};
  facts.post_quantum = post_quantum_of(facts.slots);
  return facts;
}

std::string info_json(const std::string& name, const FileFacts& facts) {
  const Description& d = facts.description;
  const Sizes& s = facts.sizes;
  JsonWriter out;
  out.begin_object()
      .string("file", name)
      .string("format", d.format == Format::age ? "age" : "pcrypt")
      .boolean("armor", d.armored)
      .number("chunk_size", d.chunk_size)
      .string("post_quantum", facts.post_quantum)
      .begin_array("slots");
  for (const SlotSummary& slot : facts.slots) {
    out.begin_object().string("type", slot.type).string("description", slot.words);
    if (slot.tag.empty())
      out.null("tag");
    else
      out.string("tag", slot.tag);
    out.end_object();
  }
  out.end_array()
      .begin_object("sizes")
      .number("file", s.file_bytes)
      .number("header", s.header_bytes)
      .number("armor", s.armor_bytes)
      .number("overhead", s.overhead_bytes)
      .optional_number("plaintext", s.plaintext_bytes)
      .optional_number("chunks", s.chunks)
      .end_object()
      .end_object();
  return out.text();
}

std::string age_inspect_json(const FileFacts& facts) {
  const Description& d = facts.description;
  const Sizes& s = facts.sizes;
  const std::uint64_t payload = s.plaintext_bytes.value_or(0);
  JsonWriter out(4);
  out.begin_object()
      .string("version", "age-encryption.org/v1")
      .string("postquantum", facts.post_quantum)
      .boolean("armor", d.armored)
      .begin_array("stanza_types");
  for (const SlotSummary& slot : facts.slots) out.string_element(slot.type);
  out.end_array()
      .begin_object("sizes")
      .number("header", s.header_bytes)
      .number("armor", s.armor_bytes)
      .number("overhead", s.overhead_bytes)
      .number("min_payload", payload)
      .number("max_payload", payload)
      .number("min_padding", 0)
      .number("max_padding", 0)
      .end_object()
      .end_object();
  return out.text() + "\n";
}

}  // namespace pcrypt::app
