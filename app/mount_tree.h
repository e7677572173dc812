// What `pcrypt mount` shows: SOURCE read once, at mount time, into a tree of folders and encrypted files,
// each file opened, unlocked and sized then (so a passphrase is asked for before mounting, and every file
// the credentials cannot open is named on standard error once, before the mount is ready), then closed: the
// mount holds a file's descriptor only while the file is open through it (SourceFile), so any number of files
// can be shown under any descriptor limit. The tree does not follow later changes to SOURCE: a file changed
// or replaced since is refused when opened (ESTALE).
//
// Shown: folders, and regular files named *.age or *.pcrypt under their plaintext names
// (app/mount_names.h), read-only, with the plaintext's size and the encrypted file's owner, times and read
// permissions. Not shown: other files, symbolic links, devices, FIFOs and sockets. A file that cannot be
// opened is shown with mode 000 and size 0, and open(2) fails with EACCES (the credentials do not open it),
// EOPNOTSUPP (ASCII-armored age: its offsets are not the payload's, so it cannot be read by ranges) or EIO
// (a damaged header, a read error).
#pragma once

#include <sys/stat.h>

#include <pcrypt/pcrypt.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "app/cli.h"
#include "app/credentials.h"
#include "app/crypt_options.h"
#include "app/endpoints.h"
#include "app/mount_cli.h"

namespace pcrypt::app {

// The descriptors the mount's encrypted files may hold at once: the descriptor limit less those open when the
// mount starts serving and a reserve for FUSE and the error path (a log line, the kernel's read-ahead
// setting, unmounting). Past it, open(2) of a file of the mount gets EMFILE.
class DescriptorBudget {
 public:
  void set_limit(std::size_t descriptors) { limit_ = descriptors; }
  std::size_t limit() const { return limit_; }
  bool take();
  void give_back() { --in_use_; }
  std::size_t in_use() const { return in_use_; }

 private:
  std::atomic<std::size_t> in_use_{0};
  std::atomic<std::size_t> limit_{SIZE_MAX};  // none until the mount is up: files are opened one at a time
};

// An encrypted file of SOURCE, open only while held: on the first open(2) of it through the mount, closed
// when the last handle is released (Held), one descriptor however many handles. At every open(2) it must
// still be the file unlocked at mount time (same device, inode, size and modification time, by its path and,
// when already held, by its descriptor), else ESTALE: so what the kernel keeps of it in its page cache from
// earlier opens (keep_cache) is the same file's.
class SourceFile {
 public:
  struct Descriptor;
  using Held = std::shared_ptr<const Descriptor>;

  // `path`: absolute (the mount's process works in "/"); `name`: as the user gave it, for messages.
  SourceFile(std::string path, std::string name, const struct stat& st, DescriptorBudget& budget);
  SourceFile(const SourceFile&) = delete;
  SourceFile& operator=(const SourceFile&) = delete;

  // The file's descriptor, opened if no one holds it. Throws pcrypt::Error (io) with the errno open(2) of
  // the mount gives: EMFILE past the budget or the limit, ESTALE for a file changed since mounting.
  Held hold();
  // The file as a pcrypt::Source (read through the descriptor held at the time of each read); it must
  // outlive the File reading it.
  Source source();

 private:
  std::size_t read_at(std::uint64_t offset, std::span<std::uint8_t> out);
  std::string path_;
  std::string name_;
  struct stat identity_ {};
  DescriptorBudget& budget_;
  std::mutex mutex_;
  std::weak_ptr<const Descriptor> held_;  // under mutex_
};

// An encrypted file, unlocked for the life of the mount, its descriptor open only while it is held.
struct OpenedFile {
  std::unique_ptr<SourceFile> source;
  std::unique_ptr<DecryptionInput> opened;  // reads `source`
  std::uint64_t plaintext_size = 0;
  std::size_t record_size = 0;  // plaintext bytes per record
  const File& file() const { return opened->file(); }
};

struct MountEntry {
  bool directory = false;
  struct stat shown {};
  int open_error = 0;  // 0: readable; else the errno open(2) gets
  std::string source_path;
  std::unique_ptr<OpenedFile> opened;                        // readable files
  std::map<std::string, std::size_t, std::less<>> children;  // folders: shown name -> entry index
};

class MountTree {
 public:
  // Reads SOURCE (args.source): a folder, or one encrypted file (shown alone at the mount's root). One file
  // that cannot be opened is an error (thrown, as decrypt would throw it); in a folder, it is said on
  // standard error and shown unreadable. Asks for the passphrase (once) when a file needs it.
  static MountTree read(const MountArgs& args, const DecryptChoices& choices);

  // The entry at a path of the mount ("/", "/a/b"), or nullptr.
  const MountEntry* find(std::string_view path) const;
  const MountEntry& at(std::size_t index) const { return entries_[index]; }
  std::size_t size() const { return entries_.size(); }
  std::size_t files() const { return files_; }
  std::size_t unreadable() const { return unreadable_; }
  DescriptorBudget& descriptors() const { return *budget_; }

 private:
  MountTree() = default;
  std::size_t add_folder(const std::string& path, const struct stat& st, const MountArgs& args,
                         const DecryptChoices& choices);
  std::size_t add_file(const std::string& path, const struct stat& st, const MountArgs& args,
                       const DecryptChoices& choices, bool alone);
  std::unique_ptr<DecryptionKeys> keys_;  // read once for all the files (a passphrase asked once)
  std::string working_directory_;         // where relative paths of SOURCE start, with a final '/'
  std::unique_ptr<DescriptorBudget> budget_ = std::make_unique<DescriptorBudget>();
  std::vector<MountEntry> entries_;  // [0]: the root
  std::size_t files_ = 0;
  std::size_t unreadable_ = 0;
};

}  // namespace pcrypt::app
