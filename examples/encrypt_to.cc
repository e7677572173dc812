// encrypt_to FORMAT RECIPIENT INPUT OUTPUT: INPUT encrypted to RECIPIENT (an "age1…" recipient or an SSH
// public key line) as an age file (FORMAT age, which `age -d` opens) or a pcrypt file (FORMAT pcrypt, which
// `pcrypt decrypt` opens). OUTPUT appears only once complete, and is never replaced.
#include <pcrypt/pcrypt.h>

#include <cstdio>
#include <string>

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
    std::fprintf(stderr, "usage: encrypt_to FORMAT RECIPIENT INPUT OUTPUT\n");
    return 2;
  }
  const std::string format = argv[1];
  if (format != "age" && format != "pcrypt") {
    std::fprintf(stderr, "encrypt_to: error: FORMAT is age or pcrypt, not '%s'\n", argv[1]);
    return 2;
  }
  try {
    pcrypt::Recipients to;
    to.recipients.push_back(argv[2]);
    pcrypt::EncryptOptions options;
    options.format = format == "age" ? pcrypt::Format::age : pcrypt::Format::pcrypt;
    const pcrypt::Transfer done =
        pcrypt::encrypt(pcrypt::Source::path(argv[3]), pcrypt::Sink::path(argv[4]), to, options);
    std::fprintf(stderr, "encrypt_to: %llu bytes -> %llu bytes\n",
                 static_cast<unsigned long long>(done.plaintext_bytes),
                 static_cast<unsigned long long>(done.encrypted_bytes));
    return 0;
  } catch (const pcrypt::Error& e) {
    std::fprintf(stderr, "encrypt_to: error: %s\n", e.what());
    if (!e.hint().empty()) std::fprintf(stderr, "encrypt_to: hint: %s\n", e.hint().c_str());
    return exit_status(e);
  }
}
