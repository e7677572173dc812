// The CLI as libpcrypt's client (<pcrypt/pcrypt.h>): its own inputs and outputs (app/endpoints.h, with the
// checks and the atomic, signal-cleaned output files of pcrypt::io) handed to the library as sources and
// sinks, the terminal as the library's user (a protected SSH key's passphrase, warnings), and the library's
// errors named by the file they are about.
#pragma once

#include <pcrypt/pcrypt.h>

#include <string>

#include "app/endpoints.h"
#include "app/error_words.h"
#include "app/report.h"
#include "io/stream.h"

namespace pcrypt::app {

// The input's descriptor, read from where it stands, named as the CLI names it.
Source source_of(const Input& input);

// Where the library writes `out`: an atomic output file's temporary (positional writes, records in any
// order), or a descriptor (standard output, a stream file) in order. The caller commits `out` once the
// library call returned (commit_written): only then does an output file appear.
Sink sink_of(io::Writer& out);

// Commits `out` after a library call that wrote it through sink_of(out) has returned. The library's sink
// made the data durable as its last act (Sink::unpublished_file and Sink::fd fsync a regular file), so what
// is left is publishing an output file, in the order a power cut needs: its directory synced, the file
// linked or renamed into place, the directory synced again; a descriptor needs nothing more.
void commit_written(io::Writer& out);

// Keys that ask the terminal for a protected SSH key's passphrase and warn on standard error.
Keys terminal_keys();

// Header and payload errors are about the input: the message names it (standard input included), and so
// does the path field. Anything else, I/O errors with their errno included, goes on unchanged.
template <typename Work>
auto naming_input(const std::string& name, Work work) {
  try {
    return work();
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::damaged_header && e.kind() != ErrorKind::wrong_credential &&
        e.kind() != ErrorKind::damaged_payload)
      throw;
    // Named now: the path field says so, so that no caller names it again (app/report.h).
    ErrorFields fields = e.fields();
    fields.path = name;
    // The CLI's own failures stay its own (their hints are already in its words).
    if (dynamic_cast<const CliError*>(&e) != nullptr)
      throw CliError(e.code(), with_file_context(e, name), e.hint(), std::move(fields));
    throw Error(e.code(), with_file_context(e, name), e.hint(), std::move(fields));
  }
}

}  // namespace pcrypt::app
