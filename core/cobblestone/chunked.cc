// C2SP chunked encryption's key derivation, header and commitment (chunked.h).
#include "core/cobblestone/chunked.h"

#include <sodium.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/error.h"

namespace pcrypt::core::cobblestone {
namespace {

constexpr std::string_view kInfoPrefix = "c2sp.org/chunked-encryption@v1+";

// RFC 5869 HKDF-Expand with HMAC-SHA-512, PRK = the input key (no Extract step, as the spec says).
void hkdf_expand_sha512(std::span<const std::uint8_t> prk, std::span<const std::uint8_t> info,
                        std::span<std::uint8_t> out) {
  if (out.size() > 255 * crypto_auth_hmacsha512_BYTES) throw std::logic_error("HKDF-Expand: output too long");
  std::uint8_t t[crypto_auth_hmacsha512_BYTES];
  std::size_t t_len = 0;
  for (std::size_t done = 0, block = 1; done < out.size(); ++block) {
    crypto_auth_hmacsha512_state state;
    crypto_auth_hmacsha512_init(&state, prk.data(), prk.size());
    crypto_auth_hmacsha512_update(&state, t, t_len);
    crypto_auth_hmacsha512_update(&state, info.data(), info.size());
    const auto counter = static_cast<std::uint8_t>(block);
    crypto_auth_hmacsha512_update(&state, &counter, 1);
    crypto_auth_hmacsha512_final(&state, t);
    sodium_memzero(&state, sizeof state);
    t_len = sizeof t;
    const std::size_t n = std::min(sizeof t, out.size() - done);
    std::copy_n(t, n, out.data() + done);
    done += n;
  }
  sodium_memzero(t, sizeof t);
}

void check_key(const Instantiation& instantiation, std::span<const std::uint8_t> input_key) {
  if (input_key.size() != instantiation.key_bytes)
    throw Error(
        PCRYPT_E_BAD_ARGUMENT,
        std::string(instantiation.name) + " needs a key of exactly " +
            std::to_string(instantiation.key_bytes) + " bytes, not " + std::to_string(input_key.size()),
        "a " + std::string(instantiation.name) + " key is " + std::to_string(instantiation.key_bytes) +
            " random bytes; the other Cobblestone format takes the other size");
}

KeyedPayload keyed(const Instantiation& instantiation, const Derived& derived, const aes::Engine& engine) {
  std::unique_ptr<aes::Gcm> gcm;
  try {
    gcm = aes::make_gcm_any(engine, derived.key.span());
  } catch (const std::invalid_argument& e) {
    throw Error(PCRYPT_E_UNKNOWN_ENGINE, std::string(instantiation.name) + ": " + e.what(),
                "choose another engine, or leave the choice to the library");
  }
  return KeyedPayload{payload_layout(),
                      ChunkCipher(gcm_aead(std::move(gcm)), XorNonce{derived.base_nonce, kMaxChunks})};
}

}  // namespace

PayloadLayout payload_layout() {
  return PayloadLayout{kChunkBytes, kHeaderBytes, FinalChunk::always_short, kMaxChunks};
}

Derived derive(const Instantiation& instantiation, std::span<const std::uint8_t> input_key,
               std::span<const std::uint8_t, kSaltBytes> salt, std::span<const std::uint8_t> context) {
  check_key(instantiation, input_key);
  std::vector<std::uint8_t> info(kInfoPrefix.begin(), kInfoPrefix.end());
  info.insert(info.end(), instantiation.aead_name.begin(), instantiation.aead_name.end());
  info.push_back(0x00);
  info.insert(info.end(), salt.begin(), salt.end());
  info.insert(info.end(), context.begin(), context.end());
  const std::size_t total = instantiation.key_bytes + kAeadNonceBytes + kCommitmentBytes;
  SecretBytes okm(total);
  hkdf_expand_sha512(input_key, info, okm.span());
  Derived d{SecretBytes(okm.span().first(instantiation.key_bytes)), {}, {}};
  const auto rest = okm.span().subspan(instantiation.key_bytes);
  std::copy_n(rest.begin(), kAeadNonceBytes, d.base_nonce.begin());
  std::copy_n(rest.begin() + kAeadNonceBytes, kCommitmentBytes, d.commitment.begin());
  return d;
}

KeyedPayload open_payload(const Instantiation& instantiation, std::span<const std::uint8_t> input_key,
                          std::span<const std::uint8_t> context,
                          std::span<const std::uint8_t, kHeaderBytes> header, const aes::Engine& engine) {
  const Derived d = derive(instantiation, input_key, header.first<kSaltBytes>(), context);
  if (sodium_memcmp(d.commitment.data(), header.data() + kSaltBytes, kCommitmentBytes) != 0)
    throw Error(PCRYPT_E_COMMITMENT_MISMATCH,
                "the key commitment does not match: wrong key or wrong context, or the file's first 56 bytes "
                "were modified",
                "the raw key and the context must both be the ones the file was encrypted with");
  return keyed(instantiation, d, engine);
}

NewMessage new_message(const Instantiation& instantiation, std::span<const std::uint8_t> input_key,
                       std::span<const std::uint8_t> context, const aes::Engine& engine) {
  check_key(instantiation, input_key);
  std::array<std::uint8_t, kSaltBytes> salt;
  randombytes_buf(salt.data(), salt.size());
  const Derived d = derive(instantiation, input_key, salt, context);
  NewMessage m{{}, keyed(instantiation, d, engine)};
  std::copy(salt.begin(), salt.end(), m.header.begin());
  std::copy(d.commitment.begin(), d.commitment.end(), m.header.begin() + kSaltBytes);
  return m;
}

}  // namespace pcrypt::core::cobblestone
