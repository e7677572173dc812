#include "core/cobblestone/opened_file.h"

#include <sodium.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/byte_size.h"
#include "core/counted.h"
#include "core/error.h"

namespace pcrypt::core::cobblestone {
namespace {

std::string hex(std::span<const std::uint8_t> bytes) {
  std::string out(2 * bytes.size() + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), bytes.data(), bytes.size());
  out.pop_back();
  return out;
}

// The one raw key among `credentials`; Error(usage) naming what was given instead.
const Credential& raw_key_of(const std::vector<Credential>& credentials, const Instantiation& inst) {
  const Credential* found = nullptr;
  for (const Credential& c : credentials) {
    if (c.kind != Credential::Kind::raw_key)
      throw Error(PCRYPT_E_CREDENTIAL_MIX,
                  std::string(inst.name) +
                      " has no recipients, passphrases or key files: it is encrypted with one raw key",
                  "give the raw key alone (and the context, if one was used)");
    if (found != nullptr)
      throw Error(PCRYPT_E_CREDENTIAL_MIX, std::string(inst.name) + " takes exactly one raw key");
    found = &c;
  }
  if (found == nullptr)
    throw Error(PCRYPT_E_NO_CREDENTIAL, std::string(inst.name) + " needs a raw key",
                "give the raw key the file was encrypted with (and the context, if one was used)");
  return *found;
}

const aes::Engine& engine_or_best(const aes::Engine* engine) {
  return engine != nullptr ? *engine : aes::best_engine();
}

class CobblestoneFile final : public OpenedFile {
 public:
  CobblestoneFile(io::BufferedInput& in, const Instantiation& inst, Format format)
      : input_(in), instantiation_(inst) {
    const auto start = in.peek(kMinFileBytes);
    if (start.size() < kMinFileBytes) {
      // Empty, cut inside the 56-byte header, or a whole header with no final chunk after it.
      const Code code = start.empty()                 ? PCRYPT_E_EMPTY_INPUT
                        : start.size() < kHeaderBytes ? PCRYPT_E_TRUNCATED_HEADER
                                                      : PCRYPT_E_TRUNCATED;
      ErrorFields fields;
      if (code == PCRYPT_E_TRUNCATED) fields = ErrorFields().record(0, kHeaderBytes);
      throw Error(code,
                  "truncated " + std::string(inst.name) + " file: " + counted(start.size(), "byte") +
                      ", but the shortest one is " + std::to_string(kMinFileBytes) +
                      " bytes (a 56-byte header and the final chunk's 16-byte tag)",
                  "the file was cut short, or is not a " + std::string(inst.name) + " file",
                  std::move(fields));
    }
    if (in.read(header_.data(), header_.size()) != header_.size())
      throw Error(PCRYPT_E_IO, "could not read the header of " + in.name());
    description_.format = format;
    description_.header_bytes = kHeaderBytes;
    description_.chunk_size = kChunkBytes;
    description_.final_chunk = FinalChunk::always_short;
    description_.slot_noun = "key";
    description_.slots_in_words = "no key slots (opened by one raw key and its context)";
  }

  const FileDescription& description() const override { return description_; }

  std::string info(std::optional<std::uint64_t> file_bytes, InfoDetail /*detail*/) const override {
    std::string out = "format: " + std::string(instantiation_.name) +
                      " (C2SP chunked encryption, SHA-512 + " +
                      (instantiation_.key_bytes == 16 ? "AES-128-GCM" : "AES-256-GCM") + ")\n";
    out += "salt: " + hex(std::span(header_).first(kSaltBytes)) + "\n";
    out += "commitment: " + hex(std::span(header_).subspan(kSaltBytes)) + "\n";
    out += "chunk size: 16 KiB (the final chunk always shorter)\n";
    if (file_bytes) {
      const PayloadLayout layout = payload_layout();
      const auto records =
          *file_bytes >= kHeaderBytes ? layout.record_count(*file_bytes - kHeaderBytes) : std::nullopt;
      if (records)
        out += "plaintext size: " + counted(*layout.plaintext_bytes(*file_bytes - kHeaderBytes), "byte") +
               " in " + counted(*records, "chunk") + "\n";
      else
        out += "plaintext size: unknown: no complete file is " + counted(*file_bytes, "byte") +
               " long (truncated or extended)\n";
    }
    return out;
  }

  std::string slot_words(std::size_t /*index*/) const override {
    throw std::logic_error(std::string(instantiation_.name) + " files have no key slots");
  }
  std::vector<std::size_t> slots_opened_by(const Credential& /*credential*/,
                                           const UnlockLimits& /*limits*/) override {
    return {};
  }

  std::optional<std::size_t> unlock(const std::vector<Credential>& credentials,
                                    const UnlockLimits& limits) override {
    const Credential& key = raw_key_of(credentials, instantiation_);
    // The commitment is checked here, before any chunk can be opened.
    payload_.emplace(
        open_payload(instantiation_, key.secret.span(), key.context, header_, engine_or_best(limits.engine)));
    return std::nullopt;
  }
  KeyedPayload& payload() override {
    if (!payload_) throw std::logic_error("cobblestone file: used before unlock");
    return *payload_;
  }
  io::Reader& payload_input() override { return input_; }

  std::vector<std::uint8_t> rekeyed_header(const RekeyChanges& /*changes*/,
                                           const NewFileSettings& /*settings*/) override {
    refuse_rekey();
  }
  std::uint64_t header_only_bytes() const override { return kHeaderBytes; }
  PipelineStats reencrypt(io::Writer& /*out*/, const std::vector<Credential>& /*credentials*/,
                          const NewFileSettings& /*settings*/, const PipelineConfig& /*config*/) override {
    refuse_rekey();
  }

 private:
  [[noreturn]] void refuse_rekey() const {
    throw Error(PCRYPT_E_FORMAT_OPTION,
                std::string(instantiation_.name) +
                    " files have no key slots to change (rekey is for pcrypt "
                    "and age files)",
                "decrypt it and encrypt it again under the new key");
  }

  io::BufferedInput& input_;
  const Instantiation& instantiation_;
  std::array<std::uint8_t, kHeaderBytes> header_{};
  FileDescription description_;
  std::optional<KeyedPayload> payload_;
};

}  // namespace

const Instantiation& instantiation_of(Format format) {
  if (format == Format::cobblestone_128) return kCobblestone128;
  if (format == Format::cobblestone_256) return kCobblestone256;
  throw std::logic_error("not a Cobblestone format");
}

std::unique_ptr<OpenedFile> open_cobblestone_file(io::BufferedInput& in, Format format) {
  return std::make_unique<CobblestoneFile>(in, instantiation_of(format), format);
}

NewFile new_cobblestone_file(const std::vector<Credential>& credentials, const NewFileSettings& settings) {
  const Instantiation& inst = instantiation_of(settings.format);
  const Credential& key = raw_key_of(credentials, inst);
  NewMessage m = new_message(inst, key.secret.span(), key.context, engine_or_best(settings.engine));
  return NewFile{std::vector<std::uint8_t>(m.header.begin(), m.header.end()), std::move(m.payload)};
}

}  // namespace pcrypt::core::cobblestone
