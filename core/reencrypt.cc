// `rekey --new-file-key`'s one pass, for either format (FORMAT.md §3.4, §11.7).
#include "core/reencrypt.h"

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

}  // namespace pcrypt::core
