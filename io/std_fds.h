// Standard input, output and error that were closed when pcrypt started (`pcrypt ... <&-`).
//
// A closed descriptor 0, 1 or 2 is taken by the next open(): the temporary output file would become
// "standard input" and pcrypt would encrypt its own empty output, or a log line would land in the
// ciphertext. So main() first opens /dev/null on each closed one (as daemons' helpers do) and remembers
// which were closed, so that reading data from a closed standard input can be reported as such.
#pragma once

namespace pcrypt::io {

// Opens /dev/null on each of descriptors 0-2 that is closed. Call first thing in main(), before anything
// else opens a file. Returns false if /dev/null could not be opened (the descriptor is then still closed).
bool reserve_standard_fds() noexcept;

// Was descriptor fd (0, 1 or 2) closed when reserve_standard_fds() ran?
bool standard_fd_was_closed(int fd) noexcept;

}  // namespace pcrypt::io
