// Output files that appear complete or not at all, even after a power cut.
//
// Data goes to a temporary file in the target's directory (so publishing it is atomic), created 0600
// whatever the umask, and given its final mode (Permissions) before any data is written. Where the file
// system supports it (ext4, xfs, btrfs, tmpfs, ...), the temporary is an O_TMPFILE: it has no name until
// commit() links it in, so even a SIGKILL or a crash leaves nothing behind. Elsewhere it is a hidden
// ".<base>.pcrypt-tmp-XXXXXX", with <base> shortened so the name fits NAME_MAX (any legal output name works);
// the io/cleanup.h handler removes it on SIGINT/SIGTERM/SIGHUP and the destructor on an error. One that a
// power cut or SIGKILL left is removed by the next writer of the same target: a live writer holds an flock
// on its temporary, so one nobody holds is abandoned. commit() fsyncs the data, opens and fsyncs the
// directory (one that cannot be synced, EINVAL included, is refused while the target is untouched), publishes
// the file (without force: atomically never over an existing file; with force: by a rename over the target,
// through a short-lived hidden name for an O_TMPFILE) and fsyncs the directory again, so after a crash the
// target is either the old file (or absent) or the whole new one, and once commit() returns the new one
// survives a crash. A failed fsync is an IoError, never a success; if it is the last one, the new name is
// taken back where nothing was replaced. With -f, the new file has its own mode, not the replaced file's.
#pragma once

#include <sys/types.h>

#include <string>

#include "io/stream.h"

namespace pcrypt::io {

// How the temporary is made: unnamed (O_TMPFILE) where possible, or always named (tests of the fallback).
enum class TempFile { unnamed_if_supported, named };

// The published file's mode. owner_only: 0600 exactly, whatever the umask (secrets: key files, and
// ciphertext, which pcrypt keeps private by default); umask: 0666 & ~umask, as any program creating a plain
// file (decrypted data: what cp, age or gpg would give it); same_as_target: the owner, group and mode of the
// file being replaced (an in-place rewrite such as rekey keeps them, as `sed -i` does), set on the temporary
// before any data is written. Where they cannot be kept (fchown not permitted), the constructor refuses with
// an IoError naming them, before anything is written; a target that does not exist gets owner_only.
enum class Permissions { owner_only, umask, same_as_target };

class AtomicFileWriter final : public Writer, public PositionalWriter {
 public:
  // Without force, refuses (IoError with errno EEXIST, "output file exists (PATH)") if the target exists now,
  // and again, atomically, at commit: a file created meanwhile by someone else is never clobbered. With
  // force, commit replaces the target, but only a regular file (or a symlink to one that does not lead
  // through /dev or /proc): anything else is refused (EEXIST) when opening and again at commit. Throws
  // IoError if the temporary cannot be created.
  AtomicFileWriter(std::string path, bool force, TempFile temp = TempFile::unnamed_if_supported,
                   Permissions permissions = Permissions::owner_only);
  ~AtomicFileWriter() override;
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  void write(const std::uint8_t* buf, std::size_t n) override;
  void commit() override;
  // commit() of data that whoever wrote it last has made durable already: libpcrypt's unpublished-file
  // sink (pcrypt::Sink::unpublished_file, which the CLI writes through) fsyncs the temporary as its last
  // act, so it is not fsynced a second time here. The rest is commit()'s, in its order: the directory
  // opened and synced, the file published, the directory synced again.
  void commit_synced();
  std::string name() const override { return path_; }  // the target, which is what the user named
  // Nobody sees the temporary before commit(), so writes may land in any order (pwrite).
  PositionalWriter* positional() override { return this; }
  void write_at(std::uint64_t offset, const std::uint8_t* buf, std::size_t n) override;
  std::uint64_t position() const override;
  void seek(std::uint64_t offset) override;
  // The hidden temporary's path, or "" while the temporary is unnamed (O_TMPFILE).
  const std::string& temp_path() const { return temp_path_; }
  // The temporary's descriptor until commit (io::copy_range writes through it), else -1.
  int fd() const { return fd_; }
  int file_descriptor() const override { return fd_; }

 private:
  void commit(bool sync_data);
  void publish();
  void publish_unnamed();
  void discard() noexcept;

  std::string path_;
  std::string temp_path_;  // "" for an O_TMPFILE
  bool force_;
  int fd_ = -1;
  int cleanup_slot_ = -1;
  bool committed_ = false;
};

// The process's umask, read without changing it where /proc allows (umask(2) can only read it by setting it,
// which would race with files other threads create at that moment).
mode_t current_umask();

// The IoError message for a refused existing target; exposed so callers can recognise or reproduce it.
std::string output_exists_message(const std::string& path);

}  // namespace pcrypt::io
