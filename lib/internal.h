// What lib/pcrypt.cc shares with the library's other files (lib/encryptor.cc). Not installed: the public
// API is include/pcrypt/.
#pragma once

#include <memory>
#include <vector>

#include "core/door/encrypted_file.h"
#include "core/keys/credential.h"
#include "io/stream.h"
#include "pcrypt/pcrypt.h"

namespace pcrypt {
inline namespace v0 {
namespace detail {

// The sink's writer, taken from it (the sink is used up).
std::unique_ptr<io::Writer> take_writer(Sink& sink);

// Called inside a catch block: the exception in flight, a core or io error, rethrown as a pcrypt::Error.
[[noreturn]] void rethrow_as_public();

// What pcrypt::encrypt makes a new file with: the credentials `to` names, checked against the format's rules
// (ErrorKind::usage as core::Error), and the door's settings for `options`.
std::vector<core::Credential> encryption_credentials(const Recipients& to, const EncryptOptions& options);
core::door::EncryptSettings encrypt_settings(const EncryptOptions& options);

}  // namespace detail
}  // namespace v0
}  // namespace pcrypt
