#include "core/age/file.h"

#include "core/age/detect.h"
#include "core/age/payload.h"
#include "core/error.h"
#include "core/reencrypt.h"

namespace pcrypt::core::age {

PipelineStats encrypt_stream(io::Reader& in, io::Writer& out, const std::vector<Credential>& credentials,
                             const EncryptOptions& options) {
  const SecretBytes file_key = new_file_key();
  const std::string header =
      serialize_header(wrap_file_key(file_key, credentials, options.scrypt_log2), file_key);
  const PayloadNonce nonce = new_payload_nonce();
  const ChunkCipher cipher = payload_cipher(file_key, nonce, options.backend);
  out.write(reinterpret_cast<const std::uint8_t*>(header.data()), header.size());
  out.write(nonce.data(), nonce.size());
  PipelineStats stats = run_pipeline(PayloadCodec(Direction::seal, cipher, payload_layout(header.size())), in,
                                     out, PipelineConfig{options.threads, options.progress});
  return stats;
}

AgeInput::AgeInput(io::BufferedInput& in, Armor armor) : raw_(in) {
  in.set_read_ahead(4096);  // an age input is read through `in` to its end: no need to stop at exact bytes
  const bool armored = armor == Armor::detect
                           ? detect_format(in.peek(kDetectBytes)) == FileFormat::age_armored
                           : armor == Armor::yes;
  if (armored) {
    armor_ = std::make_unique<ArmorReader>(raw_);
    decoded_ = std::make_unique<io::BufferedInput>(*armor_);
  }
  header_ = parse_header(rest());
}

SecretBytes unlock(const AgeInput& input, std::span<const Credential> credentials, unsigned max_scrypt_log2) {
  SecretBytes file_key = unwrap_file_key(input.header(), credentials, max_scrypt_log2);
  if (!mac_matches(input.header(), file_key))
    throw Error(PCRYPT_E_HEADER_MAC, "age header MAC mismatch: the header was modified after encryption",
                "the file was corrupted or tampered with");
  return file_key;
}

KeyedPayload open_payload(AgeInput& input, const SecretBytes& file_key, ChaChaBackend backend) {
  PayloadNonce nonce{};
  std::size_t got = 0;
  while (got < nonce.size()) {
    const std::size_t n = input.rest().read(nonce.data() + got, nonce.size() - got);
    if (n == 0)
      throw Error(PCRYPT_E_TRUNCATED_HEADER, "malformed age file: it ends before the 16-byte payload nonce");
    got += n;
  }
  return KeyedPayload{payload_layout(input.header().total_bytes), payload_cipher(file_key, nonce, backend)};
}

PipelineStats decrypt_payload(AgeInput& input, const SecretBytes& file_key, io::Writer& out,
                              const DecryptOptions& options) {
  const KeyedPayload payload = open_payload(input, file_key, options.backend);
  return run_pipeline(PayloadCodec(Direction::open, payload.cipher, payload.layout), input.rest(), out,
                      PipelineConfig{options.threads, options.progress});
}

PipelineStats reencrypt_stream(AgeInput& input, const SecretBytes& old_file_key, io::Writer& out,
                               const std::vector<Credential>& credentials, const EncryptOptions& options) {
  const KeyedPayload from = open_payload(input, old_file_key, options.backend);
  const SecretBytes file_key = new_file_key();
  const std::string header =
      serialize_header(wrap_file_key(file_key, credentials, options.scrypt_log2), file_key);
  const PayloadNonce nonce = new_payload_nonce();
  out.write(reinterpret_cast<const std::uint8_t*>(header.data()), header.size());
  out.write(nonce.data(), nonce.size());
  return reencrypt_payload(
      from, KeyedPayload{payload_layout(header.size()), payload_cipher(file_key, nonce, options.backend)},
      input.rest(), out, PipelineConfig{options.threads, options.progress});
}

PipelineStats decrypt_stream(AgeInput& input, io::Writer& out, const std::vector<Credential>& credentials,
                             const DecryptOptions& options) {
  const SecretBytes file_key = unlock(input, credentials, options.max_scrypt_log2);
  return decrypt_payload(input, file_key, out, options);
}

}  // namespace pcrypt::core::age
