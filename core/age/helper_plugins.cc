#include "core/age/helper_plugins.h"

#include <sodium.h>

#include <memory>

#include "core/age/base64.h"
#include "core/age/stanzas.h"
#include "core/error.h"
#include "core/keys/bech32.h"
#include "core/keys/recipient.h"
#include "core/pq/xwing.h"

namespace pcrypt::core::age {
namespace {

constexpr std::string_view kPqRecipientHrp = "age1pq";
constexpr std::string_view kPqPluginIdentityHrp = "age-plugin-pq-";

// A label no other recipient has: age 1.3 gives a passphrase recipient a fresh random one, so that a file
// with an scrypt stanza has no other stanza.
std::string random_label() {
  std::array<std::uint8_t, 16> bytes{};
  randombytes_buf(bytes.data(), bytes.size());
  return encode_base64_raw(bytes);
}

void refuse_payload(std::span<const std::uint8_t> data) {
  if (!data.empty())
    throw Error(PCRYPT_E_NOT_AN_IDENTITY,
                "a batchpass identity has no payload (it is AGE-PLUGIN-BATCHPASS-1)");
}

Credential passphrase_credential(const SecretBytes& passphrase) {
  return Credential{Credential::Kind::passphrase, SecretBytes(passphrase.span())};
}

// wrap_file_key for one credential (its list cannot be braced: a Credential is move-only).
std::vector<Stanza> wrap_for(const SecretBytes& file_key, Credential credential, unsigned scrypt_log2) {
  std::vector<Credential> credentials;
  credentials.push_back(std::move(credential));
  return wrap_file_key(file_key, credentials, scrypt_log2);
}

Identity hybrid_identity_of(std::span<const std::uint8_t> seed) {
  if (seed.size() != pq::xwing::seed_size)
    throw Error(PCRYPT_E_NOT_AN_IDENTITY, "a post-quantum identity holds a 32-byte seed, not " +
                                              std::to_string(seed.size()) + " bytes");
  return hybrid_identity_from_seed(SecretBytes(seed));
}

PluginWrapper wrap_to_hybrid(Recipient recipient) {
  return [recipient = std::move(recipient)](const SecretBytes& file_key) {
    return PluginWrap{wrap_for(file_key, Credential::of(recipient), kDefaultScryptLog2), {"postquantum"}};
  };
}

}  // namespace

PluginKeys batchpass_plugin(BatchpassSource source) {
  PluginKeys keys;
  keys.name = "batchpass";
  keys.identity_as_recipient = [encrypting = source.encrypting](std::span<const std::uint8_t> data) {
    refuse_payload(data);
    auto secret = std::make_shared<BatchpassSecret>(encrypting());
    return PluginWrapper([secret, label = random_label()](const SecretBytes& file_key) {
      return PluginWrap{wrap_for(file_key, passphrase_credential(secret->passphrase), secret->work_factor),
                        {label}};
    });
  };
  keys.identity = [decrypting = source.decrypting](std::span<const std::uint8_t> data) {
    refuse_payload(data);
    auto secret = std::make_shared<BatchpassSecret>(decrypting());
    return PluginUnwrapper([secret](const std::vector<Stanza>& stanzas) -> std::optional<SecretBytes> {
      // Only a passphrase file, and no fallback to other identities: this plugin stands for the passphrase
      // a script gives, so any other file is an error, as age's is.
      for (const Stanza& s : stanzas)
        if (s.args[0] == "scrypt" && stanzas.size() != 1)
          throw Error(PCRYPT_E_MALFORMED_HEADER, "an scrypt stanza must be the only stanza in the header");
      if (stanzas.size() != 1 || stanzas[0].args[0] != "scrypt")
        throw Error(PCRYPT_E_UNHANDLED_STANZA, "the file is not passphrase-encrypted");
      std::optional<SecretBytes> file_key =
          unwrap_stanza(stanzas[0], passphrase_credential(secret->passphrase), secret->work_factor);
      if (!file_key) throw Error(PCRYPT_E_WRONG_PASSPHRASE, "incorrect passphrase");
      return file_key;
    });
  };
  return keys;
}

PluginKeys pq_plugin() {
  PluginKeys keys;
  keys.name = "pq";
  keys.recipient = [](std::span<const std::uint8_t> data) {
    return wrap_to_hybrid(parse_recipient(bech32::encode(kPqRecipientHrp, bech32::to_words(data))));
  };
  keys.identity_as_recipient = [](std::span<const std::uint8_t> data) {
    return wrap_to_hybrid(recipient_of(hybrid_identity_of(data)));
  };
  keys.identity = [](std::span<const std::uint8_t> data) {
    auto credential = std::make_shared<Credential>(Credential::of(hybrid_identity_of(data)));
    return PluginUnwrapper([credential](const std::vector<Stanza>& stanzas) -> std::optional<SecretBytes> {
      for (const Stanza& s : stanzas)
        if (auto file_key = unwrap_stanza(s, *credential, kDefaultMaxScryptLog2)) return file_key;
      return std::nullopt;
    });
  };
  return keys;
}

std::vector<std::string> pq_plugin_identities(std::string_view identity_file, std::string_view name) {
  std::vector<std::string> out;
  const std::vector<Identity> identities = parse_identity_file(identity_file, name);
  for (std::size_t i = 0; i < identities.size(); ++i) {
    const Identity& id = identities[i];
    if (id.kind != Identity::Kind::mlkem768_x25519)
      throw Error(PCRYPT_E_NOT_AN_IDENTITY,
                  "identity #" + std::to_string(i + 1) + " is not a post-quantum hybrid identity",
                  "age-plugin-pq -identity converts AGE-SECRET-KEY-PQ-1... identities (age-keygen -pq)");
    std::vector<std::uint8_t> words = bech32::to_words(id.secret.span());
    out.push_back(bech32::encode(kPqPluginIdentityHrp, words, true));
    sodium_memzero(words.data(), words.size());
  }
  return out;
}

}  // namespace pcrypt::core::age
