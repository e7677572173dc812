// `pcrypt mount` and `pcrypt unmount`: SOURCE (app/mount_tree.h) as a read-only FUSE file system, read
// through libpcrypt's File::read_at (app/read_ahead.h). The life cycle is that of FUSE tools: the checks,
// the credentials and every file's unlocking first (errors and prompts on the terminal), then the mount,
// then, unless -f, the process goes to the background and the command returns: the mount is ready by then.
// `fusermount3 -u`, `pcrypt unmount`, SIGINT or SIGTERM unmount it and end the process.
#define FUSE_USE_VERSION 312
#include <fuse.h>

#include <spdlog/spdlog.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
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

#include "app/credentials.h"
#include "app/crypt_options.h"
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

Mounted& mounted() {
  return *static_cast<Mounted*>(fuse_get_context()->private_data);
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
    spdlog::warn("fuse: {}", text);
  }
}

void* op_init(fuse_conn_info*, fuse_config* config) {
  // The tree never changes while mounted: the kernel may keep names and attributes as long as it likes.
  config->entry_timeout = 86400;
  config->attr_timeout = 86400;
  config->negative_timeout = 86400;
  config->nullpath_ok = 1;  // reads go by file handle: no path to build for them
  return fuse_get_context()->private_data;
}

// What an open file or folder's fh holds: with nullpath_ok, libfuse gives no path to operations on it.
struct Handle {
  const MountEntry* entry;
  std::unique_ptr<PlaintextStream> stream;  // files
};

Handle* handle_of(const fuse_file_info* info) {
  return reinterpret_cast<Handle*>(info->fh);
}

const MountEntry* entry_of(const char* path, const fuse_file_info* info) {
  if (path == nullptr) return info != nullptr ? handle_of(info)->entry : nullptr;
  return mounted().tree.find(path);
}

int op_getattr(const char* path, struct stat* st, fuse_file_info* info) {
  const MountEntry* entry = entry_of(path, info);
  if (entry == nullptr) return -ENOENT;
  *st = entry->shown;
  return 0;
}

int op_opendir(const char* path, fuse_file_info* info) {
  const MountEntry* folder = mounted().tree.find(path);
  if (folder == nullptr) return -ENOENT;
  if (!folder->directory) return -ENOTDIR;
  try {
    info->fh = reinterpret_cast<std::uint64_t>(new Handle{folder, nullptr});
  } catch (const std::bad_alloc&) {
    return -ENOMEM;
  }
  return 0;
}

int op_readdir(const char*, void* buffer, fuse_fill_dir_t fill, off_t, fuse_file_info* info,
               fuse_readdir_flags) {
  const Mounted& m = mounted();
  const MountEntry* folder = handle_of(info)->entry;
  fill(buffer, ".", nullptr, 0, fuse_fill_dir_flags{});
  fill(buffer, "..", nullptr, 0, fuse_fill_dir_flags{});
  for (const auto& [name, index] : folder->children)
    if (fill(buffer, name.c_str(), &m.tree.at(index).shown, 0, fuse_fill_dir_flags{}) != 0) return -ENOMEM;
  return 0;
}

int op_releasedir(const char*, fuse_file_info* info) {
  delete handle_of(info);
  return 0;
}

void set_kernel_read_ahead(const std::string& setting) {
  if (setting.empty()) return;
  std::ofstream out(setting);
  out << kKernelReadAheadKiB << '\n';  // best effort: not being root, it stays the default
}

int op_open(const char* path, fuse_file_info* info) {
  Mounted& m = mounted();
  const MountEntry* entry = m.tree.find(path);
  if (entry == nullptr) return -ENOENT;
  if (entry->directory) return -EISDIR;
  if ((info->flags & O_ACCMODE) != O_RDONLY) return -EROFS;
  if (entry->open_error != 0) return -entry->open_error;
  // The kernel took the mount's settings from FUSE's handshake, which is over by the first open.
  std::call_once(m.read_ahead_set, [&] { set_kernel_read_ahead(m.read_ahead_setting); });
  try {
    const OpenedFile& file = *entry->opened;
    info->fh = reinterpret_cast<std::uint64_t>(new Handle{
        entry,
        std::make_unique<PlaintextStream>(file.file(), file.plaintext_size, file.record_size, *m.pool)});
  } catch (const std::bad_alloc&) {
    return -ENOMEM;
  }
  return 0;
}

int op_read(const char*, char* buffer, std::size_t size, off_t offset, fuse_file_info* info) {
  PlaintextStream* stream = handle_of(info)->stream.get();
  try {
    return static_cast<int>(stream->read(static_cast<std::uint64_t>(offset),
                                         std::span(reinterpret_cast<std::uint8_t*>(buffer), size)));
  } catch (const Error& e) {
    // Nothing of the request is returned: the kernel gets the error alone.
    spdlog::warn("{}", e.what());
    return e.kind() == ErrorKind::io && e.error_number() != 0 ? -e.error_number() : -EIO;
  } catch (const std::bad_alloc&) {
    return -ENOMEM;
  } catch (const std::exception& e) {
    spdlog::warn("{}", e.what());
    return -EIO;
  }
}

int op_release(const char*, fuse_file_info* info) {
  delete handle_of(info);
  return 0;
}

fuse_operations operations() {
  fuse_operations ops{};
  ops.init = op_init;
  ops.getattr = op_getattr;
  ops.opendir = op_opendir;
  ops.readdir = op_readdir;
  ops.releasedir = op_releasedir;
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
    throw Error(ErrorKind::io, "cannot mount on " + path + ": " + std::strerror(err),
                err == ENOTCONN ? "a mount whose process ended is still there: 'pcrypt unmount " + path + "'"
                : err == ENOENT ? "create the folder first: mkdir " + path
                                : "");
  }
  if (!S_ISDIR(st.st_mode))
    throw Error(ErrorKind::io, "cannot mount on " + path + ": not a folder", "give an empty folder");
  if (const std::optional<MountTableEntry> mount = find_mount(absolute(path)))
    throw Error(ErrorKind::io,
                "cannot mount on " + path + ": something (" + mount->type + ") is mounted there",
                "unmount it first, or give another empty folder");
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) {
    const int err = errno;
    throw Error(ErrorKind::io, "cannot mount on " + path + ": " + std::strerror(err));
  }
  bool empty = true;
  while (const dirent* d = ::readdir(dir))
    if (std::strcmp(d->d_name, ".") != 0 && std::strcmp(d->d_name, "..") != 0) empty = false;
  ::closedir(dir);
  if (!empty)
    throw Error(ErrorKind::io, "cannot mount on " + path + ": the folder is not empty",
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
    throw Error(ErrorKind::io, "cannot mount: this system has no FUSE (/dev/fuse is missing)",
                "load the module (modprobe fuse), or give a container the device (--device /dev/fuse)");
  throw Error(ErrorKind::io, std::string("cannot mount: /dev/fuse: ") + std::strerror(err),
              "FUSE needs read and write access to /dev/fuse");
}

// Many files, one descriptor each: as many as the hard limit allows.
void raise_descriptor_limit() {
  struct rlimit limit {};
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &limit);
  }
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

Error fuse_failure(const std::string& what) {
  std::string message = what;
  if (!g_fuse_messages.empty()) message += ": " + g_fuse_messages;
  return Error(ErrorKind::io, message);
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
    spdlog::warn("{} of {} encrypted files cannot be read in the mount (listed above)",
                 state.tree.unreadable(), state.tree.files());

  fuse_set_log_func(fuse_message);
  FuseArgs fuse_args(args.allow_other);
  const fuse_operations ops = operations();
  fuse* fs = fuse_new(&fuse_args.args, &ops, sizeof ops, &state);
  if (fs == nullptr) throw fuse_failure("cannot start FUSE");
  const std::string mountpoint = absolute(args.mountpoint);
  if (fuse_mount(fs, mountpoint.c_str()) != 0) {
    fuse_destroy(fs);
    throw fuse_failure("cannot mount on " + args.mountpoint);
  }
  if (const std::optional<MountTableEntry> mount = find_mount(mountpoint))
    state.read_ahead_setting = "/sys/class/bdi/" + mount->device + "/read_ahead_kb";
  spdlog::info("mounted {} on {} ({} encrypted files)", args.source, mountpoint, state.tree.files());

  if (fuse_daemonize(args.foreground ? 1 : 0) != 0) {
    fuse_unmount(fs);
    fuse_destroy(fs);
    throw fuse_failure("cannot go to the background");
  }
  g_capture_fuse_messages = false;
  // Keys live in this process alone: no core dump of it, and no other unprivileged process may trace it.
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  state.pool = std::make_unique<ReadAheadPool>(effective_threads(choices.run.threads), kReadAheadBudget);
  default_signal_actions();
  fuse_session* session = fuse_get_session(fs);
  fuse_set_signal_handlers(session);
  fuse_loop_config* loop = fuse_loop_cfg_create();
  fuse_loop_cfg_set_max_threads(loop, kFuseThreads);
  fuse_loop_cfg_set_idle_threads(loop, kFuseThreads);
  const int served = fuse_loop_mt(fs, loop);
  fuse_loop_cfg_destroy(loop);
  fuse_remove_signal_handlers(session);
  fuse_unmount(fs);
  fuse_destroy(fs);
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
        ErrorKind::usage, args.mountpoint + " is not a pcrypt mount",
        mount ? "it is a " + mount->type + " mount: use umount" : "'mount -t fuse.pcrypt' lists them");
  // fusermount3 unmounts what its user mounted, root or not; root can do without it.
  const char* argv[] = {"fusermount3", "-u", mountpoint.c_str(), nullptr};
  pid_t child = 0;
  if (::posix_spawnp(&child, "fusermount3", nullptr, nullptr, const_cast<char**>(argv), environ) == 0) {
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    throw Error(ErrorKind::io, "cannot unmount " + args.mountpoint + " (fusermount3 failed, above)");
  }
  if (::umount2(mountpoint.c_str(), 0) != 0) {
    const int err = errno;
    throw Error(ErrorKind::io, "cannot unmount " + args.mountpoint + ": " + std::strerror(err),
                err == EBUSY ? "a program is still using it (fuser -m " + args.mountpoint + ")"
                             : "install fuse3 (fusermount3)");
  }
  return 0;
}

}  // namespace pcrypt::app
