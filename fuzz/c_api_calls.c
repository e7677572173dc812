/* libpcrypt's C API (include/pcrypt/pcrypt_c.h) on hostile arguments, from C: where fuzz/c_api.c gives the
 * input to the calls that read an encrypted file, here it is what a caller passes: recipient text
 * (pcrypt_recipients_add, pcrypt_rekey_add_recipient and _remove_recipient, pcrypt_check_recipient), a
 * passphrase, the contents of a key, identity or recipients file given by path (pcrypt_recipients_add_file and
 * _add_key_file, pcrypt_credentials_add_identity_file and _add_key_file, pcrypt_rekey_add_key_file and
 * _remove_identity_file), option, limit, code and field numbers with any value, a slot number, NULL handles
 * and strings. With what is accepted, a file is encrypted memory to memory (format, armor and chunk size from
 * the input), opened, unlocked with a fixed identity and the same files, read back (it must give the
 * plaintext whenever it unlocks), rekeyed into memory and opened again (with the slot count rekey said).
 * Every call returns PCRYPT_OK or one of the five statuses, with a message and a code of that status; every
 * string getter answers a string; nothing crashes, leaks or throws into C. Passphrases are used with pcrypt's
 * format only, under the cheapest Argon2id (age's scrypt cost cannot be lowered by a caller: a run per input
 * would take a second). */
#define _POSIX_C_SOURCE 200809L
#include <pcrypt/pcrypt_c.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Made by pcrypt keygen for fuzz/lib_api.cc (fuzz/c_api.c uses it too); its recipient is added below. */
static const char kIdentity[] = "AGE-SECRET-KEY-1CAZ8S47ZY58K8FNVHHJRM8MRE9PTMWMXAVWA9MFVF28VEFK6A8VS3EG3LK";

static void expect_status(int status) {
  uint64_t value = 0;
  size_t i;
  if (status == PCRYPT_OK) return;
  if (status < PCRYPT_ERROR_DAMAGED_PAYLOAD || status > PCRYPT_ERROR_IO) abort();
  if (pcrypt_error_status() != status || pcrypt_error_message()[0] == '\0') abort();
  if (pcrypt_error_code_status(pcrypt_error_code()) != status) abort();
  if (pcrypt_error_code_name(pcrypt_error_code())[0] == '\0') abort();
  if (pcrypt_error_hint() == NULL || pcrypt_error_path() == NULL) abort();
  for (i = 0; i < 16; ++i) (void)pcrypt_error_field((int)i, &value);
  for (i = 0; i < pcrypt_error_stanza_type_count(); ++i)
    if (pcrypt_error_stanza_type(i) == NULL) abort();
  if (pcrypt_error_stanza_type(pcrypt_error_stanza_type_count()) != NULL) abort();
}

/* The input, taken from the front: fixed-size numbers, then NUL-terminated strings. */
struct input {
  const uint8_t *data;
  size_t size;
};

static uint64_t take_number(struct input *in, size_t bytes) {
  uint64_t value = 0;
  size_t i;
  for (i = 0; i < bytes && in->size > 0; ++i, ++in->data, --in->size) value |= (uint64_t)in->data[0] << (8 * i);
  return value;
}

/* The next string up to a NUL (or the end), copied with its terminator; the caller frees it. */
static char *take_string(struct input *in) {
  const uint8_t *end = memchr(in->data, 0, in->size);
  const size_t length = end ? (size_t)(end - in->data) : in->size;
  char *text = malloc(length + 1);
  if (text == NULL) abort();
  if (length > 0) memcpy(text, in->data, length);
  text[length] = '\0';
  in->data += length;
  in->size -= length;
  if (in->size > 0) {
    ++in->data;
    --in->size;
  }
  return text;
}

/* One file for the paths, rewritten for each input. */
static const char *file_with(const char *text) {
  static char path[] = "/tmp/pcrypt-fuzz-c-api-calls-XXXXXX";
  static int fd = -1;
  const size_t length = strlen(text);
  if (fd < 0) {
    fd = mkstemp(path);
    if (fd < 0) abort();
  }
  if (ftruncate(fd, 0) != 0) abort();
  if (length > 0 && pwrite(fd, text, length, 0) != (ssize_t)length) abort();
  return path;
}

/* The handles' calls with NULL where a handle or a string goes: PCRYPT_ERROR_USAGE, never a crash. */
static void null_arguments(void) {
  pcrypt_recipients *recipients = pcrypt_recipients_new();
  pcrypt_rekey *rekey = pcrypt_rekey_new();
  pcrypt_credentials *credentials = pcrypt_credentials_new();
  pcrypt_options *options = pcrypt_options_new();
  pcrypt_file *file = NULL;
  size_t size = 1;
  if (!recipients || !rekey || !credentials || !options) abort();
  if (pcrypt_recipients_add(NULL, "age1") != PCRYPT_ERROR_USAGE) abort();
  if (pcrypt_recipients_add(recipients, NULL) != PCRYPT_ERROR_USAGE) abort();
  if (pcrypt_recipients_add_file(recipients, NULL) != PCRYPT_ERROR_USAGE) abort();
  if (pcrypt_recipients_add_key_file(recipients, NULL) != PCRYPT_ERROR_USAGE) abort();
  if (pcrypt_recipients_set_passphrase(recipients, NULL) != PCRYPT_ERROR_USAGE) abort();
  if (pcrypt_rekey_add_recipient(rekey, NULL) != PCRYPT_ERROR_USAGE) abort();
  if (pcrypt_rekey_remove_recipient(NULL, "age1") != PCRYPT_ERROR_USAGE) abort();
  if (pcrypt_rekey_add_key_file(rekey, NULL) != PCRYPT_ERROR_USAGE) abort();
  if (pcrypt_rekey_remove_identity_file(rekey, NULL) != PCRYPT_ERROR_USAGE) abort();
  if (pcrypt_rekey_add_passphrase(rekey, NULL) != PCRYPT_ERROR_USAGE) abort();
  if (pcrypt_credentials_add_identity(credentials, NULL) != PCRYPT_ERROR_USAGE) abort();
  if (pcrypt_credentials_add_identity_file(NULL, "x") != PCRYPT_ERROR_USAGE) abort();
  if (pcrypt_credentials_add_key_file(credentials, NULL) != PCRYPT_ERROR_USAGE) abort();
  if (pcrypt_credentials_set_passphrase(credentials, NULL) != PCRYPT_ERROR_USAGE) abort();
  if (pcrypt_options_set(NULL, PCRYPT_OPTION_THREADS, 1) != PCRYPT_ERROR_USAGE) abort();
  if (pcrypt_check_recipient(NULL) != PCRYPT_ERROR_USAGE) abort();
  if (pcrypt_encrypt(NULL, NULL, recipients, options, NULL) != PCRYPT_ERROR_USAGE) abort();
  if (pcrypt_file_open(&file, NULL) != PCRYPT_ERROR_USAGE || file != NULL) abort();
  if (pcrypt_file_rekey(NULL, rekey, NULL, options, &size) != PCRYPT_ERROR_USAGE || size != 1) abort();
  if (pcrypt_sink_memory_data(NULL, &size) != NULL || size != 0) abort();
  pcrypt_options_free(options);
  pcrypt_credentials_free(credentials);
  pcrypt_rekey_free(rekey);
  pcrypt_recipients_free(recipients);
}

/* The encrypted bytes opened, unlocked by `by` and read: the plaintext whenever it unlocks. Returns the
 * unlocked file, or NULL. */
static pcrypt_file *open_and_check(const uint8_t *bytes, size_t size, const pcrypt_credentials *by,
                                   const char *plaintext, size_t plaintext_size) {
  pcrypt_source *source = pcrypt_source_memory(bytes, size);
  pcrypt_sink *sink = pcrypt_sink_memory();
  pcrypt_file *file = NULL;
  const uint8_t *out;
  size_t out_size = 0;
  uint64_t shown = 0;
  int status;
  if (source == NULL || sink == NULL) abort();
  status = pcrypt_file_open(&file, source);
  pcrypt_source_free(source);
  expect_status(status);
  if (status != PCRYPT_OK) {
    pcrypt_sink_free(sink);
    return NULL;
  }
  status = pcrypt_file_unlock(file, by);
  expect_status(status);
  if (status == PCRYPT_OK && !pcrypt_file_armored(file)) {
    status = pcrypt_file_plaintext_size(file, &shown);
    if (status != PCRYPT_OK || shown != plaintext_size) abort();
  }
  if (status == PCRYPT_OK) {
    /* The one place a plaintext may come back: only ever the one encrypted. */
    if (pcrypt_file_decrypt(file, sink, NULL, NULL) != PCRYPT_OK) abort();
    out = pcrypt_sink_memory_data(sink, &out_size);
    if (out_size != plaintext_size || (out_size > 0 && memcmp(out, plaintext, out_size) != 0)) abort();
  }
  pcrypt_sink_free(sink);
  if (status == PCRYPT_OK) return file;
  pcrypt_file_free(file);
  return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int nulls_checked = 0;
  struct input in = {data, size};
  const unsigned flags = (unsigned)take_number(&in, 2);
  const int raw_option = (int)take_number(&in, 1);
  const uint64_t raw_option_value = take_number(&in, 8);
  const int raw_limit = (int)take_number(&in, 1);
  const uint64_t raw_limit_value = take_number(&in, 8);
  const int raw_code = (int)(int32_t)take_number(&in, 4);
  const size_t slot = (size_t)take_number(&in, 1);
  const unsigned chunk_shift = (unsigned)take_number(&in, 1) % 4;
  char *recipient = take_string(&in);
  char *other_recipient = take_string(&in);
  char *passphrase = take_string(&in);
  char *file_text = take_string(&in);
  char *plaintext = take_string(&in);
  const int age = flags & 1, armor = (flags >> 1) & 1, with_passphrase = ((flags >> 2) & 1) && !age;
  const char *path = file_with(file_text);
  pcrypt_options *scratch = pcrypt_options_new(), *options = pcrypt_options_new();
  pcrypt_credentials *by = pcrypt_credentials_new(), *scratch_credentials = pcrypt_credentials_new();
  pcrypt_recipients *recipients = pcrypt_recipients_new();
  pcrypt_rekey *rekey = pcrypt_rekey_new();
  pcrypt_source *source;
  pcrypt_sink *sink, *rekeyed;
  pcrypt_file *file;
  pcrypt_transfer transfer;
  size_t slots_after = 0, encrypted_size = 0, rekeyed_size = 0;
  const uint8_t *encrypted;
  int status;

  if (!scratch || !options || !by || !scratch_credentials || !recipients || !rekey) abort();
  if (!nulls_checked) {
    null_arguments();
    nulls_checked = 1;
  }

  /* Any number for an option, a limit, a code, a field. */
  expect_status(pcrypt_options_set(scratch, (pcrypt_option)raw_option, raw_option_value));
  expect_status(pcrypt_credentials_set_limit(scratch_credentials, (pcrypt_limit)raw_limit, raw_limit_value));
  if (pcrypt_error_code_name(raw_code) == NULL || pcrypt_status_name(raw_code) == NULL) abort();
  status = pcrypt_error_code_status(raw_code);
  if (status < PCRYPT_ERROR_DAMAGED_PAYLOAD || status > PCRYPT_OK) abort();
  expect_status(pcrypt_check_recipient(recipient));

  /* The recipients: the text, the file as a recipients file and as a key file, maybe the fixed identity's. */
  expect_status(pcrypt_options_set(options, PCRYPT_OPTION_FORMAT, age ? PCRYPT_FORMAT_AGE : PCRYPT_FORMAT_PCRYPT));
  expect_status(pcrypt_options_set(options, PCRYPT_OPTION_ARMOR, (uint64_t)armor));
  expect_status(pcrypt_options_set(options, PCRYPT_OPTION_CHUNK_SIZE, PCRYPT_MIN_CHUNK_SIZE << chunk_shift));
  expect_status(pcrypt_options_set(options, PCRYPT_OPTION_THREADS, 1 + ((flags >> 3) & 1)));
  expect_status(pcrypt_options_set(options, PCRYPT_OPTION_ARGON2ID_MEMORY, 8 << 10));
  expect_status(pcrypt_options_set(options, PCRYPT_OPTION_ARGON2ID_PASSES, 1));
  expect_status(pcrypt_recipients_add(recipients, recipient));
  if (flags & 0x10) expect_status(pcrypt_recipients_add_file(recipients, path));
  if (flags & 0x20) expect_status(pcrypt_recipients_add_key_file(recipients, path));
  if (flags & 0x40)
    expect_status(pcrypt_recipients_add(recipients, "age1kgygyynk95sufjzmdtg3zxa84rnpmp8fkzvftj763mc2jvee656saezysn"));
  if (with_passphrase) expect_status(pcrypt_recipients_set_passphrase(recipients, passphrase));

  /* What unlocks: the fixed identity, maybe the same file as an identity file or a key file, the passphrase. */
  expect_status(pcrypt_credentials_add_identity(by, kIdentity));
  if (flags & 0x1000) expect_status(pcrypt_credentials_add_identity_file(by, path));
  if (flags & 0x2000) expect_status(pcrypt_credentials_add_key_file(by, path));
  if (with_passphrase) expect_status(pcrypt_credentials_set_passphrase(by, passphrase));
  expect_status(pcrypt_credentials_set_limit(by, PCRYPT_LIMIT_SCRYPT_LOG2, 4));
  expect_status(pcrypt_credentials_set_limit(by, PCRYPT_LIMIT_ARGON2ID_MEMORY, 64 << 10));
  expect_status(pcrypt_credentials_set_limit(by, PCRYPT_LIMIT_ARGON2ID_PASSES, 1));

  source = pcrypt_source_memory(plaintext, strlen(plaintext));
  sink = pcrypt_sink_memory();
  if (source == NULL || sink == NULL) abort();
  status = pcrypt_encrypt(source, sink, recipients, options, &transfer);
  expect_status(status);
  pcrypt_source_free(source);
  encrypted = pcrypt_sink_memory_data(sink, &encrypted_size);
  if (status == PCRYPT_OK && (transfer.plaintext_bytes != strlen(plaintext) || encrypted_size == 0)) abort();
  file = status == PCRYPT_OK ? open_and_check(encrypted, encrypted_size, by, plaintext, strlen(plaintext)) : NULL;
  if (file != NULL) {
    /* Rekeyed by what the input asks; the new file has the slots rekey says and opens where it unlocks. */
    expect_status(pcrypt_rekey_remove_slot(rekey, slot));
    if (flags & 0x4000) expect_status(pcrypt_rekey_remove_recipient(rekey, other_recipient));
    if (flags & 0x8000) expect_status(pcrypt_rekey_add_recipient(rekey, other_recipient));
    if (flags & 0x80) expect_status(pcrypt_rekey_add_key_file(rekey, path));
    if (flags & 0x100) expect_status(pcrypt_rekey_remove_identity_file(rekey, path));
    if (with_passphrase && (flags & 0x200)) expect_status(pcrypt_rekey_add_passphrase(rekey, passphrase));
    if (flags & 0x400) expect_status(pcrypt_rekey_new_file_key(rekey, (flags >> 11) & 1));
    rekeyed = pcrypt_sink_memory();
    if (rekeyed == NULL) abort();
    status = pcrypt_file_rekey(file, rekey, rekeyed, options, &slots_after);
    expect_status(status);
    if (status == PCRYPT_OK) {
      pcrypt_file *again;
      const uint8_t *bytes = pcrypt_sink_memory_data(rekeyed, &rekeyed_size);
      pcrypt_source *opened = pcrypt_source_memory(bytes, rekeyed_size);
      if (opened == NULL || pcrypt_file_open(&again, opened) != PCRYPT_OK) abort();
      if (pcrypt_file_slots(again) != slots_after) abort();
      pcrypt_file_free(again);
      pcrypt_source_free(opened);
      pcrypt_file_free(open_and_check(bytes, rekeyed_size, by, plaintext, strlen(plaintext)));
    }
    pcrypt_sink_free(rekeyed);
    pcrypt_file_free(file);
  }
  pcrypt_sink_free(sink);
  pcrypt_rekey_free(rekey);
  pcrypt_recipients_free(recipients);
  pcrypt_credentials_free(scratch_credentials);
  pcrypt_credentials_free(by);
  pcrypt_options_free(options);
  pcrypt_options_free(scratch);
  free(plaintext);
  free(file_text);
  free(passphrase);
  free(other_recipient);
  free(recipient);
  return 0;
}
