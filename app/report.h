// What the user reads on stderr when something fails: exactly one "pcrypt: error: ..." line per failure,
// optionally followed by one "pcrypt: hint: ..." line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <pcrypt/pcrypt.h>

namespace pcrypt::app {

// The exit codes of an I/O failure and of a usage error (man/pcrypt.1; exit_status() gives every kind's).
inline constexpr int kExitIo = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitHeader = 3;
inline constexpr int kExitPayload = 4;

// The command's exit status for a library error, by its code's kind (the table of `pcrypt --help` and
// man/pcrypt.1): 1 io, 2 usage, 3 wrong credential or damaged header, 4 damaged payload.
int exit_status(const Error& e);

// The error line, and the hint line when there is a hint, as given.
void print_error(std::string_view message, std::string_view hint = {});

// A failure's line: its message, and the hint the CLI chooses for its code (app/error_words.h).
void print_error(const Error& e);

// The same line for the paths where memory may have run out (std::terminate's handler, a caught
// std::bad_alloc): the text as given, written with write(2) from a fixed buffer, so it allocates nothing and
// cannot throw (a print_error there could throw std::bad_alloc again, and terminate recursed until the stack
// overflowed: SIGSEGV under `ulimit -v`). Longer messages are cut at 255 bytes.
void print_error_without_allocating(const char* message) noexcept;

// "1 slot", "2 slots": for the regular nouns the CLI counts in its own lines (slot, stanza, chunk, byte),
// whose plural is the noun + "s". (Library messages count with core/counted.h, which knows "identities".)
std::string counted(std::uint64_t n, std::string_view regular_noun);

// Names the file a failure is about before its message, "x.pcrypt: payload authentication failed (chunk 3 at
// offset 3145792)", unless the failure is already about that file (its path field: naming_input() sets it).
// Decided by the failure's fields, never by its text.
std::string with_file_context(const Error& e, const std::string& file);
// The same for a failure that is no library error (an I/O error of the CLI's own, out of memory).
std::string with_file_context(const std::string& message, const std::string& file);

}  // namespace pcrypt::app
