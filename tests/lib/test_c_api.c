/* libpcrypt's C API (include/pcrypt/pcrypt_c.h), exercised from C and compiled by a C compiler
 * (-std=c11 -pedantic): round trips with files the real age (Debian's age 1.1.1) wrote and reads, every
 * error path's status, message and errno, read_at from a callback source and from several threads, the
 * encryptor, keygen, rekey and verify.
 *
 *   test_c_api [AGE_BINARY]   (no argument or "": the cases that need age are skipped, and say so)
 */
#define _POSIX_C_SOURCE 200809L
#include <pcrypt/pcrypt_c.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int failures = 0;
static int checks = 0;

#define CHECK(condition)                                                                            \
  do {                                                                                              \
    ++checks;                                                                                       \
    if (!(condition)) {                                                                             \
      ++failures;                                                                                   \
      fprintf(stderr, "%s:%d: CHECK(%s) failed (last error: %s)\n", __FILE__, __LINE__, #condition, \
              pcrypt_error_message());                                                              \
    }                                                                                               \
  } while (0)

/* A call that must succeed. */
#define OK(call) CHECK((call) == PCRYPT_OK)

/* A call that must fail with `status`, a message, and (when `errnum` is not 0) that errno. */
#define FAILS(call, status, errnum)                                                 \
  do {                                                                              \
    int got_ = (call);                                                              \
    CHECK(got_ == (status));                                                        \
    CHECK(pcrypt_error_status() == (status));                                       \
    CHECK(pcrypt_error_message()[0] != '\0');                                       \
    if ((errnum) != 0) CHECK(pcrypt_error_errno() == (errnum));                     \
    if (got_ != (status))                                                           \
      fprintf(stderr, "  %s: got %s, wanted %s\n", #call, pcrypt_status_name(got_), \
              pcrypt_status_name(status));                                          \
  } while (0)

static const char* age_binary = NULL;
static char dir[64];

static const char* path_in(const char* name) {
  static char paths[8][256];
  static int next = 0;
  char* p = paths[next++ % 8];
  snprintf(p, 256, "%s/%s", dir, name);
  return p;
}

static void write_file(const char* path, const void* data, size_t size) {
  FILE* f = fopen(path, "wb");
  if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
    perror(path);
    exit(1);
  }
}

static uint8_t* read_file(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  uint8_t* data = NULL;
  long length;
  if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (length = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
    perror(path);
    exit(1);
  }
  data = malloc((size_t)length + 1);
  if (data == NULL || fread(data, 1, (size_t)length, f) != (size_t)length) exit(1);
  fclose(f);
  *size = (size_t)length;
  return data;
}

/* Runs a shell command; 0 when it exited 0. */
static int run(const char* command) {
  int status = system(command);
  if (status != 0) fprintf(stderr, "  command failed (%d): %s\n", status, command);
  return status;
}

static uint8_t* plain;
static const size_t plain_size = 300000;

static int read_all(pcrypt_reader *reader, size_t piece, uint8_t *out, size_t *total);

static void make_plaintext(void) {
  size_t i;
  uint32_t x = 12345;
  plain = malloc(plain_size);
  for (i = 0; i < plain_size; ++i) {
    x = x * 1664525u + 1013904223u;
    plain[i] = (uint8_t)(x >> 24);
  }
  write_file(path_in("plain"), plain, plain_size);
}

/* A new age identity, written to `identity_path`; its recipient copied to `recipient`. */
static void new_identity(const char* identity_path, char* recipient, size_t capacity) {
  pcrypt_key* key = NULL;
  OK(pcrypt_keygen(&key, PCRYPT_KEY_AGE_X25519));
  CHECK(key != NULL && strstr(pcrypt_key_text(key), "AGE-SECRET-KEY-1") != NULL);
  CHECK(strncmp(pcrypt_key_recipient(key), "age1", 4) == 0);
  write_file(identity_path, pcrypt_key_text(key), strlen(pcrypt_key_text(key)));
  snprintf(recipient, capacity, "%s", pcrypt_key_recipient(key));
  pcrypt_key_free(key);
}

/* Opens `path` and unlocks it with the identity file; NULL (and a failed check) when either fails. */
static pcrypt_file* open_unlocked(const char* path, const char* identity_file) {
  pcrypt_source* source = pcrypt_source_path(path);
  pcrypt_credentials* by = pcrypt_credentials_new();
  pcrypt_file* file = NULL;
  CHECK(source != NULL && by != NULL);
  OK(pcrypt_credentials_add_identity_file(by, identity_file));
  OK(pcrypt_file_open(&file, source));
  if (file != NULL && pcrypt_file_unlock(file, by) != PCRYPT_OK) {
    CHECK(!"unlock failed");
    pcrypt_file_free(file);
    file = NULL;
  }
  pcrypt_credentials_free(by);
  pcrypt_source_free(source);
  return file;
}

/* The whole plaintext of an unlocked file, through a memory sink, checked against `plain`. */
static void check_decrypts_to_plain(pcrypt_file* file) {
  pcrypt_sink* sink = pcrypt_sink_memory();
  pcrypt_transfer moved;
  size_t size = 0;
  const uint8_t* bytes;
  OK(pcrypt_file_decrypt(file, sink, NULL, &moved));
  bytes = pcrypt_sink_memory_data(sink, &size);
  CHECK(size == plain_size && bytes != NULL && memcmp(bytes, plain, plain_size) == 0);
  CHECK(moved.plaintext_bytes == plain_size);
  pcrypt_sink_free(sink);
}

static void test_status_names(void) {
  CHECK(strcmp(pcrypt_status_name(PCRYPT_OK), "ok") == 0);
  CHECK(strcmp(pcrypt_status_name(PCRYPT_ERROR_DAMAGED_PAYLOAD), "damaged payload") == 0);
  CHECK(strcmp(pcrypt_status_name(42), "unknown status") == 0);
  CHECK(pcrypt_version()[0] >= '0' && pcrypt_version()[0] <= '9');
}

/* A file the real age wrote: described, unlocked, decrypted, verified, ranges read; armored too. */
static void test_file_age_wrote(const char* identity, const char* recipient) {
  char command[1024];
  pcrypt_file* file;
  uint8_t buffer[70000];
  size_t got = 0;
  uint64_t size = 0;
  pcrypt_transfer verified;
  const char* info = NULL;

  snprintf(command, sizeof command, "'%s' -r %s -o '%s' '%s'", age_binary, recipient, path_in("byage.age"),
           path_in("plain"));
  if (run(command) != 0) {
    CHECK(!"age could not encrypt");
    return;
  }
  file = open_unlocked(path_in("byage.age"), identity);
  if (file == NULL) return;
  CHECK(pcrypt_file_format(file) == PCRYPT_FORMAT_AGE);
  CHECK(pcrypt_file_armored(file) == 0);
  CHECK(pcrypt_file_slots(file) == 1);
  CHECK(pcrypt_file_passphrase_slots(file) == 0);
  CHECK(pcrypt_file_chunk_size(file) == 65536);
  CHECK(strstr(pcrypt_file_slots_in_words(file), "X25519") != NULL);
  OK(pcrypt_file_info(file, 0, &info));
  CHECK(info != NULL && strstr(info, "X25519") != NULL);
  OK(pcrypt_file_plaintext_size(file, &size));
  CHECK(size == plain_size);
  OK(pcrypt_file_read_at(file, 100000, buffer, sizeof buffer, &got));
  CHECK(got == sizeof buffer && memcmp(buffer, plain + 100000, got) == 0);
  OK(pcrypt_file_read_at(file, plain_size - 10, buffer, sizeof buffer, &got));
  CHECK(got == 10 && memcmp(buffer, plain + plain_size - 10, 10) == 0);
  got = 1;
  OK(pcrypt_file_read_at(file, plain_size + 5, buffer, sizeof buffer, &got)); /* past the end: 0, as pread */
  CHECK(got == 0);
  check_decrypts_to_plain(file);
  OK(pcrypt_file_verify(file, NULL, &verified));
  CHECK(verified.plaintext_bytes == plain_size && verified.records == 5);
  pcrypt_file_free(file);

  snprintf(command, sizeof command, "'%s' -a -r %s -o '%s' '%s'", age_binary, recipient,
           path_in("armored.age"), path_in("plain"));
  if (run(command) != 0) {
    CHECK(!"age could not encrypt");
    return;
  }
  file = open_unlocked(path_in("armored.age"), identity);
  if (file == NULL) return;
  CHECK(pcrypt_file_armored(file) == 1);
  FAILS(pcrypt_file_read_at(file, 0, buffer, 10, &got), PCRYPT_ERROR_USAGE, 0);
  check_decrypts_to_plain(file);
  pcrypt_file_free(file);
}

/* Files the C API writes, opened by the real age: pcrypt_encrypt and the encryptor. */
static void test_age_opens_what_c_wrote(const char* identity, const char* recipient) {
  char command[1024];
  pcrypt_recipients* to = pcrypt_recipients_new();
  pcrypt_source* from = pcrypt_source_path(path_in("plain"));
  pcrypt_sink* into = pcrypt_sink_path(path_in("byc.age"), 0);
  pcrypt_encryptor* encryptor = NULL;
  pcrypt_transfer moved;
  size_t i;

  OK(pcrypt_recipients_add(to, recipient));
  OK(pcrypt_encrypt(from, into, to, NULL, &moved));
  CHECK(moved.plaintext_bytes == plain_size && moved.encrypted_bytes > plain_size);
  snprintf(command, sizeof command, "'%s' -d -i '%s' '%s' | cmp -s - '%s'", age_binary, identity,
           path_in("byc.age"), path_in("plain"));
  CHECK(run(command) == 0);
  pcrypt_sink_free(into);
  pcrypt_source_free(from);

  into = pcrypt_sink_path(path_in("streamed.age"), 0);
  OK(pcrypt_encryptor_new(&encryptor, into, to, NULL));
  for (i = 0; i < plain_size; i += 7777)
    OK(pcrypt_encryptor_write(encryptor, plain + i, plain_size - i < 7777 ? plain_size - i : 7777));
  CHECK(access(path_in("streamed.age"), F_OK) != 0); /* not before finish */
  OK(pcrypt_encryptor_finish(encryptor, &moved));
  CHECK(moved.plaintext_bytes == plain_size);
  FAILS(pcrypt_encryptor_write(encryptor, plain, 1), PCRYPT_ERROR_USAGE, 0);
  FAILS(pcrypt_encryptor_finish(encryptor, NULL), PCRYPT_ERROR_USAGE, 0);
  pcrypt_encryptor_free(encryptor);
  snprintf(command, sizeof command, "'%s' -d -i '%s' '%s' | cmp -s - '%s'", age_binary, identity,
           path_in("streamed.age"), path_in("plain"));
  CHECK(run(command) == 0);
  pcrypt_sink_free(into);

  /* Freed unfinished: the file is abandoned, never appears. */
  into = pcrypt_sink_path(path_in("abandoned.age"), 0);
  OK(pcrypt_encryptor_new(&encryptor, into, to, NULL));
  OK(pcrypt_encryptor_write(encryptor, plain, 1000));
  pcrypt_encryptor_free(encryptor);
  pcrypt_sink_free(into);
  CHECK(access(path_in("abandoned.age"), F_OK) != 0);
  pcrypt_recipients_free(to);
}

struct memory_file {
  const uint8_t* bytes;
  size_t size;
  int calls;
  int fail_at_call; /* 0: never */
  pthread_mutex_t lock;
};

static int64_t read_memory_at(void* user, uint64_t offset, void* buffer, size_t size) {
  struct memory_file* m = user;
  int failing;
  pthread_mutex_lock(&m->lock); /* the reader's workers call this from their threads */
  ++m->calls;
  failing = m->fail_at_call != 0 && m->calls >= m->fail_at_call;
  pthread_mutex_unlock(&m->lock);
  if (failing) return -EHOSTUNREACH;
  if (offset >= m->size) return 0;
  if (size > m->size - offset) size = (size_t)(m->size - offset);
  memcpy(buffer, m->bytes + offset, size);
  return (int64_t)size;
}

struct range_job {
  const pcrypt_file* file;
  uint64_t offset;
  int ok;
};

static void* read_range_job(void* argument) {
  struct range_job* job = argument;
  uint8_t buffer[5000];
  size_t got = 0;
  job->ok = pcrypt_file_read_at(job->file, job->offset, buffer, sizeof buffer, &got) == PCRYPT_OK &&
            got == sizeof buffer && memcmp(buffer, plain + job->offset, got) == 0;
  return NULL;
}

/* A pcrypt file made with the encryptor into memory, read back through a read-at callback source from four
 * threads at once; then a source whose callback fails. */
static void test_callback_source_and_threads(const char* identity, const char* recipient) {
  pcrypt_recipients* to = pcrypt_recipients_new();
  pcrypt_options* options = pcrypt_options_new();
  pcrypt_sink* into = pcrypt_sink_memory();
  pcrypt_encryptor* encryptor = NULL;
  struct memory_file m;
  pcrypt_source* source;
  pcrypt_credentials* by = pcrypt_credentials_new();
  pcrypt_file* file = NULL;
  pthread_t threads[4];
  struct range_job jobs[4];
  uint8_t buffer[100];
  size_t got = 0;
  int i;

  OK(pcrypt_recipients_add(to, recipient));
  OK(pcrypt_options_set(options, PCRYPT_OPTION_FORMAT, PCRYPT_FORMAT_PCRYPT));
  OK(pcrypt_options_set(options, PCRYPT_OPTION_CHUNK_SIZE, 16384));
  OK(pcrypt_options_set(options, PCRYPT_OPTION_THREADS, 2));
  OK(pcrypt_encryptor_new(&encryptor, into, to, options));
  OK(pcrypt_encryptor_write(encryptor, plain, plain_size));
  OK(pcrypt_encryptor_finish(encryptor, NULL));
  pcrypt_encryptor_free(encryptor);

  memset(&m, 0, sizeof m);
  pthread_mutex_init(&m.lock, NULL);
  m.bytes = pcrypt_sink_memory_data(into, &m.size);
  CHECK(m.bytes != NULL && m.size > plain_size);
  source = pcrypt_source_callback(m.size, read_memory_at, &m);
  OK(pcrypt_credentials_add_identity_file(by, identity));
  OK(pcrypt_file_open(&file, source));
  FAILS(pcrypt_file_open(&file, source), PCRYPT_ERROR_USAGE, 0); /* a source serves one call */
  CHECK(pcrypt_file_format(file) == PCRYPT_FORMAT_PCRYPT);
  CHECK(pcrypt_file_chunk_size(file) == 16384);
  FAILS(pcrypt_file_read_at(file, 0, buffer, sizeof buffer, &got), PCRYPT_ERROR_USAGE, 0); /* not unlocked */
  OK(pcrypt_file_unlock(file, by));
  for (i = 0; i < 4; ++i) {
    jobs[i].file = file;
    jobs[i].offset = (uint64_t)i * 61000 + 333;
    jobs[i].ok = 0;
    CHECK(pthread_create(&threads[i], NULL, read_range_job, &jobs[i]) == 0);
  }
  for (i = 0; i < 4; ++i) {
    pthread_join(threads[i], NULL);
    CHECK(jobs[i].ok);
  }
  m.fail_at_call = m.calls + 1;
  FAILS(pcrypt_file_read_at(file, 200000, buffer, sizeof buffer, &got), PCRYPT_ERROR_IO, EHOSTUNREACH);
  m.fail_at_call = m.calls + 1;
  FAILS(pcrypt_file_verify(file, NULL, NULL), PCRYPT_ERROR_IO, EHOSTUNREACH);
  m.fail_at_call = 0;
  {
    /* the reader over the same callback source: the whole plaintext, then a callback failure's errno */
    pcrypt_file *again = NULL;
    pcrypt_source *second = pcrypt_source_callback(m.size, read_memory_at, &m);
    pcrypt_reader *reader = NULL;
    uint8_t *out = malloc(plain_size);
    size_t total = 0;
    OK(pcrypt_file_open(&again, second));
    OK(pcrypt_file_unlock(again, by));
    OK(pcrypt_reader_new(&reader, again, NULL));
    OK(read_all(reader, 4096, out, &total));
    CHECK(total == plain_size && memcmp(out, plain, plain_size) == 0);
    pcrypt_reader_free(reader);
    pcrypt_file_free(again);
    pcrypt_source_free(second);
    second = pcrypt_source_callback(m.size, read_memory_at, &m);
    OK(pcrypt_file_open(&again, second));
    OK(pcrypt_file_unlock(again, by));
    /* Set before the reader exists: its workers start reading ahead at once, and once they have read the
     * whole (small) file, a failure armed later would never be reached. */
    m.fail_at_call = m.calls + 1;
    OK(pcrypt_reader_new(&reader, again, NULL));
    CHECK(read_all(reader, 4096, out, &total) == PCRYPT_ERROR_IO);
    CHECK(pcrypt_error_errno() == EHOSTUNREACH);
    CHECK(memcmp(out, plain, total) == 0);
    m.fail_at_call = 0;
    pcrypt_reader_free(reader);
    pcrypt_file_free(again);
    pcrypt_source_free(second);
    free(out);
  }
  OK(pcrypt_file_read_at(file, 200000, buffer, sizeof buffer, &got));
  CHECK(got == sizeof buffer && memcmp(buffer, plain + 200000, got) == 0);

  pcrypt_file_free(file);
  pcrypt_source_free(source);
  pcrypt_credentials_free(by);
  pcrypt_sink_free(into);
  pcrypt_options_free(options);
  pcrypt_recipients_free(to);
  pthread_mutex_destroy(&m.lock);
}

struct collected {
  uint8_t* bytes;
  size_t size;
  int fail_after; /* pieces; 0: never */
  int pieces;
};

static int collect(void* user, const void* data, size_t size) {
  struct collected* c = user;
  if (c->fail_after != 0 && c->pieces >= c->fail_after) return -ENOSPC;
  ++c->pieces;
  memcpy(c->bytes + c->size, data, size);
  c->size += size;
  return 0;
}

static void progress(void* user, uint64_t done) {
  uint64_t* last = user;
  if (done < *last)
    *last = UINT64_MAX; /* never decreasing */
  else
    *last = done;
}

/* Damage and refusal: every status from the calls that give it. */
static void test_error_paths(const char* identity, const char* recipient) {
  static const uint8_t not_encrypted[] = "just some text, not an encrypted file\n";
  pcrypt_source* source;
  pcrypt_file* file = NULL;
  pcrypt_credentials* by;
  pcrypt_recipients* to = pcrypt_recipients_new();
  pcrypt_options* options = pcrypt_options_new();
  pcrypt_sink* sink;
  uint8_t* damaged;
  size_t damaged_size, got = 0;
  uint8_t buffer[1000];
  char other_identity[256], other_recipient[128];
  struct collected c;
  uint64_t last_progress = 0;
  pcrypt_transfer moved;

  /* NULL arguments */
  FAILS(pcrypt_file_open(NULL, NULL), PCRYPT_ERROR_USAGE, 0);
  FAILS(pcrypt_file_open(&file, NULL), PCRYPT_ERROR_USAGE, 0);
  FAILS(pcrypt_file_unlock(NULL, NULL), PCRYPT_ERROR_USAGE, 0);
  FAILS(pcrypt_check_recipient(NULL), PCRYPT_ERROR_USAGE, 0);
  CHECK(pcrypt_source_path(NULL) == NULL && pcrypt_error_status() == PCRYPT_ERROR_USAGE);
  CHECK(pcrypt_sink_callback(NULL, NULL) == NULL && pcrypt_error_status() == PCRYPT_ERROR_USAGE);
  /* bad options, recipients, key types */
  FAILS(pcrypt_options_set(options, PCRYPT_OPTION_CHUNK_SIZE, 100), PCRYPT_ERROR_USAGE, 0);
  FAILS(pcrypt_options_set(options, PCRYPT_OPTION_FORMAT, 7), PCRYPT_ERROR_USAGE, 0);
  FAILS(pcrypt_options_set(options, (pcrypt_option)99, 1), PCRYPT_ERROR_USAGE, 0);
  FAILS(pcrypt_recipients_add(to, "age1notarecipient"), PCRYPT_ERROR_USAGE, 0);
  FAILS(pcrypt_check_recipient("ssh-ed25519 garbage"), PCRYPT_ERROR_USAGE, 0);
  OK(pcrypt_check_recipient(recipient));
  FAILS(pcrypt_keygen(&(pcrypt_key*){NULL}, (pcrypt_key_type)0), PCRYPT_ERROR_USAGE, 0);
  FAILS(pcrypt_recipients_set_passphrase(to, ""), PCRYPT_ERROR_USAGE, 0);

  /* no file: the source is not made, io with ENOENT */
  CHECK(pcrypt_source_path(path_in("no such file")) == NULL);
  CHECK(pcrypt_error_status() == PCRYPT_ERROR_IO && pcrypt_error_errno() == ENOENT);
  /* not an encrypted file */
  source = pcrypt_source_memory(not_encrypted, sizeof not_encrypted - 1);
  FAILS(pcrypt_file_open(&file, source), PCRYPT_ERROR_DAMAGED_HEADER, 0);
  pcrypt_source_free(source);
  /* an existing output without overwrite: the sink is not made, io with EEXIST */
  CHECK(pcrypt_sink_path(path_in("plain"), 0) == NULL);
  CHECK(pcrypt_error_status() == PCRYPT_ERROR_IO && pcrypt_error_errno() == EEXIST);
  OK(pcrypt_recipients_add(to, recipient));
  /* the file encrypted to this C test's own recipient ... */
  source = pcrypt_source_path(path_in("plain"));
  sink = pcrypt_sink_path(path_in("mine.age"), 0);
  OK(pcrypt_options_set_progress(options, progress, &last_progress));
  OK(pcrypt_encrypt(source, sink, to, options, &moved));
  CHECK(last_progress == plain_size);
  FAILS(pcrypt_encrypt(source, sink, to, options, &moved), PCRYPT_ERROR_USAGE, 0); /* both used up */
  pcrypt_sink_free(sink);
  pcrypt_source_free(source);
  /* ... is not opened by another identity: wrong credential */
  new_identity(path_in("other.txt"), other_recipient, sizeof other_recipient);
  snprintf(other_identity, sizeof other_identity, "%s", path_in("other.txt"));
  source = pcrypt_source_path(path_in("mine.age"));
  by = pcrypt_credentials_new();
  OK(pcrypt_credentials_add_identity_file(by, other_identity));
  OK(pcrypt_file_open(&file, source));
  FAILS(pcrypt_file_unlock(file, by), PCRYPT_ERROR_WRONG_CREDENTIAL, 0);
  sink = pcrypt_sink_memory();
  FAILS(pcrypt_file_decrypt(file, sink, NULL, NULL), PCRYPT_ERROR_USAGE, 0); /* not unlocked */
  pcrypt_sink_free(sink);
  pcrypt_credentials_free(by);
  /* an empty credentials handle: usage */
  by = pcrypt_credentials_new();
  FAILS(pcrypt_file_unlock(file, by), PCRYPT_ERROR_USAGE, 0);
  pcrypt_credentials_free(by);
  pcrypt_file_free(file);
  pcrypt_source_free(source);

  /* a damaged record (chunk 3 of 5; the final one, which authenticates the size, is read by every range):
   * decrypt and verify fail with damaged payload; a range of an intact record reads */
  damaged = read_file(path_in("mine.age"), &damaged_size);
  damaged[damaged_size - (plain_size - 4 * 65536 + 16) - 200] ^= 1;
  source = pcrypt_source_memory(damaged, damaged_size);
  by = pcrypt_credentials_new();
  OK(pcrypt_credentials_add_identity_file(by, identity));
  OK(pcrypt_file_open(&file, source));
  OK(pcrypt_file_unlock(file, by));
  FAILS(pcrypt_file_read_at(file, 4 * 65536 - 1000, buffer, sizeof buffer, &got), PCRYPT_ERROR_DAMAGED_PAYLOAD,
        0);
  OK(pcrypt_file_read_at(file, plain_size - 1000, buffer, sizeof buffer, &got));
  OK(pcrypt_file_read_at(file, 0, buffer, sizeof buffer, &got));
  CHECK(got == sizeof buffer && memcmp(buffer, plain, sizeof buffer) == 0);
  FAILS(pcrypt_file_verify(file, NULL, NULL), PCRYPT_ERROR_DAMAGED_PAYLOAD, 0);
  pcrypt_file_free(file);
  pcrypt_source_free(source);
  /* decrypt into a callback sink: only authenticated records reach it, in order, then the error */
  source = pcrypt_source_memory(damaged, damaged_size);
  OK(pcrypt_file_open(&file, source));
  OK(pcrypt_file_unlock(file, by));
  memset(&c, 0, sizeof c);
  c.bytes = malloc(plain_size);
  sink = pcrypt_sink_callback(collect, &c);
  FAILS(pcrypt_file_decrypt(file, sink, NULL, NULL), PCRYPT_ERROR_DAMAGED_PAYLOAD, 0);
  CHECK(c.size < plain_size && memcmp(c.bytes, plain, c.size) == 0);
  free(c.bytes);
  pcrypt_sink_free(sink);
  pcrypt_file_free(file);
  pcrypt_source_free(source);
  /* a write callback that fails: io with its errno */
  source = pcrypt_source_path(path_in("mine.age"));
  OK(pcrypt_file_open(&file, source));
  OK(pcrypt_file_unlock(file, by));
  memset(&c, 0, sizeof c);
  c.bytes = malloc(plain_size);
  c.fail_after = 1;
  sink = pcrypt_sink_callback(collect, &c);
  FAILS(pcrypt_file_decrypt(file, sink, NULL, NULL), PCRYPT_ERROR_IO, ENOSPC);
  CHECK(c.size == 65536 && memcmp(c.bytes, plain, c.size) == 0);
  free(c.bytes);
  pcrypt_sink_free(sink);
  /* a cut file: damaged payload */
  pcrypt_file_free(file);
  pcrypt_source_free(source);
  source = pcrypt_source_memory(damaged, damaged_size - 100);
  OK(pcrypt_file_open(&file, source));
  OK(pcrypt_file_unlock(file, by));
  FAILS(pcrypt_file_verify(file, NULL, NULL), PCRYPT_ERROR_DAMAGED_PAYLOAD, 0);
  pcrypt_file_free(file);
  pcrypt_source_free(source);
  /* a modified header: damaged header (age's version line) */
  free(damaged);
  damaged = read_file(path_in("mine.age"), &damaged_size);
  damaged[5] = 'X';
  source = pcrypt_source_memory(damaged, damaged_size);
  FAILS(pcrypt_file_open(&file, source), PCRYPT_ERROR_DAMAGED_HEADER, 0);
  pcrypt_source_free(source);
  free(damaged);

  pcrypt_credentials_free(by);
  pcrypt_options_free(options);
  pcrypt_recipients_free(to);
}

struct asked {
  const char* answer;
  int calls;
};

static int give_passphrase(void* user, const char* key_name, char* buffer, size_t capacity) {
  struct asked* a = user;
  size_t length = strlen(a->answer);
  ++a->calls;
  if (key_name != NULL || length > capacity) return -1;
  memcpy(buffer, a->answer, length);
  return (int)length;
}

/* Passphrases: an age scrypt file made by the C API, opened through the callback; a wrong one refused. */
static void test_passphrase(void) {
  pcrypt_recipients* to = pcrypt_recipients_new();
  pcrypt_source* source = pcrypt_source_memory(plain, 5000);
  pcrypt_sink* sink = pcrypt_sink_memory();
  pcrypt_credentials* by = pcrypt_credentials_new();
  pcrypt_file* file = NULL;
  struct asked asked = {"correct horse", 0};
  const uint8_t* bytes;
  size_t size = 0;
  uint8_t buffer[5000];
  size_t got = 0;

  OK(pcrypt_recipients_set_passphrase(to, "correct horse"));
  OK(pcrypt_encrypt(source, sink, to, NULL, NULL));
  pcrypt_source_free(source);
  bytes = pcrypt_sink_memory_data(sink, &size);
  OK(pcrypt_credentials_set_passphrase_callback(by, give_passphrase, &asked));
  source = pcrypt_source_memory(bytes, size);
  OK(pcrypt_file_open(&file, source));
  CHECK(pcrypt_file_passphrase_slots(file) == 1);
  OK(pcrypt_file_unlock(file, by));
  CHECK(asked.calls == 1);
  OK(pcrypt_file_read_at(file, 0, buffer, sizeof buffer, &got));
  CHECK(got == 5000 && memcmp(buffer, plain, got) == 0);
  pcrypt_file_free(file);
  pcrypt_source_free(source);

  asked.answer = "wrong horse";
  source = pcrypt_source_memory(bytes, size);
  OK(pcrypt_file_open(&file, source));
  FAILS(pcrypt_file_unlock(file, by), PCRYPT_ERROR_WRONG_CREDENTIAL, 0);
  pcrypt_file_free(file);
  pcrypt_source_free(source);
  /* the passphrase set directly, not asked */
  pcrypt_credentials_free(by);
  by = pcrypt_credentials_new();
  OK(pcrypt_credentials_set_passphrase(by, "correct horse"));
  source = pcrypt_source_memory(bytes, size);
  OK(pcrypt_file_open(&file, source));
  OK(pcrypt_file_unlock(file, by));
  pcrypt_file_free(file);
  pcrypt_source_free(source);

  pcrypt_credentials_free(by);
  pcrypt_sink_free(sink);
  pcrypt_recipients_free(to);
}

/* pcrypt key files: keygen, encrypt in pcrypt's format, decrypt; age refuses key files. */
/* The encryptor's transfer figures are pcrypt_encrypt's for the same input, all four of them (finish once
 * gave 0 header bytes and 0 records), for both formats and sizes around the record boundaries. */
static void test_encryptor_transfer(const char* recipient) {
  static const size_t sizes[] = {0, 1, 4095, 4096, 4097, 65536, 65537, 300000};
  int format;
  size_t s;
  for (format = PCRYPT_FORMAT_PCRYPT; format <= PCRYPT_FORMAT_AGE; ++format) {
    for (s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
      const size_t size = sizes[s];
      pcrypt_recipients* to = pcrypt_recipients_new();
      pcrypt_options* options = pcrypt_options_new();
      pcrypt_source* from = pcrypt_source_memory(plain, size);
      pcrypt_sink* whole = pcrypt_sink_memory();
      pcrypt_sink* streamed = pcrypt_sink_memory();
      pcrypt_encryptor* encryptor = NULL;
      pcrypt_transfer by_encrypt, by_encryptor;
      size_t i;
      memset(&by_encrypt, 0xff, sizeof by_encrypt);
      memset(&by_encryptor, 0xff, sizeof by_encryptor);
      OK(pcrypt_recipients_add(to, recipient));
      OK(pcrypt_options_set(options, PCRYPT_OPTION_FORMAT, (uint64_t)format));
      OK(pcrypt_options_set(options, PCRYPT_OPTION_CHUNK_SIZE, 4096));
      OK(pcrypt_options_set(options, PCRYPT_OPTION_THREADS, 2));
      OK(pcrypt_encrypt(from, whole, to, options, &by_encrypt));
      OK(pcrypt_encryptor_new(&encryptor, streamed, to, options));
      for (i = 0; i < size; i += 3000)
        OK(pcrypt_encryptor_write(encryptor, plain + i, size - i < 3000 ? size - i : 3000));
      OK(pcrypt_encryptor_finish(encryptor, &by_encryptor));
      CHECK(by_encryptor.plaintext_bytes == by_encrypt.plaintext_bytes);
      CHECK(by_encryptor.encrypted_bytes == by_encrypt.encrypted_bytes);
      CHECK(by_encryptor.header_bytes == by_encrypt.header_bytes);
      CHECK(by_encryptor.records == by_encrypt.records);
      CHECK(by_encrypt.plaintext_bytes == size && by_encrypt.header_bytes > 0 && by_encrypt.records > 0);
      if (by_encryptor.records != by_encrypt.records || by_encryptor.header_bytes != by_encrypt.header_bytes)
        fprintf(stderr, "  %s, %zu bytes: encryptor %llu header bytes, %llu records; encrypt %llu, %llu\n",
                format == PCRYPT_FORMAT_AGE ? "age" : "pcrypt", size,
                (unsigned long long)by_encryptor.header_bytes, (unsigned long long)by_encryptor.records,
                (unsigned long long)by_encrypt.header_bytes, (unsigned long long)by_encrypt.records);
      pcrypt_encryptor_free(encryptor);
      pcrypt_sink_free(streamed);
      pcrypt_sink_free(whole);
      pcrypt_source_free(from);
      pcrypt_options_free(options);
      pcrypt_recipients_free(to);
    }
  }
}

static void test_key_file(void) {
  pcrypt_key* key = NULL;
  pcrypt_recipients* to = pcrypt_recipients_new();
  pcrypt_options* options = pcrypt_options_new();
  pcrypt_source* source = pcrypt_source_path(path_in("plain"));
  pcrypt_sink* sink = pcrypt_sink_path(path_in("keyed.pcrypt"), 0);
  pcrypt_credentials* by = pcrypt_credentials_new();
  pcrypt_file* file = NULL;

  OK(pcrypt_keygen(&key, PCRYPT_KEY_PCRYPT_KEY_FILE));
  CHECK(strcmp(pcrypt_key_recipient(key), "") == 0 && strlen(pcrypt_key_text(key)) > 0);
  write_file(path_in("k.key"), pcrypt_key_text(key), strlen(pcrypt_key_text(key)));
  pcrypt_key_free(key);
  OK(pcrypt_recipients_add_key_file(to, path_in("k.key")));
  FAILS(pcrypt_encrypt(source, sink, to, NULL, NULL), PCRYPT_ERROR_USAGE, 0); /* age takes no key file */
  pcrypt_source_free(source);
  pcrypt_sink_free(sink);
  source = pcrypt_source_path(path_in("plain"));
  sink = pcrypt_sink_path(path_in("keyed.pcrypt"), 0);
  OK(pcrypt_options_set(options, PCRYPT_OPTION_FORMAT, PCRYPT_FORMAT_PCRYPT));
  OK(pcrypt_encrypt(source, sink, to, options, NULL));
  pcrypt_source_free(source);
  pcrypt_sink_free(sink);
  source = pcrypt_source_path(path_in("keyed.pcrypt"));
  OK(pcrypt_credentials_add_key_file(by, path_in("k.key")));
  OK(pcrypt_file_open(&file, source));
  CHECK(pcrypt_file_format(file) == PCRYPT_FORMAT_PCRYPT);
  OK(pcrypt_file_unlock(file, by));
  check_decrypts_to_plain(file);
  pcrypt_file_free(file);
  pcrypt_source_free(source);

  key = NULL;
  OK(pcrypt_keygen(&key, PCRYPT_KEY_AGE_PQ));
  CHECK(strncmp(pcrypt_key_recipient(key), "age1pq1", 7) == 0);
  pcrypt_key_free(key);
  pcrypt_credentials_free(by);
  pcrypt_options_free(options);
  pcrypt_recipients_free(to);
}

/* Rekey: a file the real age wrote gets a second recipient and loses its first; age opens the result with
 * the new identity, and the old identity no longer opens it. */
static void test_rekey(const char* identity, const char* recipient) {
  char command[1024], new_recipient[128];
  pcrypt_file* file;
  pcrypt_rekey* rekey = pcrypt_rekey_new();
  pcrypt_sink* sink;
  pcrypt_source* source;
  pcrypt_credentials* by;
  size_t slots_after = 0;

  (void)recipient;
  new_identity(path_in("new.txt"), new_recipient, sizeof new_recipient);
  file = open_unlocked(path_in("byage.age"), identity);
  if (file == NULL) return;
  OK(pcrypt_rekey_add_recipient(rekey, new_recipient));
  OK(pcrypt_rekey_remove_identity_file(rekey, identity));
  FAILS(pcrypt_rekey_add_recipient(rekey, "not a recipient"), PCRYPT_ERROR_USAGE, 0);
  FAILS(pcrypt_rekey_remove_slot(rekey, 0), PCRYPT_ERROR_USAGE, 0);
  sink = pcrypt_sink_path(path_in("rekeyed.age"), 0);
  OK(pcrypt_file_rekey(file, rekey, sink, NULL, &slots_after));
  CHECK(slots_after == 1);
  pcrypt_sink_free(sink);
  pcrypt_file_free(file);
  snprintf(command, sizeof command, "'%s' -d -i '%s' '%s' | cmp -s - '%s'", age_binary, path_in("new.txt"),
           path_in("rekeyed.age"), path_in("plain"));
  CHECK(run(command) == 0);
  source = pcrypt_source_path(path_in("rekeyed.age"));
  by = pcrypt_credentials_new();
  OK(pcrypt_credentials_add_identity_file(by, identity));
  OK(pcrypt_file_open(&file, source));
  FAILS(pcrypt_file_unlock(file, by), PCRYPT_ERROR_WRONG_CREDENTIAL, 0);
  pcrypt_file_free(file);
  pcrypt_source_free(source);
  pcrypt_credentials_free(by);

  /* a new file key, only the added recipient keeping access */
  file = open_unlocked(path_in("rekeyed.age"), path_in("new.txt"));
  if (file == NULL) return;
  pcrypt_rekey_free(rekey);
  rekey = pcrypt_rekey_new();
  OK(pcrypt_rekey_add_recipient(rekey, recipient));
  OK(pcrypt_rekey_new_file_key(rekey, 0));
  sink = pcrypt_sink_path(path_in("rekeyed2.age"), 0);
  OK(pcrypt_file_rekey(file, rekey, sink, NULL, &slots_after));
  CHECK(slots_after == 1);
  pcrypt_sink_free(sink);
  pcrypt_file_free(file);
  snprintf(command, sizeof command, "'%s' -d -i '%s' '%s' | cmp -s - '%s'", age_binary, identity,
           path_in("rekeyed2.age"), path_in("plain"));
  CHECK(run(command) == 0);
  pcrypt_rekey_free(rekey);
}

/* Reads a whole file through the C reader in `piece`-byte reads; the bytes into `out` (plain_size at most),
 * their count into `*total`; returns the status of the read that ended it. */
static int read_all(pcrypt_reader *reader, size_t piece, uint8_t *out, size_t *total) {
  uint8_t buffer[70000];
  size_t got = 0;
  int status;
  *total = 0;
  for (;;) {
    status = pcrypt_reader_read(reader, buffer, piece, &got);
    if (status != PCRYPT_OK || got == 0) return status;
    if (*total + got > plain_size) return 99;
    memcpy(out + *total, buffer, got);
    *total += got;
  }
}

/* The pull reader: files age wrote (binary, armored), a damaged one, and what the file handle does after. */
static void test_reader(const char *identity) {
  static const char *files[] = {"byage.age", "armored.age"};
  uint8_t *out = malloc(plain_size);
  pcrypt_file *file;
  pcrypt_reader *reader = NULL;
  pcrypt_options *options = pcrypt_options_new();
  pcrypt_transfer moved;
  size_t total = 0, i, got = 0;
  uint8_t *damaged;
  size_t damaged_size;
  pcrypt_source *source;
  pcrypt_credentials *by;
  uint8_t buffer[10];

  OK(pcrypt_options_set(options, PCRYPT_OPTION_THREADS, 2));
  for (i = 0; i < 2; ++i) {
    file = open_unlocked(path_in(files[i]), identity);
    if (file == NULL) continue;
    OK(pcrypt_reader_new(&reader, file, options));
    FAILS(pcrypt_reader_transfer(reader, &moved), PCRYPT_ERROR_USAGE, 0); /* before the end */
    OK(read_all(reader, i == 0 ? 65536 : 1000, out, &total));
    CHECK(total == plain_size && memcmp(out, plain, plain_size) == 0);
    CHECK(pcrypt_reader_position(reader) == plain_size);
    OK(pcrypt_reader_read(reader, buffer, sizeof buffer, &got));
    CHECK(got == 0);
    OK(pcrypt_reader_transfer(reader, &moved));
    CHECK(moved.plaintext_bytes == plain_size);
    /* the file handle now only describes */
    CHECK(pcrypt_file_format(file) == PCRYPT_FORMAT_AGE && pcrypt_file_slots(file) == 1);
    FAILS(pcrypt_file_read_at(file, 0, buffer, sizeof buffer, &got), PCRYPT_ERROR_USAGE, 0);
    FAILS(pcrypt_file_verify(file, NULL, NULL), PCRYPT_ERROR_USAGE, 0);
    FAILS(pcrypt_reader_new(&reader, file, NULL), PCRYPT_ERROR_USAGE, 0);
    pcrypt_reader_free(reader);
    reader = NULL;
    pcrypt_file_free(file);
  }

  /* a damaged last record: the four before it, then damaged payload, and again on the next read */
  damaged = read_file(path_in("byage.age"), &damaged_size);
  damaged[damaged_size - 200] ^= 1;
  source = pcrypt_source_memory(damaged, damaged_size);
  by = pcrypt_credentials_new();
  OK(pcrypt_credentials_add_identity_file(by, identity));
  file = NULL;
  OK(pcrypt_file_open(&file, source));
  FAILS(pcrypt_reader_new(&reader, file, NULL), PCRYPT_ERROR_USAGE, 0); /* not unlocked: and used up */
  FAILS(pcrypt_file_unlock(file, by), PCRYPT_ERROR_USAGE, 0);
  CHECK(pcrypt_file_slots(file) == 1); /* still described */
  pcrypt_file_free(file);
  pcrypt_source_free(source);
  source = pcrypt_source_memory(damaged, damaged_size);
  file = NULL;
  OK(pcrypt_file_open(&file, source));
  OK(pcrypt_file_unlock(file, by));
  OK(pcrypt_reader_new(&reader, file, NULL));
  CHECK(read_all(reader, 65536, out, &total) == PCRYPT_ERROR_DAMAGED_PAYLOAD);
  CHECK(total == 4 * 65536 && memcmp(out, plain, total) == 0);
  FAILS(pcrypt_reader_read(reader, buffer, sizeof buffer, &got), PCRYPT_ERROR_DAMAGED_PAYLOAD, 0);
  pcrypt_reader_free(reader);
  pcrypt_file_free(file);
  pcrypt_source_free(source);
  pcrypt_credentials_free(by);
  free(damaged);
  FAILS(pcrypt_reader_read(NULL, buffer, sizeof buffer, &got), PCRYPT_ERROR_USAGE, 0);
  pcrypt_options_free(options);
  free(out);
}

/* A file cut to a length some payload has once read as a shorter valid file: cut to its header and one tag
 * (an empty file's length) it read as an empty one (plaintext size 0, read_at PCRYPT_OK with 0 bytes), while
 * verify said damaged payload. Both formats; that cut, one at a record boundary and one inside a record. */
static void test_cut_files(const char* identity, const char* recipient) {
  static const pcrypt_format formats[] = {PCRYPT_FORMAT_AGE, PCRYPT_FORMAT_PCRYPT};
  size_t f, c;
  for (f = 0; f < 2; ++f) {
    pcrypt_source* from = pcrypt_source_memory(plain, plain_size);
    pcrypt_sink* into = pcrypt_sink_memory();
    pcrypt_recipients* to = pcrypt_recipients_new();
    pcrypt_options* options = pcrypt_options_new();
    pcrypt_credentials* by = pcrypt_credentials_new();
    const uint8_t* whole;
    size_t whole_size = 0;
    pcrypt_file* file = NULL;
    pcrypt_source* source;
    uint64_t header, cuts[3];
    OK(pcrypt_recipients_add(to, recipient));
    OK(pcrypt_options_set(options, PCRYPT_OPTION_FORMAT, (uint64_t)formats[f]));
    OK(pcrypt_options_set(options, PCRYPT_OPTION_CHUNK_SIZE, 65536));
    OK(pcrypt_encrypt(from, into, to, options, NULL));
    whole = pcrypt_sink_memory_data(into, &whole_size);
    OK(pcrypt_credentials_add_identity_file(by, identity));
    source = pcrypt_source_memory(whole, whole_size);
    OK(pcrypt_file_open(&file, source));
    header = pcrypt_file_header_bytes(file);
    pcrypt_file_free(file);
    pcrypt_source_free(source);
    cuts[0] = header + 16;               /* an empty file's length */
    cuts[1] = header + 2 * (65536 + 16); /* a record boundary: two full records, neither sealed last */
    cuts[2] = header + 65536 + 16 + 1000;
    for (c = 0; c < 3; ++c) {
      uint8_t buffer[10];
      size_t got = 77;
      uint64_t size = 77;
      file = NULL;
      source = pcrypt_source_memory(whole, (size_t)cuts[c]);
      OK(pcrypt_file_open(&file, source));
      OK(pcrypt_file_unlock(file, by));
      FAILS(pcrypt_file_read_at(file, 0, buffer, 10, &got), PCRYPT_ERROR_DAMAGED_PAYLOAD, 0);
      FAILS(pcrypt_file_plaintext_size(file, &size), PCRYPT_ERROR_DAMAGED_PAYLOAD, 0);
      FAILS(pcrypt_file_verify(file, NULL, NULL), PCRYPT_ERROR_DAMAGED_PAYLOAD, 0);
      CHECK(got == 77 && size == 77); /* out-parameters untouched on failure */
      if (got != 77 || size != 77) fprintf(stderr, "  format %d cut to %lu bytes\n", (int)f, (unsigned long)cuts[c]);
      pcrypt_file_free(file);
      pcrypt_source_free(source);
    }
    pcrypt_credentials_free(by);
    pcrypt_options_free(options);
    pcrypt_recipients_free(to);
    pcrypt_sink_free(into);
    pcrypt_source_free(from);
  }
}

/* A store that serves its bytes up to `ends_at`, then 0 (it ended early: the size it was given says more),
 * or answers every call with `result` when that is not 0. */
struct lying_store {
  const uint8_t* bytes;
  size_t size;
  size_t ends_at;
  int64_t result;
};

static int64_t read_lying_store(void* user, uint64_t offset, void* buffer, size_t size) {
  const struct lying_store* s = user;
  if (s->result != 0) return s->result;
  if (offset >= s->ends_at) return 0;
  if (size > s->ends_at - offset) size = (size_t)(s->ends_at - offset);
  memcpy(buffer, s->bytes + offset, size);
  return (int64_t)size;
}

static int write_returning(void* user, const void* data, size_t size) {
  (void)data;
  (void)size;
  return *(const int*)user;
}

/* Callbacks that end early or return what no callback may: one answer for each, whichever call reads. */
static void test_callbacks_that_lie(const char* identity) {
  static const int64_t no_errno[] = {INT64_MIN, -((int64_t)1 << 32), -4096};
  static const int write_results[] = {INT_MIN, 1};
  size_t whole_size = 0, i, total = 0;
  uint8_t* whole = read_file(path_in("mine.age"), &whole_size);
  uint8_t* out = malloc(plain_size);
  struct lying_store store;
  pcrypt_credentials* by = pcrypt_credentials_new();
  pcrypt_source* source;
  pcrypt_file* file = NULL;
  pcrypt_reader* reader = NULL;
  pcrypt_sink* sink;
  uint8_t buffer[1000];
  size_t got = 77;
  OK(pcrypt_credentials_add_identity_file(by, identity));

  /* Ends 5000 bytes early: a file cut short (LIBRARY.md), damaged payload from decrypt, verify, the reader
   * and read_at alike (decrypt, verify and the reader once said PCRYPT_ERROR_IO, "input changed size"). */
  store.bytes = whole;
  store.size = whole_size;
  store.ends_at = whole_size - 5000;
  store.result = 0;
  source = pcrypt_source_callback(whole_size, read_lying_store, &store);
  OK(pcrypt_file_open(&file, source));
  OK(pcrypt_file_unlock(file, by));
  sink = pcrypt_sink_memory();
  FAILS(pcrypt_file_decrypt(file, sink, NULL, NULL), PCRYPT_ERROR_DAMAGED_PAYLOAD, 0);
  pcrypt_sink_free(sink);
  FAILS(pcrypt_file_verify(file, NULL, NULL), PCRYPT_ERROR_DAMAGED_PAYLOAD, 0);
  FAILS(pcrypt_file_read_at(file, 0, buffer, sizeof buffer, &got), PCRYPT_ERROR_DAMAGED_PAYLOAD, 0);
  OK(pcrypt_reader_new(&reader, file, NULL));
  CHECK(read_all(reader, 65536, out, &total) == PCRYPT_ERROR_DAMAGED_PAYLOAD);
  pcrypt_reader_free(reader);
  pcrypt_file_free(file);
  pcrypt_source_free(source);

  /* Results that are neither a byte count nor a negated errno: PCRYPT_ERROR_IO with EIO (INT64_MIN was
   * negated, signed overflow; -2^32 gave errno 0, "Success"). */
  for (i = 0; i < sizeof no_errno / sizeof no_errno[0]; ++i) {
    store.result = no_errno[i];
    file = NULL;
    source = pcrypt_source_callback(whole_size, read_lying_store, &store);
    FAILS(pcrypt_file_open(&file, source), PCRYPT_ERROR_IO, EIO);
    CHECK(file == NULL && strstr(pcrypt_error_message(), "Success") == NULL);
    CHECK(strstr(pcrypt_error_message(), "neither a byte count nor a negative errno") != NULL);
    pcrypt_source_free(source);
  }
  store.result = -ENOSPC; /* a negated errno is that errno */
  source = pcrypt_source_callback(whole_size, read_lying_store, &store);
  FAILS(pcrypt_file_open(&file, source), PCRYPT_ERROR_IO, ENOSPC);
  pcrypt_source_free(source);
  for (i = 0; i < sizeof write_results / sizeof write_results[0]; ++i) {
    source = pcrypt_source_memory(whole, whole_size);
    OK(pcrypt_file_open(&file, source));
    OK(pcrypt_file_unlock(file, by));
    sink = pcrypt_sink_callback(write_returning, (void*)&write_results[i]);
    FAILS(pcrypt_file_decrypt(file, sink, NULL, NULL), PCRYPT_ERROR_IO, EIO);
    CHECK(strstr(pcrypt_error_message(), "Success") == NULL);
    pcrypt_sink_free(sink);
    pcrypt_file_free(file);
    pcrypt_source_free(source);
  }

  /* read_at over records 0..2 with record 2 damaged: the caller's buffer is untouched (it once held records
   * 0 and 1's plaintext and record 2's ciphertext), as pcrypt_c.h promises of out-parameters. */
  {
    const size_t want = 3 * 65536;
    uint8_t* big = malloc(want);
    const size_t header = whole_size - plain_size - 5 * 16;
    whole[header + 2 * (65536 + 16) + 10] ^= 1;
    source = pcrypt_source_memory(whole, whole_size);
    OK(pcrypt_file_open(&file, source));
    OK(pcrypt_file_unlock(file, by));
    memset(big, 0xA5, want);
    got = 77;
    FAILS(pcrypt_file_read_at(file, 0, big, want, &got), PCRYPT_ERROR_DAMAGED_PAYLOAD, 0);
    CHECK(got == 77);
    for (i = 0; i < want && big[i] == 0xA5; ++i) {
    }
    CHECK(i == want);
    if (i != want) fprintf(stderr, "  the buffer was written from byte %lu on\n", (unsigned long)i);
    OK(pcrypt_file_read_at(file, 0, big, 2 * 65536, &got)); /* records 0 and 1 are whole */
    CHECK(got == 2 * 65536 && memcmp(big, plain, got) == 0);
    pcrypt_file_free(file);
    pcrypt_source_free(source);
    free(big);
  }
  pcrypt_credentials_free(by);
  free(out);
  free(whole);
}

int main(int argc, char** argv) {
  char identity[256], recipient[128];
  age_binary = argc > 1 && argv[1][0] != '\0' ? argv[1] : NULL;
  snprintf(dir, sizeof dir, "/tmp/test_c_api.XXXXXX");
  if (mkdtemp(dir) == NULL) {
    perror("mkdtemp");
    return 1;
  }
  make_plaintext();
  snprintf(identity, sizeof identity, "%s", path_in("id.txt"));
  new_identity(identity, recipient, sizeof recipient);

  test_status_names();
  test_callback_source_and_threads(identity, recipient);
  test_error_paths(identity, recipient);
  test_cut_files(identity, recipient);
  test_callbacks_that_lie(identity);
  test_passphrase();
  test_key_file();
  test_encryptor_transfer(recipient);
  if (age_binary != NULL) {
    test_file_age_wrote(identity, recipient);
    test_age_opens_what_c_wrote(identity, recipient);
    test_reader(identity);
    test_rekey(identity, recipient);
  } else {
    printf("SKIPPED: the cases with the real age (no age binary given)\n");
  }

  {
    char command[128];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    if (system(command) != 0) fprintf(stderr, "could not remove %s\n", dir);
  }
  free(plain);
  printf("%d checks, %d failed\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
