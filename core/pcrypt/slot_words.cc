#include "core/pcrypt/slot_words.h"
#include "core/counted.h"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <span>

#include "core/pcrypt/recipient_slot.h"

namespace pcrypt::core {
namespace {

std::string hex(std::span<const std::uint8_t> bytes) {
  std::string out(2 * bytes.size() + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), bytes.data(), bytes.size());
  out.pop_back();
  return out;
}

// The tag of an SSH slot (kinds 4 and 6: the 4 bytes after the kind byte), "" for other kinds.
std::string slot_tag(const KeySlot& slot) {
  const bool ssh = slot.kind == SlotKind::ssh_ed25519 || slot.kind == SlotKind::ssh_rsa;
  if (!ssh || slot.recipient_slot.size() < 5) return {};
  return hex(std::span(slot.recipient_slot).subspan(1, 4));
}

// The tag of an SSH identity, "" for the anonymous kinds (X25519, post-quantum).
std::string identity_tag(const Identity& identity) {
  if (identity.kind != Identity::Kind::ssh_ed25519 && identity.kind != Identity::Kind::ssh_rsa) return {};
  return hex(recipient_slot::ssh_tag(identity.blob));
}

// "a and b", "a, b and c" (or "or").
std::string joined(const std::vector<std::string>& parts, const char* last = " and ") {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i)
    out += (i == 0 ? "" : i + 1 == parts.size() ? last : ", ") + parts[i];
  return out;
}

// The tags in a list: " with tag a", " with tags a, b", "" when there are none. No parentheses: messages
// that end in one get the file's name put inside it (app/report.h).
std::string tags_note(const std::vector<std::string>& tags) {
  if (tags.empty()) return {};
  std::string out = tags.size() == 1 ? " with tag " : " with tags ";
  for (std::size_t i = 0; i < tags.size(); ++i) out += (i == 0 ? "" : ", ") + tags[i];
  return out;
}

// Header order of the kinds in messages: the cheapest to try first, as §5 step 4 tries them.
constexpr std::array kSlotKinds = {SlotKind::key_file,        SlotKind::x25519,  SlotKind::ssh_ed25519,
                                   SlotKind::mlkem768_x25519, SlotKind::ssh_rsa, SlotKind::passphrase};

// What a credential is called in messages.
std::string credential_words(const Credential& c) {
  switch (c.kind) {
    case Credential::Kind::key_file:
      return "key file";
    case Credential::Kind::passphrase:
      return "passphrase";
    case Credential::Kind::recipient:
      return "recipient";
    case Credential::Kind::raw_key:
      return "raw key";
    case Credential::Kind::identity:
      if (!c.identity) return "identity";
      switch (c.identity->kind) {
        case Identity::Kind::x25519:
          return "X25519 identity";
        case Identity::Kind::ssh_ed25519:
          return "SSH ed25519 identity";
        case Identity::Kind::mlkem768_x25519:
          return "post-quantum (ML-KEM-768 + X25519) identity";
        case Identity::Kind::ssh_rsa:
          return "SSH RSA identity";
        case Identity::Kind::plugin:
          return "age plugin identity (age-plugin-" + c.identity->plugin + ")";
      }
      return "identity";
  }
  return "credential";
}

}  // namespace

std::string slot_kind_words(SlotKind kind) {
  switch (kind) {
    case SlotKind::key_file:
      return "key-file";
    case SlotKind::passphrase:
      return "passphrase";
    case SlotKind::x25519:
      return "X25519 recipient";
    case SlotKind::ssh_ed25519:
      return "SSH ed25519 recipient";
    case SlotKind::mlkem768_x25519:
      return "post-quantum (ML-KEM-768 + X25519) recipient";
    case SlotKind::ssh_rsa:
      return "SSH RSA recipient";
  }
  return "unknown";
}

SlotSummary summarize_slot(const KeySlot& slot) {
  std::string type;
  switch (slot.kind) {
    case SlotKind::key_file:
      type = "key-file";
      break;
    case SlotKind::passphrase:
      type = "passphrase";
      break;
    case SlotKind::x25519:
      type = "X25519";
      break;
    case SlotKind::ssh_ed25519:
      type = "ssh-ed25519";
      break;
    case SlotKind::mlkem768_x25519:
      type = "mlkem768x25519";
      break;
    case SlotKind::ssh_rsa:
      type = "ssh-rsa";
      break;
  }
  const std::string tag = slot_tag(slot);
  return {type, slot_kind_words(slot.kind) + (tag.empty() ? "" : ", tag " + tag), tag};
}

std::string describe_slot(const FileHeader& header, std::size_t index) {
  const KeySlot& slot = header.slots.at(index);
  const std::string tag = slot_tag(slot);
  return "slot " + std::to_string(index + 1) + " (" + slot_kind_words(slot.kind) +
         (tag.empty() ? "" : ", tag " + tag) + ")";
}

std::string describe_slot_counts(const FileHeader& header) {
  std::vector<std::string> parts;
  for (const SlotKind kind : kSlotKinds) {
    std::size_t n = 0;
    std::vector<std::string> tags;
    for (const KeySlot& s : header.slots) {
      if (s.kind != kind) continue;
      ++n;
      if (const std::string tag = slot_tag(s); !tag.empty()) tags.push_back(tag);
    }
    if (n > 0) parts.push_back(counted(n, slot_kind_words(kind) + " slot") + tags_note(tags));
  }
  return joined(parts);
}

std::string describe_credentials(std::span<const Credential> credentials) {
  // Counted by their words, in the order first given.
  std::vector<std::string> words;
  std::vector<std::size_t> counts;
  std::vector<std::vector<std::string>> tags;
  for (const Credential& c : credentials) {
    const std::string w = credential_words(c);
    auto at = std::find(words.begin(), words.end(), w);
    if (at == words.end()) {
      words.push_back(w);
      counts.push_back(0);
      tags.emplace_back();
      at = words.end() - 1;
    }
    const auto i = static_cast<std::size_t>(at - words.begin());
    ++counts[i];
    if (c.identity)
      if (const std::string tag = identity_tag(*c.identity); !tag.empty()) tags[i].push_back(tag);
  }
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < words.size(); ++i)
    parts.push_back(words[i] == "passphrase" ? std::string("a passphrase")
                                             : counted(counts[i], words[i]) + tags_note(tags[i]));
  return joined(parts);
}

bool may_open(const KeySlot& slot, const Credential& credential) {
  switch (credential.kind) {
    case Credential::Kind::key_file:
      return slot.kind == SlotKind::key_file;
    case Credential::Kind::passphrase:
      return slot.kind == SlotKind::passphrase;
    case Credential::Kind::recipient:
    case Credential::Kind::raw_key:  // C2SP chunked encryption's: no pcrypt slot
      return false;
    case Credential::Kind::identity:
      if (!credential.identity) return false;
      switch (credential.identity->kind) {
        case Identity::Kind::x25519:
          return slot.kind == SlotKind::x25519;
        case Identity::Kind::ssh_ed25519:
          return slot.kind == SlotKind::ssh_ed25519 && slot_tag(slot) == identity_tag(*credential.identity);
        case Identity::Kind::mlkem768_x25519:
          return slot.kind == SlotKind::mlkem768_x25519;
        case Identity::Kind::ssh_rsa:
          return slot.kind == SlotKind::ssh_rsa && slot_tag(slot) == identity_tag(*credential.identity);
        case Identity::Kind::plugin:
          return false;  // plugins open age stanzas only
      }
  }
  return false;
}

std::optional<std::string> nothing_fits(const FileHeader& header,
                                        const std::vector<Credential>& credentials) {
  for (const KeySlot& slot : header.slots)
    for (const Credential& c : credentials)
      if (may_open(slot, c)) return std::nullopt;
  return "wrong key or passphrase: nothing given fits a slot of this file (given " +
         describe_credentials(credentials) + "; it has " + describe_slot_counts(header) + ")";
}

std::string options_for_slots(const FileHeader& header) {
  std::vector<std::string> options;
  const auto add = [&options](const std::string& option) {
    if (std::find(options.begin(), options.end(), option) == options.end()) options.push_back(option);
  };
  for (const SlotKind kind : kSlotKinds) {
    std::vector<std::string> tags;
    bool present = false;
    for (const KeySlot& s : header.slots) {
      if (s.kind != kind) continue;
      present = true;
      if (const std::string tag = slot_tag(s); !tag.empty()) tags.push_back(tag);
    }
    if (!present) continue;
    switch (kind) {
      case SlotKind::key_file:
        add("a key file (key_files)");
        break;
      case SlotKind::passphrase:
        add("the passphrase (passphrase)");
        break;
      case SlotKind::x25519:
        add("an X25519 identity (identity_files)");
        break;
      case SlotKind::ssh_ed25519:
        add("the SSH ed25519 key" + tags_note(tags) + " (identity_files)");  // hints get no file name
        break;
      case SlotKind::mlkem768_x25519:
        add("a post-quantum identity (identity_files)");
        break;
      case SlotKind::ssh_rsa:
        add("the SSH RSA key" + tags_note(tags) + " (identity_files)");
        break;
    }
  }
  return joined(options, " or ");
}

}  // namespace pcrypt::core
