// In-memory streams: the bench's source/sink and the tests' inputs and outputs.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "io/stream.h"

namespace pcrypt::io {

// Reads from caller-owned bytes (which must outlive the reader).
class MemoryReader final : public Reader {
 public:
  explicit MemoryReader(std::span<const std::uint8_t> data) : data_(data) {}
  std::size_t read(std::uint8_t* buf, std::size_t n) override;
  std::string name() const override { return "memory"; }

 private:
  std::span<const std::uint8_t> data_;
  std::size_t pos_ = 0;
};

// Appends to an owned vector; commit() just records that it happened.
class MemoryWriter final : public Writer {
 public:
  void write(const std::uint8_t* buf, std::size_t n) override;
  void commit() override { committed_ = true; }
  std::string name() const override { return "memory"; }
  const std::vector<std::uint8_t>& data() const { return data_; }
  bool committed() const { return committed_; }

 private:
  std::vector<std::uint8_t> data_;
  bool committed_ = false;
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

}  // namespace pcrypt::io
