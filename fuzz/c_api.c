/* libpcrypt's C API (include/pcrypt/pcrypt_c.h) on hostile bytes, from C as a C program calls it: the bytes
 * as an encrypted file (open from memory and from a read-at callback, the getters, info, unlock with a fixed
 * identity and cheap limits, read_at at a few offsets, the reader to the end, verify), as identity text, and
 * as a recipient. Every call returns a status that is PCRYPT_OK or one of the five errors, with a message for
 * an error; nothing else (no crash, no exception: a C++ exception crossing into C aborts the harness). */
#include <pcrypt/pcrypt_c.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void expect_status(int status) {
  if (status == PCRYPT_OK) return;
  if (status < PCRYPT_ERROR_DAMAGED_PAYLOAD || status > PCRYPT_ERROR_IO) abort();
  if (pcrypt_error_status() != status || pcrypt_error_message()[0] == '\0') abort();
}

struct bytes {
  const uint8_t *data;
  size_t size;
};

static int64_t read_bytes_at(void *user, uint64_t offset, void *buffer, size_t size) {
  const struct bytes *b = user;
  if (offset >= b->size) return 0;
  if (size > b->size - offset) size = (size_t)(b->size - offset);
  memcpy(buffer, b->data + offset, size);
  return (int64_t)size;
}

static void exercise(pcrypt_source *source, pcrypt_credentials *by) {
  static uint8_t buffer[70000];
  static const uint64_t offsets[] = {0, 1 << 16, 70000};
  pcrypt_file *file = NULL;
  pcrypt_reader *reader = NULL;
  const char *info = NULL;
  size_t got = 0, i;
  uint64_t size = 0;
  int status;

  status = pcrypt_file_open(&file, source);
  expect_status(status);
  if (status != PCRYPT_OK) return;
  if (pcrypt_file_slots(file) == 0 || pcrypt_file_slots_in_words(file)[0] == '\0') abort();
  expect_status(pcrypt_file_info(file, 1, &info));
  status = pcrypt_file_unlock(file, by);
  expect_status(status);
  if (status == PCRYPT_OK) {
    expect_status(pcrypt_file_plaintext_size(file, &size));
    for (i = 0; i < sizeof offsets / sizeof offsets[0]; ++i) {
      status = pcrypt_file_read_at(file, offsets[i], buffer, 100, &got);
      expect_status(status);
      if (status == PCRYPT_OK && got > 100) abort();
    }
    status = pcrypt_reader_new(&reader, file, NULL);
    expect_status(status);
    while (status == PCRYPT_OK) {
      status = pcrypt_reader_read(reader, buffer, sizeof buffer, &got);
      expect_status(status);
      if (status != PCRYPT_OK || got == 0) break;
    }
    pcrypt_reader_free(reader);
    expect_status(pcrypt_file_verify(file, NULL, NULL)); /* the reader has the file: a usage error */
  }
  pcrypt_file_free(file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  struct bytes b = {data, size};
  pcrypt_credentials *by = pcrypt_credentials_new();
  pcrypt_source *source;
  char *text;

  if (by == NULL) abort();
  /* Made by pcrypt keygen for fuzz/lib_api.cc: the seeds in tests/vectors/door are encrypted to it. */
  expect_status(pcrypt_credentials_add_identity(by, "AGE-SECRET-KEY-1CAZ8S47ZY58K8FNVHHJRM8MRE9PTMWMXAVWA9MFVF28VEFK6A8VS3EG3LK"));
  expect_status(pcrypt_credentials_set_limit(by, PCRYPT_LIMIT_SCRYPT_LOG2, 4));
  expect_status(pcrypt_credentials_set_limit(by, PCRYPT_LIMIT_ARGON2ID_MEMORY, 64 << 10));
  expect_status(pcrypt_credentials_set_limit(by, PCRYPT_LIMIT_ARGON2ID_PASSES, 1));

  source = pcrypt_source_memory(data, size);
  if (source == NULL) abort();
  exercise(source, by);
  pcrypt_source_free(source);
  source = pcrypt_source_callback(size, read_bytes_at, &b);
  if (source == NULL) abort();
  exercise(source, by);
  pcrypt_source_free(source);

  /* The bytes as text: a recipient, and identity text given to unlock (parsed there). */
  text = malloc(size + 1);
  if (text == NULL) abort();
  memcpy(text, data, size);
  text[size] = '\0';
  expect_status(pcrypt_check_recipient(text));
  if (strlen(text) > 0) {
    pcrypt_credentials *other = pcrypt_credentials_new();
    pcrypt_file *file = NULL;
    static const char age_file[] = "age-encryption.org/v1\n-> X25519 AAAA\nAAAA\n--- AAAA\n";
    expect_status(pcrypt_credentials_add_identity(other, text));
    source = pcrypt_source_memory(age_file, sizeof age_file - 1);
    if (pcrypt_file_open(&file, source) == PCRYPT_OK) expect_status(pcrypt_file_unlock(file, other));
    pcrypt_file_free(file);
    pcrypt_source_free(source);
    pcrypt_credentials_free(other);
  }
  free(text);
  pcrypt_credentials_free(by);
  return 0;
}
