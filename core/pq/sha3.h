// FIPS 202 hashes for ML-KEM and X-Wing, computed by OpenSSL 3.0's EVP (Keccak in OpenSSL's constant-time
// assembly): SHA3-256 (H), SHA3-512 (G), SHAKE-256 (J, PRF) and SHAKE-128 (the XOF of SampleNTT).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>

namespace pcrypt::pq::sha3 {

using Bytes = std::span<const std::uint8_t>;

// Each hashes the concatenation of `parts` into `out` (SHA3: exactly 32 / 64 bytes; SHAKE: any length).
void sha3_256(std::initializer_list<Bytes> parts, std::span<std::uint8_t, 32> out);
void sha3_512(std::initializer_list<Bytes> parts, std::span<std::uint8_t, 64> out);
void shake256(std::initializer_list<Bytes> parts, std::span<std::uint8_t> out);
void shake128(std::initializer_list<Bytes> parts, std::span<std::uint8_t> out);

// A SHAKE-128 or SHAKE-256 stream read in pieces. OpenSSL 3.0 can finalise an XOF only once
// (EVP_DigestSqueeze came in 3.3), so the absorbed state is kept and a longer output is recomputed from a
// copy of it whenever a read goes past what was squeezed: SHAKE's output of length L is a prefix of its
// output of any length > L (FIPS 202 §6.2), so the stream is the same as one continuous squeeze.
class XofStream {
 public:
  enum class Kind { shake128, shake256 };
  // `first_squeeze` bytes are produced up front; reads beyond them double the buffer.
  XofStream(Kind kind, std::initializer_list<Bytes> parts, std::size_t first_squeeze);
  ~XofStream();
  XofStream(const XofStream&) = delete;
  XofStream& operator=(const XofStream&) = delete;

  // The next out.size() bytes of the stream.
  void read(std::span<std::uint8_t> out);
  // How many bytes the stream had to compute so far (tests check the long path is taken).
  std::size_t squeezed() const { return size_; }

 private:
  void grow(std::size_t at_least);
  struct State;
  std::unique_ptr<State> state_;
  std::unique_ptr<std::uint8_t[]> buffer_;
  std::size_t size_ = 0;
  std::size_t pos_ = 0;
};

}  // namespace pcrypt::pq::sha3
