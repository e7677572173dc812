#include "core/age/opened_file.h"

#include <optional>

#include "core/age/describe.h"
#include "core/age/file.h"
#include "core/age/payload.h"
#include "core/age/rekey.h"
#include "core/age/stanzas.h"
#include "core/error.h"

namespace pcrypt::core::age {
namespace {

class AgeFile final : public OpenedFile {
 public:
  explicit AgeFile(io::BufferedInput& in) : input_(in) {
    const Header& h = input_.header();
    description_.format = Format::age;
    description_.armored = input_.armored();
    description_.header_bytes = h.total_bytes + kPayloadNonceBytes;
    description_.chunk_size = kChunkBytes;
    description_.slots = h.stanzas.size();
    description_.passphrase_slots = count_stanzas(h, "scrypt");
    description_.slot_noun = "stanza";
    description_.slots_in_words = describe_stanzas(h);
    for (const Stanza& s : h.stanzas)
      description_.slot_list.push_back({s.args[0], stanza_words(s), stanza_tag(s)});
  }

  const FileDescription& description() const override { return description_; }
  // age's description prints no stanza bodies, so nothing is long enough to shorten.
  std::string info(std::optional<std::uint64_t> file_bytes, InfoDetail /*detail*/) const override {
    return describe(input_, file_bytes);
  }
  std::string slot_words(std::size_t index) const override {
    return "stanza " + std::to_string(index + 1) + " (" + input_.header().stanzas.at(index).args[0] + ")";
  }
  std::vector<std::size_t> slots_opened_by(const Credential& credential,
                                           const UnlockLimits& limits) override {
    std::optional<SecretBytes> key;
    try {
      key.emplace(age::unlock(input_, std::span<const Credential>(&credential, 1), limits.max_scrypt_log2));
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::header) throw;
      return {};
    }
    std::vector<std::size_t> opened;
    const std::vector<Stanza>& stanzas = input_.header().stanzas;
    for (std::size_t i = 0; i < stanzas.size(); ++i)
      if (opens(stanzas[i], credential, *key, limits.max_scrypt_log2)) opened.push_back(i);
    return opened;
  }

  std::optional<std::size_t> unlock(const std::vector<Credential>& credentials,
                                    const UnlockLimits& limits) override {
    file_key_ = age::unlock(input_, credentials, limits.max_scrypt_log2);
    max_scrypt_log2_ = limits.max_scrypt_log2;
    return std::nullopt;
  }
  KeyedPayload& payload() override {
    if (!payload_) payload_.emplace(open_payload(input_, key(), default_chacha_backend()));
    return *payload_;
  }
  io::Reader& payload_input() override { return input_.rest(); }

  std::vector<std::uint8_t> rekeyed_header(const RekeyChanges& changes,
                                           const NewFileSettings& settings) override {
    const std::string header =
        rekey_header(input_.header(), key(), changes, settings.scrypt_log2, max_scrypt_log2_);
    return {header.begin(), header.end()};
  }
  std::uint64_t header_only_bytes() const override { return input_.header().total_bytes; }
  PipelineStats reencrypt(io::Writer& out, const std::vector<Credential>& credentials,
                          const NewFileSettings& settings, const PipelineConfig& config) override {
    EncryptOptions options;
    options.threads = config.threads;
    options.progress = config.progress;
    options.scrypt_log2 = settings.scrypt_log2;
    return reencrypt_stream(input_, key(), out, credentials, options);
  }

 private:
  const SecretBytes& key() const {
    if (file_key_.size() == 0) throw std::logic_error("age file: used before unlock");
    return file_key_;
  }

  AgeInput input_;
  FileDescription description_;
  SecretBytes file_key_;
  unsigned max_scrypt_log2_ = kDefaultMaxScryptLog2;
  std::optional<KeyedPayload> payload_;
};

}  // namespace

std::unique_ptr<OpenedFile> open_age_file(io::BufferedInput& in) {
  return std::make_unique<AgeFile>(in);
}

NewFile new_age_file(const std::vector<Credential>& credentials, const NewFileSettings& settings) {
  const SecretBytes file_key = new_file_key();
  const std::string header =
      serialize_header(wrap_file_key(file_key, credentials, settings.scrypt_log2), file_key);
  const PayloadNonce nonce = new_payload_nonce();
  std::vector<std::uint8_t> bytes(header.begin(), header.end());
  bytes.insert(bytes.end(), nonce.begin(), nonce.end());
  return NewFile{std::move(bytes),
                 KeyedPayload{payload_layout(header.size()), payload_cipher(file_key, nonce)}};
}

}  // namespace pcrypt::core::age
