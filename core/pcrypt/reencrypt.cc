// `pcrypt rekey --new-file-key`: decrypt and re-encrypt in one pass through the pipeline (FORMAT.md §3.4).
#include "core/engine_choice.h"
#include "core/error.h"
#include "core/pcrypt/payload.h"
#include "core/pcrypt/rekey.h"
#include "core/range.h"
#include "core/records.h"

namespace pcrypt::core {
namespace {

// Reads old records, writes new ones of the same index and length: open under the old key (refusing, as
// decrypt does, anything that does not authenticate), then seal the plaintext under the new key in place.
class ReencryptCodec final : public RecordCodec {
 public:
  ReencryptCodec(const ChunkCipher& old_cipher, PayloadLayout old_layout, const ChunkCipher& new_cipher,
                 PayloadLayout new_layout)
      : old_(old_cipher, old_layout), new_(new_cipher, new_layout) {}
  std::size_t input_record_bytes() const override { return old_.layout().record_bytes(); }
  std::size_t buffer_bytes() const override { return old_.layout().record_bytes(); }
  // Same chunk size, same index: every full record stays exactly as long as it was.
  std::size_t output_record_bytes() const override { return new_.layout().record_bytes(); }
  RecordOutcome process(std::uint64_t index, bool last, std::uint8_t* buf, std::size_t len) const override {
    OpenedRecord opened = old_.open_record(index, last, buf, len);
    if (opened.error) return {.error = std::move(opened.error)};
    const std::size_t sealed = new_.seal_record(index, last, buf, opened.plaintext_bytes);
    return {.write_bytes = sealed,
            .plaintext_bytes = opened.plaintext_bytes,
            .ciphertext_bytes = sealed,
            .error = std::nullopt};
  }

 private:
  PayloadRecords old_;
  PayloadRecords new_;
};

}  // namespace

PipelineStats reencrypt_payload(const KeyedPayload& from, const KeyedPayload& to, io::Reader& payload_in,
                                io::Writer& out, const PipelineConfig& config) {
  return run_pipeline(ReencryptCodec(from.cipher, from.layout, to.cipher, to.layout), payload_in, out,
                      config);
}

PipelineStats reencrypt_stream(const ParsedHeader& parsed, const SecretBytes& old_file_key,
                               io::Reader& payload_in, io::Writer& out,
                               const std::vector<Credential>& credentials, const EncryptOptions& options) {
  if (credentials.empty()) throw Error(ErrorKind::usage, "no key file or passphrase for the new file key");
  if (!header_mac_matches(old_file_key, parsed))
    throw Error(ErrorKind::header, "the header does not authenticate under this file key");
  const aes::Engine& engine = engine_for(options.engine);

  const SecretBytes new_key = new_file_key();
  FileHeader header;
  header.chunk_size = parsed.header.chunk_size;
  for (const Credential& credential : credentials)
    header.slots.push_back(make_slot(new_key, credential, options.kdf, options.kek_cache));
  header.version = format_version_for(header.slots);
  header.mac = compute_header_mac(new_key, serialize_header_without_mac(header));
  const std::vector<std::uint8_t> bytes = serialize_header(header);

  out.write(bytes.data(), bytes.size());
  return reencrypt_payload(
      KeyedPayload{{parsed.header.chunk_size, parsed.total_bytes()}, payload_cipher(engine, old_file_key)},
      KeyedPayload{{parsed.header.chunk_size, bytes.size()}, payload_cipher(engine, new_key)}, payload_in,
      out, PipelineConfig{options.threads, options.progress});
}

}  // namespace pcrypt::core
