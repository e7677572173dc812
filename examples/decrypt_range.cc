// decrypt_range IDENTITY_FILE FILE OFFSET LENGTH: plaintext bytes [OFFSET, OFFSET + LENGTH) of an age or
// pcrypt file to standard output. Only the records holding the range are read, each authenticated before
// any of its bytes is written: a damaged chunk gives one error line and a non-zero exit, never its bytes.
// IDENTITY_FILE is an age identity file (or an SSH private key) for age files and identity-opened pcrypt
// files, or a pcrypt key file.
#include <pcrypt/pcrypt.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

// The exit status pcrypt itself gives for the same failure (man/pcrypt.1): the library leaves that choice to
// its caller, which decides by the error's kind (or, finer, its code()).
static int exit_status(const pcrypt::Error& e) {
  switch (e.kind()) {
    case pcrypt::ErrorKind::usage:
      return 2;
    case pcrypt::ErrorKind::wrong_credential:
    case pcrypt::ErrorKind::damaged_header:
      return 3;
    case pcrypt::ErrorKind::damaged_payload:
      return 4;
    default:
      return 1;
  }
}

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: decrypt_range IDENTITY_FILE FILE OFFSET LENGTH\n");
    return 2;
  }
  try {
    pcrypt::File file = pcrypt::File::open(pcrypt::Source::path(argv[2]));
    pcrypt::Credentials credentials;
    // A pcrypt key file and an identity file are told apart by their first line.
    if (std::FILE* f = std::fopen(argv[1], "r")) {
      char line[64] = {};
      bool key_file = false;
      while (std::fgets(line, sizeof line, f) != nullptr)
        if (line[0] != '#') {
          key_file = std::string(line).rfind("PCRYPT-KEY-1:", 0) == 0;
          break;
        }
      std::fclose(f);
      (key_file ? credentials.key_files : credentials.identity_files).push_back(argv[1]);
    } else {
      credentials.identity_files.push_back(argv[1]);  // unlock() reports why it cannot be read
    }
    file.unlock(credentials);
    std::vector<std::uint8_t> buffer(std::strtoull(argv[4], nullptr, 10));
    buffer.resize(file.read_at(std::strtoull(argv[3], nullptr, 10), buffer));
    if (std::fwrite(buffer.data(), 1, buffer.size(), stdout) != buffer.size() || std::fflush(stdout) != 0) {
      std::fprintf(stderr, "decrypt_range: cannot write to standard output\n");
      return 1;
    }
    return 0;
  } catch (const pcrypt::Error& e) {
    std::fprintf(stderr, "decrypt_range: error: %s\n", e.what());
    if (!e.hint().empty()) std::fprintf(stderr, "decrypt_range: hint: %s\n", e.hint().c_str());
    return exit_status(e);
  }
}
