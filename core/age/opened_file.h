// age's format behind the door (core/opened_file.h): an age file (binary or armored) opened once, its header
// parsed once.
#pragma once

#include <memory>

#include "core/opened_file.h"
#include "io/buffered_input.h"

namespace pcrypt::core::age {

// Parses the header from `in` (at the file's first byte; armor removed if the file starts with it;
// Error(header) if malformed). `in` must outlive the result.
std::unique_ptr<OpenedFile> open_age_file(io::BufferedInput& in);

// A new file's header, payload nonce and keyed payload: one stanza per credential, age's rules
// (check_credential_mix, check_no_quantum_mix) enforced by wrap_file_key.
NewFile new_age_file(const std::vector<Credential>& credentials, const NewFileSettings& settings);

}  // namespace pcrypt::core::age
