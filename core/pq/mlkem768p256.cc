// See mlkem768p256.h.
#include "core/pq/mlkem768p256.h"

#include "core/pq/mlkem768.h"
#include "core/pq/p256.h"
#include "core/pq/sha3.h"
#include "core/pq/wiped.h"

namespace pcrypt::pq::mlkem768p256 {
namespace {

constexpr std::uint8_t label[] = {'M', 'L', 'K', 'E', 'M', '7', '6', '8', '-', 'P', '2', '5', '6'};
static_assert(pq_key_size == mlkem768::encapsulation_key_size);
static_assert(pq_key_size + p256::uncompressed_size == public_key_size);
static_assert(mlkem768::ciphertext_size + p256::uncompressed_size == ciphertext_size);

}  // namespace

bool valid_public_key(std::span<const std::uint8_t, public_key_size> pk) {
  return mlkem768::encapsulation_key_valid(pk.first<pq_key_size>()) &&
         p256::decode_point(pk.last<p256::uncompressed_size>()).has_value();
}

bool encapsulate(std::span<const std::uint8_t, public_key_size> pk,
                 std::span<std::uint8_t, ciphertext_size> ct,
                 std::span<std::uint8_t, shared_secret_size> shared_secret) {
  const auto ek_t = pk.last<p256::uncompressed_size>();
  const auto point = p256::decode_point(ek_t);
  if (!point) return false;
  WipedBytes<32> ss_pq, ss_t;
  if (!mlkem768::encaps(pk.first<pq_key_size>(), ct.first<mlkem768::ciphertext_size>(), ss_pq.span()))
    return false;
  const auto ct_t = ct.last<p256::uncompressed_size>();
  p256::ephemeral_agree(*point, ct_t, ss_t.span());
  sha3::sha3_256({ss_pq.span(), ss_t.span(), ct_t, ek_t, label}, shared_secret);
  return true;
}

}  // namespace pcrypt::pq::mlkem768p256
