// The throughput experiment's in-memory sinks: a reusable buffer for the ciphertext and the plaintext, and a
// hasher for a stream (the file runs hash what they read back). Header-only (unit-tested).
#pragma once

#include <xxhash.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>
#include <span>
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

// The in-memory output of a throughput run: a buffer allocated and touched once (so timed runs neither
// reallocate nor take page faults on fresh memory) and reused by clear(). It offers positional writes, as the
// atomic output file does, so the pipeline's workers copy their records into place in parallel instead of the
// calling thread copying everything in order -- the memory counterpart of pwrite into a regular file.
class ReusableBufferWriter final : public io::Writer, public io::PositionalWriter {
 public:
  explicit ReusableBufferWriter(std::size_t capacity) : data_(capacity) {}
  ReusableBufferWriter(const ReusableBufferWriter&) = delete;
  ReusableBufferWriter& operator=(const ReusableBufferWriter&) = delete;

  void write(const std::uint8_t* buf, std::size_t n) override {
    write_at(pos_, buf, n);
    pos_ += n;
  }
  void commit() override {}
  std::string name() const override { return "memory"; }
  PositionalWriter* positional() override { return this; }

  // From any number of threads at once, at disjoint ranges.
  void write_at(std::uint64_t offset, const std::uint8_t* buf, std::size_t n) override {
    if (offset > data_.size() || n > data_.size() - offset)
      throw io::IoError("memory: write past the buffer's " + std::to_string(data_.size()) + " bytes", ENOSPC);
    if (n != 0) std::memcpy(data_.data() + offset, buf, n);
    std::uint64_t end = end_.load(std::memory_order_relaxed);
    while (end < offset + n && !end_.compare_exchange_weak(end, offset + n, std::memory_order_relaxed)) {
    }
  }
  std::uint64_t position() const override { return pos_; }
  void seek(std::uint64_t offset) override { pos_ = offset; }

  void clear() {
    pos_ = 0;
    end_ = 0;
  }
  // Everything up to the furthest byte written. Not while a run is writing.
  std::span<const std::uint8_t> data() const { return {data_.data(), static_cast<std::size_t>(end_.load())}; }

 private:
  std::vector<std::uint8_t> data_;
  std::uint64_t pos_ = 0;              // the sequential position (the calling thread's)
  std::atomic<std::uint64_t> end_{0};  // furthest byte written, from any thread
};

}  // namespace pcrypt::app::bench
