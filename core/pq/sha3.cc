// OpenSSL EVP calls behind core/pq/sha3.h. The EVP_MD objects are fetched once (an implicit fetch on every
// EVP_DigestInit_ex costs a lock and a lookup, which would dominate the small hashes ML-KEM makes).
#include "core/pq/sha3.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>

namespace pcrypt::pq::sha3 {
namespace {

enum class Md { sha3_256, sha3_512, shake128, shake256 };

const EVP_MD* md(Md which) {
  static EVP_MD* const table[] = {
      EVP_MD_fetch(nullptr, "SHA3-256", nullptr), EVP_MD_fetch(nullptr, "SHA3-512", nullptr),
      EVP_MD_fetch(nullptr, "SHAKE128", nullptr), EVP_MD_fetch(nullptr, "SHAKE256", nullptr)};
  const EVP_MD* m = table[static_cast<int>(which)];
  if (m == nullptr) throw std::runtime_error("OpenSSL lacks SHA-3 (libcrypto 3.0 provides it)");
  return m;
}

struct CtxDeleter {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
using Ctx = std::unique_ptr<EVP_MD_CTX, CtxDeleter>;

void check(int ok) {
  if (ok != 1) throw std::runtime_error("OpenSSL SHA-3 call failed");
}

Ctx absorb(Md which, std::initializer_list<Bytes> parts) {
  Ctx ctx(EVP_MD_CTX_new());
  if (!ctx) throw std::bad_alloc();
  check(EVP_DigestInit_ex(ctx.get(), md(which), nullptr));
  for (Bytes p : parts) check(EVP_DigestUpdate(ctx.get(), p.data(), p.size()));
  return ctx;
}

void fixed(Md which, std::initializer_list<Bytes> parts, std::span<std::uint8_t> out) {
  Ctx ctx = absorb(which, parts);
  unsigned int n = 0;
  check(EVP_DigestFinal_ex(ctx.get(), out.data(), &n));
  if (n != out.size()) throw std::runtime_error("OpenSSL SHA-3 output length");
}

void xof(Md which, std::initializer_list<Bytes> parts, std::span<std::uint8_t> out) {
  Ctx ctx = absorb(which, parts);
  check(EVP_DigestFinalXOF(ctx.get(), out.data(), out.size()));
}

}  // namespace

void sha3_256(std::initializer_list<Bytes> parts, std::span<std::uint8_t, 32> out) {
  fixed(Md::sha3_256, parts, out);
}
void sha3_512(std::initializer_list<Bytes> parts, std::span<std::uint8_t, 64> out) {
  fixed(Md::sha3_512, parts, out);
}
void shake256(std::initializer_list<Bytes> parts, std::span<std::uint8_t> out) {
  xof(Md::shake256, parts, out);
}
void shake128(std::initializer_list<Bytes> parts, std::span<std::uint8_t> out) {
  xof(Md::shake128, parts, out);
}

struct XofStream::State {
  Ctx absorbed;
};

XofStream::XofStream(Kind kind, std::initializer_list<Bytes> parts, std::size_t first_squeeze)
    : state_(new State{absorb(kind == Kind::shake128 ? Md::shake128 : Md::shake256, parts)}) {
  grow(first_squeeze);
}

XofStream::~XofStream() = default;

void XofStream::grow(std::size_t at_least) {
  const std::size_t size = std::max(at_least, 2 * size_);
  std::unique_ptr<std::uint8_t[]> bigger(new std::uint8_t[size]);
  Ctx copy(EVP_MD_CTX_new());
  if (!copy) throw std::bad_alloc();
  check(EVP_MD_CTX_copy_ex(copy.get(), state_->absorbed.get()));
  check(EVP_DigestFinalXOF(copy.get(), bigger.get(), size));
  buffer_ = std::move(bigger);
  size_ = size;
}

void XofStream::read(std::span<std::uint8_t> out) {
  if (pos_ + out.size() > size_) grow(pos_ + out.size());
  std::memcpy(out.data(), buffer_.get() + pos_, out.size());
  pos_ += out.size();
}

}  // namespace pcrypt::pq::sha3
