// pcrypt::Error and the one translation of the core's errors (core::Error, io::IoError, the pipeline's
// StreamError) into it: the code of <pcrypt/errors.h> and the fields, which decide the caller's next step.
#define PCRYPT_BUILDING_LIBRARY
#include <cerrno>
#include <new>

#include "core/pipeline_error.h"
#include "io/stream.h"
#include "lib/internal.h"

namespace pcrypt {
inline namespace v1 {

const char* error_code_name(ErrorCode code) noexcept {
  switch (static_cast<int>(code)) {
    case PCRYPT_E_NONE:
      return "PCRYPT_E_NONE";
#define PCRYPT_ERROR_CODE_NAME_(name, number, description) \
  case number:                                             \
    return #name;
      PCRYPT_ERROR_CODES(PCRYPT_ERROR_CODE_NAME_)
#undef PCRYPT_ERROR_CODE_NAME_
  }
  return "";
}

Error::Error(ErrorCode code, const std::string& message, std::string hint, ErrorFields fields)
    : std::runtime_error(message), code_(code), hint_(std::move(hint)), fields_(std::move(fields)) {}

Error::Error(const Error& failure, const std::string& message)
    : std::runtime_error(message), code_(failure.code_), hint_(failure.hint_), fields_(failure.fields_) {}

std::optional<std::uint64_t> Error::field(ErrorField which) const noexcept {
  for (const auto& [field, value] : fields_.numbers)
    if (field == which) return value;
  return std::nullopt;
}

namespace detail {

namespace {

ErrorFields public_fields(const core::ErrorFields& core) {
  ErrorFields fields;
  for (std::size_t i = 1; i < core.numbers.size(); ++i)
    if (core.numbers[i]) fields.numbers.emplace_back(static_cast<ErrorField>(i), *core.numbers[i]);
  fields.stanza_types = core.stanza_types;
  fields.path = core.path;
  fields.error_number = core.error_number;
  return fields;
}

}  // namespace

void require_not_moved_from(const void* impl, const char* what) {
  if (impl == nullptr)
    throw core::Error(PCRYPT_E_MOVED_FROM, std::string("this ") + what + " was moved from",
                      std::string("use the ") + what + " it was moved to");
}

void rethrow_as_public(Phase) {
  try {
    throw;
  } catch (const Error&) {
    throw;
  } catch (const core::StreamError& e) {
    // A write or read the pipeline made failed: the errno says whether the reader went away (EPIPE).
    ErrorFields fields = public_fields(e.fields());
    fields.error_number = e.error_number();
    throw Error(e.code(), e.what(), e.hint(), std::move(fields));
  } catch (const core::Error& e) {
    throw Error(e.code(), e.what(), e.hint(), public_fields(e.fields()));
  } catch (const io::IoError& e) {
    ErrorFields fields;
    fields.error_number = e.error_number();
    throw Error(core::code_of_io_failure(e.error_number()), e.what(), {}, std::move(fields));
  } catch (const std::bad_alloc&) {
    throw Error(PCRYPT_E_OUT_OF_MEMORY, "out of memory");
  }
}

}  // namespace detail
}  // namespace v1
}  // namespace pcrypt
