/* The error codes of <pcrypt/errors.h> through the C API (the C++ API's twin is tests/test_errors_codes.cc):
 * each failure the C API can report provoked once, and pcrypt_error_code(), its name, its status and its
 * fields checked. The codes C cannot reach (no plugin host, no moved-from objects, no range call, no
 * engine choice) are the C++ test's. Compiled by the C compiler (-std=c11 -pedantic).
 */
#define _POSIX_C_SOURCE 200809L
#include <pcrypt/pcrypt_c.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures = 0;
static int provoked[600];

#define CHECK(condition)                                                                               \
  do {                                                                                                 \
    if (!(condition)) {                                                                                \
      ++failures;                                                                                      \
      fprintf(stderr, "%s:%d: CHECK(%s) failed (last error: %s %s)\n", __FILE__, __LINE__, #condition, \
              pcrypt_error_code_name(pcrypt_error_code()), pcrypt_error_message());                    \
    }                                                                                                  \
  } while (0)

/* `status` must be the failure `code`: its status, this thread's code, its name, a message. */
static void expect(int status, int code, const char* name, int line) {
  if (status != pcrypt_error_code_status(code) || pcrypt_error_code() != code ||
      strcmp(pcrypt_error_code_name(code), name) != 0 || pcrypt_error_status() != status ||
      pcrypt_error_message()[0] == '\0') {
    ++failures;
    fprintf(stderr, "line %d: wanted %s (status %d), got %s (status %d): %s\n", line, name,
            pcrypt_error_code_status(code), pcrypt_error_code_name(pcrypt_error_code()), status,
            pcrypt_error_message());
  }
  if (code > 0 && code < 600) provoked[code] = 1;
}
#define EXPECT(call, code) expect((call), (code), #code, __LINE__)

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
  if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0) exit(1);
}

static uint8_t plain[150000];

/* `plain` encrypted to `recipient` (or with `passphrase` when recipient is NULL) in `format`; malloc'd. */
static uint8_t* encrypted(const char* recipient, const char* passphrase, int format, int armor,
                          size_t* size) {
  pcrypt_source* source = pcrypt_source_memory(plain, sizeof plain);
  pcrypt_sink* sink = pcrypt_sink_memory();
  pcrypt_recipients* to = pcrypt_recipients_new();
  pcrypt_options* options = pcrypt_options_new();
  const uint8_t* bytes;
  uint8_t* copy;
  CHECK(pcrypt_options_set(options, PCRYPT_OPTION_FORMAT, (uint64_t)format) == PCRYPT_OK);
  CHECK(pcrypt_options_set(options, PCRYPT_OPTION_ARMOR, (uint64_t)armor) == PCRYPT_OK);
  CHECK(pcrypt_options_set(options, PCRYPT_OPTION_CHUNK_SIZE, 65536) == PCRYPT_OK);
  if (passphrase != NULL && format == PCRYPT_FORMAT_PCRYPT) {
    CHECK(pcrypt_options_set(options, PCRYPT_OPTION_ARGON2ID_MEMORY, 65536) == PCRYPT_OK);
    CHECK(pcrypt_options_set(options, PCRYPT_OPTION_ARGON2ID_PASSES, 1) == PCRYPT_OK);
  }
  if (recipient != NULL) CHECK(pcrypt_recipients_add(to, recipient) == PCRYPT_OK);
  if (passphrase != NULL) CHECK(pcrypt_recipients_set_passphrase(to, passphrase) == PCRYPT_OK);
  CHECK(pcrypt_encrypt(source, sink, to, options, NULL) == PCRYPT_OK);
  bytes = pcrypt_sink_memory_data(sink, size);
  copy = malloc(*size + 1);
  memcpy(copy, bytes, *size);
  pcrypt_options_free(options);
  pcrypt_recipients_free(to);
  pcrypt_sink_free(sink);
  pcrypt_source_free(source);
  return copy;
}

/* Opens `size` bytes at `data`: the status, and the file in *file (NULL on failure). */
static int open_memory(const void* data, size_t size, pcrypt_file** file) {
  pcrypt_source* source = pcrypt_source_memory(data, size);
  int status;
  *file = NULL;
  status = pcrypt_file_open(file, source);
  pcrypt_source_free(source);
  return status;
}

/* Opens and unlocks with `credentials`: the first failing status, or PCRYPT_OK. */
static int unlock_memory(const void* data, size_t size, const pcrypt_credentials* credentials) {
  pcrypt_file* file = NULL;
  int status = open_memory(data, size, &file);
  if (status == PCRYPT_OK) status = pcrypt_file_unlock(file, credentials);
  pcrypt_file_free(file);
  return status;
}

static pcrypt_credentials* with_identity(const char* text) {
  pcrypt_credentials* by = pcrypt_credentials_new();
  CHECK(pcrypt_credentials_add_identity(by, text) == PCRYPT_OK);
  return by;
}

static pcrypt_credentials* with_passphrase(const char* passphrase) {
  pcrypt_credentials* by = pcrypt_credentials_new();
  CHECK(pcrypt_credentials_set_passphrase(by, passphrase) == PCRYPT_OK);
  return by;
}

static int64_t failing_read(void* user, uint64_t offset, void* buffer, size_t size) {
  (void)user, (void)offset, (void)buffer, (void)size;
  return -EIO;
}

/* An opened, unlocked file of `data` and the status of a rekey with `rekey` into memory. */
static int rekey_memory(const void* data, size_t size, const pcrypt_credentials* by,
                        const pcrypt_rekey* rekey) {
  pcrypt_file* file = NULL;
  pcrypt_sink* sink = pcrypt_sink_memory();
  int status = open_memory(data, size, &file);
  if (status == PCRYPT_OK) status = pcrypt_file_unlock(file, by);
  if (status == PCRYPT_OK) status = pcrypt_file_rekey(file, rekey, sink, NULL, NULL);
  pcrypt_sink_free(sink);
  pcrypt_file_free(file);
  return status;
}

/* The whole plaintext verified: the status. */
static int verify_memory(const void* data, size_t size, const pcrypt_credentials* by) {
  pcrypt_file* file = NULL;
  int status = open_memory(data, size, &file);
  if (status == PCRYPT_OK) status = pcrypt_file_unlock(file, by);
  if (status == PCRYPT_OK) status = pcrypt_file_verify(file, NULL, NULL);
  pcrypt_file_free(file);
  return status;
}

int main(void) {
  pcrypt_key *alice = NULL, *bob = NULL, *pq = NULL;
  uint8_t *age_file, *pcrypt_file_bytes, *armored, *scrypt_file, *argon2id_file;
  size_t age_size, pcrypt_size, armored_size, scrypt_size, argon2id_size;
  pcrypt_credentials *by_alice, *by_bob, *by_pq;
  size_t i;
  uint64_t value = 0;
  int seven[7];

  snprintf(dir, sizeof dir, "/tmp/pcrypt-c-codes-XXXXXX");
  if (mkdtemp(dir) == NULL) return 1;
  for (i = 0; i < sizeof plain; ++i) plain[i] = (uint8_t)(i * 7);
  CHECK(pcrypt_error_code() == PCRYPT_E_NONE);
  CHECK(strcmp(pcrypt_error_code_name(PCRYPT_E_NONE), "PCRYPT_E_NONE") == 0);
  CHECK(strcmp(pcrypt_error_code_name(99), "") == 0);
  CHECK(pcrypt_error_code_status(0) == PCRYPT_OK);
  CHECK(pcrypt_error_code_status(PCRYPT_E_TRUNCATED) == PCRYPT_ERROR_DAMAGED_PAYLOAD);
  CHECK(pcrypt_error_code_status(12345) == PCRYPT_ERROR_USAGE);
  /* Numbers no code could be (negative, past the enumeration's range): "" and usage, not undefined
   * behaviour (UBSan aborted on -1 before). */
  CHECK(strcmp(pcrypt_error_code_name(-1), "") == 0 && strcmp(pcrypt_error_code_name(INT_MIN), "") == 0);
  CHECK(strcmp(pcrypt_error_code_name(INT_MAX), "") == 0 && strcmp(pcrypt_error_code_name(1024), "") == 0);
  CHECK(pcrypt_error_code_status(-1) == PCRYPT_ERROR_USAGE);
  CHECK(pcrypt_error_code_status(INT_MAX) == PCRYPT_ERROR_USAGE);

  CHECK(pcrypt_keygen(&alice, PCRYPT_KEY_AGE_X25519) == PCRYPT_OK);
  CHECK(pcrypt_keygen(&bob, PCRYPT_KEY_AGE_X25519) == PCRYPT_OK);
  CHECK(pcrypt_keygen(&pq, PCRYPT_KEY_AGE_PQ) == PCRYPT_OK);
  by_alice = with_identity(pcrypt_key_text(alice));
  by_bob = with_identity(pcrypt_key_text(bob));
  by_pq = with_identity(pcrypt_key_text(pq));
  age_file = encrypted(pcrypt_key_recipient(alice), NULL, PCRYPT_FORMAT_AGE, 0, &age_size);
  pcrypt_file_bytes = encrypted(pcrypt_key_recipient(alice), NULL, PCRYPT_FORMAT_PCRYPT, 0, &pcrypt_size);
  armored = encrypted(pcrypt_key_recipient(alice), NULL, PCRYPT_FORMAT_AGE, 1, &armored_size);
  scrypt_file = encrypted(NULL, "right", PCRYPT_FORMAT_AGE, 0, &scrypt_size);
  argon2id_file = encrypted(NULL, "right", PCRYPT_FORMAT_PCRYPT, 0, &argon2id_size);

  /* io */
  /* Constructors fail with NULL and the thread's error. */
  CHECK(pcrypt_source_path(path_in("missing")) == NULL);
  EXPECT(pcrypt_error_status(), PCRYPT_E_IO);
  CHECK(pcrypt_error_errno() == ENOENT);
  write_file(path_in("exists"), "x", 1);
  CHECK(pcrypt_sink_path(path_in("exists"), 0) == NULL);
  EXPECT(pcrypt_error_status(), PCRYPT_E_OUTPUT_EXISTS);
  CHECK(pcrypt_error_errno() == EEXIST);
  {
    pcrypt_file* file = NULL;
    pcrypt_source* source = pcrypt_source_callback(1000, failing_read, NULL);
    EXPECT(pcrypt_file_open(&file, source), PCRYPT_E_CALLBACK);
    CHECK(pcrypt_error_errno() == EIO);
    pcrypt_source_free(source);
  }

  /* usage */
  {
    pcrypt_options* options = pcrypt_options_new();
    EXPECT(pcrypt_options_set(options, PCRYPT_OPTION_THREADS, 100000), PCRYPT_E_BAD_ARGUMENT);
    pcrypt_options_free(options);
  }
  {
    pcrypt_file* file = NULL;
    EXPECT(pcrypt_file_open(&file, NULL), PCRYPT_E_NULL_ARGUMENT);
    seven[6] = pcrypt_error_code();
  }
  {
    pcrypt_file* file = NULL;
    size_t got = 0;
    uint8_t buffer[16];
    CHECK(open_memory(age_file, age_size, &file) == PCRYPT_OK);
    EXPECT(pcrypt_file_read_at(file, 0, buffer, sizeof buffer, &got), PCRYPT_E_WRONG_ORDER);
    pcrypt_file_free(file);
  }
  {
    pcrypt_source* source = pcrypt_source_memory(plain, 10);
    pcrypt_sink* sink = pcrypt_sink_memory();
    pcrypt_recipients* none = pcrypt_recipients_new();
    EXPECT(pcrypt_encrypt(source, sink, none, NULL, NULL), PCRYPT_E_NO_CREDENTIAL);
    pcrypt_recipients_free(none);
    pcrypt_sink_free(sink);
    pcrypt_source_free(source);
  }
  {
    pcrypt_credentials* by = pcrypt_credentials_new();
    EXPECT(pcrypt_credentials_set_passphrase(by, ""), PCRYPT_E_EMPTY_PASSPHRASE);
    pcrypt_credentials_free(by);
  }
  {
    pcrypt_source* source = pcrypt_source_memory(plain, 10);
    pcrypt_sink* sink = pcrypt_sink_memory();
    pcrypt_recipients* mixed = pcrypt_recipients_new();
    CHECK(pcrypt_recipients_add(mixed, pcrypt_key_recipient(alice)) == PCRYPT_OK);
    CHECK(pcrypt_recipients_set_passphrase(mixed, "also") == PCRYPT_OK);
    EXPECT(pcrypt_encrypt(source, sink, mixed, NULL, NULL), PCRYPT_E_CREDENTIAL_MIX);
    pcrypt_recipients_free(mixed);
    pcrypt_sink_free(sink);
    pcrypt_source_free(source);
  }
  {
    pcrypt_source* source = pcrypt_source_memory(plain, 10);
    pcrypt_sink* sink = pcrypt_sink_memory();
    pcrypt_recipients* mixed = pcrypt_recipients_new();
    CHECK(pcrypt_recipients_add(mixed, pcrypt_key_recipient(alice)) == PCRYPT_OK);
    CHECK(pcrypt_recipients_add(mixed, pcrypt_key_recipient(pq)) == PCRYPT_OK);
    EXPECT(pcrypt_encrypt(source, sink, mixed, NULL, NULL), PCRYPT_E_INCOMPATIBLE_RECIPIENTS);
    pcrypt_recipients_free(mixed);
    pcrypt_sink_free(sink);
    pcrypt_source_free(source);
  }
  {
    pcrypt_source* source = pcrypt_source_memory(plain, 10);
    pcrypt_sink* sink = pcrypt_sink_memory();
    pcrypt_recipients* to = pcrypt_recipients_new();
    pcrypt_options* options = pcrypt_options_new();
    CHECK(pcrypt_options_set(options, PCRYPT_OPTION_FORMAT, PCRYPT_FORMAT_PCRYPT) == PCRYPT_OK);
    CHECK(pcrypt_options_set(options, PCRYPT_OPTION_ARMOR, 1) == PCRYPT_OK);
    CHECK(pcrypt_recipients_add(to, pcrypt_key_recipient(alice)) == PCRYPT_OK);
    EXPECT(pcrypt_encrypt(source, sink, to, options, NULL), PCRYPT_E_FORMAT_OPTION);
    pcrypt_options_free(options);
    pcrypt_recipients_free(to);
    pcrypt_sink_free(sink);
    pcrypt_source_free(source);
  }
  EXPECT(pcrypt_check_recipient("not a recipient"), PCRYPT_E_NOT_A_RECIPIENT);
  {
    pcrypt_credentials* by = pcrypt_credentials_new();
    write_file(path_in("public.txt"), pcrypt_key_recipient(alice), strlen(pcrypt_key_recipient(alice)));
    CHECK(pcrypt_credentials_add_identity_file(by, path_in("public.txt")) == PCRYPT_OK);
    EXPECT(unlock_memory(age_file, age_size, by), PCRYPT_E_NOT_AN_IDENTITY);
    CHECK(strcmp(pcrypt_error_path(), path_in("public.txt")) == 0 || pcrypt_error_path()[0] == '\0');
    pcrypt_credentials_free(by);
  }
  {
    pcrypt_credentials* by = pcrypt_credentials_new();
    write_file(path_in("not-a-key"), "hello\n", 6);
    CHECK(pcrypt_credentials_add_key_file(by, path_in("not-a-key")) == PCRYPT_OK);
    EXPECT(unlock_memory(pcrypt_file_bytes, pcrypt_size, by), PCRYPT_E_NOT_A_KEY_FILE);
    CHECK(strcmp(pcrypt_error_path(), path_in("not-a-key")) == 0);
    pcrypt_credentials_free(by);
  }
  {
    pcrypt_rekey* nothing = pcrypt_rekey_new();
    pcrypt_rekey* last = pcrypt_rekey_new();
    pcrypt_rekey* bad = pcrypt_rekey_new();
    CHECK(pcrypt_rekey_remove_slot(last, 1) == PCRYPT_OK);
    CHECK(pcrypt_rekey_remove_slot(bad, 5) == PCRYPT_OK);
    CHECK(pcrypt_rekey_add_recipient(bad, pcrypt_key_recipient(bob)) == PCRYPT_OK);
    EXPECT(rekey_memory(age_file, age_size, by_alice, nothing), PCRYPT_E_NOTHING_TO_CHANGE);
    EXPECT(rekey_memory(age_file, age_size, by_alice, last), PCRYPT_E_LAST_SLOT);
    EXPECT(rekey_memory(age_file, age_size, by_alice, bad), PCRYPT_E_BAD_SLOT);
    pcrypt_rekey_free(bad);
    pcrypt_rekey_free(last);
    pcrypt_rekey_free(nothing);
  }
  {
    /* A rekey's additions and removals the file cannot take (pcrypt's format, opened by alice). (Too many
     * passphrases cannot be asked through C: a rekey adds one passphrase; the C++ test provokes it.) */
    pcrypt_rekey* anonymous = pcrypt_rekey_new();
    pcrypt_rekey* not_in_file = pcrypt_rekey_new();
    pcrypt_rekey* already = pcrypt_rekey_new();
    pcrypt_rekey* slots = pcrypt_rekey_new();
    const char* bob_file = path_in("bob.txt");
    write_file(bob_file, pcrypt_key_text(bob), strlen(pcrypt_key_text(bob)));
    CHECK(pcrypt_rekey_remove_recipient(anonymous, pcrypt_key_recipient(bob)) == PCRYPT_OK);
    CHECK(pcrypt_rekey_remove_identity_file(not_in_file, bob_file) == PCRYPT_OK);
    CHECK(pcrypt_rekey_add_recipient(already, pcrypt_key_recipient(alice)) == PCRYPT_OK);
    for (i = 0; i < 255; ++i) {
      pcrypt_key* someone = NULL;
      CHECK(pcrypt_keygen(&someone, PCRYPT_KEY_AGE_X25519) == PCRYPT_OK);
      CHECK(pcrypt_rekey_add_recipient(slots, pcrypt_key_recipient(someone)) == PCRYPT_OK);
      pcrypt_key_free(someone);
    }
    EXPECT(rekey_memory(pcrypt_file_bytes, pcrypt_size, by_alice, anonymous), PCRYPT_E_ANONYMOUS_RECIPIENT);
    EXPECT(rekey_memory(pcrypt_file_bytes, pcrypt_size, by_alice, not_in_file), PCRYPT_E_NOT_IN_FILE);
    EXPECT(rekey_memory(pcrypt_file_bytes, pcrypt_size, by_alice, already), PCRYPT_E_ALREADY_IN_FILE);
    CHECK(pcrypt_error_field(PCRYPT_FIELD_SLOT, &value) == 1 && value == 1);
    EXPECT(rekey_memory(pcrypt_file_bytes, pcrypt_size, by_alice, slots), PCRYPT_E_TOO_MANY_SLOTS);
    CHECK(pcrypt_error_field(PCRYPT_FIELD_SLOT, &value) == 1 && value == 256);
    pcrypt_rekey_free(slots);
    pcrypt_rekey_free(already);
    pcrypt_rekey_free(not_in_file);
    pcrypt_rekey_free(anonymous);
  }
  {
    pcrypt_file* file = NULL;
    size_t got = 0;
    uint8_t buffer[16];
    CHECK(open_memory(armored, armored_size, &file) == PCRYPT_OK);
    CHECK(pcrypt_file_unlock(file, by_alice) == PCRYPT_OK);
    EXPECT(pcrypt_file_read_at(file, 0, buffer, sizeof buffer, &got), PCRYPT_E_NOT_SEEKABLE);
    pcrypt_file_free(file);
  }

  /* wrong credential */
  {
    pcrypt_credentials* wrong = with_passphrase("wrong");
    pcrypt_credentials* limited = with_passphrase("right");
    pcrypt_credentials* argon2id_limited = with_passphrase("right");
    EXPECT(unlock_memory(scrypt_file, scrypt_size, wrong), PCRYPT_E_WRONG_PASSPHRASE);
    seven[0] = pcrypt_error_code();
    CHECK(pcrypt_error_stanza_type_count() == 1 && strcmp(pcrypt_error_stanza_type(0), "scrypt") == 0);
    CHECK(pcrypt_error_stanza_type(1) == NULL);
    CHECK(pcrypt_credentials_set_limit(limited, PCRYPT_LIMIT_SCRYPT_LOG2, 10) == PCRYPT_OK);
    EXPECT(unlock_memory(scrypt_file, scrypt_size, limited), PCRYPT_E_EXCESSIVE_SCRYPT_WORK);
    seven[4] = pcrypt_error_code();
    CHECK(pcrypt_error_field(PCRYPT_FIELD_SCRYPT_LOG2_ALLOWED, &value) == 1 && value == 10);
    CHECK(pcrypt_error_field(PCRYPT_FIELD_SCRYPT_LOG2_ASKED, &value) == 1 && value > 10);
    CHECK(pcrypt_error_field(PCRYPT_FIELD_RECORD, &value) == 0);
    CHECK(pcrypt_credentials_set_limit(argon2id_limited, PCRYPT_LIMIT_ARGON2ID_MEMORY, 32768) == PCRYPT_OK);
    EXPECT(unlock_memory(argon2id_file, argon2id_size, argon2id_limited), PCRYPT_E_EXCESSIVE_ARGON2ID_WORK);
    CHECK(pcrypt_error_field(PCRYPT_FIELD_ARGON2ID_MEMORY_ASKED, &value) == 1 && value == 65536);
    CHECK(pcrypt_error_field(PCRYPT_FIELD_ARGON2ID_MEMORY_ALLOWED, &value) == 1 && value == 32768);
    pcrypt_credentials_free(argon2id_limited);
    pcrypt_credentials_free(limited);
    pcrypt_credentials_free(wrong);
  }
  EXPECT(unlock_memory(age_file, age_size, by_bob), PCRYPT_E_NO_IDENTITY_MATCHED);
  seven[1] = pcrypt_error_code();
  CHECK(pcrypt_error_stanza_type_count() == 1 && strcmp(pcrypt_error_stanza_type(0), "X25519") == 0);
  EXPECT(unlock_memory(age_file, age_size, by_pq), PCRYPT_E_UNHANDLED_STANZA);
  EXPECT(unlock_memory(pcrypt_file_bytes, pcrypt_size, by_bob), PCRYPT_E_WRONG_CREDENTIAL);
  {
    uint8_t* modified = malloc(age_size);
    char* mac;
    memcpy(modified, age_file, age_size);
    mac = strstr((char*)modified, "--- ") + 4;
    *mac = *mac == 'A' ? 'B' : 'A';
    EXPECT(unlock_memory(modified, age_size, by_alice), PCRYPT_E_HEADER_MAC);
    free(modified);
  }

  /* damaged header */
  EXPECT(unlock_memory("hello\n", 6, by_alice), PCRYPT_E_NOT_ENCRYPTED);
  seven[5] = pcrypt_error_code();
  EXPECT(unlock_memory("", 0, by_alice), PCRYPT_E_EMPTY_INPUT);
  {
    const char* malformed = "age-encryption.org/v1\n-> X25519\n--- AAAA\n";
    const char* newer = "age-encryption.org/v2\n";
    const char* armor = "-----BEGIN AGE ENCRYPTED FILE-----\n!!!!\n-----END AGE ENCRYPTED FILE-----\n";
    EXPECT(unlock_memory(malformed, strlen(malformed), by_alice), PCRYPT_E_MALFORMED_HEADER);
    EXPECT(unlock_memory(newer, strlen(newer), by_alice), PCRYPT_E_UNSUPPORTED_VERSION);
    EXPECT(unlock_memory(armor, strlen(armor), by_alice), PCRYPT_E_MALFORMED_ARMOR);
    EXPECT(unlock_memory(pcrypt_file_bytes, 20, by_alice), PCRYPT_E_TRUNCATED_HEADER);
  }

  /* damaged payload */
  {
    uint8_t* damaged = malloc(age_size);
    memcpy(damaged, age_file, age_size);
    damaged[age_size - 70000] ^= 1;
    EXPECT(verify_memory(damaged, age_size, by_alice), PCRYPT_E_DAMAGED_RECORD);
    seven[2] = pcrypt_error_code();
    CHECK(pcrypt_error_field(PCRYPT_FIELD_RECORD, &value) == 1 && value == 1);
    CHECK(pcrypt_error_field(PCRYPT_FIELD_OFFSET, &value) == 1 && value > 0);
    free(damaged);
  }
  /* Cut inside the final record's tag (a cut elsewhere in a record fails its authentication instead). */
  EXPECT(verify_memory(age_file, age_size - (sizeof plain % 65536 + 16 - 5), by_alice), PCRYPT_E_TRUNCATED);
  seven[3] = pcrypt_error_code();

  /* A Cobblestone-128 file opened with its raw key and another context. */
  {
    static const uint8_t raw_key[16] = {1, 2, 3};
    pcrypt_recipients* to = pcrypt_recipients_new();
    pcrypt_options* options = pcrypt_options_new();
    pcrypt_sink* sink = pcrypt_sink_memory();
    pcrypt_credentials* by = pcrypt_credentials_new();
    pcrypt_file* file = NULL;
    pcrypt_source *plaintext = pcrypt_source_memory(plain, 100), *encrypted_source = NULL;
    const uint8_t* bytes;
    size_t size = 0;
    CHECK(pcrypt_options_set(options, PCRYPT_OPTION_FORMAT, PCRYPT_FORMAT_COBBLESTONE_128) == PCRYPT_OK);
    CHECK(pcrypt_recipients_add_raw_key(to, raw_key, sizeof raw_key, "a", 1) == PCRYPT_OK);
    CHECK(pcrypt_encrypt(plaintext, sink, to, options, NULL) == PCRYPT_OK);
    bytes = pcrypt_sink_memory_data(sink, &size);
    encrypted_source = pcrypt_source_memory(bytes, size); /* sources are used up, but freed by the caller */
    CHECK(pcrypt_credentials_add_raw_key(by, raw_key, sizeof raw_key, "b", 1) == PCRYPT_OK);
    CHECK(pcrypt_file_open_format(&file, encrypted_source, PCRYPT_FORMAT_COBBLESTONE_128) == PCRYPT_OK);
    EXPECT(pcrypt_file_unlock(file, by), PCRYPT_E_COMMITMENT_MISMATCH);
    pcrypt_file_free(file);
    pcrypt_source_free(encrypted_source);
    pcrypt_source_free(plaintext);
    pcrypt_credentials_free(by);
    pcrypt_sink_free(sink);
    pcrypt_options_free(options);
    pcrypt_recipients_free(to);
  }

  /* The seven failures of issue 41: seven codes, seven names. */
  {
    int a, b;
    for (a = 0; a < 7; ++a)
      for (b = a + 1; b < 7; ++b) {
        CHECK(seven[a] != seven[b]);
        CHECK(strcmp(pcrypt_error_code_name(seven[a]), pcrypt_error_code_name(seven[b])) != 0);
      }
  }

  /* Every code the C API can give was provoked above. */
#define PCRYPT_TEST_C_ONLY_(name, number, description)                                                    \
  if (!provoked[number] && number != PCRYPT_E_OUT_OF_MEMORY && number != PCRYPT_E_PLUGIN &&               \
      number != PCRYPT_E_CRYPTO_BACKEND && number != PCRYPT_E_RESOURCES && number != PCRYPT_E_INTERNAL && \
      number != PCRYPT_E_INPUT_CHANGED && number != PCRYPT_E_MOVED_FROM &&                             \
      number != PCRYPT_E_PASSPHRASE_REQUIRED && number != PCRYPT_E_PLUGIN_NOT_FOUND &&                 \
      number != PCRYPT_E_UNKNOWN_ENGINE && number != PCRYPT_E_PAST_THE_END &&                          \
      number != PCRYPT_E_PLUGIN_REFUSED && number != PCRYPT_E_WRONG_KEY_PASSPHRASE &&                  \
      number != PCRYPT_E_PLUGIN_UNWRAP_FAILED && number != PCRYPT_E_RECORD_LIMIT &&                  \
      number != PCRYPT_E_TOO_MANY_PASSPHRASES) {                  \
    ++failures;                                                                                        \
    fprintf(stderr, "%s (%d) is not provoked through C\n", #name, number);                              \
  }
  PCRYPT_ERROR_CODES(PCRYPT_TEST_C_ONLY_)
#undef PCRYPT_TEST_C_ONLY_

  free(age_file);
  free(pcrypt_file_bytes);
  free(armored);
  free(scrypt_file);
  free(argon2id_file);
  pcrypt_credentials_free(by_alice);
  pcrypt_credentials_free(by_bob);
  pcrypt_credentials_free(by_pq);
  pcrypt_key_free(alice);
  pcrypt_key_free(bob);
  pcrypt_key_free(pq);
  {
    char command[128];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    if (system(command) != 0) ++failures;
  }
  if (failures != 0) {
    fprintf(stderr, "test_error_codes: %d failures\n", failures);
    return 1;
  }
  printf("test_error_codes: all codes the C API reports checked\n");
  return 0;
}
