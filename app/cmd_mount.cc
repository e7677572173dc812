// `pcrypt mount` and `pcrypt unmount`: SOURCE (app/mount_tree.h) as a read-only FUSE file system, read
// through libpcrypt's File::read_at (app/read_ahead.h). The life cycle is that of FUSE tools: the checks,
// the credentials and every file's unlocking first (errors and prompts on the terminal), then the mount,
// then, unless -f, the process goes to the background and the command returns: the mount is ready by then.
// `fusermount3 -u`, `pcrypt unmount`, SIGINT or SIGTERM unmount it and end the process.
#define FUSE_USE_VERSION 312
#include <fuse_lowlevel.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <spawn.h>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "app/credentials.h"
#include "app/crypt_options.h"
#include "app/error_words.h"
#include "app/logging.h"
#include "app/mount_cli.h"
#include "app/mount_table.h"
#include "app/mount_tree.h"
#include "app/read_ahead.h"
#include "app/report.h"
#include "io/stream.h"

extern char** environ;

namespace pcrypt::app {
namespace {

// Decrypted plaintext read ahead, for all the mount's open files together.
constexpr std::size_t kReadAheadBudget = std::size_t{32} << 20;
// Threads serving the kernel's requests: each holds a request buffer (1 MiB, FUSE's largest read) and the
// reply's; 8 keep 8 random readers going at once on any machine.
constexpr unsigned kFuseThreads = 8;
// The kernel's own read-ahead for the mount, asked for once it is up (the default, 128 KiB, makes a
// sequential reader send twice as many requests).
constexpr const char* kKernelReadAheadKiB = "1024";

struct Mounted {
  MountTree tree;
  std::unique_ptr<ReadAheadPool> pool;  // started in the process that serves the mount (after the fork)
  std::string read_ahead_setting;       // /sys/class/bdi/MAJOR:MINOR/read_ahead_kb, or ""
  std::once_flag read_ahead_set;
};

Mounted& mounted(fuse_req_t req) {
  return *static_cast<Mounted*>(fuse_req_userdata(req));
}

// libfuse's own messages: kept while mounting (for the one error line), afterwards passed on.
std::string g_fuse_messages;
bool g_capture_fuse_messages = true;

void fuse_message(enum fuse_log_level, const char* format, va_list args) {
  char line[512];
  std::vsnprintf(line, sizeof line, format, args);
  std::string text = line;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  if (g_capture_fuse_messages) {
    if (!g_fuse_messages.empty()) g_fuse_messages += "; ";
    g_fuse_messages += text;
  } else {
    log::warn("fuse: {}", text);
  }
}

// Inode numbers are the tree's entry indexes plus one (FUSE_ROOT_ID, 1, is the root, entry 0): the tree
// never changes while mounted, so the kernel may keep names and attributes as long as it likes.
constexpr double kForever = 86400;

const MountEntry* entry_at(const Mounted& m, fuse_ino_t inode) {
  return inode >= 1 && inode - 1 < m.tree.size() ? &m.tree.at(inode - 1) : nullptr;
}

struct stat attributes(const MountEntry& entry, fuse_ino_t inode) {
  struct stat st = entry.shown;
  st.st_ino = inode;
  return st;
}

void op_lookup(fuse_req_t req, fuse_ino_t parent, const char* name) {
  const Mounted& m = mounted(req);
  const MountEntry* folder = entry_at(m, parent);
  if (folder == nullptr || !folder->directory) return static_cast<void>(fuse_reply_err(req, ENOTDIR));
  const auto it = folder->children.find(std::string_view(name));
  if (it == folder->children.end()) return static_cast<void>(fuse_reply_err(req, ENOENT));
  fuse_entry_param entry{};
  entry.ino = it->second + 1;
  entry.attr = attributes(m.tree.at(it->second), entry.ino);
  entry.attr_timeout = kForever;
  entry.entry_timeout = kForever;
  fuse_reply_entry(req, &entry);
}

void op_getattr(fuse_req_t req, fuse_ino_t inode, fuse_file_info*) {
  const MountEntry* entry = entry_at(mounted(req), inode);
  if (entry == nullptr) return static_cast<void>(fuse_reply_err(req, ENOENT));
  const struct stat st = attributes(*entry, inode);
  fuse_reply_attr(req, &st, kForever);
}

void op_opendir(fuse_req_t req, fuse_ino_t inode, fuse_file_info* info) {
  const MountEntry* entry = entry_at(mounted(req), inode);
  if (entry == nullptr) return static_cast<void>(fuse_reply_err(req, ENOENT));
  if (!entry->directory) return static_cast<void>(fuse_reply_err(req, ENOTDIR));
  info->cache_readdir = 1;  // the listing never changes: the kernel may keep it
  fuse_reply_open(req, info);
}

// Entry `offset` on ("." and ".." first, then the children in name order), as many as fit in `size`.
void op_readdir(fuse_req_t req, fuse_ino_t inode, std::size_t size, off_t offset, fuse_file_info*) {
  const Mounted& m = mounted(req);
  const MountEntry* folder = entry_at(m, inode);
  if (folder == nullptr) return static_cast<void>(fuse_reply_err(req, ENOENT));
  std::vector<char> buffer(size);
  std::size_t used = 0;
  off_t at = 0;
  const auto add = [&](const char* name, const struct stat& st) {
    ++at;
    if (at <= offset) return true;
    const std::size_t need = fuse_add_direntry(req, buffer.data() + used, size - used, name, &st, at);
    if (need > size - used) return false;
    used += need;
    return true;
  };
  struct stat self {};
  self.st_ino = inode;
  self.st_mode = S_IFDIR;
  bool room = add(".", self) && add("..", self);
  for (auto it = folder->children.begin(); room && it != folder->children.end(); ++it) {
    struct stat st {};
    st.st_ino = it->second + 1;
    st.st_mode = m.tree.at(it->second).shown.st_mode & S_IFMT;
    room = add(it->first.c_str(), st);
  }
  fuse_reply_buf(req, buffer.data(), used);
}

// One open(2) of a file of the mount: its reader, and its hold on the encrypted file's descriptor (closed
// when the last handle of the file is released).
struct OpenHandle {
  SourceFile::Held held;
  PlaintextStream stream;  // after `held`: destroyed first
  OpenHandle(SourceFile::Held descriptor, const File& file, std::uint64_t plaintext_size,
             std::size_t record_size, ReadAheadPool& pool)
      : held(std::move(descriptor)), stream(file, plaintext_size, record_size, pool) {}
};

void set_kernel_read_ahead(const std::string& setting) {
  if (setting.empty()) return;
  std::ofstream out(setting);
  out << kKernelReadAheadKiB << '\n';  // best effort: not being root, it stays the default
}

void op_open(fuse_req_t req, fuse_ino_t inode, fuse_file_info* info) {
  Mounted& m = mounted(req);
  const MountEntry* entry = entry_at(m, inode);
  if (entry == nullptr) return static_cast<void>(fuse_reply_err(req, ENOENT));
  if (entry->directory) return static_cast<void>(fuse_reply_err(req, EISDIR));
  if ((info->flags & O_ACCMODE) != O_RDONLY) return static_cast<void>(fuse_reply_err(req, EROFS));
  if (entry->open_error != 0) return static_cast<void>(fuse_reply_err(req, entry->open_error));
  // The kernel took the mount's settings from FUSE's handshake, which is over by the first open.
  std::call_once(m.read_ahead_set, [&] { set_kernel_read_ahead(m.read_ahead_setting); });
  try {
    const OpenedFile& file = *entry->opened;
    SourceFile::Held held = file.source->hold();
    info->fh = reinterpret_cast<std::uint64_t>(
        new OpenHandle(std::move(held), file.file(), file.plaintext_size, file.record_size, *m.pool));
  } catch (const Error& e) {
    log::warn("{}", e.what());
    return static_cast<void>(fuse_reply_err(req, e.error_number() != 0 ? e.error_number() : EIO));
  } catch (const std::bad_alloc&) {
    return static_cast<void>(fuse_reply_err(req, ENOMEM));
  }
  // The file is the one mounted (hold() checked it, ESTALE otherwise), and every page the kernel keeps of it
  // was authenticated when read: a second reader is served from the page cache, nothing decrypted again.
  info->keep_cache = 1;
  fuse_reply_open(req, info);
}

// The reply is written from the plaintext where it lies (windows read ahead, or this thread's buffer): no
// copy on the way to the kernel. A failure replies the error alone: nothing of the request is returned.
void op_read(fuse_req_t req, fuse_ino_t, std::size_t size, off_t offset, fuse_file_info* info) {
  thread_local PlaintextPieces pieces;
  auto* handle = reinterpret_cast<OpenHandle*>(info->fh);
  int error = 0;
  try {
    handle->stream.read(static_cast<std::uint64_t>(offset), size, pieces);
  } catch (const Error& e) {
    log::warn("{}", e.what());
    error = e.kind() == ErrorKind::io && e.error_number() != 0 ? e.error_number() : EIO;
  } catch (const std::bad_alloc&) {
    error = ENOMEM;
  } catch (const std::exception& e) {
    log::warn("{}", e.what());
    error = EIO;
  }
  if (error != 0) {
    pieces.keep.clear();
    return static_cast<void>(fuse_reply_err(req, error));
  }
  std::vector<iovec> iov;
  iov.reserve(pieces.pieces.size());
  for (const auto& piece : pieces.pieces)
    iov.push_back(iovec{const_cast<std::uint8_t*>(piece.data()), piece.size()});
  fuse_reply_iov(req, iov.data(), static_cast<int>(iov.size()));
  pieces.keep.clear();  // the windows may go now
}

void op_release(fuse_req_t req, fuse_ino_t, fuse_file_info* info) {
  delete reinterpret_cast<OpenHandle*>(info->fh);
  fuse_reply_err(req, 0);
}

fuse_lowlevel_ops operations() {
  fuse_lowlevel_ops ops{};
  ops.lookup = op_lookup;
  ops.getattr = op_getattr;
  ops.opendir = op_opendir;
  ops.readdir = op_readdir;
  ops.open = op_open;
  ops.read = op_read;
  ops.release = op_release;
  return ops;
}

std::string absolute(const std::string& path) {
  char* real = ::realpath(path.c_str(), nullptr);
  if (real == nullptr) return path;
  std::string out = real;
  std::free(real);
  return out;
}

// An empty folder, and not a mount already: checked before any credential is read or asked for.
void check_mountpoint(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int err = errno;
    throw CliError(PCRYPT_E_IO, "cannot mount on " + path + ": " + std::strerror(err),
                   err == ENOTCONN
                       ? "a mount whose process ended is still there: 'pcrypt unmount " + path + "'"
                   : err == ENOENT ? "create the folder first: mkdir " + path
                                   : "");
  }
  if (!S_ISDIR(st.st_mode))
    throw CliError(PCRYPT_E_IO, "cannot mount on " + path + ": not a folder", "give an empty folder");
  if (const std::optional<MountTableEntry> mount = find_mount(absolute(path)))
    throw CliError(PCRYPT_E_IO,
                   "cannot mount on " + path + ": something (" + mount->type + ") is mounted there",
                   "unmount it first, or give another empty folder");
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) {
    const int err = errno;
    throw CliError(PCRYPT_E_IO, "cannot mount on " + path + ": " + std::strerror(err));
  }
  bool empty = true;
  while (const dirent* d = ::readdir(dir))
    if (std::strcmp(d->d_name, ".") != 0 && std::strcmp(d->d_name, "..") != 0) empty = false;
  ::closedir(dir);
  if (!empty)
    throw CliError(PCRYPT_E_IO, "cannot mount on " + path + ": the folder is not empty",
                   "mount on an empty folder (what is in this one would be hidden)");
}

void check_fuse_device() {
  const int fd = ::open("/dev/fuse", O_RDWR | O_CLOEXEC);
  if (fd >= 0) {
    ::close(fd);
    return;
  }
  const int err = errno;
  if (err == ENOENT || err == ENODEV || err == ENXIO)
    throw CliError(PCRYPT_E_IO, "cannot mount: this system has no FUSE (/dev/fuse is missing)",
                   "load the module (modprobe fuse), or give a container the device (--device /dev/fuse)");
  throw CliError(PCRYPT_E_IO, std::string("cannot mount: /dev/fuse: ") + std::strerror(err),
                 "FUSE needs read and write access to /dev/fuse");
}

// Files open through the mount hold one descriptor each: as many as the hard limit allows.
void raise_descriptor_limit() {
  struct rlimit limit {};
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &limit);
  }
}

// Descriptors kept free of encrypted files while serving: for the kernel's read-ahead setting, the log,
// libfuse's unmounting (fusermount3), and whatever else the process must still open to end well.
constexpr std::size_t kReservedDescriptors = 16;

std::size_t open_descriptors() {
  std::size_t count = 0;
  if (DIR* dir = ::opendir("/proc/self/fd")) {
    while (const dirent* d = ::readdir(dir))
      if (d->d_name[0] != '.') ++count;
    ::closedir(dir);
    return count - 1;  // the listing's own
  }
  return 3 + kReservedDescriptors;  // no /proc: a guess on the safe side
}

// The budget of descriptors for encrypted files, once the mount is up (its own descriptors open): at least
// one, so that every file can be read, one at a time, whatever the limit.
void set_descriptor_budget(const MountTree& tree) {
  struct rlimit limit {};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return;
  const std::size_t used = open_descriptors() + kReservedDescriptors;
  const std::size_t budget = limit.rlim_cur > used ? static_cast<std::size_t>(limit.rlim_cur) - used : 1;
  tree.descriptors().set_limit(std::max<std::size_t>(budget, 1));
  if (budget < tree.files() - tree.unreadable())
    log::warn(
        "at most {} of the {} encrypted files can be open at once through the mount (descriptor limit {}); "
        "opening more gives EMFILE (Too many open files)",
        std::max<std::size_t>(budget, 1), tree.files() - tree.unreadable(), limit.rlim_cur);
}

struct FuseArgs {
  fuse_args args = FUSE_ARGS_INIT(0, nullptr);
  FuseArgs(const FuseArgs&) = delete;
  FuseArgs& operator=(const FuseArgs&) = delete;
  explicit FuseArgs(bool allow_other) {
    std::string options = "ro,default_permissions,fsname=pcrypt,subtype=pcrypt";
    if (allow_other) options += ",allow_other";
    for (const char* arg : {"pcrypt", "-o", options.c_str()})
      if (fuse_opt_add_arg(&args, arg) != 0) throw std::bad_alloc();
  }
  ~FuseArgs() { fuse_opt_free_args(&args); }
};

CliError fuse_failure(const std::string& what) {
  std::string message = what;
  if (!g_fuse_messages.empty()) message += ": " + g_fuse_messages;
  return CliError(PCRYPT_E_IO, message);
}

// SIGINT and SIGTERM unmount: libfuse installs its handlers only over the default action, and the CLI's own
// (which remove temporary files, none here) would end the process with the mount left behind.
void default_signal_actions() {
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN && sig == SIGHUP) continue;
    std::signal(sig, SIG_DFL);
  }
}

}  // namespace

int run_mount(const MountArgs& args, Verbosity verbosity) {
  (void)verbosity;
  require_credential(args.crypt, PassphrasePurpose::decrypt);
  const DecryptChoices choices = decrypt_choices(args.crypt);
  check_mountpoint(args.mountpoint);
  check_fuse_device();
  raise_descriptor_limit();

  Mounted state{MountTree::read(args, choices), nullptr, {}, {}};
  if (state.tree.unreadable() > 0)
    log::warn("{} of {} encrypted files cannot be read in the mount (listed above)", state.tree.unreadable(),
              state.tree.files());

  fuse_set_log_func(fuse_message);
  FuseArgs fuse_args(args.allow_other);
  const fuse_lowlevel_ops ops = operations();
  fuse_session* session = fuse_session_new(&fuse_args.args, &ops, sizeof ops, &state);
  if (session == nullptr) throw fuse_failure("cannot start FUSE");
  const std::string mountpoint = absolute(args.mountpoint);
  if (fuse_session_mount(session, mountpoint.c_str()) != 0) {
    fuse_session_destroy(session);
    throw fuse_failure("cannot mount on " + args.mountpoint);
  }
  if (const std::optional<MountTableEntry> mount = find_mount(mountpoint))
    state.read_ahead_setting = "/sys/class/bdi/" + mount->device + "/read_ahead_kb";
  log::info("mounted {} on {} ({} encrypted files)", args.source, mountpoint, state.tree.files());
  set_descriptor_budget(state.tree);  // said while standard error is still the terminal's

  if (fuse_daemonize(args.foreground ? 1 : 0) != 0) {
    fuse_session_unmount(session);
    fuse_session_destroy(session);
    throw fuse_failure("cannot go to the background");
  }
  g_capture_fuse_messages = false;
  // Keys live in this process alone: no core dump of it, and no other unprivileged process may trace it.
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  state.pool = std::make_unique<ReadAheadPool>(effective_threads(choices.run.threads), kReadAheadBudget);
  default_signal_actions();
  fuse_set_signal_handlers(session);
  fuse_loop_config* loop = fuse_loop_cfg_create();
  fuse_loop_cfg_set_max_threads(loop, kFuseThreads);
  fuse_loop_cfg_set_idle_threads(loop, kFuseThreads);
  const int served = fuse_session_loop_mt(session, loop);
  fuse_loop_cfg_destroy(loop);
  fuse_remove_signal_handlers(session);
  fuse_session_unmount(session);
  fuse_session_destroy(session);
  state.pool.reset();  // its jobs read the tree's files
  // The loop ends with 0 when unmounted, and with the signal's number after SIGINT/SIGTERM: both are the
  // ends asked for. A negative errno is a failure of FUSE itself.
  return served < 0 ? kExitIo : 0;
}

int run_unmount(const UnmountArgs& args) {
  const std::string mountpoint = absolute(args.mountpoint);
  const std::optional<MountTableEntry> mount = find_mount(mountpoint);
  if (!mount || mount->type != kPcryptMountType)
    throw Error(
        PCRYPT_E_BAD_ARGUMENT, args.mountpoint + " is not a pcrypt mount",
        mount ? "it is a " + mount->type + " mount: use umount" : "'mount -t fuse.pcrypt' lists them");
  // fusermount3 unmounts what its user mounted, root or not; root can do without it.
  const char* argv[] = {"fusermount3", "-u", mountpoint.c_str(), nullptr};
  pid_t child = 0;
  if (::posix_spawnp(&child, "fusermount3", nullptr, nullptr, const_cast<char**>(argv), environ) == 0) {
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    throw CliError(PCRYPT_E_IO, "cannot unmount " + args.mountpoint + " (fusermount3 failed, above)");
  }
  if (::umount2(mountpoint.c_str(), 0) != 0) {
    const int err = errno;
    throw CliError(PCRYPT_E_IO, "cannot unmount " + args.mountpoint + ": " + std::strerror(err),
                   err == EBUSY ? "a program is still using it (fuser -m " + args.mountpoint + ")"
                                : "install fuse3 (fusermount3)");
  }
  return 0;
}

}  // namespace pcrypt::app
