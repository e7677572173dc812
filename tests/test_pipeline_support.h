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
#include <mutex>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "core/aes/engine.h"
#include "core/aes/sodium_init.h"
#include "core/error.h"
#include "core/pipeline.h"
#include "core/records.h"
#include "io/memory_stream.h"
#include "io/stream.h"
#include "tests/test_bytes.h"

namespace pcrypt::test {

// A cipher under a fixed random key (per process), from the engine the product would pick.
inline const core::ChunkCipher& test_cipher() {
  static const core::ChunkCipher cipher = [] {
    require_sodium();
    const Bytes key = random_bytes(aes::kGcmKeyBytes);
    return core::ChunkCipher(core::gcm_aead(
        aes::select_engine().make_gcm(std::span<const std::uint8_t, aes::kGcmKeyBytes>(key.data(), 32))));
  }();
  return cipher;
}

// The payload codec over test_cipher(), for a payload at offset 0.
inline core::PayloadCodec codec(core::Direction direction, std::size_t chunk_size) {
  return core::PayloadCodec(direction, test_cipher(), core::PayloadLayout{chunk_size, 0});
}

// The product's default unit of work (PipelineConfig::item_bytes, about 1 MiB: with the small chunks of
// most tests, a whole test input is one or a few items of many records), or item_bytes to choose it (0: one
// record per item, the pipeline's mechanics record by record).
inline core::PipelineConfig config(unsigned threads, std::size_t item_bytes = core::kPipelineItemBytes) {
  core::PipelineConfig c;
  c.threads = threads;
  c.item_bytes = item_bytes;
  return c;
}

// How the pipeline meets its streams: sequentially on both sides (pipes), or with random access to the input
// and/or the output (regular files), where workers read and write their own records. Every behaviour must be
// the same on all four.
struct Paths {
  io::MemoryAccess in = io::MemoryAccess::sequential;
  io::MemoryAccess out = io::MemoryAccess::sequential;
};
inline constexpr Paths kAllPaths[] = {
    {io::MemoryAccess::sequential, io::MemoryAccess::sequential},
    {io::MemoryAccess::positional, io::MemoryAccess::sequential},
    {io::MemoryAccess::sequential, io::MemoryAccess::positional},
    {io::MemoryAccess::positional, io::MemoryAccess::positional},
};
inline const char* access_name(io::MemoryAccess a) {
  return a == io::MemoryAccess::positional ? "positional" : "sequential";
}
inline std::ostream& operator<<(std::ostream& os, const Paths& p) {
  return os << access_name(p.in) << " input, " << access_name(p.out) << " output";
}

inline Bytes seal(const Bytes& plain, std::size_t chunk_size, unsigned threads, Paths paths = {},
                  std::size_t item_bytes = core::kPipelineItemBytes) {
  io::MemoryReader in(plain, paths.in);
  io::MemoryWriter out(paths.out);
  core::run_pipeline(codec(core::Direction::seal, chunk_size), in, out, config(threads, item_bytes));
  return out.data();
}

// What an open run produced: the bytes that reached the writer, and the error if it failed.
struct OpenResult {
  Bytes written;
  std::optional<core::Error> error;
};

inline OpenResult open(const Bytes& sealed, std::size_t chunk_size, unsigned threads, Paths paths = {},
                       std::size_t item_bytes = core::kPipelineItemBytes) {
  io::MemoryReader in(sealed, paths.in);
  io::MemoryWriter out(paths.out);
  OpenResult r;
  try {
    core::run_pipeline(codec(core::Direction::open, chunk_size), in, out, config(threads, item_bytes));
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

// Serves bytes from memory and throws IoError(err) once a read would cross byte `fail_at`; with positional
// access, also from read_at() (as a regular file would).
class FaultyReader final : public io::Reader, public io::PositionalReader {
 public:
  FaultyReader(std::span<const std::uint8_t> data, std::size_t fail_at, int err,
               io::MemoryAccess access = io::MemoryAccess::sequential)
      : data_(data), fail_at_(fail_at), err_(err), access_(access) {}
  std::size_t read(std::uint8_t* buf, std::size_t n) override {
    const std::size_t take = read_at(pos_, buf, n);
    pos_ += take;
    return take;
  }
  std::string name() const override { return "faulty-input"; }
  io::PositionalReader* positional() override {
    return access_ == io::MemoryAccess::positional ? this : nullptr;
  }
  std::uint64_t size() const override { return data_.size(); }
  std::size_t read_at(std::uint64_t offset, std::uint8_t* buf, std::size_t n) const override {
    if (offset + n > fail_at_) throw io::IoError("read failed", err_);
    const std::size_t take = offset >= data_.size() ? 0 : std::min<std::uint64_t>(n, data_.size() - offset);
    if (take != 0) std::memcpy(buf, data_.data() + offset, take);
    bytes_read += take;
    return take;
  }
  std::uint64_t position() const override { return pos_; }
  void seek(std::uint64_t offset) override { pos_ = offset; }
  mutable std::atomic<std::uint64_t> bytes_read{0};

 private:
  std::span<const std::uint8_t> data_;
  std::uint64_t pos_ = 0;
  std::size_t fail_at_;
  int err_;
  io::MemoryAccess access_;
};

// Accepts the first `good_writes` records, then throws IoError(err) on every later one: sequentially, the
// first good_writes write() calls (one per record); with positional access, the write_at() calls below offset
// good_writes * record_bytes (record_bytes: the output of a full record), in whatever order they come. `data`
// holds what was written where it was written.
class FaultyWriter final : public io::Writer, public io::PositionalWriter {
 public:
  FaultyWriter(std::size_t good_writes, int err, io::MemoryAccess access = io::MemoryAccess::sequential,
               std::size_t record_bytes = 0)
      : good_writes_(good_writes), err_(err), access_(access), record_bytes_(record_bytes) {}
  void write(const std::uint8_t* buf, std::size_t n) override {
    std::lock_guard lock(mu_);
    if (writes_ == good_writes_) throw io::IoError("write failed", err_);
    ++writes_;
    data.insert(data.end(), buf, buf + n);
  }
  void commit() override { committed = true; }
  std::string name() const override { return "faulty-output"; }
  io::PositionalWriter* positional() override {
    return access_ == io::MemoryAccess::positional ? this : nullptr;
  }
  void write_at(std::uint64_t offset, const std::uint8_t* buf, std::size_t n) override {
    std::lock_guard lock(mu_);
    if (good_writes_ != SIZE_MAX && offset >= good_writes_ * record_bytes_)
      throw io::IoError("write failed", err_);
    if (data.size() < offset + n) data.resize(offset + n);
    if (n != 0) std::memcpy(data.data() + offset, buf, n);
  }
  std::uint64_t position() const override { return 0; }
  void seek(std::uint64_t) override {}
  Bytes data;
  bool committed = false;

 private:
  std::mutex mu_;
  std::size_t writes_ = 0;
  std::size_t good_writes_;
  int err_;
  io::MemoryAccess access_;
  std::size_t record_bytes_;
};

// What a failed run may leave in its output: "" if allowed, else what is wrong. `expected` is the whole
// correct output, in records of `record` bytes (the last may be shorter), and the first failure is at record
// `bad`. Written sequentially: a prefix of `expected` ending at or before record `bad`. Written positionally
// (only to an output nobody sees before commit, which a failed run never reaches): records that are correct
// at their own offsets and holes (zeros, never written), but nothing of record `bad` itself.
inline std::string failed_output_problem(const Bytes& written, const Bytes& expected, std::size_t record,
                                         std::size_t bad, io::MemoryAccess out) {
  if (out == io::MemoryAccess::sequential) {
    if (written.size() > bad * record) return "sequential output runs past the failed record";
    if (!std::equal(written.begin(), written.end(), expected.begin())) return "output is not a prefix";
    return "";
  }
  if (written.size() > expected.size()) return "positional output is longer than the whole output";
  for (std::size_t begin = 0; begin < written.size(); begin += record) {
    const std::size_t end = std::min(written.size(), begin + record);
    const bool hole =
        std::all_of(written.begin() + begin, written.begin() + end, [](auto b) { return b == 0; });
    if (begin / record == bad && !hole) return "the failed record was written";
    if (!hole && !std::equal(written.begin() + begin, written.begin() + end, expected.begin() + begin))
      return "record " + std::to_string(begin / record) + " is wrong";
  }
  return "";
}

inline std::string message_of(const std::optional<core::Error>& e) {
  return e ? e->what() : std::string();
}

}  // namespace pcrypt::test
