#include "core/rekey_policy.h"

#include <sodium.h>

#include <algorithm>
#include <variant>

#include "core/error.h"

namespace pcrypt::core {
namespace {

// X25519 and post-quantum (ML-KEM-768 + X25519) recipients leave no trace of themselves in the slots they
// make; SSH and tag recipients (age1tag1, age1tagpq1) carry a public tag.
bool is_anonymous(const Recipient& r) {
  return std::holds_alternative<X25519Recipient>(r) || std::holds_alternative<HybridRecipient>(r);
}

// The slots that are `recipient`'s: by tag, or for an anonymous kind, those an opening identity with this
// very recipient opens (the only way to recognise an anonymous slot).
std::vector<std::size_t> slots_of_recipient(const SlotQuestions& slots, const Recipient& recipient,
                                            const std::vector<Credential>* opening) {
  std::vector<std::size_t> found;
  if (!is_anonymous(recipient)) {
    for (std::size_t i = 0; i < slots.count(); ++i)
      if (slots.carries_tag_of(i, recipient)) found.push_back(i);
    return found;
  }
  if (opening == nullptr) return found;
  for (const Credential& c : *opening) {
    if (c.kind != Credential::Kind::identity || !c.identity || c.identity->kind == Identity::Kind::plugin ||
        !same_recipient(recipient_of(*c.identity), recipient))
      continue;
    for (std::size_t i = 0; i < slots.count(); ++i)
      if (slots.opened_by(i, c) && std::find(found.begin(), found.end(), i) == found.end())
        found.push_back(i);
  }
  return found;
}

std::string listed(const SlotQuestions& slots, const std::vector<std::size_t>& indices) {
  std::string out;
  for (std::size_t i = 0; i < indices.size(); ++i) out += (i == 0 ? "" : ", ") + slots.words(indices[i]);
  return out;
}

}  // namespace

std::vector<bool> slots_to_remove(const SlotQuestions& slots, const RekeyChanges& changes) {
  const std::string noun = slots.noun();
  const std::size_t count = slots.count();
  std::vector<bool> remove(count, false);
  for (const std::size_t n : changes.remove_slots) {
    if (n < 1 || n > count)
      throw Error(PCRYPT_E_BAD_SLOT,
                  std::string("there is no ")
                      .append(noun)
                      .append(" " + std::to_string(n))
                      .append(" (the file has " + std::to_string(count) + " ")
                      .append(noun)
                      .append(count == 1 ? ")" : "s)"),
                  "the file's description lists the " + noun + "s");
    if (remove[n - 1]) throw Error(PCRYPT_E_BAD_SLOT, noun + " " + std::to_string(n) + " is given twice");
    remove[n - 1] = true;
  }
  for (const Credential& c : changes.remove_opened_by) {
    bool any = false;
    for (std::size_t i = 0; i < count; ++i)
      if (slots.opened_by(i, c)) remove[i] = any = true;
    if (!any)
      throw Error(PCRYPT_E_NOT_IN_FILE,
                  std::string("the ") + (c.kind == Credential::Kind::key_file ? "key file" : "identity") +
                      " to remove opens no " + noun + " of this file",
                  "the file's description lists the " + noun + "s; remove_slots removes one by number");
  }
  for (const Recipient& r : changes.remove_recipients) {
    const std::vector<std::size_t> found = slots_of_recipient(slots, r, changes.opening);
    if (found.empty() && is_anonymous(r)) {
      const bool pq = std::holds_alternative<HybridRecipient>(r);
      throw Error(PCRYPT_E_ANONYMOUS_RECIPIENT,
                  std::string(pq ? "post-quantum" : "X25519")
                      .append(" recipient ")
                      .append(noun)
                      .append("s are anonymous: no ")
                      .append(noun)
                      .append(" can be found from an ")
                      .append(pq ? "age1pq1" : "age1")
                      .append("... public key"),
                  "give the identity instead (remove_identity_files)");
    }
    if (found.empty())
      throw Error(PCRYPT_E_NOT_IN_FILE, "the recipient to remove has no " + noun + " in this file",
                  "the file's description lists the " + noun + "s and the tags of SSH ones");
    for (const std::size_t i : found) remove[i] = true;
  }
  return remove;
}

void refuse_duplicate_additions(const SlotQuestions& slots, const RekeyChanges& changes,
                                const std::vector<bool>& remove) {
  for (const Credential& c : changes.add) {
    std::vector<std::size_t> has;
    if (c.kind == Credential::Kind::key_file) {
      for (std::size_t i = 0; i < slots.count(); ++i)
        if (slots.opened_by(i, c)) has.push_back(i);
    } else if (c.kind == Credential::Kind::recipient && c.recipient) {
      has = slots_of_recipient(slots, *c.recipient, changes.opening);
    }
    std::erase_if(has, [&remove](std::size_t i) { return remove[i]; });
    if (!has.empty())
      throw Error(PCRYPT_E_ALREADY_IN_FILE,
                  std::string("the ") +
                      (c.kind == Credential::Kind::key_file ? "key file to add already opens "
                                                            : "recipient to add already has ") +
                      listed(slots, has),
                  "remove the old " + slots.noun() + " in the same rekey (remove_slots) to replace it",
                  ErrorFields().set(PCRYPT_FIELD_SLOT, has.front() + 1));
  }
}

void keep_access(const Credential& opening, std::vector<Credential>& out) {
  // An identity keeps its access as a slot (or stanza) for its own public key.
  if (opening.kind == Credential::Kind::identity && opening.identity) {
    out.push_back(Credential::of(recipient_of(*opening.identity)));
    return;
  }
  // Built in place: GCC 12 at -O3 misreports a moved temporary Credential as uninitialised.
  Credential& copy = out.emplace_back();
  copy.kind = opening.kind;
  copy.secret = SecretBytes(opening.secret.span());
}

NewFileKeyPlan plan_new_file_key(
    std::size_t slot_count, const std::vector<Credential>& opening, std::vector<Credential> added,
    bool format_has_key_files, const std::function<std::vector<std::size_t>(const Credential&)>& opened_by) {
  NewFileKeyPlan plan;
  std::vector<bool> kept(slot_count, false);
  for (const Credential& c : opening) {
    if (!format_has_key_files && c.kind == Credential::Kind::key_file) continue;  // it opened nothing
    for (const std::size_t i : opened_by(c)) kept.at(i) = true;
    keep_access(c, plan.credentials);
  }
  for (Credential& c : added) {
    // One person, one slot: a recipient already kept (an opening identity's own) is not added twice, as
    // encrypt keeps a repeated recipient once.
    if (c.kind == Credential::Kind::recipient && c.recipient &&
        std::any_of(plan.credentials.begin(), plan.credentials.end(), [&](const Credential& s) {
          return s.kind == Credential::Kind::recipient && s.recipient &&
                 same_recipient(*s.recipient, *c.recipient);
        }))
      continue;
    const bool repeated =
        c.kind == Credential::Kind::key_file &&
        std::any_of(plan.credentials.begin(), plan.credentials.end(), [&](const Credential& s) {
          return s.kind == Credential::Kind::key_file && s.secret.size() == c.secret.size() &&
                 sodium_memcmp(s.secret.data(), c.secret.data(), c.secret.size()) == 0;
        });
    if (repeated) throw Error(PCRYPT_E_ALREADY_IN_FILE, "a key file to add is also one that opens the file");
    plan.credentials.push_back(std::move(c));
  }
  for (std::size_t i = 0; i < kept.size(); ++i) (kept[i] ? plan.kept : plan.dropped).push_back(i);
  return plan;
}

}  // namespace pcrypt::core
