// Shared by the tests/test_pipeline*.cc executables: a keyed ChunkCipher and its payload codec, one-call
// seal/open, fault-injecting and counting streams, and a watchdog that turns a deadlock into a test failure
// instead of a hung suite.
#pragma once

#include <sodium.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/aes/engine.h"
#include "core/aes/sodium_init.h"
#include "core/error.h"
#include "core/payload.h"
#include "core/pipeline.h"
#include "io/memory_stream.h"
#include "io/stream.h"
#include "tests/test_bytes.h"

namespace pcrypt::test {

// A cipher under a fixed random key (per process), from the engine the product would pick.
inline const core::ChunkCipher& test_cipher() {
  static const core::ChunkCipher cipher = [] {
    require_sodium();
    const Bytes key = random_bytes(aes::kGcmKeyBytes);
    return core::ChunkCipher(aes::select_engine(),
                             std::span<const std::uint8_t, aes::kGcmKeyBytes>(key.data(), 32));
  }();
  return cipher;
}

// The payload codec over test_cipher(), for a payload at offset 0.
inline core::PayloadCodec codec(core::Direction direction, std::size_t chunk_size) {
  return core::PayloadCodec(direction, test_cipher(), core::PayloadLayout{chunk_size, 0});
}

inline core::PipelineConfig config(unsigned threads) {
  core::PipelineConfig c;
  c.threads = threads;
  return c;
}

inline Bytes seal(const Bytes& plain, std::size_t chunk_size, unsigned threads) {
  io::MemoryReader in(plain);
  io::MemoryWriter out;
  core::run_pipeline(codec(core::Direction::seal, chunk_size), in, out, config(threads));
  return out.data();
}

// What an open run produced: the bytes that reached the writer, and the error if it failed.
struct OpenResult {
  Bytes written;
  std::optional<core::Error> error;
};

inline OpenResult open(const Bytes& sealed, std::size_t chunk_size, unsigned threads) {
  io::MemoryReader in(sealed);
  io::MemoryWriter out;
  OpenResult r;
  try {
    core::run_pipeline(codec(core::Direction::open, chunk_size), in, out, config(threads));
  } catch (const core::Error& e) {
    r.error = e;
  }
  r.written = out.data();
  return r;
}

// Runs f on another thread and fails the test if it has not finished within a generous limit. It guards
// against deadlock, not slowness: a healthy run takes milliseconds.
template <typename F>
auto within_deadline(F&& f) {
  auto fut = std::async(std::launch::async, std::forward<F>(f));
  if (fut.wait_for(std::chrono::seconds(30)) != std::future_status::ready) {
    // Throwing would block forever in the future's destructor, so end the process: ctest reports the failure.
    std::fputs("FATAL: pipeline did not finish within 30 s (deadlock)\n", stderr);
    std::abort();
  }
  return fut.get();
}

// Serves bytes from memory and throws IoError(err) once a read would cross byte `fail_at`.
class FaultyReader final : public io::Reader {
 public:
  FaultyReader(std::span<const std::uint8_t> data, std::size_t fail_at, int err)
      : data_(data), fail_at_(fail_at), err_(err) {}
  std::size_t read(std::uint8_t* buf, std::size_t n) override {
    if (pos_ + n > fail_at_) throw io::IoError("read failed", err_);
    const std::size_t take = std::min(n, data_.size() - pos_);
    if (take != 0) std::memcpy(buf, data_.data() + pos_, take);
    pos_ += take;
    bytes_read += take;
    return take;
  }
  std::string name() const override { return "faulty-input"; }
  std::atomic<std::uint64_t> bytes_read{0};

 private:
  std::span<const std::uint8_t> data_;
  std::size_t pos_ = 0;
  std::size_t fail_at_;
  int err_;
};

// Accepts `good_writes` write() calls (one per chunk), then throws IoError(err) on every later one.
class FaultyWriter final : public io::Writer {
 public:
  FaultyWriter(std::size_t good_writes, int err) : good_writes_(good_writes), err_(err) {}
  void write(const std::uint8_t* buf, std::size_t n) override {
    if (writes_ == good_writes_) throw io::IoError("write failed", err_);
    ++writes_;
    data.insert(data.end(), buf, buf + n);
  }
  void commit() override { committed = true; }
  std::string name() const override { return "faulty-output"; }
  Bytes data;
  bool committed = false;

 private:
  std::size_t writes_ = 0;
  std::size_t good_writes_;
  int err_;
};

inline std::string message_of(const std::optional<core::Error>& e) {
  return e ? e->what() : std::string();
}

}  // namespace pcrypt::test
