// What each format supplies to the door (core/door/encrypted_file.h): one opened file, its header parsed
// once, seen through the questions every caller asks of it. pcrypt's format answers them in
// core/pcrypt/opened_file.cc, age's in core/age/opened_file.cc; the door picks one by the file's first bytes
// and does the rest -- decrypt, verify, ranges, rekey's slot policy -- once, for both, over this interface
// and the format-blind record layer. Nothing here knows a format.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/aes/engine.h"
#include "core/keys/credential.h"
#include "core/keys/kdf_limits.h"
#include "core/pipeline.h"
#include "core/range.h"
#include "core/rekey_policy.h"
#include "io/stream.h"

namespace pcrypt::core {

class PassphraseKekCache;  // core/pcrypt/keys.h: one Argon2id run per (passphrase, salt, costs) in a run

// cobblestone_*: C2SP chunked encryption (core/cobblestone/), whose files carry no magic: never detected,
// always named by the caller.
enum class Format { pcrypt, age, cobblestone_128, cobblestone_256 };

// A file as its header describes it, before any key: enough for a caller to decide which credentials to
// gather (a passphrase prompt only when a passphrase slot exists) and for -v's sizes.
// One key slot (pcrypt) or stanza (age), from public facts only (`info --json`, age-inspect).
struct SlotSummary {
  std::string type;  // age: the stanza's type as written; pcrypt: "key-file", "passphrase", or age's name for
                     // the same recipient kind ("X25519", "ssh-ed25519", "ssh-rsa", "mlkem768x25519")
  std::string words;  // "X25519 recipient (anonymous)", "SSH ed25519 recipient, tag 0a1b2c3d"
  std::string tag;    // the public tag of an SSH or hardware-token recipient's slot, "" for the rest
};

struct FileDescription {
  Format format = Format::pcrypt;
  bool armored = false;            // age's ASCII armor: offsets in the file are not the payload's
  std::uint64_t header_bytes = 0;  // bytes before record 0 (an age file's payload nonce included)
  std::size_t chunk_size = 0;      // plaintext bytes per record
  FinalChunk final_chunk = FinalChunk::flagged;  // the record layer's rule for the final record
  std::size_t slots = 0;                         // key slots (pcrypt) or stanzas (age)
  std::size_t passphrase_slots = 0;    // of them, opened by a passphrase (pcrypt's Argon2id, age's scrypt)
  std::string slot_noun;               // "slot" or "stanza", for messages
  std::string slots_in_words;          // "2 key-file slots and 1 passphrase slot", "1 X25519 stanza"
  std::vector<SlotSummary> slot_list;  // each slot, in header order
};

// How far unlocking may go: the work factors a header may ask for, and the engine of a pcrypt payload.
struct UnlockLimits {
  KdfLimits argon2id_ceiling = default_kdf_ceiling();
  unsigned max_scrypt_log2 = 22;        // age's default (core/age/stanzas.h kDefaultMaxScryptLog2)
  const aes::Engine* engine = nullptr;  // nullptr = aes::best_engine()
  PassphraseKekCache* kek_cache = nullptr;
};

// What a new file is made with, in either format. Fields a format has no use for are ignored by it (age's
// chunks are always 64 KiB and its passphrases scrypt's; pcrypt has no armor).
struct NewFileSettings {
  Format format = Format::pcrypt;
  std::size_t chunk_size = std::size_t{1} << 20;
  const aes::Engine* engine = nullptr;
  KdfLimits argon2id = default_kdf_params();  // new pcrypt passphrase slots
  unsigned scrypt_log2 = 18;                  // new age scrypt stanzas (age's own work factor)
  PassphraseKekCache* kek_cache = nullptr;
};

// A new file's start: the bytes before record 0 (header, and an age file's payload nonce) and the keyed
// payload its records are sealed with.
struct NewFile {
  std::vector<std::uint8_t> header;
  KeyedPayload payload;
};

// How much `pcrypt info` shows of long public byte strings (an RSA slot's wrapped key, a post-quantum slot's
// encapsulated key): their length and SHA-256, or (`info -v`) every byte in hex.
enum class InfoDetail { summary, all_bytes };

// One format's view of one opened file. Made by the door; used by one thread (range reads through the
// KeyedPayload it returns may then run on many).
class OpenedFile {
 public:
  virtual ~OpenedFile() = default;

  virtual const FileDescription& description() const = 0;
  // `pcrypt info`: every header field in words, then what the file's size says of the payload.
  virtual std::string info(std::optional<std::uint64_t> file_bytes, InfoDetail detail) const = 0;
  // "key-file slot 1", "stanza 2 (X25519 recipient)": slot `index` (from 0) in words.
  virtual std::string slot_words(std::size_t index) const = 0;

  // Finds the file key with the first credential that opens a slot, in the format's order, and checks it
  // against the header MAC: Error(header) naming what was given and what the file has. Returns the index of
  // the slot that opened it, or nullopt where the format does not tell (an age plugin's).
  virtual std::optional<std::size_t> unlock(const std::vector<Credential>& credentials,
                                            const UnlockLimits& limits) = 0;
  // After unlock: the payload's layout and cipher. An age file's payload nonce is read from the input here,
  // once. The input (payload_input()) then stands at record 0.
  virtual KeyedPayload& payload() = 0;
  // The input after the header (armor already removed), where payload() left it.
  virtual io::Reader& payload_input() = 0;

  // Every slot `credential` opens (from 0), checked against the header MAC; before or after unlock. For
  // `info -k` and for who keeps access under `rekey --new-file-key`.
  virtual std::vector<std::size_t> slots_opened_by(const Credential& credential,
                                                   const UnlockLimits& limits) = 0;
  // `rekey`: the new header for the same file key (slots removed and additions refused by the one policy of
  // core/rekey_policy.h, the result checked against the format's own rules), as bytes. What follows the
  // header in the (decoded) input -- an age file's payload nonce, then the records -- stays as it is: it
  // starts header_only_bytes() into the file.
  virtual std::vector<std::uint8_t> rekeyed_header(const RekeyChanges& changes,
                                                   const NewFileSettings& settings) = 0;
  virtual std::uint64_t header_only_bytes() const = 0;
  // `rekey --new-file-key`: writes a new header with one slot per credential under a fresh file key, then
  // every record of payload_input() opened and sealed again under it (core/reencrypt.h). Does not commit.
  virtual PipelineStats reencrypt(io::Writer& out, const std::vector<Credential>& credentials,
                                  const NewFileSettings& settings, const PipelineConfig& config) = 0;
};

}  // namespace pcrypt::core
