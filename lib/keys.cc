// Keys and identities (pcrypt::Keys, new identities and key files, recipients, the plugin host): key
// material read once and held in guarded memory (SecretBytes), for unlock, encrypt and rekey.
#define PCRYPT_BUILDING_LIBRARY
#include <sodium.h>
#include <string.h>
#include <cstring>
#include <utility>

#include "core/door/credential_files.h"
#include "core/keys/key_file.h"
#include "core/keys/plugin_host.h"
#include "core/keys/recipient.h"
#include "lib/internal.h"
#include "lib/plugin_host.h"

namespace pcrypt {
inline namespace v1 {
namespace detail {

WipedAnswer::~WipedAnswer() {
  if (answer_) ::explicit_bzero(answer_->data(), answer_->size());
}

SecretBytes secret_of(std::string_view text) {
  return SecretBytes(
      std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

core::Credential passphrase_credential(std::string_view text) {
  if (text.empty()) throw core::Error(PCRYPT_E_EMPTY_PASSPHRASE, "empty passphrase");
  core::Credential c;
  c.kind = core::Credential::Kind::passphrase;
  c.secret = secret_of(text);
  return c;
}

}  // namespace detail

namespace {

bool same_secret(const core::Credential& a, const core::Credential& b) {
  return a.secret.size() == b.secret.size() &&
         std::memcmp(a.secret.data(), b.secret.data(), a.secret.size()) == 0;
}

}  // namespace

const detail::KeysImpl& Access::of(const Keys& k) {
  detail::require_not_moved_from(k.impl_.get(), "Keys");
  return *k.impl_;
}

detail::KeysImpl& Access::of(Keys& k) {
  detail::require_not_moved_from(k.impl_.get(), "Keys");
  return *k.impl_;
}

Keys::Keys() : impl_(std::make_unique<Impl>()) {}
Keys::Keys(Keys&&) noexcept = default;
Keys& Keys::operator=(Keys&&) noexcept = default;
Keys::~Keys() = default;

namespace {

core::door::CredentialReading reading_of(const Keys& keys) {
  core::door::CredentialReading reading;
  if (keys.ssh_key_passphrase) {
    reading.ssh_key_passphrase = [ask = keys.ssh_key_passphrase](const std::string& key_name) {
      const detail::WipedAnswer answer([&] { return ask(key_name); });
      if (!answer.get()) core::door::refuse_protected_ssh_key(key_name);
      return detail::secret_of(*answer.get());
    };
  }
  if (keys.warn) reading.warn = keys.warn;
  return reading;
}

}  // namespace

Keys::Added Keys::add_key_file(const std::string& path, bool encrypting) {
  return detail::guarded(detail::Phase::other, [&]() -> Added {
    core::Credential key = core::door::read_key_file(
        path, encrypting ? core::door::KeyFileUse::encrypt : core::door::KeyFileUse::decrypt);
    for (std::size_t i = 0; i < Access::of(*this).credentials.size(); ++i)
      if (Access::of(*this).credentials[i].kind == core::Credential::Kind::key_file &&
          same_secret(Access::of(*this).credentials[i], key))
        return Added{i, false};
    Access::of(*this).credentials.push_back(std::move(key));
    return Added{Access::of(*this).credentials.size() - 1, true};
  });
}

void Keys::add_recipients(const std::vector<std::string>& recipients,
                          const std::vector<std::string>& recipient_files,
                          const std::vector<std::string>& identity_files) {
  detail::guarded(detail::Phase::other, [&] {
    for (core::Credential& c :
         core::door::gather_recipients(recipients, recipient_files, identity_files, reading_of(*this)))
      Access::of(*this).credentials.push_back(std::move(c));
    return 0;
  });
}

std::size_t Keys::add_identity_file(const std::string& path) {
  return detail::guarded(detail::Phase::other, [&] {
    std::vector<core::Credential> read = core::door::gather_identities({path}, reading_of(*this));
    for (core::Credential& c : read) Access::of(*this).credentials.push_back(std::move(c));
    return read.size();
  });
}

std::size_t Keys::add_key_or_identity_file(const std::string& path) {
  return detail::guarded(detail::Phase::other, [&] {
    std::vector<core::Credential> read = core::door::read_key_or_identity_file(path, reading_of(*this));
    for (core::Credential& c : read) Access::of(*this).credentials.push_back(std::move(c));
    return read.size();
  });
}

void Keys::add_plugin(const std::string& name) {
  detail::guarded(detail::Phase::other, [&] {
    Access::of(*this).credentials.push_back(core::Credential::of(core::default_plugin_identity(name)));
    return 0;
  });
}

void Keys::add_plugin_recipient(const std::string& name) {
  detail::guarded(detail::Phase::other, [&] {
    Access::of(*this).credentials.push_back(
        core::Credential::of(core::encryption_target_of(core::default_plugin_identity(name))));
    return 0;
  });
}

void Keys::add_passphrase(const std::string& passphrase) {
  detail::guarded(detail::Phase::other, [&] {
    Access::of(*this).credentials.push_back(detail::passphrase_credential(passphrase));
    return 0;
  });
}

void Keys::add_passphrase(const SecretBytes& passphrase) {
  detail::guarded(detail::Phase::other, [&] {
    Access::of(*this).credentials.push_back(detail::passphrase_credential(passphrase.text()));
    return 0;
  });
}

void Keys::add_raw_key(const SecretBytes& key, std::span<const std::uint8_t> context) {
  detail::guarded(detail::Phase::other, [&] {
    if (key.size() != 16 && key.size() != 32)
      throw core::Error(PCRYPT_E_BAD_ARGUMENT,
                        "a raw key is exactly 16 or 32 bytes, not " + std::to_string(key.size()));
    Access::of(*this).credentials.push_back(
        core::Credential{core::Credential::Kind::raw_key, SecretBytes(key.span()), std::nullopt, std::nullopt,
                         std::vector<std::uint8_t>(context.begin(), context.end())});
    return 0;
  });
}

void Keys::add_raw_key_file(const std::string& path, std::span<const std::uint8_t> context) {
  detail::guarded(detail::Phase::other, [&] {
    Access::of(*this).credentials.push_back(
        core::door::read_raw_key_file(path, std::vector<std::uint8_t>(context.begin(), context.end())));
    return 0;
  });
}

SecretBytes generate_raw_key(std::size_t bytes) {
  return detail::guarded(detail::Phase::other, [&] {
    if (bytes != 16 && bytes != 32)
      throw core::Error(PCRYPT_E_BAD_ARGUMENT, "a raw key is 16 or 32 bytes, not " + std::to_string(bytes),
                        "16 for cobblestone-128, 32 for cobblestone-256");
    SecretBytes key(bytes);
    randombytes_buf(key.data(), key.size());
    return key;
  });
}

std::vector<std::string> Keys::recipients() const {
  return detail::guarded(detail::Phase::other, [&] {
    std::vector<std::string> out;
    for (const core::Credential& c : Access::of(*this).credentials)
      if (c.identity) out.push_back(core::door::recipient_text(*c.identity));
    return out;
  });
}

std::size_t Keys::size() const {
  return detail::guarded(detail::Phase::other, [&] { return Access::of(*this).credentials.size(); });
}

void set_plugin_host(PluginHost host) {
  detail::guarded(detail::Phase::other, [&] {
    lib::set_core_plugin_host(std::move(host));
    return 0;
  });
}

NewIdentity generate_identity(bool post_quantum) {
  return detail::guarded(detail::Phase::other, [&] {
    core::door::NewIdentity made = core::door::generate_identity(post_quantum);
    return NewIdentity{std::move(made.text), std::move(made.recipient)};
  });
}

std::string generate_key_file() {
  return detail::guarded(detail::Phase::other, [] {
    const SecretBytes text = core::generate_key_file();
    return std::string(reinterpret_cast<const char*>(text.data()), text.size());
  });
}

std::vector<std::string> recipients_of(std::string_view identity_file_text) {
  return detail::guarded(detail::Phase::other, [&] {
    std::vector<std::string> out;
    for (const core::Identity& id : core::parse_identity_file(identity_file_text, "the identity text"))
      out.push_back(core::door::recipient_text(id));
    return out;
  });
}

void check_recipient(std::string_view text) {
  detail::guarded(detail::Phase::other, [&] {
    (void)core::parse_recipient(text);
    return 0;
  });
}

}  // namespace v1
}  // namespace pcrypt
