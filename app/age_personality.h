// What the age-keygen and age-inspect personalities share: age's way of reporting (`NAME: error: ...` on
// standard error, exit 1), Go's wording of a failed open, and their -version.
#pragma once

#include <string>

namespace pcrypt::app {

// An error as age's commands word it: thrown by the personalities, printed and turned into exit 1.
struct AgeToolError {
  std::string message;
};

// Go's os.PathError text: "open PATH: no such file or directory".
std::string go_open_error(const std::string& path, int error_number);

// "NAME: error: MESSAGE" on standard error; returns age's exit status for it, 1.
int report_age_error(const char* name, const std::string& message);

// -version as age's tools print it, "v" and the version, on standard output; returns the exit status, 0.
int print_age_version();

}  // namespace pcrypt::app
