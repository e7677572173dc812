#include "io/file_info.h"

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

bool is_regular_file(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
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
