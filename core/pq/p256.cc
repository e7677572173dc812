// See p256.h. Keys are built with EVP_PKEY_fromdata (no deprecated EC_KEY calls); the ephemeral private key
// never leaves OpenSSL, which clears it when the key is freed.
#include "core/pq/p256.h"

#include <openssl/core_names.h>
#include <openssl/evp.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

namespace pcrypt::pq::p256 {
namespace {

struct KeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct CtxFree {
  void operator()(EVP_PKEY_CTX* c) const { EVP_PKEY_CTX_free(c); }
};
using Key = std::unique_ptr<EVP_PKEY, KeyFree>;
using Ctx = std::unique_ptr<EVP_PKEY_CTX, CtxFree>;

[[noreturn]] void fail(const char* what) {
  throw std::runtime_error(std::string("OpenSSL P-256: ") + what + " failed");
}

// A public key object from an encoded point, or null if OpenSSL rejects the encoding.
Key public_key(std::span<const std::uint8_t> encoded) {
  char group[] = "P-256";
  const OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, group, 0),
      OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, const_cast<std::uint8_t*>(encoded.data()),
                                        encoded.size()),
      OSSL_PARAM_construct_end()};
  Ctx ctx(EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr));
  if (!ctx || EVP_PKEY_fromdata_init(ctx.get()) <= 0) fail("EVP_PKEY_fromdata_init");
  EVP_PKEY* key = nullptr;
  if (EVP_PKEY_fromdata(ctx.get(), &key, EVP_PKEY_PUBLIC_KEY, const_cast<OSSL_PARAM*>(params)) <= 0)
    return nullptr;
  return Key(key);
}

Point uncompressed(EVP_PKEY* key) {
  if (EVP_PKEY_set_utf8_string_param(key, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT,
                                     OSSL_PKEY_EC_POINT_CONVERSION_FORMAT_UNCOMPRESSED) <= 0)
    fail("setting the point format");
  Point out{};
  std::size_t len = 0;
  if (EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, out.data(), out.size(),
                                      &len) <= 0 ||
      len != out.size() || out[0] != 0x04)
    fail("encoding the public key");
  return out;
}

}  // namespace

std::optional<Point> decode_point(std::span<const std::uint8_t> encoded) {
  const bool compressed = encoded.size() == compressed_size && (encoded[0] == 0x02 || encoded[0] == 0x03);
  const bool full = encoded.size() == uncompressed_size && encoded[0] == 0x04;
  if (!compressed && !full) return std::nullopt;
  Key key = public_key(encoded);
  if (!key) return std::nullopt;
  // SP 800-56A full public-key validation: on the curve, not infinity, in the right subgroup.
  Ctx check(EVP_PKEY_CTX_new_from_pkey(nullptr, key.get(), nullptr));
  if (!check) fail("EVP_PKEY_CTX_new_from_pkey");
  if (EVP_PKEY_public_check(check.get()) != 1) return std::nullopt;
  const Point out = uncompressed(key.get());
  if (full && !std::equal(out.begin(), out.end(), encoded.begin())) return std::nullopt;
  return out;
}

void ephemeral_agree(const Point& peer, std::span<std::uint8_t, uncompressed_size> ephemeral_public,
                     std::span<std::uint8_t, secret_size> shared_x) {
  Key peer_key = public_key(peer);
  if (!peer_key) fail("decoding the peer key");
  Key eph(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"));
  if (!eph) fail("EVP_PKEY_Q_keygen");
  const Point pub = uncompressed(eph.get());
  std::copy(pub.begin(), pub.end(), ephemeral_public.begin());
  Ctx derive(EVP_PKEY_CTX_new_from_pkey(nullptr, eph.get(), nullptr));
  std::size_t len = shared_x.size();
  if (!derive || EVP_PKEY_derive_init(derive.get()) <= 0 ||
      EVP_PKEY_derive_set_peer(derive.get(), peer_key.get()) <= 0 ||
      EVP_PKEY_derive(derive.get(), shared_x.data(), &len) <= 0 || len != shared_x.size())
    fail("ECDH");
}

}  // namespace pcrypt::pq::p256
