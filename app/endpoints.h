// Where data comes from and goes to, in CLI terms: a path or standard input/output ("" or "-"), with the
// safety checks the CLI promises (no ciphertext on a terminal, never the input as output, no overwrite
// without -f). Thin glue over pcrypt::io.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/atomic_file.h"
#include "io/stream.h"

namespace pcrypt::app {

inline bool is_standard_stream(const std::string& path) {
  return path.empty() || path == "-";
}

// Error(usage) when a recipients file is "-" (standard input) while the data comes from standard input too:
// one of them must be a file. Checked before any of them is read.
void refuse_recipients_from_data_input(const std::vector<std::string>& recipient_files, bool data_from_stdin);

// Output to standard output must not vanish: a standard output closed at start (`pcrypt info f >&-`) is
// /dev/null by now (io/std_fds.h), so every command that prints checks this first (Error(io)).
void require_open_stdout(const char* hint = "give -o FILE, or redirect standard output (> FILE)");

// Flushes what a command printed with stdio (info, recipient, bench). A failure is io::IoError with its
// errno, so that a reader gone away (EPIPE, `pcrypt info f | head -1`) is the silent exit 1 of app/main.cc,
// as for every other write to standard output, and any other failure one error line.
void flush_stdout();

struct Input {
  std::unique_ptr<io::Reader> reader;
  std::string path;                   // "" for standard input
  std::string name;                   // for messages: the path, or "standard input"
  std::optional<std::uint64_t> size;  // known for regular files (progress percentage)
  bool is_stdin = false;
  bool is_terminal = false;  // standard input or a path (/dev/tty) that is a terminal
};

// Opens `path` ("" or "-": standard input; a descriptor path such as /dev/stdin or /dev/fd/3: that
// descriptor, not closed). Throws io::IoError / Error(io).
Input open_input(const std::string& path);

// Refusals before anything is created, all Error(io) with a hint:
//  - output_path exists and is the very regular file being read (even with force);
//  - output_path is a descriptor path (/dev/stdout, /dev/fd/N: written to that descriptor) that is not open
//    for writing;
//  - output_path exists and force is false;
//  - force, but output_path is not a regular file or is a symlink into /dev or /proc.
void check_output_path(const Input& input, const std::string& output_path, bool force);

// Output to standard output: refused when standard output is the input file itself (`... f >> f`).
void check_stdout_target(const Input& input);

// Encrypted data must not be dumped onto a terminal unless the user insisted (-o - or -f).
void refuse_terminal_stdout(bool insisted);
// The same for an output given by path (-o /dev/tty, -o /dev/pts/3, -o /dev/stderr on a terminal): only -f
// insists here (-o - is the explicit spelling for standard output).
void refuse_terminal_output(const std::string& output_path, bool insisted);
// Decrypt and info read binary data: a terminal as the input, standard input or a path such as /dev/tty, is
// a mistake, not a source.
void refuse_terminal_input(const Input& input);
// Opens the encrypted input of a command that writes plaintext to out_path ("": standard output), after the
// refusals above that apply to it: a terminal as input, an output that is the input or may not be written.
Input open_decrypt_input(const std::string& path, const std::string& out_path, bool force);

// The destination of a command. "" or "-": standard output; a descriptor path (/dev/stdout, /dev/stderr,
// /dev/fd/N, /proc/self/fd/N): that descriptor, written in place; a stream file (/dev/null, a FIFO): written
// in place; otherwise an atomic file (see io/atomic_file.h: created in the target directory as a
// temporary, published by commit(), removed if the writer is destroyed first or the process is interrupted)
// that refuses an existing target unless force. A failed write throws io::IoError with its errno; when the
// library's pipeline did the writing, the errno travels on in pcrypt::Error::error_number(), so main() can
// tell a reader that went away (EPIPE) from a real failure.
// `permissions`: the mode of a created file (io::Permissions: 0600, or 0666 & ~umask for decrypted data).
std::unique_ptr<io::Writer> open_output(const std::string& path, bool force,
                                        io::Permissions permissions = io::Permissions::owner_only);

}  // namespace pcrypt::app
