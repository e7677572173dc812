// C2SP chunked encryption behind the door (core/opened_file.h): a Cobblestone file opened once (its 56-byte
// header read), unlocked by a raw key credential (Credential::Kind::raw_key: the input key and the context)
// whose commitment must match before any chunk is opened, and a new one started.
#pragma once

#include <memory>
#include <vector>

#include "core/cobblestone/chunked.h"
#include "core/opened_file.h"
#include "io/buffered_input.h"

namespace pcrypt::core::cobblestone {

// The instantiation of a Cobblestone format (Format::cobblestone_128 or _256); std::logic_error otherwise.
const Instantiation& instantiation_of(Format format);

// Reads the 56-byte header from `in` (at the file's first byte). Error(header) when the input is shorter
// than the shortest valid file (kMinFileBytes: the header and an empty final chunk's tag). `in` must
// outlive the result.
std::unique_ptr<OpenedFile> open_cobblestone_file(io::BufferedInput& in, Format format);

// A new message of settings.format from exactly one raw key credential (Error(usage) for anything else: the
// format has no recipients, passphrases or key slots).
NewFile new_cobblestone_file(const std::vector<Credential>& credentials, const NewFileSettings& settings);

}  // namespace pcrypt::core::cobblestone
