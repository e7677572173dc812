// libpcrypt: age files and pcrypt files from C and C++ programs -- open, describe, unlock, decrypt (in
// parallel), verify, read any byte range from many threads at once, rekey, and encrypt in either format.
// It is the library the `pcrypt` command is built on; docs/LIBRARY.md is the guide (concepts, ownership,
// threading, errors, examples).
//
//   #include <pcrypt/pcrypt.h>
//   pcrypt::File file = pcrypt::File::open(pcrypt::Source::path("backup.age"));
//   pcrypt::Credentials by;
//   by.identity_files = {"key.txt"};
//   file.unlock(by);
//   std::vector<std::uint8_t> part(4096);
//   part.resize(file.read_at(1 << 30, part));   // any range, any thread
//
// Every failure is a pcrypt::Error carrying the same one-line message and hint the CLI prints, and the
// kind that decides the CLI's exit code. The library never prints, prompts, reads the environment or exits:
// what it needs from a user (a passphrase, an age plugin's questions) it asks through callbacks.
//
// ABI: everything is in the inline namespace pcrypt::v0 and exported from libpcrypt.so.0; the SONAME's
// number changes with any incompatible change to these declarations (docs/LIBRARY.md, "Stability").
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#if defined(PCRYPT_BUILDING_LIBRARY) || !defined(PCRYPT_STATIC)
#define PCRYPT_API __attribute__((visibility("default")))
#else
#define PCRYPT_API
#endif

namespace pcrypt {
inline namespace v0 {

// What went wrong, by what the caller can do about it.
enum class ErrorKind {
  io,                // reading or writing failed, out of memory, a plugin that broke its protocol (exit 1)
  usage,             // the call itself: bad arguments, an option a format cannot take, no credential (2)
  wrong_credential,  // unlock(): no credential given opens the file, or the header was modified after it
                     // was written (the two cannot be told apart, FORMAT.md §6.5) (3)
  damaged_header,    // not an encrypted file, or a header that is malformed or unsupported (3)
  damaged_payload,   // a chunk that fails authentication, a file cut short, reordered or with data appended
                     // (4)
};

class PCRYPT_API Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message, std::string hint = {});
  ErrorKind kind() const noexcept { return kind_; }
  // The `pcrypt` command's exit code for this error: 1 io, 2 usage, 3 wrong credential or damaged header,
  // 4 damaged payload.
  int exit_code() const noexcept;
  // Advice for a person ("give the identity instead: --remove-key IDENTITY-FILE"), or "".
  const std::string& hint() const noexcept { return hint_; }

 private:
  ErrorKind kind_;
  std::string hint_;
};

struct Access;  // the library's own way into the classes below

enum class Format { pcrypt, age };

// Where encrypted (or, for encrypt(), plain) bytes come from. Cheap to move; a source is used by one File.
class PCRYPT_API Source {
 public:
  // A file: read with pread where it is a regular file (ranges read only their records), else in order.
  static Source path(const std::string& path);
  // An open descriptor, not closed by the library (it must stay open as long as the File).
  static Source fd(int fd);
  // Bytes in memory, not copied: they must outlive the File.
  static Source memory(std::span<const std::uint8_t> bytes);
  // A random-access source of `size` bytes, e.g. an object store: read_at(offset, buffer) fills up to
  // buffer.size() bytes from `offset` and returns how many it filled (fewer only at the end). It is called
  // from several threads at once when several threads read ranges of one File, so it must be thread-safe.
  using ReadAt = std::function<std::size_t(std::uint64_t offset, std::span<std::uint8_t> buffer)>;
  static Source callback(std::uint64_t size, ReadAt read_at);

  Source(Source&&) noexcept;
  Source& operator=(Source&&) noexcept;
  ~Source();
  struct Impl;

 private:
  explicit Source(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  friend struct Access;
};

// Where bytes go. A sink is complete only when the operation writing it returns: a path sink's file appears
// (atomically, fsynced) only then, and never after a failure, so no partial or unauthenticated plaintext is
// ever left at a path.
class PCRYPT_API Sink {
 public:
  // A new file (mode 0600), not replacing an existing one unless `overwrite`.
  static Sink path(const std::string& path, bool overwrite = false);
  // An open descriptor, written in order, not closed.
  static Sink fd(int fd);
  // Appended to `out`, which must outlive the call that writes it.
  static Sink memory(std::vector<std::uint8_t>& out);
  // Each piece, in order. A decrypt only ever passes authenticated plaintext, but a failure later in the
  // file leaves what was passed before it: use a path sink where that matters.
  static Sink callback(std::function<void(std::span<const std::uint8_t>)> write);

  Sink(Sink&&) noexcept;
  Sink& operator=(Sink&&) noexcept;
  ~Sink();
  struct Impl;

 private:
  explicit Sink(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  friend struct Access;
};

// What may open a file. Only what the file's header calls for is used: the passphrase callback is called
// only for a file with a passphrase slot (pcrypt's Argon2id, age's scrypt), once.
struct Credentials {
  std::vector<std::string> identity_files;  // age/pcrypt identity files, OpenSSH private keys (-i)
  std::vector<std::string> identities;      // identity text: "AGE-SECRET-KEY-1…" lines (in memory)
  std::vector<std::string> key_files;       // pcrypt key files (-k); pcrypt's format only
  // The passphrase, asked for when the file has a passphrase slot; nullopt: none.
  std::function<std::optional<std::string>()> passphrase;
  // The passphrase of a protected OpenSSH key (named), asked for only when its slot is tried.
  std::function<std::optional<std::string>(const std::string& key_name)> ssh_key_passphrase;
  // The most work a header may ask for: age's scrypt (log2 N) and pcrypt's Argon2id. 0: the defaults
  // (2^22 and 16 passes over 1 GiB).
  unsigned max_scrypt_log2 = 0;
  std::uint64_t max_argon2id_memory_bytes = 0;
  std::uint64_t max_argon2id_passes = 0;
};

// An opened file, before and after unlock.
struct Description {
  Format format = Format::pcrypt;
  bool armored = false;            // age's ASCII armor (ranges then read the file in order)
  std::uint64_t header_bytes = 0;  // before the first record
  std::size_t chunk_size = 0;      // plaintext bytes per record
  std::size_t slots = 0;           // key slots (pcrypt) or stanzas (age)
  std::size_t passphrase_slots = 0;
  std::string slots_in_words;  // "1 X25519 stanza", "2 key-file slots and 1 passphrase slot"
};

// What an operation moved.
struct Transfer {
  std::uint64_t plaintext_bytes = 0;
  std::uint64_t encrypted_bytes = 0;  // the whole encrypted file, header (and armor) included
};

struct RekeyRequest {
  std::vector<std::size_t> remove_slots;  // numbered from 1, as describe()/info() number them
  std::vector<std::string>
      remove_recipients;  // "age1…", "ssh-ed25519 …": SSH/tag ones by tag; anonymous
                          // ones (X25519, post-quantum) only through the opening identity
  std::vector<std::string> remove_identity_files;  // every slot such an identity (or key file) opens
  std::vector<std::string> add_recipients;         // one new slot each
  std::vector<std::string> add_key_files;          // pcrypt only
  std::optional<std::string> add_passphrase;
  bool new_file_key =
      false;  // seal the payload again under a fresh key: only the openers and the added keep access
};

// An encrypted file of either format, opened once: the format is told by its first bytes, the header read
// and parsed once. Moveable, not copyable.
//
// Threads: one thread at a time may call open, unlock, decrypt, verify and rekey on a File; read_at() and
// plaintext_size() are const and may be called from any number of threads at once after unlock().
class PCRYPT_API File {
 public:
  // ErrorKind::damaged_header (or io) when the source is not an encrypted file or its header is malformed.
  static File open(Source source);
  File(File&&) noexcept;
  File& operator=(File&&) noexcept;
  ~File();

  const Description& describe() const;
  // `pcrypt info`'s text: every header field in words, and what the file's size says of the payload.
  std::string info() const;

  // Finds the file key with the first credential that opens a slot, in the format's order;
  // ErrorKind::wrong_credential when none does. Needed before everything below.
  void unlock(const Credentials& credentials);

  // The whole plaintext into `sink`, records decrypted on `threads` workers (0 = one per core).
  Transfer decrypt(Sink sink, unsigned threads = 0);
  // decrypt() into nothing: every record authenticated.
  Transfer verify(unsigned threads = 0);
  // Plaintext bytes [offset, offset + out.size()) into `out`; returns how many (fewer only at the end of the
  // plaintext; ErrorKind::usage for an offset past it). Reads and authenticates only the records that hold
  // the range, with positional reads of the source: any number of threads may call it at once. Not for
  // armored age files (ErrorKind::usage): their offsets are not the payload's.
  std::size_t read_at(std::uint64_t offset, std::span<std::uint8_t> out) const;
  // The plaintext's size, from the source's size (ErrorKind::damaged_payload for a length no complete file
  // has).
  std::uint64_t plaintext_size() const;

  // A new header (or with new_file_key, a re-encrypted file) into `sink`: the kept slots, then the added
  // ones. The same request gets the same answer on both formats. An armored file stays armored.
  void rekey(const RekeyRequest& request, Sink sink);

  struct Impl;

 private:
  explicit File(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  friend struct Access;
};

struct Recipients {
  std::vector<std::string> recipients;  // "age1…", "age1pq1…", "ssh-ed25519 …", "ssh-rsa …", plugins'
  std::vector<std::string> recipient_files;  // files of such lines (-R)
  std::vector<std::string> key_files;        // pcrypt key files (pcrypt's format only)
  std::optional<std::string> passphrase;     // a passphrase slot (age: the only stanza)
};

struct EncryptOptions {
  Format format = Format::age;
  bool armor = false;                // age only
  std::size_t chunk_size = 1 << 20;  // pcrypt only (4 KiB .. 64 MiB); age's chunks are 64 KiB
  unsigned threads = 0;              // 0 = one per core
  // A pcrypt passphrase slot's Argon2id cost (--kdf-memory, --kdf-ops); 0: the defaults. pcrypt only.
  std::uint64_t argon2id_memory_bytes = 0;
  std::uint64_t argon2id_passes = 0;
};

// A new encrypted file of the plaintext from `plaintext` (read in order) into `sink`. ErrorKind::usage for
// what the format forbids (age: key files, a passphrase beside recipients; pcrypt: more than 255 slots).
PCRYPT_API Transfer encrypt(Source plaintext, Sink sink, const Recipients& to, const EncryptOptions& options);

// A new identity: its file text ("# public key: age1…" and the secret line) and its recipient. With
// `post_quantum`, ML-KEM-768 + X25519 (age1pq1…, age 1.3).
struct NewIdentity {
  std::string file_text;
  std::string recipient;
};
PCRYPT_API NewIdentity generate_identity(bool post_quantum = false);
// A new pcrypt key file's text.
PCRYPT_API std::string generate_key_file();
// The recipient of each identity in an identity file's text ("age1…", or an SSH key's public line).
PCRYPT_API std::vector<std::string> recipients_of(std::string_view identity_file_text);
// ErrorKind::usage naming what is wrong when `text` is not a recipient pcrypt can encrypt to.
PCRYPT_API void check_recipient(std::string_view text);

// The library's version, "0.1.0".
PCRYPT_API std::string version();

}  // namespace v0
}  // namespace pcrypt

// The streaming encryptor (write plaintext in pieces), in its own header.
#include <pcrypt/encryptor.h>  // IWYU pragma: export
