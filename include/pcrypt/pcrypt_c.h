/* libpcrypt's C API: age files and pcrypt files from C (C99 or later) and from any language that calls C.
 * It is a layer over the C++ API of <pcrypt/pcrypt.h>, exported from the same libpcrypt.so.1;
 * docs/LIBRARY.md, "The C API", is its guide.
 *
 *   pcrypt_source *src = pcrypt_source_path("backup.age");
 *   pcrypt_credentials *by = pcrypt_credentials_new();
 *   pcrypt_file *file = NULL;
 *   if (!src || !by || pcrypt_credentials_add_identity_file(by, "key.txt") != PCRYPT_OK ||
 *       pcrypt_file_open(&file, src) != PCRYPT_OK || pcrypt_file_unlock(file, by) != PCRYPT_OK)
 *     fprintf(stderr, "error: %s\n", pcrypt_error_message());
 *   ... pcrypt_file_read_at(file, offset, buffer, sizeof buffer, &got) ...
 *   pcrypt_file_free(file); pcrypt_credentials_free(by); pcrypt_source_free(src);
 *
 * Conventions (the same for every function):
 * - Handles are opaque. Every handle a pcrypt_*_new()/pcrypt_source_*()/pcrypt_sink_*()/pcrypt_*_open()
 *   call returns is the caller's, and is released with its pcrypt_*_free(), which accepts NULL. Constructors
 *   return NULL only when out of memory or given a NULL argument (the thread's error then says which).
 * - Functions that can fail return an int: PCRYPT_OK (0) or a negative pcrypt_status. The failing call's
 *   one-line message, hint and errno are then this thread's pcrypt_error_message(), pcrypt_error_hint() and
 *   pcrypt_error_errno(), until the next failing call on this thread. Results come through out-parameters,
 *   which are left untouched on failure.
 * - Options are set one by one (pcrypt_options_set(), pcrypt_credentials_set_limit()), never passed as a
 *   struct, so that new ones can be added without breaking the ABI. The only structs, pcrypt_transfer, is
 *   frozen: new figures come as new functions.
 * - No C++ exception ever leaves the library through this API; callbacks given to it must return normally
 *   (no longjmp out of them).
 * - Strings are NUL-terminated UTF-8. Strings the library returns belong to the handle they came from and
 *   stay valid until that handle is freed (or the same accessor is called again on it).
 *
 * Threads: handles are independent of each other; one handle is used by one thread at a time, except that
 * after pcrypt_file_unlock() any number of threads may call pcrypt_file_read_at() and
 * pcrypt_file_plaintext_size() on one pcrypt_file at once (a read-at callback source is then called from
 * those threads at once). The error accessors are per thread. Callbacks are called on the thread that made
 * the call they were given to, except a read-at callback, which the library may call from its workers.
 */
#ifndef PCRYPT_PCRYPT_C_H
#define PCRYPT_PCRYPT_C_H

#include <stddef.h>
#include <stdint.h>

#include <pcrypt/errors.h>
#include <pcrypt/export.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Errors ------------------------------------------------------------------------------------------ */

/* What a call returns: PCRYPT_OK, or what went wrong, by what the caller can do about it (the C++ API's
 * pcrypt::ErrorKind, and the `pcrypt` command's exit code in brackets); pcrypt_error_code() says exactly
 * what. */
typedef enum pcrypt_status {
  PCRYPT_OK = 0,
  PCRYPT_ERROR_IO = -1,               /* reading or writing failed, out of memory, a callback failed (1) */
  PCRYPT_ERROR_USAGE = -2,            /* the call: a bad argument, a NULL handle, a read before unlock (2) */
  PCRYPT_ERROR_WRONG_CREDENTIAL = -3, /* nothing given opens the file, or its header was modified (3) */
  PCRYPT_ERROR_DAMAGED_HEADER = -4,   /* not an encrypted file, or a malformed or unsupported header (3) */
  PCRYPT_ERROR_DAMAGED_PAYLOAD = -5   /* a record fails authentication, a file cut short or extended (4) */
} pcrypt_status;

/* This thread's last failed call: its one-line message ("payload authentication failed (chunk 3 at offset
 * 196720)"), its hint for a person or "", the errno behind an io error or 0 (EPIPE: the reader of a pipe
 * went away), and its status. Never NULL; "" and 0 before any failure. */
PCRYPT_API const char* pcrypt_error_message(void);
PCRYPT_API const char* pcrypt_error_hint(void);
PCRYPT_API int pcrypt_error_errno(void);
PCRYPT_API int pcrypt_error_status(void);
/* A status's name ("damaged payload"; "ok"; "unknown status" for other numbers), a static string. */
PCRYPT_API const char* pcrypt_status_name(int status);

/* This thread's last failure exactly: its code (<pcrypt/errors.h>: PCRYPT_E_WRONG_PASSPHRASE, ...; 0, i.e.
 * PCRYPT_E_NONE, before any failure), and the code's stable name ("PCRYPT_E_WRONG_PASSPHRASE";
 * "PCRYPT_E_NONE" for 0, "" for a number that is no code), a static string. Programs decide by code, never
 * by the message, which may be reworded in any release. */
PCRYPT_API int pcrypt_error_code(void);
PCRYPT_API const char* pcrypt_error_code_name(int code);
/* The status a code is grouped under (its hundreds: 3xx is PCRYPT_ERROR_WRONG_CREDENTIAL); PCRYPT_OK for 0,
 * PCRYPT_ERROR_USAGE for a number that is no code. */
PCRYPT_API int pcrypt_error_code_status(int code);
/* The fields of this thread's last failure. A number (a pcrypt_field: the record and its offset, the
 * scrypt work factor asked and allowed, ...): 1 and *value set when the failure has it, else 0 and *value
 * untouched. The file it is about, or "" (never NULL). The file's stanza (age) or key slot (pcrypt) types
 * when nothing opened it ("X25519", "scrypt", "key-file", ...): their count, and each by index (NULL past
 * the end). Strings stay valid until this thread's next failure. */
PCRYPT_API int pcrypt_error_field(int field, uint64_t* value);
PCRYPT_API const char* pcrypt_error_path(void);
PCRYPT_API size_t pcrypt_error_stanza_type_count(void);
PCRYPT_API const char* pcrypt_error_stanza_type(size_t index);

/* The library's version, "0.1.0"; a static string. */
PCRYPT_API const char* pcrypt_version(void);

/* ---- Sizes ------------------------------------------------------------------------------------------- */

#define PCRYPT_MIN_CHUNK_SIZE ((size_t)4 << 10) /* pcrypt's chunk sizes (age's records are 64 KiB) */
#define PCRYPT_MAX_CHUNK_SIZE ((size_t)64 << 20)
#define PCRYPT_MAX_SLOTS 255             /* slots of one pcrypt file */
#define PCRYPT_MAX_SCRYPT_LOG2 40        /* the most age scrypt work ever run */
#define PCRYPT_MAX_PASSPHRASE_BYTES 1024 /* the buffer a passphrase callback fills */

/* ---- Sources and sinks ------------------------------------------------------------------------------- */

typedef struct pcrypt_source pcrypt_source;
typedef struct pcrypt_sink pcrypt_sink;

/* A random-access source's reader: fills `buffer` with up to `size` bytes from `offset` and returns how many
 * (fewer only at the end of the source: 0 before it is a file cut short, PCRYPT_ERROR_DAMAGED_PAYLOAD from
 * every call), or a negative errno (-4095 .. -1, e.g. -EIO) for a failure, which the call reading it then
 * reports as PCRYPT_ERROR_IO with that errno (any other negative result: PCRYPT_ERROR_IO with EIO). Called
 * from several threads at once when several threads read ranges of one file: it must be thread-safe. */
typedef int64_t (*pcrypt_read_at_fn)(void* user, uint64_t offset, void* buffer, size_t size);
/* A callback sink's writer: takes `size` bytes, returns 0, or a negative errno for a failure (which stops the
 * call writing it with PCRYPT_ERROR_IO and that errno; any other result, EIO). */
typedef int (*pcrypt_write_fn)(void* user, const void* data, size_t size);

/* Where encrypted bytes come from (or, for pcrypt_encrypt(), plaintext). A source is used by one call that
 * takes it (pcrypt_file_open, pcrypt_encrypt) and is used up by it, whether that call
 * succeeds or not; the handle is still freed by the caller. */
PCRYPT_API pcrypt_source* pcrypt_source_path(const char* path);
/* An open descriptor, not closed by the library, read from where it stands; it must stay open as long as
 * the file that reads it. */
PCRYPT_API pcrypt_source* pcrypt_source_fd(int fd);
/* `size` bytes at `data`, not copied: they must outlive the file that reads them. */
PCRYPT_API pcrypt_source* pcrypt_source_memory(const void* data, size_t size);
/* `size` bytes served by `read_at`; `user` is passed to it and must outlive the file. */
PCRYPT_API pcrypt_source* pcrypt_source_callback(uint64_t size, pcrypt_read_at_fn read_at, void* user);
PCRYPT_API void pcrypt_source_free(pcrypt_source* source);

/* Where bytes go. A sink is used up by the one call that writes it (decrypt, rekey, encrypt, an
 * encryptor); the handle is still freed by the caller. A path sink's file appears (mode 0600, atomically,
 * fsynced) only when that call succeeds, never after a failure. */
PCRYPT_API pcrypt_sink* pcrypt_sink_path(const char* path, int overwrite);
/* An open descriptor, written in order, not closed; fsynced at the end where it is a regular file. */
PCRYPT_API pcrypt_sink* pcrypt_sink_fd(int fd);
/* Memory the sink owns and grows: pcrypt_sink_memory_data() gives it after the call that wrote it. */
PCRYPT_API pcrypt_sink* pcrypt_sink_memory(void);
/* Each piece in order. A decrypt only passes authenticated plaintext, but a failure later in the file
 * leaves what was passed before it. */
PCRYPT_API pcrypt_sink* pcrypt_sink_callback(pcrypt_write_fn write, void* user);
/* A memory sink's bytes and their count (NULL and 0 for another sink); valid until the sink is freed. After
 * a failed call they are what was written before the failure: authenticated plaintext only, but not all. */
PCRYPT_API const uint8_t* pcrypt_sink_memory_data(const pcrypt_sink* sink, size_t* size);
PCRYPT_API void pcrypt_sink_free(pcrypt_sink* sink);

/* ---- Options ----------------------------------------------------------------------------------------- */

/* COBBLESTONE_128 / _256: C2SP chunked encryption (https://c2sp.org/chunked-encryption) with SHA-512 and
 * AES-128-GCM / AES-256-GCM, made and opened with one raw key and its context (..._add_raw_key). Such files
 * carry no magic: open them with pcrypt_file_open_format; pcrypt_file_open never guesses them. */
typedef enum pcrypt_format {
  PCRYPT_FORMAT_PCRYPT = 0,
  PCRYPT_FORMAT_AGE = 1,
  PCRYPT_FORMAT_COBBLESTONE_128 = 2,
  PCRYPT_FORMAT_COBBLESTONE_256 = 3
} pcrypt_format;

/* How a call runs and, for encrypt and the encryptor, what file it makes. Every option has a default; one
 * options handle may be given to any number of calls (one thread at a time). */
typedef struct pcrypt_options pcrypt_options;
typedef enum pcrypt_option {
  PCRYPT_OPTION_THREADS = 1,         /* workers; 0 (default): one per core this process may use */
  PCRYPT_OPTION_FORMAT = 2,          /* a pcrypt_format to encrypt to; default PCRYPT_FORMAT_AGE */
  PCRYPT_OPTION_ARMOR = 3,           /* 1: age's ASCII armor (pcrypt_encrypt only); default 0 */
  PCRYPT_OPTION_CHUNK_SIZE = 4,      /* pcrypt's plaintext bytes per record; default 1 MiB */
  PCRYPT_OPTION_ARGON2ID_MEMORY = 5, /* bytes, a pcrypt passphrase slot's cost; 0 (default): 256 MiB */
  PCRYPT_OPTION_ARGON2ID_PASSES = 6  /* 0 (default): 4 */
} pcrypt_option;
/* Plaintext bytes done so far, never decreasing, on the calling thread. */
typedef void (*pcrypt_progress_fn)(void* user, uint64_t bytes_done);

PCRYPT_API pcrypt_options* pcrypt_options_new(void);
/* PCRYPT_ERROR_USAGE for an unknown option or a value it cannot take (checked here where it can be, else by
 * the call given it, which knows the format). */
PCRYPT_API int pcrypt_options_set(pcrypt_options* options, pcrypt_option option, uint64_t value);
PCRYPT_API int pcrypt_options_set_progress(pcrypt_options* options, pcrypt_progress_fn progress, void* user);
PCRYPT_API void pcrypt_options_free(pcrypt_options* options);

/* What a call moved. Frozen: it never grows. */
typedef struct pcrypt_transfer {
  uint64_t plaintext_bytes;
  uint64_t encrypted_bytes; /* the whole encrypted file, header included */
  uint64_t header_bytes;    /* of it, before the first record */
  uint64_t records;
} pcrypt_transfer;

/* ---- Credentials (what may open a file) -------------------------------------------------------------- */

typedef struct pcrypt_credentials pcrypt_credentials;
/* Asked for a passphrase: `key_name` names the protected OpenSSH key it is for, or is NULL for the file's
 * own passphrase slot. Writes at most `capacity` (PCRYPT_MAX_PASSPHRASE_BYTES) bytes to `buffer` and returns
 * how many, or -1 for none (the slot is then not opened with it). The library wipes the buffer after use. */
typedef int (*pcrypt_passphrase_fn)(void* user, const char* key_name, char* buffer, size_t capacity);
typedef enum pcrypt_limit {
  PCRYPT_LIMIT_SCRYPT_LOG2 = 1,     /* the most scrypt work an age header may ask for; 0: 22 */
  PCRYPT_LIMIT_ARGON2ID_MEMORY = 2, /* bytes; 0: 1 GiB */
  PCRYPT_LIMIT_ARGON2ID_PASSES = 3  /* 0: 16 */
} pcrypt_limit;

PCRYPT_API pcrypt_credentials* pcrypt_credentials_new(void);
/* An age/pcrypt identity file or an OpenSSH private key, read by unlock. */
PCRYPT_API int pcrypt_credentials_add_identity_file(pcrypt_credentials* credentials, const char* path);
/* Identity text ("AGE-SECRET-KEY-1..." lines), copied into guarded memory. */
PCRYPT_API int pcrypt_credentials_add_identity(pcrypt_credentials* credentials, const char* text);
/* A pcrypt key file (pcrypt's format only). */
PCRYPT_API int pcrypt_credentials_add_key_file(pcrypt_credentials* credentials, const char* path);
/* The passphrase for a passphrase slot, copied into guarded memory (PCRYPT_ERROR_USAGE when empty). */
PCRYPT_API int pcrypt_credentials_set_passphrase(pcrypt_credentials* credentials, const char* passphrase);
/* Asked for the passphrase only when the file has a passphrase slot, and for a protected OpenSSH key's only
 * when its slot is tried. `user` must outlive the unlock calls. */
PCRYPT_API int pcrypt_credentials_set_passphrase_callback(pcrypt_credentials* credentials,
                                                          pcrypt_passphrase_fn passphrase, void* user);
PCRYPT_API int pcrypt_credentials_set_limit(pcrypt_credentials* credentials, pcrypt_limit limit,
                                            uint64_t value);
/* A raw key for the Cobblestone formats: the input key (16 bytes for cobblestone-128, 32 for -256; else
 * PCRYPT_E_BAD_ARGUMENT) and the application's context (`context_size` bytes, any, maybe none: `context` may
 * then be NULL), copied into guarded memory. The file form reads a file of exactly 16 or 32 bytes. */
PCRYPT_API int pcrypt_credentials_add_raw_key(pcrypt_credentials* credentials, const void* key,
                                              size_t key_size, const void* context, size_t context_size);
PCRYPT_API int pcrypt_credentials_add_raw_key_file(pcrypt_credentials* credentials, const char* path,
                                                   const void* context, size_t context_size);
PCRYPT_API void pcrypt_credentials_free(pcrypt_credentials* credentials);

/* ---- An encrypted file: open, describe, unlock, decrypt, verify, read_at, rekey ---------------------- */

typedef struct pcrypt_file pcrypt_file;

/* Opens `source` (used up): its format told by its first bytes, its header read and parsed once.
 * PCRYPT_ERROR_DAMAGED_HEADER (or _IO) for what is not an encrypted file. */
PCRYPT_API int pcrypt_file_open(pcrypt_file** file, pcrypt_source* source);
/* The same with the format named: a Cobblestone format (no magic) is opened as told; PCRYPT_FORMAT_PCRYPT
 * or _AGE are told by their first bytes, as pcrypt_file_open. */
PCRYPT_API int pcrypt_file_open_format(pcrypt_file** file, pcrypt_source* source, pcrypt_format format);
PCRYPT_API void pcrypt_file_free(pcrypt_file* file);

/* What the file is, before any key is needed (0 / NULL for a NULL file). */
PCRYPT_API pcrypt_format pcrypt_file_format(const pcrypt_file* file);
PCRYPT_API int pcrypt_file_armored(const pcrypt_file* file);
PCRYPT_API uint64_t pcrypt_file_header_bytes(const pcrypt_file* file); /* before the first record */
PCRYPT_API size_t pcrypt_file_chunk_size(const pcrypt_file* file);     /* plaintext bytes per record */
PCRYPT_API size_t pcrypt_file_slots(const pcrypt_file* file);          /* key slots, or age's stanzas */
PCRYPT_API size_t pcrypt_file_passphrase_slots(const pcrypt_file* file);
PCRYPT_API const char* pcrypt_file_slots_in_words(const pcrypt_file* file); /* "1 X25519 stanza" */
/* `pcrypt info`'s text (long byte strings in full when `all_bytes`), owned by the file. */
PCRYPT_API int pcrypt_file_info(pcrypt_file* file, int all_bytes, const char** text);

/* Finds the file key with the first credential that opens a slot; PCRYPT_ERROR_WRONG_CREDENTIAL when none
 * does. Needed before everything below. The file keeps copies of what it needs of `credentials`. */
PCRYPT_API int pcrypt_file_unlock(pcrypt_file* file, const pcrypt_credentials* credentials);
/* The whole plaintext into `sink` (used up); `options` (threads, progress) and `transfer` may be NULL. */
PCRYPT_API int pcrypt_file_decrypt(pcrypt_file* file, pcrypt_sink* sink, const pcrypt_options* options,
                                   pcrypt_transfer* transfer);
/* Every record authenticated, nothing written. */
PCRYPT_API int pcrypt_file_verify(pcrypt_file* file, const pcrypt_options* options,
                                  pcrypt_transfer* transfer);
/* Plaintext bytes [offset, offset + size) into `buffer`; `*bytes_read` says how many: fewer only at the end
 * of the plaintext, 0 for an offset at or past it (as pread). Only the records that hold the range are read
 * and authenticated, positionally: any number of threads may call it at once. Not for armored age files
 * (PCRYPT_ERROR_USAGE). The range is decrypted into the library's own buffer (per thread, kept between calls
 * up to 16 MiB) and copied into `buffer` once every record of it is authenticated: on failure `buffer` is
 * untouched. */
PCRYPT_API int pcrypt_file_read_at(const pcrypt_file* file, uint64_t offset, void* buffer, size_t size,
                                   size_t* bytes_read);
/* The plaintext's size, authenticated: the first call of this or pcrypt_file_read_at() reads and opens the
 * final record, so a file cut at any length is PCRYPT_ERROR_DAMAGED_PAYLOAD from both, never a shorter or
 * empty file. */
PCRYPT_API int pcrypt_file_plaintext_size(const pcrypt_file* file, uint64_t* size);

/* ---- Reading as a stream ----------------------------------------------------------------------------- */

/* The plaintext of an unlocked file, pulled by pcrypt_reader_read() calls (Go's age.Decrypt returns such a
 * reader): records are read ahead and authenticated on `threads` workers in the background, from any source
 * (a pipe, armored age, a read-at callback), with bounded memory. Only authenticated bytes are ever returned:
 * the read that reaches a damaged record fails (PCRYPT_ERROR_DAMAGED_PAYLOAD) and returns none of it. */
typedef struct pcrypt_reader pcrypt_reader;
/* Takes the contents of `file`, which must be unlocked (PCRYPT_ERROR_USAGE otherwise), whether it succeeds
 * or not, as a source is used up: from then on the file handle only describes the file (pcrypt_file_format()
 * and the like) and is still freed by the caller. `options` (threads) may be NULL. */
PCRYPT_API int pcrypt_reader_new(pcrypt_reader** reader, pcrypt_file* file, const pcrypt_options* options);
/* Fills `buffer` with the next plaintext bytes: `*bytes_read` is `capacity` unless the plaintext ends first,
 * and 0 only at its end. After a failure every call fails the same way. */
PCRYPT_API int pcrypt_reader_read(pcrypt_reader* reader, void* buffer, size_t capacity, size_t* bytes_read);
/* Plaintext bytes returned so far. */
PCRYPT_API uint64_t pcrypt_reader_position(const pcrypt_reader* reader);
/* What the whole run moved, once a read has returned 0 (PCRYPT_ERROR_USAGE before). */
PCRYPT_API int pcrypt_reader_transfer(const pcrypt_reader* reader, pcrypt_transfer* transfer);
/* Stops the read-ahead and waits for its threads; what was not read is dropped. */
PCRYPT_API void pcrypt_reader_free(pcrypt_reader* reader);

/* What a rekey changes: built by the calls below, then given to pcrypt_file_rekey(). */
typedef struct pcrypt_rekey pcrypt_rekey;
PCRYPT_API pcrypt_rekey* pcrypt_rekey_new(void);
/* A slot to drop, numbered from 1 as pcrypt_file_info() numbers them. */
PCRYPT_API int pcrypt_rekey_remove_slot(pcrypt_rekey* rekey, size_t slot);
/* Drops the slots of a recipient ("age1...", "ssh-ed25519 ..."; anonymous ones only through the opening
 * identity), or every slot an identity file (or pcrypt key file) opens. */
PCRYPT_API int pcrypt_rekey_remove_recipient(pcrypt_rekey* rekey, const char* recipient);
PCRYPT_API int pcrypt_rekey_remove_identity_file(pcrypt_rekey* rekey, const char* path);
PCRYPT_API int pcrypt_rekey_add_recipient(pcrypt_rekey* rekey, const char* recipient);
PCRYPT_API int pcrypt_rekey_add_key_file(pcrypt_rekey* rekey, const char* path);
PCRYPT_API int pcrypt_rekey_add_passphrase(pcrypt_rekey* rekey, const char* passphrase);
/* Seal the payload again under a fresh key; with `keep_opening_access` 0 only the added recipients can open
 * the new file. */
PCRYPT_API int pcrypt_rekey_new_file_key(pcrypt_rekey* rekey, int keep_opening_access);
PCRYPT_API void pcrypt_rekey_free(pcrypt_rekey* rekey);
/* The file with the kept slots and the added ones (re-encrypted with a new file key) into `sink` (used
 * up); `options` may be NULL. `*slots_after` (may be NULL) says how many slots the new file has. */
PCRYPT_API int pcrypt_file_rekey(pcrypt_file* file, const pcrypt_rekey* rekey, pcrypt_sink* sink,
                                 const pcrypt_options* options, size_t* slots_after);

/* ---- Encrypting --------------------------------------------------------------------------------------- */

/* Who a new file is for. */
typedef struct pcrypt_recipients pcrypt_recipients;
PCRYPT_API pcrypt_recipients* pcrypt_recipients_new(void);
/* "age1...", "age1pq1...", "ssh-ed25519 ...", "ssh-rsa ...": PCRYPT_ERROR_USAGE here for anything else. */
PCRYPT_API int pcrypt_recipients_add(pcrypt_recipients* recipients, const char* recipient);
PCRYPT_API int pcrypt_recipients_add_file(pcrypt_recipients* recipients, const char* path);
PCRYPT_API int pcrypt_recipients_add_key_file(pcrypt_recipients* recipients, const char* path);
PCRYPT_API int pcrypt_recipients_set_passphrase(pcrypt_recipients* recipients, const char* passphrase);
/* The raw key and context of a Cobblestone file (PCRYPT_OPTION_FORMAT PCRYPT_FORMAT_COBBLESTONE_128 or _256),
 * as pcrypt_credentials_add_raw_key's. */
PCRYPT_API int pcrypt_recipients_add_raw_key(pcrypt_recipients* recipients, const void* key, size_t key_size,
                                             const void* context, size_t context_size);
PCRYPT_API int pcrypt_recipients_add_raw_key_file(pcrypt_recipients* recipients, const char* path,
                                                  const void* context, size_t context_size);
PCRYPT_API void pcrypt_recipients_free(pcrypt_recipients* recipients);

/* A new encrypted file of `plaintext` (used up, read in order) into `sink` (used up). `options` may be NULL
 * (an age file); PCRYPT_ERROR_USAGE for what the format forbids. */
PCRYPT_API int pcrypt_encrypt(pcrypt_source* plaintext, pcrypt_sink* sink,
                              const pcrypt_recipients* recipients, const pcrypt_options* options,
                              pcrypt_transfer* transfer);

/* The same file from plaintext pushed in pieces (libzstd's streaming compression, for encryption): new,
 * write any number of times, finish once. Binary files only. Freed unfinished, it abandons its file (a path
 * sink's never appears). */
typedef struct pcrypt_encryptor pcrypt_encryptor;
/* Writes the header (running scrypt or Argon2id for a passphrase) to `sink` (used up). */
PCRYPT_API int pcrypt_encryptor_new(pcrypt_encryptor** encryptor, pcrypt_sink* sink,
                                    const pcrypt_recipients* recipients, const pcrypt_options* options);
/* Takes all `size` bytes: records are sealed as soon as they are complete. PCRYPT_ERROR_USAGE after finish
 * or after a failed call. */
PCRYPT_API int pcrypt_encryptor_write(pcrypt_encryptor* encryptor, const void* data, size_t size);
/* Seals the last record and completes the sink; `transfer` may be NULL. */
PCRYPT_API int pcrypt_encryptor_finish(pcrypt_encryptor* encryptor, pcrypt_transfer* transfer);
PCRYPT_API void pcrypt_encryptor_free(pcrypt_encryptor* encryptor);

/* ---- Keys -------------------------------------------------------------------------------------------- */

typedef enum pcrypt_key_type {
  PCRYPT_KEY_AGE_X25519 = 1,     /* an age identity, "AGE-SECRET-KEY-1..." (recipient "age1...") */
  PCRYPT_KEY_AGE_PQ = 2,         /* ML-KEM-768 + X25519, "AGE-SECRET-KEY-PQ-1..." (recipient "age1pq1...") */
  PCRYPT_KEY_PCRYPT_KEY_FILE = 3 /* a pcrypt key file (no recipient: the file itself opens and encrypts) */
} pcrypt_key_type;
/* A new key, held in guarded memory and wiped when freed. */
typedef struct pcrypt_key pcrypt_key;
PCRYPT_API int pcrypt_keygen(pcrypt_key** key, pcrypt_key_type type);
/* The key's file text, as `pcrypt keygen` writes it (NUL-terminated, owned by the key). */
PCRYPT_API const char* pcrypt_key_text(const pcrypt_key* key);
/* Its recipient ("age1..."), or "" for a pcrypt key file. */
PCRYPT_API const char* pcrypt_key_recipient(const pcrypt_key* key);
PCRYPT_API void pcrypt_key_free(pcrypt_key* key);
/* A new raw key for the Cobblestone formats: `size` (16 or 32) random bytes into `key`. */
PCRYPT_API int pcrypt_generate_raw_key(void* key, size_t size);
/* PCRYPT_ERROR_USAGE, naming what is wrong, when `recipient` is not one pcrypt can encrypt to. */
PCRYPT_API int pcrypt_check_recipient(const char* recipient);

#ifdef __cplusplus
}
#endif

#endif /* PCRYPT_PCRYPT_C_H */
