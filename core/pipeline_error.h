// The Error run_pipeline throws for a failed read or write: still a core::Error of kind io (so callers that
// catch core::Error need nothing new), but keeping the errno of the io::IoError behind it. The CLI uses it to
// treat EPIPE on its output (`pcrypt decrypt ... | head`) as the reader going away (app/main.cc), not as a
// failure to report.
#pragma once

#include <utility>

#include "core/error.h"

namespace pcrypt::core {

class StreamError : public Error {
 public:
  StreamError(Error e, int err) : Error(std::move(e)), errno_(err) {}
  int error_number() const { return errno_; }

 private:
  int errno_;
};

}  // namespace pcrypt::core
