// pcrypt's format behind the door (core/opened_file.h): a .pcrypt file opened once, its header parsed once.
#pragma once

#include <memory>

#include "core/opened_file.h"
#include "io/stream.h"

namespace pcrypt::core {

// Reads the header from `in` (at the magic; Error(header) if malformed), leaving `in` at record 0.
std::unique_ptr<OpenedFile> open_pcrypt_file(io::Reader& in);

// A new file's header (one slot per credential, at least one) and keyed payload.
NewFile new_pcrypt_file(const std::vector<Credential>& credentials, const NewFileSettings& settings);

}  // namespace pcrypt::core
