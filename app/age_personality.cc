#include "app/age_personality.h"

#include <cctype>
#include <cstdio>
#include <cstring>

#include <pcrypt/pcrypt.h>

#include "app/endpoints.h"

namespace pcrypt::app {

std::string go_open_error(const std::string& path, int error_number) {
  std::string reason = std::strerror(error_number);
  // Go's errno strings are the C library's, starting lower case ("file exists").
  if (!reason.empty()) reason[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(reason[0])));
  return "open " + path + ": " + reason;
}

int report_age_error(const char* name, const std::string& message) {
  std::fprintf(stderr, "%s: error: %s\n", name, message.c_str());
  return 1;
}

int print_age_version() {
  std::printf("v%s\n", pcrypt::version().c_str());
  flush_stdout();
  return 0;
}

}  // namespace pcrypt::app
