#include "core/pcrypt/range.h"

#include <utility>

#include "core/engine_choice.h"
#include "core/error.h"
#include "core/pcrypt/payload.h"

namespace pcrypt::core {

KeyedPayload keyed_payload(const ParsedHeader& header, const SecretBytes& file_key,
                           const aes::Engine* engine) {
  if (file_key.size() != kFileKeyBytes || !header_mac_matches(file_key, header))
    throw Error(PCRYPT_E_WRONG_CREDENTIAL, "wrong key or passphrase, or the header was modified",
                "the file key does not authenticate this header");
  return KeyedPayload{PayloadLayout{header.header.chunk_size, header.total_bytes()},
                      payload_cipher(engine_for(engine), file_key)};
}

UnlockedHeader unlock_header(io::Reader& in, const std::vector<Credential>& credentials,
                             const KdfLimits& ceiling) {
  ParsedHeader parsed = read_header(in);
  SecretBytes file_key = unlock_file_key(parsed, credentials, ceiling);
  return UnlockedHeader{std::move(parsed), std::move(file_key)};
}

RangeResult decrypt_range(const io::PositionalReader& file, const ParsedHeader& header,
                          const SecretBytes& file_key, const ByteRange& range, io::Writer& out,
                          const RangeOptions& options) {
  return decrypt_range(file, keyed_payload(header, file_key, options.engine), range, out, options);
}

RangeResult decrypt_range_into(const io::PositionalReader& file, const ParsedHeader& header,
                               const SecretBytes& file_key, std::uint64_t offset, std::span<std::uint8_t> out,
                               const RangeOptions& options) {
  return decrypt_range_into(file, keyed_payload(header, file_key, options.engine), offset, out, options);
}

RangeResult decrypt_range_stream(io::Reader& in, const ParsedHeader& header, const SecretBytes& file_key,
                                 const ByteRange& range, io::Writer& out, const RangeOptions& options) {
  return decrypt_range_stream(in, keyed_payload(header, file_key, options.engine), range, out, options);
}

}  // namespace pcrypt::core
