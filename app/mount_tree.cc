#include "app/mount_tree.h"

#include <dirent.h>

#include <fcntl.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <utility>

#include "app/error_words.h"
#include "app/library.h"
#include "app/logging.h"
#include "app/mount_names.h"
#include "app/report.h"
#include "io/stream.h"

namespace pcrypt::app {
namespace {

// What open(2) of a file that could not be opened at mount time gets.
int errno_for(const Error& e) {
  if (e.kind() == ErrorKind::io && e.error_number() == EACCES) return EACCES;  // an unreadable file
  return e.kind() == ErrorKind::wrong_credential || e.kind() == ErrorKind::usage ? EACCES : EIO;
}

struct FolderEntry {
  std::string name;
  struct stat st {};
};

// The folder's entries that the mount shows (folders and regular files named as encrypted ones), by name.
std::vector<FolderEntry> shown_entries(const std::string& path) {
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) {
    const int err = errno;
    throw io::IoError("cannot read the folder " + path + ": " + std::strerror(err), err);
  }
  std::vector<FolderEntry> entries;
  while (const dirent* d = ::readdir(dir)) {
    const std::string name = d->d_name;
    if (name == "." || name == "..") continue;
    FolderEntry e{name, {}};
    if (::fstatat(::dirfd(dir), d->d_name, &e.st, AT_SYMLINK_NOFOLLOW) != 0) continue;  // gone since
    if (S_ISDIR(e.st.st_mode) || (S_ISREG(e.st.st_mode) && encrypted_suffix(name)))
      entries.push_back(std::move(e));
  }
  ::closedir(dir);
  std::ranges::sort(entries, {}, &FolderEntry::name);
  return entries;
}

std::string joined(const std::string& folder, const std::string& name) {
  return folder.ends_with('/') ? folder + name : folder + "/" + name;
}

CliError descriptor_error(int error_number, const std::string& message, std::string hint = {}) {
  ErrorFields fields;
  fields.error_number = error_number;
  return CliError(PCRYPT_E_IO, message, std::move(hint), std::move(fields));
}

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino && a.st_size == b.st_size &&
         a.st_mtim.tv_sec == b.st_mtim.tv_sec && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec;
}

}  // namespace

bool DescriptorBudget::take() {
  std::size_t used = in_use_.load();
  do {
    if (used >= limit_.load()) return false;
  } while (!in_use_.compare_exchange_weak(used, used + 1));
  return true;
}

struct SourceFile::Descriptor {
  int fd;
  DescriptorBudget* budget;
  Descriptor(int descriptor, DescriptorBudget& from) : fd(descriptor), budget(&from) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    ::close(fd);
    budget->give_back();
  }
};

SourceFile::SourceFile(std::string path, std::string name, const struct stat& st, DescriptorBudget& budget)
    : path_(std::move(path)), name_(std::move(name)), identity_(st), budget_(budget) {}

SourceFile::Held SourceFile::hold() {
  const std::lock_guard lock(mutex_);
  if (Held held = held_.lock()) {
    // Held by another open: it is still checked, by its descriptor (changed in place) and by its path
    // (replaced or removed), since the kernel keeps what was read before for this open (keep_cache).
    struct stat now {};
    if (::fstat(held->fd, &now) != 0 || !same_file(now, identity_) || ::stat(path_.c_str(), &now) != 0 ||
        !same_file(now, identity_))
      throw descriptor_error(ESTALE, name_ + " changed since it was mounted: it is not read",
                             "mount again to see the files as they are now");
    return held;
  }
  if (!budget_.take())
    throw descriptor_error(
        EMFILE,
        "cannot open " + name_ + ": the mount already holds " + std::to_string(budget_.limit()) +
            " files open, all its descriptor limit allows",
        "close files read through the mount, or raise the limit (ulimit -n) and mount again");
  const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    budget_.give_back();
    if (err == ENOENT)
      throw descriptor_error(ESTALE, name_ + " was removed since it was mounted",
                             "mount again to see the files as they are now");
    throw descriptor_error(err, "cannot open " + name_ + ": " + std::strerror(err));
  }
  Held held = std::make_shared<const Descriptor>(fd, budget_);
  struct stat now {};
  if (::fstat(fd, &now) != 0 || !same_file(now, identity_))
    throw descriptor_error(ESTALE, name_ + " changed since it was mounted: it is not read",
                           "mount again to see the files as they are now");
  held_ = held;
  return held;
}

std::size_t SourceFile::read_at(std::uint64_t offset, std::span<std::uint8_t> out) {
  Held held;
  {
    const std::lock_guard lock(mutex_);
    held = held_.lock();
  }
  // Read-ahead still queued for a handle just released: nothing holds the file, and nothing needs the bytes.
  if (!held) throw descriptor_error(EBADF, name_ + " is not open");
  for (;;) {
    const ssize_t got = ::pread(held->fd, out.data(), out.size(), static_cast<off_t>(offset));
    if (got >= 0) return static_cast<std::size_t>(got);
    const int err = errno;
    if (err != EINTR) throw descriptor_error(err, "cannot read " + name_ + ": " + std::strerror(err));
  }
}

Source SourceFile::source() {
  return Source::callback(
      static_cast<std::uint64_t>(identity_.st_size),
      [this](std::uint64_t offset, std::span<std::uint8_t> out) { return read_at(offset, out); });
}

MountTree MountTree::read(const MountArgs& args, const DecryptChoices& choices) {
  if (is_standard_stream(args.source))
    throw CliError(PCRYPT_E_BAD_ARGUMENT,
                   "pcrypt mount needs an encrypted file or a folder, not standard input");
  struct stat st {};
  if (::stat(args.source.c_str(), &st) != 0) {
    const int err = errno;
    throw io::IoError("cannot read " + args.source + ": " + std::strerror(err), err);
  }
  MountTree tree;
  if (args.source.front() != '/') {
    char* here = ::getcwd(nullptr, 0);
    if (here == nullptr) {
      const int err = errno;
      throw io::IoError("cannot read " + args.source + ": the working folder: " + std::strerror(err), err);
    }
    tree.working_directory_ = joined(here, "");
    std::free(here);
  }
  tree.keys_ = std::make_unique<DecryptionKeys>(args.crypt);
  if (S_ISDIR(st.st_mode)) {
    tree.add_folder(args.source, st, args, choices);
  } else if (S_ISREG(st.st_mode)) {
    // One file: alone in a root folder that has the file's owner and times.
    MountEntry& root = tree.entries_.emplace_back();
    root.directory = true;
    root.source_path = args.source;
    root.shown = st;
    root.shown.st_mode = S_IFDIR | 0555;
    root.shown.st_nlink = 2;
    const std::string name = args.source.substr(args.source.find_last_of('/') + 1);
    const std::vector<std::string> shown = mount_names({NamedEntry{name, true}});
    const std::size_t file = tree.add_file(args.source, st, args, choices, true);
    tree.entries_[0].children.emplace(shown.front(), file);
  } else {
    throw CliError(PCRYPT_E_BAD_ARGUMENT, args.source + " is neither a folder nor a regular file",
                   "pcrypt mount shows an encrypted file, or a folder of them");
  }
  return tree;
}

std::size_t MountTree::add_folder(const std::string& path, const struct stat& st, const MountArgs& args,
                                  const DecryptChoices& choices) {
  const std::size_t index = entries_.size();
  {
    MountEntry& folder = entries_.emplace_back();
    folder.directory = true;
    folder.source_path = path;
    folder.shown = st;
    folder.shown.st_mode = S_IFDIR | (st.st_mode & 0555);
    folder.shown.st_nlink = 2;
  }
  std::vector<FolderEntry> found;
  try {
    found = shown_entries(path);
  } catch (const io::IoError& e) {
    if (index == 0) throw;  // SOURCE itself
    log::warn("{}; shown empty", e.what());
    return index;
  }
  std::vector<NamedEntry> named;
  named.reserve(found.size());
  for (const FolderEntry& e : found) named.push_back(NamedEntry{e.name, !S_ISDIR(e.st.st_mode)});
  const std::vector<std::string> names = mount_names(named);
  for (std::size_t i = 0; i < found.size(); ++i) {
    const std::string child_path = joined(path, found[i].name);
    const bool is_folder = S_ISDIR(found[i].st.st_mode);
    const std::size_t child = is_folder ? add_folder(child_path, found[i].st, args, choices)
                                        : add_file(child_path, found[i].st, args, choices, false);
    entries_[index].children.emplace(names[i], child);
    if (is_folder) ++entries_[index].shown.st_nlink;
  }
  return index;
}

std::size_t MountTree::add_file(const std::string& path, const struct stat& st, const MountArgs& args,
                                const DecryptChoices& choices, bool alone) {
  MountEntry entry;
  entry.source_path = path;
  entry.shown = st;
  entry.shown.st_mode = S_IFREG | (st.st_mode & 0444);
  entry.shown.st_nlink = 1;
  const auto unreadable = [&](int error, const std::string& why) {
    entry.open_error = error;
    entry.shown.st_mode = S_IFREG;
    entry.shown.st_size = 0;
    entry.shown.st_blocks = 0;
    ++unreadable_;
    log::warn("{}; shown unreadable in the mount", why);
  };
  try {
    auto opened = std::make_unique<OpenedFile>();
    opened->source = std::make_unique<SourceFile>(working_directory_ + path, path, st, *budget_);
    // Held while the header is read, the file unlocked and its final record authenticated; closed after.
    const SourceFile::Held held = opened->source->hold();
    opened->opened =
        std::make_unique<DecryptionInput>(args.crypt, opened->source->source(), path, keys_.get());
    const Description& described = opened->file().describe();
    if (described.armored) {
      Error armored(PCRYPT_E_NOT_SEEKABLE,
                    path + " is an ASCII-armored age file, which cannot be read by ranges",
                    "decrypt it with 'pcrypt decrypt', or mount its binary form (the base64 between its "
                    "BEGIN and END lines)");
      if (alone) throw armored;
      unreadable(EOPNOTSUPP, armored.what());
    } else {
      opened->opened->unlock(choices.limits);
      opened->plaintext_size = naming_input(path, [&] { return opened->file().plaintext_size(); });
      opened->record_size = described.chunk_size;
      entry.shown.st_size = static_cast<off_t>(opened->plaintext_size);
      entry.shown.st_blocks = static_cast<blkcnt_t>((opened->plaintext_size + 511) / 512);
      entry.opened = std::move(opened);
    }
  } catch (const Error& e) {
    if (alone) throw;
    unreadable(errno_for(e), with_file_context(e, path));
  } catch (const io::IoError& e) {
    if (alone) throw;
    unreadable(e.error_number() == EACCES ? EACCES : EIO, with_file_context(e.what(), path));
  }
  ++files_;
  entries_.push_back(std::move(entry));
  return entries_.size() - 1;
}

const MountEntry* MountTree::find(std::string_view path) const {
  std::size_t at = 0;
  while (!path.empty()) {
    const std::size_t slash = path.find('/');
    const std::string_view part = path.substr(0, slash);
    path = slash == std::string_view::npos ? std::string_view() : path.substr(slash + 1);
    if (part.empty()) continue;
    const MountEntry& folder = entries_[at];
    const auto it = folder.children.find(part);
    if (it == folder.children.end()) return nullptr;
    at = it->second;
  }
  return entries_.empty() ? nullptr : &entries_[at];
}

}  // namespace pcrypt::app
