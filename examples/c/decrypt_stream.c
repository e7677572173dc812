/* decrypt_stream IDENTITY_FILE FILE: writes the plaintext of an age or pcrypt file (age's own included) to
 * standard output, pulled through libpcrypt's C reader in 64 KiB pieces: only authenticated bytes ever reach
 * the output. On failure: one "decrypt_stream: error: ..." line (and a hint line), and the exit code the
 * `pcrypt` command gives the same failure.
 *
 *   cc -std=c11 decrypt_stream.c $(pkg-config --cflags --libs pcrypt) -o decrypt_stream
 */
#include <pcrypt/pcrypt_c.h>

#include <stdio.h>
#include <stdlib.h>

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
  fprintf(stderr, "decrypt_stream: error: %s\n", pcrypt_error_message());
  if (pcrypt_error_hint()[0] != '\0') fprintf(stderr, "decrypt_stream: hint: %s\n", pcrypt_error_hint());
  return exit_status(status);
}

int main(int argc, char **argv) {
  static unsigned char buffer[64 << 10];
  pcrypt_credentials *by = NULL;
  pcrypt_source *source = NULL;
  pcrypt_file *file = NULL;
  pcrypt_reader *reader = NULL;
  size_t got = 0;
  int status, code = 0;

  if (argc != 3) {
    fprintf(stderr, "usage: decrypt_stream IDENTITY_FILE FILE\n");
    return 2;
  }
  by = pcrypt_credentials_new();
  source = pcrypt_source_path(argv[2]);
  if (by == NULL || source == NULL) return fail(pcrypt_error_status());
  if ((status = pcrypt_credentials_add_identity_file(by, argv[1])) != PCRYPT_OK ||
      (status = pcrypt_file_open(&file, source)) != PCRYPT_OK || (status = pcrypt_file_unlock(file, by)) != PCRYPT_OK ||
      (status = pcrypt_reader_new(&reader, file, NULL)) != PCRYPT_OK) {
    code = fail(status);
  } else {
    while ((status = pcrypt_reader_read(reader, buffer, sizeof buffer, &got)) == PCRYPT_OK && got > 0) {
      if (fwrite(buffer, 1, got, stdout) != got) {
        fprintf(stderr, "decrypt_stream: error: cannot write to standard output\n");
        code = 1;
        break;
      }
    }
    if (status != PCRYPT_OK) code = fail(status);
  }
  pcrypt_reader_free(reader);
  pcrypt_file_free(file);
  pcrypt_source_free(source);
  pcrypt_credentials_free(by);
  if (fflush(stdout) != 0 && code == 0) code = 1;
  return code;
}
