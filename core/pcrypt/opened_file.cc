#include "core/pcrypt/opened_file.h"

#include <algorithm>
#include <optional>

#include "core/engine_choice.h"
#include "core/error.h"
#include "core/pcrypt/crypt.h"
#include "core/pcrypt/file_description.h"
#include "core/pcrypt/format.h"
#include "core/pcrypt/keys.h"
#include "core/pcrypt/payload.h"
#include "core/pcrypt/range.h"
#include "core/pcrypt/rekey.h"
#include "core/pcrypt/slot_words.h"

namespace pcrypt::core {
namespace {

EncryptOptions encrypt_options(const NewFileSettings& settings) {
  EncryptOptions options;
  options.chunk_size = settings.chunk_size;
  options.engine = settings.engine;
  options.kdf = settings.argon2id;
  options.kek_cache = settings.kek_cache;
  return options;
}

class PcryptFile final : public OpenedFile {
 public:
  explicit PcryptFile(io::Reader& in) : in_(in), parsed_(read_header(in)) {
    const FileHeader& h = parsed_.header;
    description_.format = Format::pcrypt;
    description_.header_bytes = parsed_.total_bytes();
    description_.chunk_size = h.chunk_size;
    description_.slots = h.slots.size();
    description_.passphrase_slots = static_cast<std::size_t>(std::count_if(
        h.slots.begin(), h.slots.end(), [](const KeySlot& s) { return s.kind == SlotKind::passphrase; }));
    description_.slot_noun = "slot";
    description_.slots_in_words = describe_slot_counts(h);
    for (const KeySlot& slot : h.slots) description_.slot_list.push_back(summarize_slot(slot));
  }

  const FileDescription& description() const override { return description_; }
  std::string info(std::optional<std::uint64_t> file_bytes, InfoDetail detail) const override {
    return describe_parsed_header(parsed_, detail == InfoDetail::all_bytes) +
           describe_payload(parsed_, file_bytes);
  }
  std::string slot_words(std::size_t index) const override { return describe_slot(parsed_.header, index); }
  std::vector<std::size_t> slots_opened_by(const Credential& credential,
                                           const UnlockLimits& limits) override {
    return core::slots_opened_by(parsed_, credential, limits.argon2id_ceiling, limits.kek_cache);
  }

  std::optional<std::size_t> unlock(const std::vector<Credential>& credentials,
                                    const UnlockLimits& limits) override {
    if (credentials.empty()) throw Error(PCRYPT_E_NO_CREDENTIAL, "no key file or passphrase given");
    std::size_t slot = 0;
    file_key_ = unlock_file_key(parsed_, credentials, limits.argon2id_ceiling, limits.kek_cache, &slot);
    engine_ = limits.engine;
    return slot;
  }
  KeyedPayload& payload() override {
    if (!payload_) payload_.emplace(keyed_payload(parsed_, key(), engine_));
    return *payload_;
  }
  io::Reader& payload_input() override { return in_; }

  std::vector<std::uint8_t> rekeyed_header(const RekeyChanges& changes, const NewFileSettings&) override {
    return rekey_header(parsed_, key(), changes);
  }
  std::uint64_t header_only_bytes() const override { return parsed_.total_bytes(); }
  PipelineStats reencrypt(io::Writer& out, const std::vector<Credential>& credentials,
                          const NewFileSettings& settings, const PipelineConfig& config) override {
    EncryptOptions options = encrypt_options(settings);
    options.threads = config.threads;
    options.progress = config.progress;
    return reencrypt_stream(parsed_, key(), in_, out, credentials, options);
  }

 private:
  const SecretBytes& key() const {
    if (file_key_.size() == 0) throw std::logic_error("pcrypt file: used before unlock");
    return file_key_;
  }

  io::Reader& in_;
  ParsedHeader parsed_;
  FileDescription description_;
  SecretBytes file_key_;
  const aes::Engine* engine_ = nullptr;
  std::optional<KeyedPayload> payload_;
};

}  // namespace

std::unique_ptr<OpenedFile> open_pcrypt_file(io::Reader& in) {
  return std::make_unique<PcryptFile>(in);
}

NewFile new_pcrypt_file(const std::vector<Credential>& credentials, const NewFileSettings& settings) {
  const NewHeader header = new_header(credentials, encrypt_options(settings));
  return NewFile{header.bytes, KeyedPayload{PayloadLayout{settings.chunk_size, header.bytes.size()},
                                            payload_cipher(engine_for(settings.engine), header.file_key)}};
}

}  // namespace pcrypt::core
