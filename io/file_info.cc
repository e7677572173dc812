#include "io/file_info.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <string_view>

namespace pcrypt::io {
namespace {

// "N" as a whole decimal descriptor number, nothing else.
std::optional<int> descriptor_number(std::string_view text) {
  int fd = -1;
  const char* end = text.data() + text.size();
  const auto [stop, ec] = std::from_chars(text.data(), end, fd);
  if (text.empty() || ec != std::errc() || stop != end || fd < 0) return std::nullopt;
  return fd;
}

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// The absolute path a symlink's text names, with its directory resolved (".." and links in it), so that
// "../proc/self/fd/1" from /dev is recognised as /proc. Nothing if the directory does not resolve.
std::optional<std::string> resolved_target(const std::string& link, const std::string& target) {
  const std::string joined = target.starts_with('/') ? target : directory_of(link) + "/" + target;
  const std::size_t slash = joined.find_last_of('/');
  char dir[PATH_MAX];
  if (::realpath(slash == 0 ? "/" : joined.substr(0, slash).c_str(), dir) == nullptr) return std::nullopt;
  const std::string base = joined.substr(slash + 1);
  return std::string(dir) + (std::string_view(dir) == "/" ? "" : "/") + base;
}

bool inside_dev_or_proc(const std::string& path) {
  for (const std::string_view top : {std::string_view("/dev"), std::string_view("/proc")})
    if (path == top || (path.starts_with(top) && path[top.size()] == '/')) return true;
  return false;
}

}  // namespace

bool is_terminal(int fd) {
  return ::isatty(fd) == 1;
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa, sb;
  if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
  return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool file_exists(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

bool is_stream_file(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 &&
         (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

bool is_character_device(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISCHR(st.st_mode);
}

bool is_regular_file(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool is_link_into_dev_or_proc(const std::string& path) {
  std::string current = path;
  for (int hop = 0; hop < 40; ++hop) {  // SYMLOOP_MAX on Linux
    struct stat st;
    if (::lstat(current.c_str(), &st) != 0) return hop > 0 && inside_dev_or_proc(current);
    if (!S_ISLNK(st.st_mode)) return hop > 0 && inside_dev_or_proc(current);
    char text[PATH_MAX];
    const ssize_t len = ::readlink(current.c_str(), text, sizeof text - 1);
    if (len < 0) return true;
    const std::optional<std::string> next =
        resolved_target(current, std::string(text, static_cast<std::size_t>(len)));
    if (!next || inside_dev_or_proc(*next)) return true;
    current = *next;
  }
  return true;
}

std::optional<int> descriptor_path(const std::string& path) {
  if (path == "/dev/stdin") return 0;
  if (path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  const std::string own_pid = "/proc/" + std::to_string(::getpid()) + "/fd/";
  for (const std::string_view prefix : {std::string_view("/dev/fd/"), std::string_view("/proc/self/fd/"),
                                        std::string_view("/proc/thread-self/fd/"), std::string_view(own_pid)})
    if (path.starts_with(prefix)) return descriptor_number(std::string_view(path).substr(prefix.size()));
  return std::nullopt;
}

}  // namespace pcrypt::io
