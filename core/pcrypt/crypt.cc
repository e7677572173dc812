// The whole-file operations: header + key handling + pipeline (FORMAT.md §1, §5).
#include "core/pcrypt/crypt.h"

#include "core/engine_choice.h"
#include "core/error.h"
#include "core/pcrypt/format.h"
#include "core/pcrypt/keys.h"
#include "core/pcrypt/payload.h"
#include "core/records.h"

namespace pcrypt::core {

NewHeader new_header(const std::vector<Credential>& credentials, const EncryptOptions& options) {
  if (credentials.empty()) throw Error(PCRYPT_E_NO_CREDENTIAL, "no key file or passphrase given");
  check_chunk_size(options.chunk_size);
  SecretBytes file_key = new_file_key();
  FileHeader header;
  header.chunk_size = static_cast<std::uint32_t>(options.chunk_size);
  for (const Credential& credential : credentials) {
    header.slots.push_back(make_slot(file_key, credential, options.kdf, options.kek_cache));
    if (is_recipient_slot(header.slots.back().kind)) header.version = kFormatVersionRecipients;
  }
  const std::vector<std::uint8_t> authenticated = serialize_header_without_mac(header);
  header.mac = compute_header_mac(file_key, authenticated);
  return NewHeader{std::move(file_key), serialize_header(header)};
}

PipelineStats encrypt_stream(io::Reader& in, io::Writer& out, const std::vector<Credential>& credentials,
                             const EncryptOptions& options) {
  const aes::Engine& engine = engine_for(options.engine);
  const NewHeader header = new_header(credentials, options);
  const ChunkCipher cipher = payload_cipher(engine, header.file_key);
  out.write(header.bytes.data(), header.bytes.size());
  if (options.header_written) options.header_written();
  return run_pipeline(PayloadCodec(Direction::seal, cipher, {options.chunk_size, header.bytes.size()}), in,
                      out, PipelineConfig{options.threads, options.progress});
}

PipelineStats decrypt_stream(io::Reader& in, io::Writer& out, const std::vector<Credential>& credentials,
                             const DecryptOptions& options) {
  if (credentials.empty()) throw Error(PCRYPT_E_NO_CREDENTIAL, "no key file or passphrase given");
  const aes::Engine& engine = engine_for(options.engine);
  const ParsedHeader parsed = read_header(in);
  std::size_t slot = 0;
  const SecretBytes file_key =
      unlock_file_key(parsed, credentials, options.kdf_ceiling, options.kek_cache, &slot);
  if (options.unlocked) options.unlocked(parsed.header, slot);
  const ChunkCipher cipher = payload_cipher(engine, file_key);
  return run_pipeline(PayloadCodec(Direction::open, cipher, {parsed.header.chunk_size, parsed.total_bytes()}),
                      in, out, PipelineConfig{options.threads, options.progress});
}

std::string describe_header(io::Reader& in) {
  return describe_parsed_header(read_header(in));
}

}  // namespace pcrypt::core
