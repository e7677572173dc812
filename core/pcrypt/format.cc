#include "core/pcrypt/format.h"

#include <algorithm>
#include <string>

#include "core/byte_size.h"
#include "core/error.h"
#include "core/pcrypt/recipient_slot.h"

namespace pcrypt::core {
namespace {

constexpr const char* kNotPcryptHint = "this reader takes only the pcrypt format";
constexpr const char* kCorruptHint = "the file is damaged or was not written by a compatible pcrypt";

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(v >> shift));
}

std::uint32_t get_u32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

template <std::size_t N>
void put_bytes(std::vector<std::uint8_t>& out, const std::array<std::uint8_t, N>& bytes) {
  out.insert(out.end(), bytes.begin(), bytes.end());
}

template <std::size_t N>
void get_bytes(std::array<std::uint8_t, N>& dst, const std::uint8_t* p) {
  std::copy(p, p + N, dst.begin());
}

// Reads the header piece by piece, keeping every byte for the MAC, and reports truncation uniformly.
class HeaderInput {
 public:
  explicit HeaderInput(io::Reader& in) : in_(in) {}

  // Appends exactly n bytes and returns a pointer to them; throws Error(header) at end of input.
  const std::uint8_t* take(std::size_t n) {
    const std::size_t start = bytes_.size();
    bytes_.resize(start + n);
    const std::size_t got = in_.read(bytes_.data() + start, n);
    if (got != n) {
      bytes_.resize(start + got);
      throw truncated();
    }
    return bytes_.data() + start;
  }
  // Appends up to n bytes (fewer only at end of input) and returns how many arrived.
  std::size_t take_up_to(std::size_t n) {
    const std::size_t start = bytes_.size();
    bytes_.resize(start + n);
    const std::size_t got = in_.read(bytes_.data() + start, n);
    bytes_.resize(start + got);
    return got;
  }
  const std::vector<std::uint8_t>& bytes() const { return bytes_; }
  std::size_t size() const { return bytes_.size(); }
  std::vector<std::uint8_t> release() { return std::move(bytes_); }

  Error truncated() const {
    return Error(PCRYPT_E_TRUNCATED_HEADER,
                 "truncated header (input ends after " + std::to_string(bytes_.size()) + " bytes)",
                 "the file was cut short; restore a complete copy");
  }

 private:
  io::Reader& in_;
  std::vector<std::uint8_t> bytes_;
};

Error corrupt(const std::string& what) {
  return Error(PCRYPT_E_MALFORMED_HEADER, what, kCorruptHint);
}

void read_magic(HeaderInput& input) {
  const std::size_t got = input.take_up_to(kMagic.size());
  if (got == 0) throw Error(PCRYPT_E_EMPTY_INPUT, "not a pcrypt file: input is empty", kNotPcryptHint);
  if (!std::equal(input.bytes().begin(), input.bytes().end(), kMagic.begin()))
    throw Error(PCRYPT_E_NOT_ENCRYPTED, "not a pcrypt file: bad magic", kNotPcryptHint);
  if (got < kMagic.size()) throw input.truncated();
}

KeySlot read_slot(HeaderInput& input, std::size_t index, std::uint8_t version) {
  KeySlot slot;
  const std::uint8_t kind = *input.take(1);
  const std::string where = " in key slot " + std::to_string(index + 1);
  if (kind == static_cast<std::uint8_t>(SlotKind::passphrase)) {
    slot.kind = SlotKind::passphrase;
    const std::uint8_t* p = input.take(kPassphraseSlotBytes - 1);
    slot.kdf_ops = get_u32(p);
    slot.kdf_memory_kib = get_u32(p + 4);
    get_bytes(slot.kdf_salt, p + 8);
    p += 8 + kKdfSaltBytes;
    get_bytes(slot.wrap_nonce, p);
    get_bytes(slot.wrapped_key, p + kWrapNonceBytes);
    if (!kdf_ops_in_range(slot.kdf_ops) || !kdf_memory_in_range(std::uint64_t{slot.kdf_memory_kib} * 1024))
      throw corrupt("invalid Argon2id parameters" + where + " (ops " + std::to_string(slot.kdf_ops) +
                    ", memory " + std::to_string(slot.kdf_memory_kib) + " KiB)");
  } else if (kind == static_cast<std::uint8_t>(SlotKind::key_file)) {
    slot.kind = SlotKind::key_file;
    const std::uint8_t* p = input.take(kKeyFileSlotBytes - 1);
    get_bytes(slot.wrap_nonce, p);
    get_bytes(slot.wrapped_key, p + kWrapNonceBytes);
  } else if (const std::size_t size = recipient_slot::slot_size(kind); size != 0 && version >= 2) {
    slot.kind = static_cast<SlotKind>(kind);
    slot.recipient_slot.push_back(kind);
    const std::uint8_t* p = input.take(size - 1);
    slot.recipient_slot.insert(slot.recipient_slot.end(), p, p + size - 1);
  } else if (kind == recipient_slot::kind_ssh_rsa && version >= 2) {
    // The one kind with a length field (§10.7): bounded, so a hostile header stays small.
    slot.kind = SlotKind::ssh_rsa;
    slot.recipient_slot.push_back(kind);
    const std::uint8_t* p = input.take(recipient_slot::ssh_rsa_prefix_size - 1);
    slot.recipient_slot.insert(slot.recipient_slot.end(), p, p + recipient_slot::ssh_rsa_prefix_size - 1);
    const std::size_t rsa_size = recipient_slot::slot_size_of(slot.recipient_slot);
    if (rsa_size == 0)
      throw corrupt("invalid RSA ciphertext length " + std::to_string(std::size_t{p[4]} << 8 | p[5]) + where +
                    " (allowed " + std::to_string(recipient_slot::ssh_rsa_min_ciphertext) + " to " +
                    std::to_string(recipient_slot::ssh_rsa_max_ciphertext) + ")");
    const std::size_t rest = rsa_size - recipient_slot::ssh_rsa_prefix_size;
    p = input.take(rest);
    slot.recipient_slot.insert(slot.recipient_slot.end(), p, p + rest);
  } else {
    throw corrupt(
        "unsupported key slot kind " + std::to_string(kind) + where +
        (version == kFormatVersion && kind >= 3 && kind <= 6 ? " (recipient kinds need version 2)" : ""));
  }
  return slot;
}

}  // namespace

void check_chunk_size(std::size_t chunk_size) {
  if (!chunk_size_in_range(chunk_size))
    throw Error(
        PCRYPT_E_BAD_ARGUMENT, "chunk size " + std::to_string(chunk_size) + " is out of range",
        "use a chunk size from " + format_bytes(kMinChunkSize) + " to " + format_bytes(kMaxChunkSize));
}

std::pair<std::size_t, std::size_t> quantum_downgrade_pair(const std::vector<KeySlot>& slots) {
  const auto first = [&](auto pred) {
    return static_cast<std::size_t>(std::find_if(slots.begin(), slots.end(), pred) - slots.begin());
  };
  const std::size_t pq = first([](const KeySlot& s) { return s.kind == SlotKind::mlkem768_x25519; });
  // Every public-key kind other than the hybrid is classical: X25519, SSH ed25519 and SSH RSA alike.
  const std::size_t classical = first(
      [](const KeySlot& s) { return is_recipient_slot(s.kind) && s.kind != SlotKind::mlkem768_x25519; });
  if (pq == slots.size() || classical == slots.size()) return {slots.size(), slots.size()};
  return {pq, classical};
}

void check_no_quantum_downgrade(const std::vector<KeySlot>& slots) {
  if (quantum_downgrade_pair(slots).first != slots.size())
    throw Error(PCRYPT_E_INCOMPATIBLE_RECIPIENTS,
                "refusing to mix post-quantum (age1pq1...) and X25519/SSH recipients in one file: a future "
                "quantum computer could open it through the classical recipient",
                "encrypt to age1pq1... recipients only (key files and passphrases may be added), or make "
                "separate files");
}

std::vector<std::uint8_t> serialize_header_without_mac(const FileHeader& header) {
  check_chunk_size(header.chunk_size);
  check_no_quantum_downgrade(header.slots);
  if (header.slots.empty() || header.slots.size() > kMaxSlots)
    throw Error(header.slots.empty() ? PCRYPT_E_NO_CREDENTIAL : PCRYPT_E_TOO_MANY_SLOTS,
                "a file needs 1 to " + std::to_string(kMaxSlots) + " keys, recipients or passphrases, not " +
                    std::to_string(header.slots.size()),
                header.slots.empty()
                    ? std::string()
                    : std::string("the age format has no such limit (Format::age; recipients only, key files "
                                  "have no age form)"),
                ErrorFields().set(PCRYPT_FIELD_SLOT, header.slots.size()));
  const auto passphrases = std::count_if(header.slots.begin(), header.slots.end(),
                                         [](const KeySlot& s) { return s.kind == SlotKind::passphrase; });
  if (static_cast<std::size_t>(passphrases) > kMaxPassphraseSlots)
    throw Error(PCRYPT_E_TOO_MANY_PASSPHRASES,
                "a file can have at most " + std::to_string(kMaxPassphraseSlots) + " passphrases", {},
                ErrorFields().set(PCRYPT_FIELD_SLOT, static_cast<std::uint64_t>(passphrases)));

  const bool recipients = std::any_of(header.slots.begin(), header.slots.end(),
                                      [](const KeySlot& s) { return is_recipient_slot(s.kind); });
  if (recipients && header.version != kFormatVersionRecipients)
    throw Error(PCRYPT_E_BAD_ARGUMENT, "recipient key slots need format version 2");

  std::vector<std::uint8_t> out(kMagic.begin(), kMagic.end());
  out.push_back(header.version);
  out.push_back(header.suite);
  put_u32(out, header.chunk_size);
  out.push_back(static_cast<std::uint8_t>(header.slots.size()));
  for (const KeySlot& slot : header.slots) {
    if (is_recipient_slot(slot.kind)) {
      if (slot.recipient_slot.empty() ||
          slot.recipient_slot.size() != recipient_slot::slot_size_of(slot.recipient_slot) ||
          slot.recipient_slot[0] != static_cast<std::uint8_t>(slot.kind))
        throw Error(PCRYPT_E_BAD_ARGUMENT, "malformed recipient key slot");
      out.insert(out.end(), slot.recipient_slot.begin(), slot.recipient_slot.end());
      continue;
    }
    out.push_back(static_cast<std::uint8_t>(slot.kind));
    if (slot.kind == SlotKind::passphrase) {
      if (!kdf_ops_in_range(slot.kdf_ops) || !kdf_memory_in_range(std::uint64_t{slot.kdf_memory_kib} * 1024))
        throw Error(PCRYPT_E_BAD_ARGUMENT, "Argon2id cost too low (minimum: " + std::to_string(kMinKdfOps) +
                                               " pass, " +
                                               format_bytes(std::uint64_t{kMinKdfMemoryKib} * 1024) + ")");
      put_u32(out, slot.kdf_ops);
      put_u32(out, slot.kdf_memory_kib);
      put_bytes(out, slot.kdf_salt);
    }
    put_bytes(out, slot.wrap_nonce);
    put_bytes(out, slot.wrapped_key);
  }
  return out;
}

std::vector<std::uint8_t> serialize_header(const FileHeader& header) {
  std::vector<std::uint8_t> out = serialize_header_without_mac(header);
  put_bytes(out, header.mac);
  return out;
}

ParsedHeader read_header(io::Reader& in) {
  HeaderInput input(in);
  read_magic(input);
  ParsedHeader parsed;
  FileHeader& h = parsed.header;
  const std::uint8_t* fixed = input.take(kFixedHeaderBytes - kMagic.size());
  h.version = fixed[0];
  h.suite = fixed[1];
  h.chunk_size = get_u32(fixed + 2);
  const std::size_t slot_count = fixed[6];
  if (h.version != kFormatVersion && h.version != kFormatVersionRecipients)
    throw Error(
        PCRYPT_E_UNSUPPORTED_VERSION,
        "unsupported format version " + std::to_string(h.version) + " (this pcrypt reads versions 1 and 2)",
        "the file may have been written by a newer pcrypt");
  if (h.suite != kSuiteAes256Gcm)
    throw Error(PCRYPT_E_UNSUPPORTED_VERSION,
                "unsupported cipher suite " + std::to_string(h.suite) + " (known: 1 = AES-256-GCM)",
                "the file may have been written by a newer pcrypt");
  if (!chunk_size_in_range(h.chunk_size))
    throw corrupt("invalid chunk size " + std::to_string(h.chunk_size) +
                  " in header (allowed 4096 to 67108864)");
  if (slot_count == 0 || slot_count > kMaxSlots)
    throw corrupt("invalid key slot count " + std::to_string(slot_count) + " (allowed 1 to " +
                  std::to_string(kMaxSlots) + ")");

  std::size_t passphrases = 0;
  for (std::size_t i = 0; i < slot_count; ++i) {
    h.slots.push_back(read_slot(input, i, h.version));
    if (h.slots.back().kind == SlotKind::passphrase && ++passphrases > kMaxPassphraseSlots)
      throw corrupt("too many passphrase slots (at most " + std::to_string(kMaxPassphraseSlots) + ")");
  }
  // Version 2 exists only for recipient slots (FORMAT.md §10.1); one without them is not a file pcrypt
  // writes.
  if (h.version == kFormatVersionRecipients &&
      std::none_of(h.slots.begin(), h.slots.end(),
                   [](const KeySlot& s) { return is_recipient_slot(s.kind); }))
    throw Error(PCRYPT_E_MALFORMED_HEADER,
                "unsupported format version 2 without a recipient slot (version 2 requires one)",
                kCorruptHint);
  // The writer's no-downgrade rule (FORMAT.md §10.6) is a rule of the format: a header that breaks it is
  // malformed, whoever wrote it, and refused before any key is tried (§5 step 2).
  if (const auto [pq, classical] = quantum_downgrade_pair(h.slots); pq != h.slots.size())
    throw corrupt("key slot " + std::to_string(pq + 1) +
                  " is a post-quantum recipient (kind 5) and key slot " + std::to_string(classical + 1) +
                  " a classical one (kind " + std::to_string(static_cast<unsigned>(h.slots[classical].kind)) +
                  "): a header may not mix them");
  const std::size_t mac_at = input.size();
  get_bytes(h.mac, input.take(kHeaderMacBytes));
  parsed.authenticated_bytes = input.release();
  parsed.authenticated_bytes.resize(mac_at);
  return parsed;
}

}  // namespace pcrypt::core
