// The throughput experiment's in-memory sinks: one keeps the ciphertext (it must be decrypted next), the
// other hashes the decrypted stream as it arrives so no second plaintext copy is ever held. Header-only
// (unit-tested).
#pragma once

#include <xxhash.h>

#include <cstdio>
#include <new>
#include <string>
#include <vector>

#include "io/stream.h"

namespace pcrypt::app::bench {

inline bool same_hash(const XXH128_hash_t& a, const XXH128_hash_t& b) {
  return XXH128_isEqual(a, b) != 0;
}

// Canonical (big-endian) hex, as `xxhsum -H2` prints it.
inline std::string to_hex(const XXH128_hash_t& h) {
  XXH128_canonical_t c;
  XXH128_canonicalFromHash(&c, h);
  std::string out;
  char buf[3];
  for (unsigned char byte : c.digest) {
    std::snprintf(buf, sizeof buf, "%02x", byte);
    out += buf;
  }
  return out;
}

// XXH3-128 of everything written, computed on the fly.
class HashingWriter final : public io::Writer {
 public:
  HashingWriter() : state_(XXH3_createState()) {
    if (state_ == nullptr) throw std::bad_alloc();
    XXH3_128bits_reset(state_);
  }
  ~HashingWriter() override { XXH3_freeState(state_); }
  HashingWriter(const HashingWriter&) = delete;
  HashingWriter& operator=(const HashingWriter&) = delete;

  void write(const std::uint8_t* buf, std::size_t n) override {
    XXH3_128bits_update(state_, buf, n);
    bytes_ += n;
  }
  void commit() override {}
  std::string name() const override { return "XXH3-128 hash"; }
  XXH128_hash_t digest() const { return XXH3_128bits_digest(state_); }
  std::uint64_t bytes() const { return bytes_; }

 private:
  XXH3_state_t* state_;
  std::uint64_t bytes_ = 0;
};

// Appends to a vector that keeps its capacity across runs (reserve once, clear() between runs), so the timed
// runs neither reallocate nor take page faults on fresh memory.
class ReusableBufferWriter final : public io::Writer {
 public:
  explicit ReusableBufferWriter(std::size_t capacity) { data_.reserve(capacity); }
  void write(const std::uint8_t* buf, std::size_t n) override { data_.insert(data_.end(), buf, buf + n); }
  void commit() override {}
  std::string name() const override { return "memory"; }
  void clear() { data_.clear(); }
  const std::vector<std::uint8_t>& data() const { return data_; }

 private:
  std::vector<std::uint8_t> data_;
};

}  // namespace pcrypt::app::bench
