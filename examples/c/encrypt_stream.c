/* encrypt_stream FORMAT RECIPIENT OUTPUT: encrypts standard input, as it arrives, to RECIPIENT ("age1...",
 * "ssh-ed25519 ...") into a new file OUTPUT in FORMAT ("age": `age -d` opens it; or "pcrypt"), through
 * libpcrypt's C encryptor. OUTPUT appears only once complete; an existing OUTPUT is refused. On failure: one
 * "encrypt_stream: error: ..." line, and the exit code the `pcrypt` command gives the same failure.
 *
 *   cc -std=c11 encrypt_stream.c $(pkg-config --cflags --libs pcrypt) -o encrypt_stream
 */
#include <pcrypt/pcrypt_c.h>

#include <stdio.h>
#include <string.h>

/* The exit status pcrypt itself gives for the same failure (man/pcrypt.1): the library leaves that choice to
 * its caller, which decides by the status (or, finer, pcrypt_error_code()). */
static int exit_status(int status) {
  switch (status) {
    case PCRYPT_ERROR_USAGE:
      return 2;
    case PCRYPT_ERROR_WRONG_CREDENTIAL:
    case PCRYPT_ERROR_DAMAGED_HEADER:
      return 3;
    case PCRYPT_ERROR_DAMAGED_PAYLOAD:
      return 4;
    default:
      return 1;
  }
}

static int fail(int status) {
  fprintf(stderr, "encrypt_stream: error: %s\n", pcrypt_error_message());
  if (pcrypt_error_hint()[0] != '\0') fprintf(stderr, "encrypt_stream: hint: %s\n", pcrypt_error_hint());
  return exit_status(status);
}

int main(int argc, char **argv) {
  static unsigned char buffer[64 << 10];
  pcrypt_recipients *to = NULL;
  pcrypt_options *options = NULL;
  pcrypt_sink *sink = NULL;
  pcrypt_encryptor *encryptor = NULL;
  size_t got;
  int status = PCRYPT_OK, code = 0;

  if (argc != 4 || (strcmp(argv[1], "age") != 0 && strcmp(argv[1], "pcrypt") != 0)) {
    fprintf(stderr, "usage: encrypt_stream age|pcrypt RECIPIENT OUTPUT\n");
    return 2;
  }
  to = pcrypt_recipients_new();
  options = pcrypt_options_new();
  if (to == NULL || options == NULL) return fail(pcrypt_error_status());
  if ((status = pcrypt_recipients_add(to, argv[2])) != PCRYPT_OK ||
      (status = pcrypt_options_set(options, PCRYPT_OPTION_FORMAT,
                                   strcmp(argv[1], "age") == 0 ? PCRYPT_FORMAT_AGE : PCRYPT_FORMAT_PCRYPT)) !=
          PCRYPT_OK ||
      (sink = pcrypt_sink_path(argv[3], 0)) == NULL ||
      (status = pcrypt_encryptor_new(&encryptor, sink, to, options)) != PCRYPT_OK) {
    code = fail(sink == NULL && status == PCRYPT_OK ? pcrypt_error_status() : status);
  } else {
    while (status == PCRYPT_OK && (got = fread(buffer, 1, sizeof buffer, stdin)) > 0)
      status = pcrypt_encryptor_write(encryptor, buffer, got);
    if (status == PCRYPT_OK && ferror(stdin)) {
      fprintf(stderr, "encrypt_stream: error: cannot read standard input\n");
      code = 1;
    } else if (status != PCRYPT_OK || (status = pcrypt_encryptor_finish(encryptor, NULL)) != PCRYPT_OK) {
      code = fail(status);
    }
  }
  pcrypt_encryptor_free(encryptor); /* unfinished (after a failure): OUTPUT never appears */
  pcrypt_sink_free(sink);
  pcrypt_options_free(options);
  pcrypt_recipients_free(to);
  return code;
}
