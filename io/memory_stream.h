// In-memory streams: the bench's source/sink and the tests' inputs and outputs.
#pragma once

#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

#include "io/stream.h"

namespace pcrypt::io {

// Whether an in-memory stream offers random access (positional()), like a regular file, or only sequential
// access, like a pipe: tests run the pipeline both ways.
enum class MemoryAccess { sequential, positional };

// Reads from caller-owned bytes (which must outlive the reader).
class MemoryReader final : public Reader, public PositionalReader {
 public:
  explicit MemoryReader(std::span<const std::uint8_t> data, MemoryAccess access = MemoryAccess::sequential)
      : data_(data), access_(access) {}
  std::size_t read(std::uint8_t* buf, std::size_t n) override;
  std::string name() const override { return "memory"; }
  PositionalReader* positional() override { return access_ == MemoryAccess::positional ? this : nullptr; }

  std::uint64_t size() const override { return data_.size(); }
  std::size_t read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t n) const override;
  std::uint64_t position() const override { return pos_; }
  void seek(std::uint64_t offset) override;

 private:
  std::span<const std::uint8_t> data_;
  std::size_t pos_ = 0;
  MemoryAccess access_;
};

// Appends to an owned vector (or, positionally, writes anywhere in it, growing it with zeros); commit() just
// records that it happened.
class MemoryWriter final : public Writer, public PositionalWriter {
 public:
  explicit MemoryWriter(MemoryAccess access = MemoryAccess::sequential) : access_(access) {}
  void write(const std::uint8_t* buf, std::size_t n) override;
  void commit() override { committed_ = true; }
  std::string name() const override { return "memory"; }
  PositionalWriter* positional() override { return access_ == MemoryAccess::positional ? this : nullptr; }

  void write_at(std::uint64_t offset, const std::uint8_t* buf, std::size_t n) override;
  std::uint64_t position() const override { return pos_; }
  void seek(std::uint64_t offset) override { pos_ = offset; }

  // Not while a run is writing.
  const std::vector<std::uint8_t>& data() const { return data_; }
  bool committed() const { return committed_; }

 private:
  std::mutex mu_;  // write_at() may come from several threads
  std::vector<std::uint8_t> data_;
  std::uint64_t pos_ = 0;
  bool committed_ = false;
  MemoryAccess access_;
};

// Counts and discards (the bench's /dev/null that never leaves the process).
class NullWriter final : public Writer {
 public:
  void write(const std::uint8_t*, std::size_t n) override { bytes_ += n; }
  void commit() override {}
  std::string name() const override { return "null"; }
  std::uint64_t bytes() const { return bytes_; }

 private:
  std::uint64_t bytes_ = 0;
};

// An output that keeps nothing, for verifying. It offers positional writes (to nowhere), so the pipeline's
// workers "write" each record themselves as soon as it is authenticated and return its buffer at once: the
// calling thread only counts, which is why verify is at least as fast as decrypt to /dev/null.
class DiscardWriter final : public Writer, public PositionalWriter {
 public:
  void write(const std::uint8_t*, std::size_t n) override { position_ += n; }
  void commit() override {}
  std::string name() const override { return "nowhere (verify)"; }
  PositionalWriter* positional() override { return this; }
  void write_at(std::uint64_t, const std::uint8_t*, std::size_t) override {}
  std::uint64_t position() const override { return position_; }
  void seek(std::uint64_t offset) override { position_ = offset; }

 private:
  std::uint64_t position_ = 0;
};

}  // namespace pcrypt::io
