// read_stream IDENTITY_FILE FILE: writes the plaintext of an age or pcrypt file (age's own included) to
// standard output, pulled through pcrypt::Reader in 64 KiB pieces, the way a program feeds a decrypted file
// to a parser, a socket or a compressor: records are decrypted ahead on worker threads, and read() hands out
// only authenticated bytes. A damaged record: the bytes of the records before it, then one error line and
// the exit code the `pcrypt` command gives the same failure.
//
//   g++ -std=c++20 read_stream.cc $(pkg-config --cflags --libs pcrypt) -o read_stream
#include <pcrypt/pcrypt.h>
#include <pcrypt/reader.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <utility>

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
  if (argc != 3) {
    std::fprintf(stderr, "usage: read_stream IDENTITY_FILE FILE\n");
    return 2;
  }
  try {
    pcrypt::File file = pcrypt::File::open(pcrypt::Source::path(argv[2]));
    pcrypt::Credentials credentials;
    credentials.identity_files.push_back(argv[1]);
    file.unlock(credentials);
    pcrypt::Reader reader(std::move(file));
    static std::array<std::uint8_t, 64 << 10> buffer;
    while (const std::size_t got = reader.read(buffer)) {
      if (std::fwrite(buffer.data(), 1, got, stdout) != got) {
        std::fprintf(stderr, "read_stream: error: cannot write to standard output\n");
        return 1;
      }
    }
    if (std::fflush(stdout) != 0) {
      std::fprintf(stderr, "read_stream: error: cannot write to standard output\n");
      return 1;
    }
    return 0;
  } catch (const pcrypt::Error& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "read_stream: error: %s\n", e.what());
    if (!e.hint().empty()) std::fprintf(stderr, "read_stream: hint: %s\n", e.hint().c_str());
    return exit_status(e);
  }
}
