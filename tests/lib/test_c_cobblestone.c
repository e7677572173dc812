/* C2SP chunked encryption (Cobblestone-128 and -256) through the C API alone: all 70 Wycheproof vectors
 * (tests/vectors/cobblestone/, read with a small scanner of their fixed layout, ciphertexts inflated with
 * zlib, plaintexts hashed with libsodium's SHA-512), each decrypted, verified and read at its last byte with
 * pcrypt_file_open_format and a raw key; round trips through pcrypt_encrypt and the streaming encryptor;
 * the code of each failure. Compiled by the C compiler (-std=c11 -pedantic).
 *   test_c_cobblestone VECTOR_DIR
 */
#define _POSIX_C_SOURCE 200809L
#include <pcrypt/pcrypt_c.h>

#include <sodium.h>
#include <zlib.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
static int checks = 0;

#define CHECK(condition)                                                                                   \
  do {                                                                                                     \
    ++checks;                                                                                              \
    if (!(condition)) {                                                                                    \
      ++failures;                                                                                          \
      fprintf(stderr, "%s:%d: CHECK(%s) failed (%s; last error: %s %s)\n", __FILE__, __LINE__, #condition, \
              current, pcrypt_error_code_name(pcrypt_error_code()), pcrypt_error_message());               \
    }                                                                                                      \
  } while (0)

static char current[128] = "";

static char* read_whole(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  char* text;
  long n;
  if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) exit(2);
  text = malloc((size_t)n + 1);
  if (text == NULL || fread(text, 1, (size_t)n, f) != (size_t)n) exit(2);
  text[n] = '\0';
  fclose(f);
  *size = (size_t)n;
  return text;
}

/* The string value of "name" in [from, to), decoded from hex into a malloc'd buffer; NULL when absent. */
static uint8_t* hex_field(const char* from, const char* to, const char* name, size_t* size) {
  char pattern[64];
  const char* at;
  const char* end;
  uint8_t* out;
  size_t i, n;
  snprintf(pattern, sizeof pattern, "\"%s\": \"", name);
  at = strstr(from, pattern);
  if (at == NULL || at >= to) return NULL;
  at += strlen(pattern);
  end = strchr(at, '"');
  n = (size_t)(end - at) / 2;
  out = malloc(n + 1);
  for (i = 0; i < n; ++i) {
    unsigned byte;
    if (sscanf(at + 2 * i, "%2x", &byte) != 1) exit(2);
    out[i] = (uint8_t)byte;
  }
  *size = n;
  return out;
}

static const char* text_field(const char* from, const char* to, const char* name, char* out,
                              size_t capacity) {
  char pattern[64];
  const char* at;
  const char* end;
  size_t n;
  snprintf(pattern, sizeof pattern, "\"%s\": ", name);
  at = strstr(from, pattern);
  if (at == NULL || at >= to) return NULL;
  at += strlen(pattern);
  end = at;
  if (*at == '"')
    end = strchr(++at, '"');
  else if (*at == '[')
    end = strchr(at, ']') + 1;
  else
    while (*end != ',' && *end != '\n') ++end;
  n = (size_t)(end - at) < capacity - 1 ? (size_t)(end - at) : capacity - 1;
  memcpy(out, at, n);
  out[n] = '\0';
  return out;
}

static uint8_t* inflated(const uint8_t* in, size_t in_size, size_t* size) {
  size_t capacity = 1 << 16;
  uint8_t* out = malloc(capacity);
  z_stream z;
  int rc = Z_OK;
  memset(&z, 0, sizeof z);
  if (inflateInit(&z) != Z_OK) exit(2);
  z.next_in = (Bytef*)(uintptr_t)in;
  z.avail_in = (uInt)in_size;
  while (rc != Z_STREAM_END) {
    if (z.total_out == capacity) out = realloc(out, capacity *= 2);
    z.next_out = out + z.total_out;
    z.avail_out = (uInt)(capacity - z.total_out);
    rc = inflate(&z, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) exit(2);
  }
  *size = z.total_out;
  inflateEnd(&z);
  return out;
}

static void to_hex(const uint8_t* bytes, size_t n, char* out) {
  size_t i;
  for (i = 0; i < n; ++i) sprintf(out + 2 * i, "%02x", bytes[i]);
}

/* One vector: decrypt, verify and read_at through the C API; the status of the first call that failed, and
 * its code in *code (or PCRYPT_OK and the plaintext's SHA-512 in hex). */
static int run_vector(pcrypt_format format, const uint8_t* key, size_t key_size, const uint8_t* ctx,
                      size_t ctx_size, const uint8_t* ct, size_t ct_size, int* code, uint64_t* length,
                      char* sha_hex) {
  pcrypt_credentials* by = pcrypt_credentials_new();
  pcrypt_file* file = NULL;
  pcrypt_sink* sink = NULL;
  int status = pcrypt_credentials_add_raw_key(by, key, key_size, ctx, ctx_size);
  if (status == PCRYPT_OK) {
    pcrypt_source* source = pcrypt_source_memory(ct, ct_size); /* used up by the open, freed by us */
    status = pcrypt_file_open_format(&file, source, format);
    pcrypt_source_free(source);
  }
  if (status == PCRYPT_OK) status = pcrypt_file_unlock(file, by);
  if (status == PCRYPT_OK) {
    sink = pcrypt_sink_memory();
    status = pcrypt_file_decrypt(file, sink, NULL, NULL);
  }
  *code = pcrypt_error_code();
  if (status == PCRYPT_OK) {
    size_t size = 0;
    const uint8_t* plain = pcrypt_sink_memory_data(sink, &size);
    uint8_t digest[crypto_hash_sha512_BYTES];
    uint64_t plaintext_size = 0;
    *length = size;
    crypto_hash_sha512(digest, plain, size);
    to_hex(digest, sizeof digest, sha_hex);
    CHECK(pcrypt_file_verify(file, NULL, NULL) == PCRYPT_OK);
    CHECK(pcrypt_file_plaintext_size(file, &plaintext_size) == PCRYPT_OK && plaintext_size == size);
    if (size > 0) {
      /* A range that ends at the message's end authenticates the final chunk. */
      uint8_t last = 0;
      size_t got = 0;
      CHECK(pcrypt_file_read_at(file, size - 1, &last, 1, &got) == PCRYPT_OK && got == 1 &&
            last == plain[size - 1]);
    }
  } else if (file != NULL) {
    /* Verify fails alike. */
    if (pcrypt_file_unlock(file, by) == PCRYPT_OK) CHECK(pcrypt_file_verify(file, NULL, NULL) == status);
  }
  pcrypt_sink_free(sink);
  pcrypt_file_free(file);
  pcrypt_credentials_free(by);
  return status;
}

static void run_file(const char* dir, const char* name, pcrypt_format format, int* total, int* valid) {
  char path[1024];
  size_t size = 0;
  char* text;
  const char* at;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  text = read_whole(path, &size);
  at = strstr(text, "\"tcId\": ");
  while (at != NULL) {
    const char* next = strstr(at + 1, "\"tcId\": ");
    const char* end = next != NULL ? next : text + size;
    size_t key_size = 0, ctx_size = 0, z_size = 0, ct_size = 0, sha_size = 0;
    uint8_t* key = hex_field(at, end, "key", &key_size);
    uint8_t* ctx = hex_field(at, end, "ctx", &ctx_size);
    uint8_t* z = hex_field(at, end, "ct", &z_size);
    uint8_t* ct = inflated(z, z_size, &ct_size);
    uint8_t* sha = hex_field(at, end, "msgSha512", &sha_size);
    char id[32], result[16], length_text[32], flags[256], sha_hex[2 * crypto_hash_sha512_BYTES + 1];
    char want_sha[2 * crypto_hash_sha512_BYTES + 1] = "";
    int code = 0, status;
    uint64_t length = 0;
    text_field(at, end, "tcId", id, sizeof id);
    text_field(at, end, "result", result, sizeof result);
    if (text_field(at, end, "flags", flags, sizeof flags) == NULL) flags[0] = '\0';
    snprintf(current, sizeof current, "%s tcId %s", name, id);
    status = run_vector(format, key, key_size, ctx, ctx_size, ct, ct_size, &code, &length, sha_hex);
    ++*total;
    if (strcmp(result, "valid") == 0) {
      ++*valid;
      CHECK(status == PCRYPT_OK);
      CHECK(text_field(at, end, "msgLength", length_text, sizeof length_text) != NULL &&
            strtoull(length_text, NULL, 10) == length);
      if (sha != NULL) to_hex(sha, sha_size, want_sha);
      CHECK(status != PCRYPT_OK || strcmp(sha_hex, want_sha) == 0);
    } else {
      const size_t payload = ct_size >= 56 ? ct_size - 56 : 0;
      CHECK(status != PCRYPT_OK);
      CHECK(pcrypt_error_code_status(code) == status);
      if (strstr(flags, "InvalidKeySize") != NULL)
        CHECK(code == PCRYPT_E_BAD_ARGUMENT);
      else if (strstr(flags, "HeaderFailure") != NULL && ct_size == 0)
        CHECK(code == PCRYPT_E_EMPTY_INPUT);
      else if (strstr(flags, "HeaderFailure") != NULL && ct_size < 56)
        CHECK(code == PCRYPT_E_TRUNCATED_HEADER);
      else if (strstr(flags, "HeaderFailure") != NULL)
        CHECK(code == PCRYPT_E_COMMITMENT_MISMATCH);
      else /* a final record shorter than a tag is truncated; any other fails authentication */
        CHECK(code == (payload % (16384 + 16) < 16 ? PCRYPT_E_TRUNCATED : PCRYPT_E_DAMAGED_RECORD));
    }
    free(key);
    free(ctx);
    free(z);
    free(ct);
    free(sha);
    at = next;
  }
  free(text);
}

/* pcrypt_encrypt and the encryptor make files the other side opens; the wrong context is refused. */
static void round_trips(pcrypt_format format, size_t key_size) {
  static uint8_t plain[3 * 16384 + 5];
  const size_t sizes[] = {0, 1, 16383, 16384, 16385, 2 * 16384, sizeof plain};
  uint8_t key[32];
  const char context[] = "app v1";
  size_t i;
  snprintf(current, sizeof current, "round trips, format %d", (int)format);
  for (i = 0; i < sizeof plain; ++i) plain[i] = (uint8_t)(i * 7);
  CHECK(pcrypt_generate_raw_key(key, key_size) == PCRYPT_OK);
  CHECK(pcrypt_generate_raw_key(key, 24) == PCRYPT_ERROR_USAGE &&
        pcrypt_error_code() == PCRYPT_E_BAD_ARGUMENT);
  for (i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
    const size_t n = sizes[i];
    int streamed;
    for (streamed = 0; streamed < 2; ++streamed) {
      pcrypt_recipients* to = pcrypt_recipients_new();
      pcrypt_options* options = pcrypt_options_new();
      pcrypt_sink* sink = pcrypt_sink_memory();
      pcrypt_credentials* by = pcrypt_credentials_new();
      pcrypt_credentials* wrong = pcrypt_credentials_new();
      pcrypt_file* file = NULL;
      pcrypt_source* source = NULL; /* each used up by the call it is given to, freed by us */
      pcrypt_sink* out = pcrypt_sink_memory();
      const uint8_t* ct;
      const uint8_t* back;
      size_t ct_size = 0, back_size = 0;
      CHECK(pcrypt_options_set(options, PCRYPT_OPTION_FORMAT, (uint64_t)format) == PCRYPT_OK);
      CHECK(pcrypt_recipients_add_raw_key(to, key, key_size, context, strlen(context)) == PCRYPT_OK);
      if (streamed) {
        pcrypt_encryptor* encryptor = NULL;
        CHECK(pcrypt_encryptor_new(&encryptor, sink, to, options) == PCRYPT_OK);
        CHECK(pcrypt_encryptor_write(encryptor, plain, n / 2) == PCRYPT_OK);
        CHECK(pcrypt_encryptor_write(encryptor, plain + n / 2, n - n / 2) == PCRYPT_OK);
        CHECK(pcrypt_encryptor_finish(encryptor, NULL) == PCRYPT_OK);
        pcrypt_encryptor_free(encryptor);
      } else {
        pcrypt_transfer transfer;
        pcrypt_source* plaintext = pcrypt_source_memory(plain, n);
        CHECK(pcrypt_encrypt(plaintext, sink, to, options, &transfer) == PCRYPT_OK);
        pcrypt_source_free(plaintext);
        CHECK(transfer.encrypted_bytes == 56 + n + 16 * (n / 16384 + 1));
        CHECK(transfer.header_bytes == 56);
      }
      ct = pcrypt_sink_memory_data(sink, &ct_size);
      CHECK(ct_size == 56 + n + 16 * (n / 16384 + 1));
      CHECK(pcrypt_credentials_add_raw_key(by, key, key_size, context, strlen(context)) == PCRYPT_OK);
      source = pcrypt_source_memory(ct, ct_size);
      CHECK(pcrypt_file_open_format(&file, source, format) == PCRYPT_OK);
      pcrypt_source_free(source);
      CHECK(pcrypt_file_format(file) == format);
      CHECK(pcrypt_file_header_bytes(file) == 56);
      CHECK(pcrypt_file_chunk_size(file) == 16384);
      CHECK(pcrypt_credentials_add_raw_key(wrong, key, key_size, context, strlen(context) - 1) == PCRYPT_OK);
      CHECK(pcrypt_file_unlock(file, wrong) == PCRYPT_ERROR_WRONG_CREDENTIAL &&
            pcrypt_error_code() == PCRYPT_E_COMMITMENT_MISMATCH);
      CHECK(pcrypt_file_unlock(file, by) == PCRYPT_OK);
      CHECK(pcrypt_file_decrypt(file, out, NULL, NULL) == PCRYPT_OK);
      back = pcrypt_sink_memory_data(out, &back_size);
      CHECK(back_size == n && (n == 0 || memcmp(back, plain, n) == 0));
      pcrypt_file_free(file);
      /* Not guessed: without the format, the file is not one pcrypt or age file. */
      file = NULL;
      source = pcrypt_source_memory(ct, ct_size);
      CHECK(pcrypt_file_open(&file, source) != PCRYPT_OK);
      pcrypt_source_free(source);
      pcrypt_file_free(file);
      pcrypt_sink_free(out);
      pcrypt_credentials_free(wrong);
      pcrypt_credentials_free(by);
      pcrypt_sink_free(sink);
      pcrypt_options_free(options);
      pcrypt_recipients_free(to);
    }
  }
}

int main(int argc, char** argv) {
  int total = 0, valid = 0;
  if (argc != 2 || sodium_init() < 0) {
    fprintf(stderr, "usage: test_c_cobblestone VECTOR_DIR\n");
    return 2;
  }
  run_file(argv[1], "wycheproof_c2sp_chunked_encryption_aes_128_gcm_test.json", PCRYPT_FORMAT_COBBLESTONE_128,
           &total, &valid);
  run_file(argv[1], "wycheproof_c2sp_chunked_encryption_aes_256_gcm_test.json", PCRYPT_FORMAT_COBBLESTONE_256,
           &total, &valid);
  snprintf(current, sizeof current, "vector counts");
  CHECK(total == 70);
  CHECK(valid == 20);
  round_trips(PCRYPT_FORMAT_COBBLESTONE_128, 16);
  round_trips(PCRYPT_FORMAT_COBBLESTONE_256, 32);
  {
    pcrypt_options* options = pcrypt_options_new();
    snprintf(current, sizeof current, "bad arguments");
    CHECK(pcrypt_options_set(options, PCRYPT_OPTION_FORMAT, 4) == PCRYPT_ERROR_USAGE);
    pcrypt_options_free(options);
  }
  if (failures != 0) {
    fprintf(stderr, "test_c_cobblestone: %d of %d checks failed\n", failures, checks);
    return 1;
  }
  printf("test_c_cobblestone: %d checks passed (70 Wycheproof vectors, round trips)\n", checks);
  return 0;
}
