// `pcrypt rekey --new-file-key`: decrypt and re-encrypt in one pass through the pipeline (FORMAT.md §3.4).
#include "core/reencrypt.h"
#include "core/engine_choice.h"
#include "core/error.h"
#include "core/pcrypt/payload.h"
#include "core/pcrypt/rekey.h"
#include "core/range.h"
#include "core/records.h"

namespace pcrypt::core {

PipelineStats reencrypt_stream(const ParsedHeader& parsed, const SecretBytes& old_file_key,
                               io::Reader& payload_in, io::Writer& out,
                               const std::vector<Credential>& credentials, const EncryptOptions& options) {
  if (credentials.empty())
    throw Error(PCRYPT_E_NO_CREDENTIAL, "no key file or passphrase for the new file key");
  if (!header_mac_matches(old_file_key, parsed))
    throw Error(PCRYPT_E_WRONG_CREDENTIAL, "the header does not authenticate under this file key");
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
