// Output files that appear complete or not at all.
//
// Data goes to a temporary file next to the target (same directory, so the final rename is atomic), named
// ".<base>.pcrypt-tmp-XXXXXX" and created 0600. commit() fsyncs it, renames it over the target and fsyncs the
// directory, so after a crash the target is either the old file (or absent) or the whole new one. Without
// commit() (an error, an exception) the destructor removes the temporary; on SIGINT/SIGTERM/SIGHUP the
// io/cleanup.h handler does. Output files are therefore always created with mode 0600.
#pragma once

#include <string>

#include "io/stream.h"

namespace pcrypt::io {

class AtomicFileWriter final : public Writer, public PositionalWriter {
 public:
  // Without force, refuses (IoError with errno EEXIST, "output file exists (PATH)") if the target exists now,
  // and again, atomically, at commit: a file created meanwhile by someone else is never clobbered. With
  // force, commit replaces the target. Throws IoError if the temporary cannot be created.
  AtomicFileWriter(std::string path, bool force);
  ~AtomicFileWriter() override;
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  void write(const std::uint8_t* buf, std::size_t n) override;
  void commit() override;
  std::string name() const override { return path_; }  // the target, which is what the user named
  // Nobody sees the temporary before commit(), so writes may land in any order (pwrite).
  PositionalWriter* positional() override { return this; }
  void write_at(std::uint64_t offset, const std::uint8_t* buf, std::size_t n) override;
  std::uint64_t position() const override;
  void seek(std::uint64_t offset) override;
  const std::string& temp_path() const { return temp_path_; }

 private:
  void publish();
  void discard() noexcept;

  std::string path_;
  std::string temp_path_;
  bool force_;
  int fd_ = -1;
  int cleanup_slot_ = -1;
  bool committed_ = false;
};

// The IoError message for a refused existing target; exposed so callers can recognise or reproduce it.
std::string output_exists_message(const std::string& path);

}  // namespace pcrypt::io
