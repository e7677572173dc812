// The door: the one way into an encrypted file of any format, for the CLI, the Python module, the bench and
// the library. As age's Decrypt/DecryptReaderAt and zstd's one decompression entry: open a byte source once
// (the format is told by its first bytes here and nowhere else, the header parsed once) -> describe it (what
// could open it, so a caller asks for a passphrase only when a passphrase slot exists) -> unlock it with
// credentials -> decrypt to a sink (in parallel), verify, read a byte range (positional reads where the
// source allows them), or rekey it. New files are made by encrypt() in either format.
//
// Every format rule -- which credential opens which slot, the order of trying them, what a rekey may remove
// or add -- is behind this door (core/opened_file.h, core/rekey_policy.h); callers gather credentials from
// their user (prompts, files, environment) and make one call. Errors are core::Error (core/error.h), worded
// for the user; nothing here prints, prompts or reads the environment.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/opened_file.h"
#include "core/pipeline.h"
#include "core/range.h"
#include "core/rekey_policy.h"
#include "io/buffered_input.h"
#include "io/stream.h"

namespace pcrypt::core::door {

using core::FileDescription;
using core::Format;
using core::InfoDetail;
using core::NewFileSettings;
using core::UnlockLimits;

// "pcrypt", "age", "cobblestone-128" or "cobblestone-256"; parse_format is Error(usage) for anything else.
std::string format_name(Format format);
Format parse_format(const std::string& name);
// C2SP chunked encryption: no magic, opened only when named.
bool is_cobblestone(Format format);

struct RunOptions {
  unsigned threads = 0;  // pipeline workers; 0 = online cores
  // Plaintext bytes done so far, from the thread that called (never decreasing).
  std::function<void(std::uint64_t)> progress;
};

// What a whole-file operation did: bytes on each side, headers included.
struct Transfer {
  std::uint64_t plaintext_bytes = 0;
  std::uint64_t encrypted_bytes = 0;  // the whole encrypted file as read or written (armor included)
  std::uint64_t header_bytes = 0;     // of it, before record 0
  std::uint64_t chunks = 0;
};

struct RangeRead {
  RangeResult result;
  bool positional = false;  // the records were read in place (pread), not by reading the input in order
};

struct RekeyRequest {
  RekeyChanges changes;  // what to remove and add (core/rekey_policy.h); changes.opening is set by the door
  bool new_file_key = false;
  // new_file_key: whether the credentials that opened the file keep their access as new slots. false: the
  // new file's slots are exactly changes.add (`rekey --new-file-key -R LIST`: the list is everyone who can
  // open it; the opening credentials only opened it), and every old slot counts as dropped.
  bool keep_opening_access = true;
};

struct RekeyResult {
  std::size_t slots_before = 0, slots_after = 0;
  std::uint64_t header_bytes_before = 0, header_bytes_after = 0;
  std::uint64_t copied_bytes = 0;  // bytes after the header carried over unchanged (not with new_file_key)
  // new_file_key: the old slots whose holders keep access (re-made for the credentials given) and the
  // ones whose holders lose it, in words.
  std::vector<std::string> kept, dropped;
};

// What a file's length says of it, without a key (`info --json`, age-inspect).
struct FileSizes {
  std::uint64_t stored_bytes = 0;       // the file as stored, armor included
  std::uint64_t decoded_bytes = 0;      // the same without its armor
  std::uint64_t header_only_bytes = 0;  // the header alone, without an age file's payload nonce
  // nullopt: no complete file has this length (it was cut short).
  std::optional<std::uint64_t> plaintext_bytes;
  std::optional<std::uint64_t> records;
};

class EncryptedFile {
 public:
  // Reads the first bytes of `in` and the whole header (Error(header) for a malformed one, or for input that
  // is neither format, naming what it is when it is a key or identity file). `in` must outlive this object
  // and is read no further than the header (an age file: its read-ahead is kept and handed on).
  explicit EncryptedFile(io::Reader& in);
  // The same, for a caller that names the format: a Cobblestone format (no magic) is opened as told, its
  // 56-byte header read (Error(header) for an input shorter than the shortest such file); pcrypt or age (or
  // nullopt) are told by their first bytes as above.
  EncryptedFile(io::Reader& in, std::optional<Format> told);
  ~EncryptedFile();
  EncryptedFile(const EncryptedFile&) = delete;
  EncryptedFile& operator=(const EncryptedFile&) = delete;

  const FileDescription& description() const;
  // `pcrypt info`: the header in words, and what `file_bytes` (when known) says of the payload.
  std::string info(std::optional<std::uint64_t> file_bytes, InfoDetail detail = InfoDetail::summary) const;
  // Slot `index` (from 0) in words.
  std::string slot_words(std::size_t index) const;
  // The slots `credential` opens, in words (`info -k`).
  std::vector<std::string> slots_opened_by(const Credential& credential, const UnlockLimits& limits);

  // Finds the file key: Error(header) when no credential opens a slot (the message names what was given and
  // what the file has) or the header was modified. Returns the opening slot in words, or "" when the format
  // does not say which (age). Must come before everything below; `credentials` must outlive rekey().
  std::string unlock(const std::vector<Credential>& credentials, const UnlockLimits& limits);
  bool unlocked() const { return unlocked_; }

  // The whole payload through the pipeline into `out`, which is committed once every record has been
  // authenticated (a failure leaves it uncommitted: no partial plaintext at an output path). Each pass
  // (decrypt, verify, rekey) may be repeated on a file or memory input; an input that can only be read in
  // order (a pipe, armor) allows one.
  Transfer decrypt(io::Writer& out, const RunOptions& options);
  // decrypt() into nothing: the same checks and errors.
  Transfer verify(const RunOptions& options);
  // Plaintext bytes `range` into `out` (committed on success): only the records that hold it are read and
  // authenticated, in place with pread when the input is a regular file read from its start (not armored),
  // else by reading the input in order. core/range.h says what is and is not checked.
  RangeRead read_range(const ByteRange& range, io::Writer& out, const RunOptions& options);
  // The sizes: from `file_bytes` (a positional input's size from where it was opened) for a binary file, else
  // by reading the input to its end. An input read to its end that cannot seek takes no further pass.
  FileSizes measure(std::optional<std::uint64_t> file_bytes);
  // The payload's layout and cipher, for callers that read records themselves from any positional source
  // holding this file (core/range.h's decrypt_range_into: the Python reader, many threads at once).
  const KeyedPayload& payload();
  // The same, moved out, for a caller that keeps it beyond this object (the Python reader unlocks a file's
  // first bytes once, then reads ranges of the whole file); nothing else may be asked afterwards.
  KeyedPayload take_payload();

  // A new header over the same payload (or, with new_file_key, the payload sealed again under a fresh key)
  // into `out`, committed on success; an armored age file stays armored. The slots removed or refused are
  // one policy for both formats (core/rekey_policy.h). Needs the input's bytes after the header: a regular
  // file's are copied with copy_file_range where `out` is a file, else read in order.
  RekeyResult rekey(RekeyRequest request, io::Writer& out, const NewFileSettings& settings,
                    const RunOptions& options);

 private:
  // Brings the (decoded) input to `offset` bytes from the file's start for a pass that reads it in order:
  // where it stands already, or by seeking a positional input; Error(usage) for an input read past it that
  // cannot seek (a pipe, armor). So several passes over one File work on files and memory.
  void position_stream(std::uint64_t offset);
  void open_format();

  static constexpr std::uint64_t kUnknownPosition = ~std::uint64_t{0};
  io::BufferedInput input_;
  std::unique_ptr<OpenedFile> file_;
  io::Reader& source_;
  std::optional<std::uint64_t> origin_;  // where a positional input stood at open: the file's offset 0
  std::uint64_t stream_at_ = 0;          // where the decoded input stands, from the file's start
  const std::vector<Credential>* opening_ = nullptr;  // given to unlock(): rekey's policy asks them
  bool unlocked_ = false;
  bool payload_ready_ = false;
};

struct EncryptSettings {
  NewFileSettings file;
  bool armor = false;  // age only: ASCII armor (Error(usage) for pcrypt's format)
  // Called once the header is written (its slots made, Argon2id or scrypt run), before the payload.
  std::function<void()> header_written;
};

// The Argon2id results of one run over several files (one passphrase): one Argon2id run per salt and costs
// instead of one per file (FORMAT.md §3.2). Not thread-safe: one per run.
class RunCache {
 public:
  RunCache();
  ~RunCache();
  RunCache(const RunCache&) = delete;
  RunCache& operator=(const RunCache&) = delete;
  PassphraseKekCache* get() { return cache_.get(); }
  std::size_t argon2id_runs() const;

 private:
  std::unique_ptr<PassphraseKekCache> cache_;
};

// Whether `prefix`, a file's first bytes, ends inside the bytes before its record 0 (the header, an age
// file's payload nonce): a caller reading a remote file's header asks for more. False when that much is
// there, and when the prefix is malformed before it ends (opening it then says how).
bool header_incomplete(std::span<const std::uint8_t> prefix);

// Error(usage) when `credentials` cannot make a file of `format`: none at all, or what age forbids (a key
// file, a passphrase beside anything else, post-quantum beside classical recipients). Cheap: for checking
// before any file is touched or a passphrase asked for. Counts stand for credentials not gathered yet.
void check_credentials_for(Format format, std::size_t key_files, std::size_t recipients, bool passphrase);

// A new file of settings.file.format from `in` into `out`, committed on success: one slot per credential.
Transfer encrypt(io::Reader& in, io::Writer& out, const std::vector<Credential>& credentials,
                 const EncryptSettings& settings, const RunOptions& options);

// A new file's start for callers that seal records themselves (the Python writer): the bytes before record
// 0 and the keyed payload (core/records.h's PayloadRecords seals record i).
NewFile start_file(const std::vector<Credential>& credentials, const NewFileSettings& settings);

}  // namespace pcrypt::core::door
