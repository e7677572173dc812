// What `pcrypt mount` shows: SOURCE read once, at mount time, into a tree of folders and encrypted files,
// each file opened, unlocked and sized then (so a passphrase is asked for before mounting, and every file
// the credentials cannot open is named on standard error once, before the mount is ready). The tree does
// not follow later changes to SOURCE.
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

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "app/cli.h"
#include "app/credentials.h"
#include "app/crypt_options.h"
#include "app/endpoints.h"
#include "app/mount_cli.h"

namespace pcrypt::app {

// An encrypted file, open and unlocked for the life of the mount (one descriptor each).
struct OpenedFile {
  Input input;
  std::unique_ptr<DecryptionInput> opened;
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

 private:
  MountTree() = default;
  std::size_t add_folder(const std::string& path, const struct stat& st, const MountArgs& args,
                         const DecryptChoices& choices);
  std::size_t add_file(const std::string& path, const struct stat& st, const MountArgs& args,
                       const DecryptChoices& choices, bool alone);
  std::unique_ptr<DecryptionKeys> keys_;  // read once for all the files (a passphrase asked once)
  std::vector<MountEntry> entries_;       // [0]: the root
  std::size_t files_ = 0;
  std::size_t unreadable_ = 0;
};

}  // namespace pcrypt::app
