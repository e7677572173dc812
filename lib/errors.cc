// pcrypt::Error and the one translation of the core's errors (core::Error, io::IoError, the pipeline's
// StreamError) into it: the kind that decides the caller's next step and the CLI's exit code.
#define PCRYPT_BUILDING_LIBRARY
#include <new>

#include "core/pipeline_error.h"
#include "io/stream.h"
#include "lib/internal.h"

namespace pcrypt {
inline namespace v0 {

Error::Error(ErrorKind kind, const std::string& message, std::string hint, int error_number)
    : std::runtime_error(message), kind_(kind), hint_(std::move(hint)), error_number_(error_number) {}

int Error::exit_code() const noexcept {
  switch (kind_) {
    case ErrorKind::io:
      return 1;
    case ErrorKind::usage:
      return 2;
    case ErrorKind::wrong_credential:
    case ErrorKind::damaged_header:
      return 3;
    case ErrorKind::damaged_payload:
      return 4;
  }
  return 1;
}

namespace detail {

void require_not_moved_from(const void* impl, const char* what) {
  if (impl == nullptr)
    throw core::Error(core::ErrorKind::usage, std::string("this ") + what + " was moved from",
                      std::string("use the ") + what + " it was moved to");
}

void rethrow_as_public(Phase phase) {
  try {
    throw;
  } catch (const Error&) {
    throw;
  } catch (const core::StreamError& e) {
    // A write or read the pipeline made failed: the errno says whether the reader went away (EPIPE).
    throw Error(e.kind() == core::ErrorKind::usage ? ErrorKind::usage : ErrorKind::io, e.what(), e.hint(),
                e.error_number());
  } catch (const core::Error& e) {
    ErrorKind kind = ErrorKind::io;
    switch (e.kind()) {
      case core::ErrorKind::io:
        kind = ErrorKind::io;
        break;
      case core::ErrorKind::usage:
        kind = ErrorKind::usage;
        break;
      case core::ErrorKind::header:
        kind = phase == Phase::unlock ? ErrorKind::wrong_credential : ErrorKind::damaged_header;
        break;
      case core::ErrorKind::payload:
        kind = ErrorKind::damaged_payload;
        break;
    }
    throw Error(kind, e.what(), e.hint());
  } catch (const io::IoError& e) {
    throw Error(ErrorKind::io, e.what(), {}, e.error_number());
  } catch (const std::bad_alloc&) {
    throw Error(ErrorKind::io, "out of memory");
  }
}

}  // namespace detail
}  // namespace v0
}  // namespace pcrypt
