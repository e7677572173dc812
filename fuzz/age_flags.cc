// age's command line (app/age_flags.h) on hostile argument lists: the input's bytes split at NUL into
// arguments. Every list either parses (its values taken from the arguments, in order) or is a bad flag with
// Go's words; nothing may throw, crash or read past an argument.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/age_flags.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args;
  std::string current;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      args.push_back(current);
      current.clear();
    } else {
      current += static_cast<char>(data[i]);
    }
  }
  if (!current.empty()) args.push_back(current);
  const pcrypt::app::AgeParse parsed = pcrypt::app::parse_age_args(args);
  if (parsed.outcome == pcrypt::app::AgeParse::Outcome::bad_flag && parsed.error.empty()) std::abort();
  if (parsed.outcome == pcrypt::app::AgeParse::Outcome::run && parsed.args.inputs.size() > args.size())
    std::abort();
  return 0;
}
