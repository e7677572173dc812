/* The C API's cost over the C++ API (docs/BENCHMARKS.md, "The C API"): bench/reader_bench.cc's two ways of
 * decrypting a whole file, made through <pcrypt/pcrypt_c.h> instead, with the same arguments and output, so
 * that a whole-process timer compares the two APIs call for call.
 *   c_reader_bench reader FILE IDENTITY_FILE THREADS [BUFFER_BYTES]   pcrypt_reader_read into one buffer
 *   c_reader_bench decrypt FILE IDENTITY_FILE THREADS                 pcrypt_file_decrypt into a callback
 *                                                                     sink that discards */
#define _POSIX_C_SOURCE 200809L
#include <pcrypt/pcrypt_c.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int discard(void *user, const void *data, size_t size) {
  (void)user;
  (void)data;
  (void)size;
  return 0;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int fail(int status) {
  fprintf(stderr, "c_reader_bench: error: %s (%s)\n", pcrypt_error_message(), pcrypt_error_code_name(pcrypt_error_code()));
  return status == PCRYPT_ERROR_USAGE ? 2 : 1;
}

int main(int argc, char **argv) {
  pcrypt_credentials *by;
  pcrypt_source *source;
  pcrypt_options *options;
  pcrypt_file *file = NULL;
  unsigned long long bytes = 0;
  size_t buffer_bytes;
  double start, seconds;
  int status;

  if (argc < 5 || (strcmp(argv[1], "reader") != 0 && strcmp(argv[1], "decrypt") != 0)) {
    fprintf(stderr, "usage: c_reader_bench reader|decrypt FILE IDENTITY_FILE THREADS [BUFFER_BYTES]\n");
    return 2;
  }
  buffer_bytes = argc > 5 ? strtoull(argv[5], NULL, 10) : (size_t)64 << 10;
  by = pcrypt_credentials_new();
  options = pcrypt_options_new();
  source = pcrypt_source_path(argv[2]);
  if (by == NULL || options == NULL || source == NULL) return fail(pcrypt_error_status());
  if ((status = pcrypt_credentials_add_identity_file(by, argv[3])) != PCRYPT_OK ||
      (status = pcrypt_options_set(options, PCRYPT_OPTION_THREADS, strtoull(argv[4], NULL, 10))) != PCRYPT_OK ||
      (status = pcrypt_file_open(&file, source)) != PCRYPT_OK || (status = pcrypt_file_unlock(file, by)) != PCRYPT_OK)
    return fail(status);
  start = now();
  if (strcmp(argv[1], "reader") == 0) {
    pcrypt_reader *reader = NULL;
    unsigned char *buffer = malloc(buffer_bytes);
    size_t got = 0;
    if (buffer == NULL) return 1;
    if ((status = pcrypt_reader_new(&reader, file, options)) != PCRYPT_OK) return fail(status);
    while ((status = pcrypt_reader_read(reader, buffer, buffer_bytes, &got)) == PCRYPT_OK && got > 0) bytes += got;
    if (status != PCRYPT_OK) return fail(status);
    pcrypt_reader_free(reader);
    free(buffer);
  } else {
    pcrypt_sink *sink = pcrypt_sink_callback(discard, NULL);
    pcrypt_transfer moved;
    if (sink == NULL) return fail(pcrypt_error_status());
    if ((status = pcrypt_file_decrypt(file, sink, options, &moved)) != PCRYPT_OK) return fail(status);
    bytes = moved.plaintext_bytes;
    pcrypt_sink_free(sink);
  }
  seconds = now() - start;
  printf("%s threads=%s bytes=%llu seconds=%.4f GB/s=%.2f\n", argv[1], argv[4], bytes, seconds,
         (double)bytes / seconds / 1e9);
  pcrypt_file_free(file);
  pcrypt_source_free(source);
  pcrypt_options_free(options);
  pcrypt_credentials_free(by);
  return 0;
}
