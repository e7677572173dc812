// Questions the CLI asks about files before it opens them.
#pragma once

#include <optional>
#include <string>

namespace pcrypt::io {

// Is fd a terminal? (No ciphertext onto a screen, no terminal as binary input.)
bool is_terminal(int fd);

// Do both paths name the same existing regular file (same device and inode, through links and symlinks)?
// False if either does not exist, so "is the output the input?" can be asked before the output is created.
// Only regular files count: reading and writing one /dev/null, terminal or socket loses nothing.
bool same_file(const std::string& a, const std::string& b);

// Does something exist at path, including a dangling symlink (which a rename would replace)?
bool file_exists(const std::string& path);

// Is path (after symlinks) an existing character device, FIFO or socket, such as /dev/null or a named pipe?
// Output to it is written in place: nothing is overwritten, and a rename over it would replace the node.
bool is_stream_file(const std::string& path);

// Is path (after symlinks) an existing character device (a terminal, /dev/null)?
bool is_character_device(const std::string& path);

// Is path (after symlinks) an existing regular file?
bool is_regular_file(const std::string& path);

// Is path a symlink whose chain of links passes through /dev or /proc (as /dev/stdout -> /proc/self/fd/1
// does)? Such a link is the way to a device or a descriptor, even when it ends at a regular file: renaming a
// file over it would replace the link, not write where it leads. Also true when the chain cannot be
// followed (too long, unreadable): never replace what cannot be examined.
bool is_link_into_dev_or_proc(const std::string& path);

// The descriptor a path names through the kernel's descriptor links: /dev/stdin, /dev/stdout, /dev/stderr,
// /dev/fd/N, /proc/self/fd/N, /proc/thread-self/fd/N and /proc/<our pid>/fd/N. Opening such a path opens the
// file behind the descriptor anew (its own offset; a rename over it replaces the link, not the data's
// destination), so callers use the descriptor itself. Nothing for any other path; the descriptor need not
// be open.
std::optional<int> descriptor_path(const std::string& path);

}  // namespace pcrypt::io
