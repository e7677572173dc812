// The kernel's table of mounts (/proc/self/mountinfo, proc(5)), read by `pcrypt mount` to find the device
// number of its mount (whose read-ahead it sets) and by `pcrypt unmount` to refuse anything but a pcrypt
// mount. The parsing is pure, so it is unit-tested and fuzzed without mounting anything.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pcrypt::app {

struct MountTableEntry {
  std::string device;       // "major:minor", as /sys/class/bdi/ names the mount's read-ahead
  std::string mount_point;  // unescaped
  std::string type;         // "fuse.pcrypt" for pcrypt's mounts
};

// The mount type pcrypt's mounts have (FUSE subtype "pcrypt").
inline constexpr std::string_view kPcryptMountType = "fuse.pcrypt";

// The entries of mountinfo text; malformed lines are skipped.
std::vector<MountTableEntry> parse_mountinfo(std::string_view text);

// A path field of mountinfo with the kernel's octal escapes (\040 for a space, \011, \012, \134) undone;
// anything else is kept as it is.
std::string unescape_mount_field(std::string_view field);

// The last (topmost) mount at `mount_point` (an absolute, canonical path) in /proc/self/mountinfo.
std::optional<MountTableEntry> find_mount(const std::string& mount_point);

}  // namespace pcrypt::app
