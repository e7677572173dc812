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
// Every failure is a pcrypt::Error: a one-line message and a hint in the library's words (the CLI prints the
// same line, naming the file it was about), and the kind that decides the CLI's exit code. The library never
// prints, prompts, reads the environment or exits: what it needs from a user (a passphrase, an age plugin's
// questions) it asks through callbacks.
//
// Callbacks: an exception thrown by any callback given to the library (a source's read_at, a sink's write,
// progress, a passphrase) ends the call that called it and reaches that call's caller unchanged, once every
// thread the call started has stopped.
//
// ABI: everything is in the inline namespace pcrypt::v1 and exported from libpcrypt.so.1; the SONAME's
// number changes with any incompatible change to these declarations (docs/LIBRARY.md, "Stability").
#pragma once

// First: secret_bytes.h stops a compilation older than C++20 with one clear line, before the standard
// headers below fail in their own words.
#include <pcrypt/export.h>
#include <pcrypt/secret_bytes.h>

#include <pcrypt/errors.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pcrypt {
inline namespace v1 {

// What went wrong, by what the caller can do about it: the group of an ErrorCode.
enum class ErrorKind {
  io,                // reading or writing failed, out of memory, a plugin that broke its protocol (exit 1)
  usage,             // the call itself: bad arguments, an option a format cannot take, no credential (2)
  wrong_credential,  // unlock(): no credential given opens the file, or the header was modified after it
                     // was written (the two cannot be told apart, FORMAT.md §6.5) (3)
  damaged_header,    // not an encrypted file, or a header that is malformed or unsupported (3)
  damaged_payload,   // a chunk that fails authentication, a file cut short, reordered or with data appended
                     // (4)
};

// What went wrong, exactly: the codes of <pcrypt/errors.h> (PCRYPT_E_WRONG_PASSPHRASE, ...), the same list
// as the C API's, numbered once and never renumbered (docs/LIBRARY.md, "Errors").
using ErrorCode = pcrypt_code;
using ErrorField = pcrypt_field;

// The kind a code is grouped under (its hundreds); io for PCRYPT_E_NONE and numbers that are no code.
constexpr ErrorKind kind_of(ErrorCode code) noexcept {
  switch (static_cast<int>(code) / 100) {
    case 2:
      return ErrorKind::usage;
    case 3:
      return ErrorKind::wrong_credential;
    case 4:
      return ErrorKind::damaged_header;
    case 5:
      return ErrorKind::damaged_payload;
    default:
      return ErrorKind::io;
  }
}

// A code's name, "PCRYPT_E_WRONG_PASSPHRASE" (stable and distinct; "PCRYPT_E_NONE" for 0, "" for a number
// that is no code): a static string.
PCRYPT_API const char* error_code_name(ErrorCode code) noexcept;

// What a failure carries besides its code, where it applies (errors.h says which code has which).
struct ErrorFields {
  std::vector<std::pair<ErrorField, std::uint64_t>> numbers;  // each field at most once
  std::vector<std::string> stanza_types;  // the file's stanza (age) or slot (pcrypt) types, each once
  std::string path;                       // the file the failure is about, where it is not the source's
  int error_number = 0;                   // the errno of the system call behind it
};

class PCRYPT_API Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message, std::string hint = {}, ErrorFields fields = {});
  // The same failure told in other words (a caller naming the file it was about): code, hint and fields kept.
  Error(const Error& failure, const std::string& message);
  ErrorCode code() const noexcept { return code_; }
  const char* code_name() const noexcept { return error_code_name(code_); }
  ErrorKind kind() const noexcept { return kind_of(code_); }
  // The errno of the system call behind an io error, else 0: EPIPE says the reader of a pipe went away
  // (`pcrypt decrypt f | head` ends quietly on it), EEXIST an output that exists.
  int error_number() const noexcept { return fields_.error_number; }
  // A number the failure carries (PCRYPT_FIELD_RECORD, PCRYPT_FIELD_SCRYPT_LOG2_ASKED, ...), if it has it.
  std::optional<std::uint64_t> field(ErrorField which) const noexcept;
  const std::vector<std::string>& stanza_types() const noexcept { return fields_.stanza_types; }
  const std::string& path() const noexcept { return fields_.path; }
  const ErrorFields& fields() const noexcept { return fields_; }
  // Advice for a person ("the file was cut short (an interrupted copy or download?)"), or "".
  const std::string& hint() const noexcept { return hint_; }

 private:
  ErrorCode code_;
  std::string hint_;
  ErrorFields fields_;
};

// The classes' hidden parts, defined inside the library only (lib/internal.h): opaque here, and nothing a
// caller names or defines.
namespace detail {
struct SourceImpl;
struct SinkImpl;
struct SessionImpl;
struct KeysImpl;
struct FileImpl;
struct LibraryAccess;  // the library's own way into the classes below
}  // namespace detail

// cobblestone_128 / cobblestone_256: C2SP chunked encryption (https://c2sp.org/chunked-encryption) with
// SHA-512 and AES-128-GCM / AES-256-GCM, opened by one raw key (Keys::add_raw_key) and its context. Such
// files carry no magic: open them with File::open(source, format); File::open(source) never guesses them.
enum class Format { pcrypt, age, cobblestone_128, cobblestone_256 };

// Where encrypted (or, for encrypt(), plain) bytes come from. Cheap to move; a source is used by one File.
class PCRYPT_API Source {
 public:
  // A file: read with pread where it is a regular file (ranges read only their records), else in order.
  static Source path(const std::string& path);
  // An open descriptor, not closed by the library (it must stay open as long as the File). The file starts
  // where the descriptor stands when the File is opened: a regular file's offsets (read_at, plaintext_size,
  // ranges) count from there, and a second pass reads it again from there. `name` names it in messages
  // ("": "descriptor N").
  static Source fd(int fd, const std::string& name = {});
  // Bytes in memory, not copied: they must outlive the File.
  static Source memory(std::span<const std::uint8_t> bytes);
  // A random-access source of `size` bytes, e.g. an object store: read_at(offset, buffer) fills up to
  // buffer.size() bytes from `offset` and returns how many it filled. A short answer is asked again for the
  // rest; 0 before `size` ends the source there (a file cut short: ErrorKind::damaged_payload). Each read
  // asks for as much as it can use at once: a whole range's adjacent records in one call, a file's opening
  // in at most two (docs/LIBRARY.md, "Object stores"). It is called from several threads at once when
  // several threads read ranges of one File, so it must be thread-safe.
  using ReadAt = std::function<std::size_t(std::uint64_t offset, std::span<std::uint8_t> buffer)>;
  static Source callback(std::uint64_t size, ReadAt read_at);

  Source(Source&&) noexcept;
  Source& operator=(Source&&) noexcept;
  ~Source();

 private:
  using Impl = detail::SourceImpl;
  explicit Source(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  friend struct detail::LibraryAccess;
};

// Where bytes go. A sink is complete only when the operation writing it returns: a path sink's file appears
// (atomically, fsynced) only then, and never after a failure, so no partial or unauthenticated plaintext is
// ever left at a path.
class PCRYPT_API Sink {
 public:
  // A new file (mode 0600), not replacing an existing one unless `overwrite`.
  static Sink path(const std::string& path, bool overwrite = false);
  // An open descriptor, written in order, not closed; fsynced at the end where it is a regular file. `name`
  // names it in messages ("": "descriptor N").
  static Sink fd(int fd, const std::string& name = {});
  // A regular file that nobody sees before the caller publishes it (an O_TMPFILE, a hidden temporary),
  // given by its descriptor from offset 0: written with pwrite, records in any order from several workers
  // at once, then fsynced; not closed and not published. The caller publishes it (links or renames it into
  // place) only after the operation returned, so a failure never leaves partial output at a path.
  static Sink unpublished_file(int fd, const std::string& name = {});
  // Appended to `out`, which must outlive the call that writes it. After a failure it holds what was
  // written before it (a decrypt: the authenticated plaintext of the records before the failed one, never a
  // byte of that one); clear it if that must not be used.
  static Sink memory(std::vector<std::uint8_t>& out);
  // Each piece, in order. A decrypt only ever passes authenticated plaintext, but a failure later in the
  // file leaves what was passed before it: use a path sink where that matters.
  static Sink callback(std::function<void(std::span<const std::uint8_t>)> write);

  Sink(Sink&&) noexcept;
  Sink& operator=(Sink&&) noexcept;
  ~Sink();

 private:
  using Impl = detail::SinkImpl;
  explicit Sink(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  friend struct detail::LibraryAccess;
};

// What the calls of one run over several files share: the AES engine a pcrypt payload uses, and the
// Argon2id results of one passphrase, so that files made in one run (one salt) or opened with one passphrase
// run Argon2id once, not once per file. One thread at a time; it must outlive the calls given it.
class PCRYPT_API Session {
 public:
  // `engine`: an engine's name as `pcrypt --version` lists them ("" or "auto": the fastest this machine
  // runs). ErrorKind::usage for a name that is unknown or that this machine cannot run.
  explicit Session(const std::string& engine = "");
  Session(Session&&) noexcept;
  Session& operator=(Session&&) noexcept;
  ~Session();
  // The chosen engine's name ("vaes-avx512", "aesni", ...).
  std::string engine() const;
  // Argon2id runs so far by the calls given this session.
  std::size_t argon2id_runs() const;

 private:
  using Impl = detail::SessionImpl;
  std::unique_ptr<Impl> impl_;
  friend struct detail::LibraryAccess;
};

// How a whole-file operation runs.
struct RunOptions {
  unsigned threads = 0;  // workers; 0 = one per core this process may use
  // Plaintext bytes done so far, called from the thread that called the operation, never decreasing.
  std::function<void(std::uint64_t bytes_done)> progress;
  Session* session = nullptr;  // nullptr: the fastest engine, no cache shared with other calls
};

// The workers an operation given `threads` (RunOptions::threads) runs: `threads`, or for 0 the cores this
// process may use.
PCRYPT_API unsigned worker_threads(unsigned threads);

// Credentials read from their files once, for any number of unlock() calls: a run over several files reads
// each key file once, and a caller that also reads data from standard input reads its files first. Read
// with the same checks and in the same words as Credentials' files.
class PCRYPT_API Keys {
 public:
  Keys();
  Keys(Keys&&) noexcept;
  Keys& operator=(Keys&&) noexcept;
  ~Keys();
  // The passphrase of a protected OpenSSH key (named), asked for when reading it; unset or nullopt: such a
  // key is ErrorKind::usage. Set before adding identity files.
  std::function<std::optional<std::string>(const std::string& key_name)> ssh_key_passphrase;
  // One line about something skipped while reading (an ignored line of a file); unset: not said.
  std::function<void(const std::string& line)> warn;

  // A pcrypt key file. When the same key (by its bytes, whatever the path) is held already, it is not added
  // again. Returns the key's index among the keys held (in the order added) and whether it was added.
  // `encrypting`: read to make a slot (the hint for a missing file then says how to make one).
  struct Added {
    std::size_t index = 0;
    bool added = false;  // false: the same key was held already, at `index`
  };
  Added add_key_file(const std::string& path, bool encrypting = false);
  // Recipients to encrypt to (Recipients' fields): recipient strings, then recipients files ("-": standard
  // input), then the recipient of each identity in `identity_files` (to oneself, as age's -e -i); a key
  // repeated among them is kept once.
  void add_recipients(const std::vector<std::string>& recipients,
                      const std::vector<std::string>& recipient_files,
                      const std::vector<std::string>& identity_files = {});
  // Every identity of an identity file (age, pcrypt, OpenSSH private keys), in order; returns how many.
  std::size_t add_identity_file(const std::string& path);
  // A file that is a key file or an identity file, told apart by its contents; returns how many keys.
  std::size_t add_key_or_identity_file(const std::string& path);
  // An age plugin's default identity ("yubikey": age-plugin-yubikey's own), as `age -j NAME`.
  void add_plugin(const std::string& name);
  // To encrypt to an age plugin's default identity, as `age -e -j NAME`: the plugin is handed the identity
  // and wraps to it (age-plugin-batchpass: a passphrase from the environment). A recipient, as
  // add_recipients' are.
  void add_plugin_recipient(const std::string& name);
  // A passphrase (ErrorKind::usage when empty), copied into the library's guarded memory. The SecretBytes
  // form leaves no copy in ordinary memory (the caller's std::string is the caller's to wipe): a program that
  // reads passphrases into SecretBytes hands them over with it, and passes them to encrypt()
  // (Recipients::keys), unlock() (Credentials::keys) and rekey() (RekeyRequest::add_keys) through this Keys.
  void add_passphrase(const std::string& passphrase);
  void add_passphrase(const SecretBytes& passphrase);
  // A raw key for the Cobblestone formats: the input key (16 bytes for cobblestone_128, 32 for
  // cobblestone_256) and the application's context (any bytes, maybe none; the same when decrypting as
  // when encrypting). The file form reads a file of exactly 16 or 32 bytes (generate_raw_key's).
  // ErrorKind::usage for another length.
  void add_raw_key(const SecretBytes& key, std::span<const std::uint8_t> context = {});
  void add_raw_key_file(const std::string& path, std::span<const std::uint8_t> context = {});
  // The recipient of each identity held, in order ("age1…", or an SSH key's public line): what
  // `pcrypt recipient` prints.
  std::vector<std::string> recipients() const;
  // How many keys are held.
  std::size_t size() const;

 private:
  using Impl = detail::KeysImpl;
  std::unique_ptr<Impl> impl_;
  friend struct detail::LibraryAccess;
};

// The age plugins' host, for the whole process (thread-safe; plugins started afterwards use it): where to
// find `age-plugin-NAME` programs, their environment, and a user to talk to. Unset, plugins are not found.
// Each callback names the plugin's program; one that cannot show or ask something returns false / nullopt
// (the plugin is told it failed, and decides).
struct PluginHost {
  std::string search_path;               // ':'-separated folders, as $PATH ("" entry: the current folder)
  std::vector<std::string> environment;  // "NAME=value" each, the plugin programs' environment
  std::function<bool(const std::string& program, const std::string& text)> message;  // "touch your key"
  // Yes (true) or no (false) between two labels (`no` empty when there is one choice).
  std::function<std::optional<bool>(const std::string& program, const std::string& text,
                                    const std::string& yes, const std::string& no)>
      confirm;
  std::function<std::optional<std::string>(const std::string& program, const std::string& text)>
      request_public;  // an answer shown as typed
  std::function<std::optional<std::string>(const std::string& program, const std::string& text)>
      request_secret;  // a PIN: not echoed
  // A plugin failed but another identity opened the file: worth a warning only.
  std::function<void(const std::string& text)> warning;
};
PCRYPT_API void set_plugin_host(PluginHost host);

// Being one of age 1.3's helper plugins for an age client (age, rage, typage, pcrypt's `age`), over the
// plugin protocol (C2SP age-plugin.md): "batchpass" (AGE-PLUGIN-BATCHPASS-1 stands for a passphrase the
// caller gives: encrypting, an scrypt file no other recipient may share; decrypting, a passphrase file) or
// "pq" (age 1.3's hybrid post-quantum keys: age1pq1… recipients and AGE-PLUGIN-PQ-1… identities, the
// latter holding the same seed as AGE-SECRET-KEY-PQ-1…, so files made with either form open with the other).
struct AgePluginPassphrase {
  SecretBytes passphrase;
  unsigned work_factor = 0;  // scrypt's log2 N: encrypting, the one written; decrypting, the most to run
};
struct AgeHelperPlugin {
  std::string name;  // "batchpass" or "pq"
  // batchpass: asked once per identity, only when one comes; an Error thrown reaches the client as the
  // plugin's refusal of that identity, in its message's words.
  std::function<AgePluginPassphrase()> passphrase_for_encrypting;
  std::function<AgePluginPassphrase()> passphrase_for_decrypting;
};
// Runs `state_machine` (the client's --age-plugin=recipient-v1 or identity-v1) with the client's messages
// on `in_fd` and ours to `out_fd`; returns the plugin's exit status: 0, or 3 when a recipient or identity
// was refused (the client was told why). ErrorKind::usage for an unknown plugin or state machine, io when
// the client breaks the protocol (a message of the wrong kind, an exchange cut short) or goes away.
PCRYPT_API int serve_age_plugin(const AgeHelperPlugin& plugin, std::string_view state_machine, int in_fd,
                                int out_fd);
// `age-plugin-pq -identity`: each identity of an identity file's text (`name` names it in errors), every one
// a native AGE-SECRET-KEY-PQ-1…, in its plugin form AGE-PLUGIN-PQ-1…. ErrorKind::usage for one that is not.
PCRYPT_API std::vector<std::string> age_pq_plugin_identities(std::string_view identity_file_text,
                                                             std::string_view name);

// What may open a file. Only what the file's header calls for is used: the passphrase callback is called
// only for a file with a passphrase slot (pcrypt's Argon2id, age's scrypt), once.
struct Credentials {
  std::vector<std::string> identity_files;  // age/pcrypt identity files, OpenSSH private keys
  std::vector<std::string> identities;      // identity text: "AGE-SECRET-KEY-1…" lines (in memory)
  std::vector<std::string> key_files;  // pcrypt key files; an age file has no slot they open (they are read
                                       // and tried, and open nothing: wrong_credential if nothing else does)
  // The passphrase, asked for when the file has a passphrase slot; nullopt: none. The library copies the
  // returned string into guarded memory and wipes it (as every secret a callback returns: the OpenSSH key
  // passphrases below and in Keys, a plugin's PIN); a passphrase known beforehand can be given instead as
  // SecretBytes through `keys` (Keys::add_passphrase), which is tried whatever the file's slots.
  std::function<std::optional<std::string>()> passphrase;
  // The passphrase of a protected OpenSSH key (named), asked for only when its slot is tried.
  std::function<std::optional<std::string>(const std::string& key_name)> ssh_key_passphrase;
  // The most work a header may ask for: age's scrypt (log2 N) and pcrypt's Argon2id. 0: the defaults
  // (2^22 and 16 passes over 1 GiB).
  unsigned max_scrypt_log2 = 0;
  std::uint64_t max_argon2id_memory_bytes = 0;
  std::uint64_t max_argon2id_passes = 0;
  // Keys read beforehand (Keys), tried before the files above; it must outlive unlock().
  const Keys* keys = nullptr;
  // The engine and Argon2id cache of a run over several files.
  Session* session = nullptr;
};

// One key slot (pcrypt) or stanza (age), from what its header says to anyone (`pcrypt info --json`).
struct SlotSummary {
  // age: the stanza's type as written ("X25519", "scrypt", "mlkem768x25519", "ssh-ed25519", a plugin's);
  // pcrypt: "key-file", "passphrase", or age's name for the same recipient kind ("X25519", "ssh-ed25519",
  // "ssh-rsa", "mlkem768x25519").
  std::string type;
  std::string words;  // "SSH ed25519 recipient, tag 0a1b2c3d"
  std::string tag;    // the public tag of an SSH or hardware-token recipient's slot, "" for anonymous kinds
};

// An opened file, before and after unlock.
struct Description {
  Format format = Format::pcrypt;
  bool armored = false;            // age's ASCII armor (ranges then read the file in order)
  std::uint64_t header_bytes = 0;  // before the first record (age: the header and its 16-byte payload nonce)
  std::size_t chunk_size = 0;      // plaintext bytes per record
  std::size_t slots = 0;           // key slots (pcrypt) or stanzas (age)
  std::size_t passphrase_slots = 0;
  std::string slots_in_words;  // "1 X25519 stanza", "2 key-file slots and 1 passphrase slot"
};

// What a file's length says of it, without a key (File::measure()).
struct Sizes {
  std::uint64_t file_bytes = 0;      // as stored, armor included
  std::uint64_t header_bytes = 0;    // the header alone (an age file's payload nonce is overhead)
  std::uint64_t armor_bytes = 0;     // what the armor adds
  std::uint64_t overhead_bytes = 0;  // the rest that is not plaintext: the nonce, 16-byte tags
  // nullopt when no complete file has this length (it was cut short): then overhead_bytes is 0.
  std::optional<std::uint64_t> plaintext_bytes;
  std::optional<std::uint64_t> chunks;
};

// What an operation moved.
struct Transfer {
  std::uint64_t plaintext_bytes = 0;
  std::uint64_t encrypted_bytes = 0;  // the whole encrypted file, header (and armor) included
  std::uint64_t header_bytes = 0;     // of it, before the first record (as Description::header_bytes)
  std::uint64_t chunks = 0;           // records
};

// What File::read_range() read.
struct RangeRead {
  std::uint64_t bytes = 0;    // plaintext bytes written to the sink
  std::uint64_t records = 0;  // records read and authenticated
  bool positional = false;    // the records were read in place (pread), not by reading the source in order
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
  // With new_file_key: whether the credentials that opened the file keep access. false: the added
  // recipients and keys are everyone who can open the new file (revoking one member of a team knowing only
  // the others' public keys), and every old slot is dropped.
  bool keep_opening_access = true;
  // Read beforehand: keys to add (Keys::add_key_file(path, true), add_recipients, add_passphrase), after
  // the fields above; keys whose slots to remove (Keys::add_key_or_identity_file). Must outlive rekey().
  const Keys* add_keys = nullptr;
  const Keys* remove_keys = nullptr;
  // Argon2id for an added passphrase slot (EncryptOptions' fields; 0: the defaults).
  std::uint64_t argon2id_memory_bytes = 0;
  std::uint64_t argon2id_passes = 0;
};

// What rekey() did.
struct RekeyResult {
  std::size_t slots_before = 0, slots_after = 0;
  // The header alone, the part a rekey rewrites: age's ends with its MAC line, without the 16-byte payload
  // nonce that follows it (which Description::header_bytes counts, and which is copied as payload).
  std::uint64_t header_bytes_before = 0, header_bytes_after = 0;
  std::uint64_t copied_bytes = 0;  // bytes after the header carried over unchanged (not with new_file_key)
  // new_file_key: the old slots whose holders keep access (re-made for the opening credentials) and those
  // whose holders lose it, in words.
  std::vector<std::string> kept, dropped;
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
  // The same with the format named: a Cobblestone format (no magic) is opened as told (ErrorKind::
  // damaged_header for a source shorter than 72 bytes, the shortest such file); pcrypt or age are told by
  // their first bytes as above. unlock() then takes exactly one raw key (Credentials::keys) and checks its
  // commitment (wrong_credential: wrong key or context) before any chunk is read.
  static File open(Source source, Format format);
  File(File&&) noexcept;
  File& operator=(File&&) noexcept;
  ~File();

  const Description& describe() const;
  // Each slot (pcrypt) or stanza (age) in header order, from what the header says to anyone.
  std::vector<SlotSummary> slot_list() const;
  // `pcrypt info`'s text: every header field in words, and what the file's size says of the payload. Long
  // byte strings (an RSA slot's wrapped key, a post-quantum slot's encapsulated key) are given as their
  // length and SHA-256 unless `all_bytes`.
  std::string info(bool all_bytes = false) const;

  // The slots each key of `keys` opens, in words, one list per key in order (`pcrypt info -k`). A key
  // that opens a slot to a key the header MAC rejects is ErrorKind::wrong_credential.
  std::vector<std::vector<std::string>> slots_opened_by(const Keys& keys, const Credentials& limits);

  // The sizes, from the source's size where it has one, else (a pipe, an armored file) by reading the source
  // to its end: then before unlock, and nothing else can follow on a source that cannot be read again.
  Sizes measure();

  // Finds the file key with the first credential that opens a slot, in the format's order;
  // ErrorKind::wrong_credential when none does. Needed before everything below. Returns the slot that
  // opened it in words ("slot 2 (key-file)"), or "" where the format does not say (age).
  std::string unlock(const Credentials& credentials);

  // The whole plaintext into `sink`, records decrypted on `options.threads` workers (0 = one per core).
  Transfer decrypt(Sink sink, const RunOptions& options = {});
  // decrypt() into nothing: every record authenticated.
  Transfer verify(const RunOptions& options = {});
  // Plaintext bytes [offset, offset + length) (to the end without a length) into `sink`: only the records
  // that hold them are read and authenticated, in place where the source allows positional reads (not an
  // armored file: then the source is read in order up to them, the records before unauthenticated). An
  // offset past the end is ErrorKind::usage.
  RangeRead read_range(std::uint64_t offset, std::optional<std::uint64_t> length, Sink sink,
                       const RunOptions& options = {});
  // Plaintext bytes [offset, offset + out.size()) into `out`; returns how many: fewer only at the end of the
  // plaintext, 0 for an offset at or past it (as pread). Reads and authenticates only the records that hold
  // the range, adjacent records in one read of the source, with positional reads: any number of threads may
  // call it at once. Not for armored age files (ErrorKind::usage): their offsets are not the payload's.
  std::size_t read_at(std::uint64_t offset, std::span<std::uint8_t> out) const;
  // The plaintext's size, authenticated: the first call of this or read_at() reads and opens the final record
  // (as age's DecryptReaderAt), so a file cut at any length is ErrorKind::damaged_payload, never a shorter
  // file. read_at() of a source whose size changed since is damaged_payload too.
  std::uint64_t plaintext_size() const;

  // A new header (or with new_file_key, a re-encrypted file) into `sink`: the kept slots, then the added
  // ones. The same request gets the same answer on both formats. An armored file stays armored. `options`:
  // the workers and progress of new_file_key's pass, and a session (engine, Argon2id cache); a regular
  // file's payload is copied by the kernel into an unpublished-file sink (copy_file_range).
  RekeyResult rekey(const RekeyRequest& request, Sink sink, const RunOptions& options = {});

 private:
  using Impl = detail::FileImpl;
  explicit File(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  friend struct detail::LibraryAccess;
};

struct Recipients {
  std::vector<std::string> recipients;  // "age1…", "age1pq1…", "ssh-ed25519 …", "ssh-rsa …", plugins'
  std::vector<std::string> recipient_files;  // files of such lines
  std::vector<std::string> identity_files;   // the recipient of each identity in them: to oneself (age -e -i)
  std::vector<std::string> key_files;        // pcrypt key files (pcrypt's format only)
  std::optional<std::string> passphrase;     // a passphrase slot (age: the only stanza)
  // Key files and recipients read beforehand (Keys: add_key_file(path, true), add_recipients), before the
  // fields above; it must outlive encrypt().
  const Keys* keys = nullptr;
};

struct EncryptOptions {
  Format format = Format::age;
  bool armor = false;                // age only
  std::size_t chunk_size = 1 << 20;  // pcrypt only (4 KiB .. 64 MiB); ignored for age, whose are 64 KiB
  unsigned threads = 0;              // 0 = one per core
  // A pcrypt passphrase slot's Argon2id cost (memory: a multiple of 1 KiB, at least 8 KiB; passes); 0: the
  // defaults (256 MiB, 4 passes; docs/FORMAT.md §3.2). pcrypt only.
  std::uint64_t argon2id_memory_bytes = 0;
  std::uint64_t argon2id_passes = 0;
  // The engine, and a run's Argon2id cache: the files one session encrypts with one passphrase share one
  // salt and one Argon2id run.
  Session* session = nullptr;
  // Plaintext bytes done so far (RunOptions::progress).
  std::function<void(std::uint64_t bytes_done)> progress;
  // Called once the header is written (its slots made, Argon2id or scrypt run), before the payload: a rate
  // measured from here is the payload's alone.
  std::function<void()> header_written;
};

// A new encrypted file of the plaintext from `plaintext` (read in order) into `sink`. ErrorKind::usage for
// what the format forbids (age: key files, a passphrase beside recipients; pcrypt: more than 255 slots).
PCRYPT_API Transfer encrypt(Source plaintext, Sink sink, const Recipients& to, const EncryptOptions& options);
// ErrorKind::usage when `to` cannot make a file of `format`, as encrypt() would refuse it (none at all; age:
// a key file, a passphrase beside anything else), judged by what `to` names, without reading a file: for
// checking before any file is read or a passphrase asked for (a passphrase to come counts when set, even
// to "").
PCRYPT_API void check_recipients(const Recipients& to, Format format);

// A new identity: its file text ("# public key: age1…" and the secret line) and its recipient. With
// `post_quantum`, ML-KEM-768 + X25519 (age1pq1…, age 1.3).
struct NewIdentity {
  std::string file_text;
  std::string recipient;
};
PCRYPT_API NewIdentity generate_identity(bool post_quantum = false);
// A new pcrypt key file's text.
PCRYPT_API std::string generate_key_file();
// A new raw key for the Cobblestone formats: `bytes` (16 or 32; else ErrorKind::usage) random bytes.
PCRYPT_API SecretBytes generate_raw_key(std::size_t bytes);
// The recipient of each identity in an identity file's text ("age1…", or an SSH key's public line).
PCRYPT_API std::vector<std::string> recipients_of(std::string_view identity_file_text);
// ErrorKind::usage naming what is wrong when `text` is not a recipient pcrypt can encrypt to.
PCRYPT_API void check_recipient(std::string_view text);

// The numbers a caller checks its options against before opening anything (docs/FORMAT.md §3).
namespace limits {
inline constexpr std::size_t min_chunk_size = std::size_t{4} << 10;  // pcrypt's chunk sizes
inline constexpr std::size_t max_chunk_size = std::size_t{64} << 20;
inline constexpr std::uint64_t min_argon2id_passes = 1;  // pcrypt's Argon2id costs
inline constexpr std::uint64_t max_argon2id_passes = UINT32_MAX;
inline constexpr std::uint64_t min_argon2id_memory_kib = 8;
inline constexpr std::uint64_t max_argon2id_memory_kib = UINT32_MAX;
inline constexpr std::size_t max_slots = 255;    // slots of one file
inline constexpr unsigned max_scrypt_log2 = 40;  // the most age scrypt work ever run
inline constexpr unsigned max_threads = 4096;    // workers a call may be given (RunOptions, EncryptOptions)
}  // namespace limits

// The AES engines this build has (a Session's names), fastest first, and whether this machine runs each.
struct AesEngine {
  std::string name;         // "vaes512", "aesni", "portable", ...
  std::string description;  // one line
  bool supported = false;   // this machine runs it
};
PCRYPT_API std::vector<AesEngine> aes_engines();
// The engine "" or "auto" chooses here, and why the faster ones were passed over: "vaes (vaes512 not
// supported on this CPU)".
PCRYPT_API std::string default_engine_reason();
// The ChaCha20-Poly1305 backends age payloads can use here, the one used first first ("sodium", "openssl").
PCRYPT_API std::vector<std::string> chacha20poly1305_backends();

// The library's version, "0.1.0".
PCRYPT_API std::string version();

}  // namespace v1
}  // namespace pcrypt
