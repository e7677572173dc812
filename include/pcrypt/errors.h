/* libpcrypt's error codes: every failure the library reports has one, in C (pcrypt_error_code(),
 * <pcrypt/pcrypt_c.h>) and C++ (pcrypt::Error::code(), <pcrypt/pcrypt.h>) alike; this list is the one
 * definition both read, and the library's core throws with it.
 *
 * A code says what went wrong, finer than the five kinds (pcrypt_status, pcrypt::ErrorKind) it is grouped
 * under: its hundreds are the kind (1xx io, 2xx usage, 3xx wrong credential, 4xx damaged header, 5xx damaged
 * payload), so the kind of code c is -(c / 100) as a pcrypt_status. The fields a failure carries (a record's
 * index and offset, a work factor asked and allowed, ...) are numbered below it, as pcrypt_field.
 *
 * Stability: a code's number and its name (PCRYPT_E_...) never change, and a number is never reused for
 * another failure, even when the failure it named can no longer happen. New failures get new numbers in
 * their kind's hundred. The messages that come with codes are for people and may be reworded in any release:
 * programs decide by code and fields, never by text.
 *
 * PCRYPT_ERROR_CODES(X) calls X(name, number, description) once per code; the enum below and the library's
 * table of names are made from it, so a code cannot lack a name.
 */
#ifndef PCRYPT_ERRORS_H
#define PCRYPT_ERRORS_H

/* clang-format off */
#define PCRYPT_ERROR_CODES(X)                                                                                 \
  /* io (1xx): the operation could not be carried out; nothing is wrong with the file or the call */         \
  X(PCRYPT_E_IO, 100, "a read or write failed (errno; the path where there is one)")                         \
  X(PCRYPT_E_OUT_OF_MEMORY, 101, "out of memory (ordinary or guarded)")                                      \
  X(PCRYPT_E_OUTPUT_EXISTS, 102, "the output path exists and overwriting was not asked for (path)")          \
  X(PCRYPT_E_CALLBACK, 103, "a caller's read or write callback failed (errno when it gave one)")             \
  X(PCRYPT_E_PLUGIN, 104, "an age plugin failed: could not start, exited, broke its protocol (path: its program)") \
  X(PCRYPT_E_CRYPTO_BACKEND, 105, "the cryptographic library (OpenSSL, libsodium) failed an operation")    \
  X(PCRYPT_E_RESOURCES, 106, "threads or buffers the operation needs could not be had")                     \
  X(PCRYPT_E_INTERNAL, 107, "an internal check failed (a bug in libpcrypt)")                                 \
  X(PCRYPT_E_INPUT_CHANGED, 108, "the input changed size while it was read (record, offset where known)")   \
  /* usage (2xx): the call itself is wrong; the same call fails again */                                     \
  X(PCRYPT_E_BAD_ARGUMENT, 200, "an argument or option value is out of range or malformed")                  \
  X(PCRYPT_E_NULL_ARGUMENT, 201, "a NULL handle or string where one is needed (C API)")                      \
  X(PCRYPT_E_MOVED_FROM, 202, "an object that was moved from (C++ API)")                                     \
  X(PCRYPT_E_WRONG_ORDER, 203, "a call out of order: a read before unlock, a write after finish, a source used twice") \
  X(PCRYPT_E_NO_CREDENTIAL, 204, "nothing given to encrypt to, or to open the file with")                   \
  X(PCRYPT_E_EMPTY_PASSPHRASE, 205, "an empty passphrase")                                                   \
  X(PCRYPT_E_PASSPHRASE_REQUIRED, 206, "a key or identity file is protected by a passphrase and none was given (path)") \
  X(PCRYPT_E_CREDENTIAL_MIX, 207, "credentials the file's format cannot take together (age: a passphrase with recipients, two passphrases, key files)") \
  X(PCRYPT_E_FORMAT_OPTION, 208, "an option the format cannot take (armor for a pcrypt file, a pcrypt chunk size for age)") \
  X(PCRYPT_E_NOT_A_RECIPIENT, 209, "text that is not a recipient this library can encrypt to")              \
  X(PCRYPT_E_NOT_AN_IDENTITY, 210, "an identity file that holds no identity this library can use (path)")    \
  X(PCRYPT_E_NOT_A_KEY_FILE, 211, "a key file that is not a valid pcrypt key file (path)")                   \
  X(PCRYPT_E_PLUGIN_NOT_FOUND, 212, "the age plugin a recipient or identity names is not on the search path (path: its program)") \
  X(PCRYPT_E_UNKNOWN_ENGINE, 213, "an engine name that is unknown or that this machine cannot run")         \
  X(PCRYPT_E_NOTHING_TO_CHANGE, 214, "a rekey that adds and removes nothing")                                \
  X(PCRYPT_E_LAST_SLOT, 215, "a rekey that would remove every slot or stanza: nothing could open the file") \
  X(PCRYPT_E_BAD_SLOT, 216, "a rekey's slot number that the file lacks, is given twice, or is not removable (slot)") \
  X(PCRYPT_E_PAST_THE_END, 217, "an offset past the end of the plaintext (offset; plaintext size)")          \
  X(PCRYPT_E_NOT_SEEKABLE, 218, "reading by ranges needs a source of known size that is not armored")       \
  X(PCRYPT_E_PLUGIN_REFUSED, 219, "an age plugin refused to encrypt to a recipient (path: its program)")     \
  X(PCRYPT_E_INCOMPATIBLE_RECIPIENTS, 220, "recipients that cannot share one file: post-quantum beside classical, or different labels") \
  X(PCRYPT_E_TOO_MANY_SLOTS, 221, "more key slots than a pcrypt file holds (slot: how many there would be)") \
  X(PCRYPT_E_NOT_IN_FILE, 222, "a rekey's credential or recipient to remove opens no slot or stanza of the file") \
  X(PCRYPT_E_ALREADY_IN_FILE, 223, "a rekey's credential or recipient to add already has a slot or stanza (slot), or already opens the file") \
  X(PCRYPT_E_ANONYMOUS_RECIPIENT, 224, "a rekey's X25519 or post-quantum recipient to remove: their slots and stanzas are anonymous, so only the identity finds them") \
  X(PCRYPT_E_TOO_MANY_PASSPHRASES, 225, "more passphrase slots than a pcrypt file holds (slot: how many there would be)") \
  /* wrong credential (3xx): what was given does not open this file; another credential may */               \
  X(PCRYPT_E_WRONG_PASSPHRASE, 300, "the passphrase does not open the file (age: its scrypt stanza)")        \
  X(PCRYPT_E_NO_IDENTITY_MATCHED, 301, "no identity given opens any of the file's stanzas (stanza types)")   \
  X(PCRYPT_E_UNHANDLED_STANZA, 302, "the file's stanzas or key slots are of types no credential given can open (stanza types)") \
  X(PCRYPT_E_WRONG_CREDENTIAL, 303, "pcrypt files: no slot opens with what was given, or the header was modified (the two look alike)") \
  X(PCRYPT_E_HEADER_MAC, 304, "age files: a stanza opened but the header's MAC fails: the header was modified") \
  X(PCRYPT_E_EXCESSIVE_SCRYPT_WORK, 305, "the file's scrypt work factor is above the allowed one (scrypt log2 asked, allowed)") \
  X(PCRYPT_E_EXCESSIVE_ARGON2ID_WORK, 306, "a slot's Argon2id memory or passes are above the allowed (memory and passes asked, allowed; slot)") \
  X(PCRYPT_E_WRONG_KEY_PASSPHRASE, 307, "the passphrase of an encrypted SSH key or identity file is wrong (path)") \
  X(PCRYPT_E_PLUGIN_UNWRAP_FAILED, 308, "no identity opened the file and an age plugin failed trying (stanza types)") \
  X(PCRYPT_E_COMMITMENT_MISMATCH, 309, "C2SP chunked encryption: the key commitment does not match the raw key and context given, or the header was modified (the two look alike)") \
  /* damaged header (4xx): the input is not a file this library can open */                                 \
  X(PCRYPT_E_NOT_ENCRYPTED, 400, "not an encrypted file (neither age nor pcrypt; perhaps a key or identity file)")                          \
  X(PCRYPT_E_EMPTY_INPUT, 401, "the input is empty")                                                         \
  X(PCRYPT_E_MALFORMED_HEADER, 402, "a header, stanza or key slot that breaks the format")                  \
  X(PCRYPT_E_UNSUPPORTED_VERSION, 403, "a format version, cipher suite or key file version this library does not read") \
  X(PCRYPT_E_TRUNCATED_HEADER, 404, "the input ends inside the header")                                     \
  X(PCRYPT_E_MALFORMED_ARMOR, 405, "age ASCII armor that is malformed")                                     \
  /* damaged payload (5xx): the header opened, the encrypted data is wrong */                                \
  X(PCRYPT_E_DAMAGED_RECORD, 500, "a record fails authentication: modified, reordered, damaged, or data appended after the final one (record, offset)") \
  X(PCRYPT_E_TRUNCATED, 501, "the file was cut short: its final record is missing or cut (record, offset where known)") \
  X(PCRYPT_E_RECORD_LIMIT, 502, "a record index the format cannot number (2^64 - 1 records)")
/* clang-format on */

#define PCRYPT_ERROR_CODE_ENUMERATOR_(name, number, description) name = number,

/* A failure's code; 0 (PCRYPT_E_NONE) is no failure. */
typedef enum pcrypt_code { PCRYPT_E_NONE = 0, PCRYPT_ERROR_CODES(PCRYPT_ERROR_CODE_ENUMERATOR_) } pcrypt_code;

/* The numbers a failure may carry, each present or not (pcrypt_error_field(), pcrypt::Error::field());
 * numbered once, like the codes. The path, the stanza types and the errno have accessors of their own. */
typedef enum pcrypt_field {
  PCRYPT_FIELD_RECORD = 1,                /* the record (age) or chunk (pcrypt) index, from 0 */
  PCRYPT_FIELD_OFFSET = 2,                /* that record's byte offset in the encrypted file */
  PCRYPT_FIELD_SCRYPT_LOG2_ASKED = 3,     /* the file's scrypt work factor, log2 N */
  PCRYPT_FIELD_SCRYPT_LOG2_ALLOWED = 4,   /* the most the call allowed, log2 N */
  PCRYPT_FIELD_ARGON2ID_MEMORY_ASKED = 5, /* a slot's Argon2id memory, bytes */
  PCRYPT_FIELD_ARGON2ID_MEMORY_ALLOWED = 6,
  PCRYPT_FIELD_ARGON2ID_PASSES_ASKED = 7, /* a slot's Argon2id passes */
  PCRYPT_FIELD_ARGON2ID_PASSES_ALLOWED = 8,
  PCRYPT_FIELD_SLOT = 9,            /* a key slot or stanza number, from 1 */
  PCRYPT_FIELD_PLAINTEXT_SIZE = 10, /* the file's plaintext bytes */
  PCRYPT_FIELD_FILE_ROLE = 11,      /* what the call took the file at the path for: a pcrypt_file_kind */
  PCRYPT_FIELD_FILE_KIND = 12 /* what the file at the path is instead (a file given in the wrong place: an
                                 identity as a key file, a public key as an identity): a pcrypt_file_kind */
} pcrypt_field;

#define PCRYPT_ERROR_FIELD_COUNT 12

/* The kinds of file a credential, recipient or encrypted file can be mistaken for: the values of
 * PCRYPT_FIELD_FILE_ROLE and PCRYPT_FIELD_FILE_KIND. Numbered once, like the codes. */
typedef enum pcrypt_file_kind {
  PCRYPT_FILE_KEY_FILE = 1,         /* a pcrypt key file (PCRYPT-KEY-...) */
  PCRYPT_FILE_IDENTITY = 2,         /* an age identity file (AGE-SECRET-KEY-..., AGE-PLUGIN-...) */
  PCRYPT_FILE_RECIPIENT = 3,        /* an age recipient (age1...), or a recipients file */
  PCRYPT_FILE_AGE_ENCRYPTED = 4,    /* an age-encrypted file */
  PCRYPT_FILE_PCRYPT_ENCRYPTED = 5, /* a pcrypt-encrypted file */
  PCRYPT_FILE_SSH_PRIVATE_KEY = 6,  /* an OpenSSH private key */
  PCRYPT_FILE_SSH_PUBLIC_KEY = 7    /* an OpenSSH public key */
} pcrypt_file_kind;

#endif /* PCRYPT_ERRORS_H */
