#include "core/door/secret_file.h"

#include <cerrno>
#include <cstring>
#include <memory>

#include "core/error.h"
#include "io/fd_stream.h"

namespace pcrypt::core::door {

std::size_t read_secret_file(const std::string& path, const std::string& what, std::uint8_t* buf,
                             std::size_t capacity, const std::string& missing_hint,
                             std::optional<pcrypt_file_kind> role) {
  std::unique_ptr<io::FdReader> file;
  try {
    file = io::open_input(path);
  } catch (const io::IoError& e) {
    const int err = e.error_number();
    core::ErrorFields fields = core::ErrorFields().at_path(path).errno_value(err);
    if (role) fields.set(PCRYPT_FIELD_FILE_ROLE, *role);
    throw core::Error(PCRYPT_E_IO, "cannot open " + what + " " + path + ": " + std::strerror(err),
                      err == ENOENT ? missing_hint : std::string(), std::move(fields));
  }
  try {
    return file->read(buf, capacity);
  } catch (const io::IoError& e) {
    throw core::Error(PCRYPT_E_IO,
                      "cannot read " + what + " " + path + ": " + std::strerror(e.error_number()), {},
                      core::ErrorFields().at_path(path).errno_value(e.error_number()));
  }
}

}  // namespace pcrypt::core::door
