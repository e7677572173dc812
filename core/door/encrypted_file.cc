// The door (encrypted_file.h). The only place that knows both formats: it tells them apart by their first
// bytes, then drives either through core/opened_file.h and the format-blind record layer.
#include "core/door/encrypted_file.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string_view>

#include "core/age/armor.h"
#include "core/age/detect.h"
#include "core/age/opened_file.h"
#include "core/age/stanzas.h"
#include "core/cobblestone/opened_file.h"
#include "core/error.h"
#include "core/pcrypt/file_description.h"
#include "core/pcrypt/format.h"
#include "core/pcrypt/keys.h"
#include "core/pcrypt/opened_file.h"
#include "core/records.h"
#include "io/atomic_file.h"
#include "io/copy_range.h"
#include "io/fd_stream.h"
#include "io/memory_stream.h"

namespace pcrypt::core::door {
namespace {

// Enough to tell the formats apart (age's armor may follow leading whitespace) and to name a key file
// given as the input.
constexpr std::size_t kDetectBytes = 4096;

enum class Detected { pcrypt, age, unknown };

// The one switch on the format, by the file's first bytes.
Detected detect(io::BufferedInput& in) {
  const auto magic = in.peek(kMagic.size());
  if (std::equal(magic.begin(), magic.end(), kMagic.begin(), kMagic.end())) return Detected::pcrypt;
  return age::detect_format(in.peek(age::kDetectBytes)) == age::FileFormat::unknown ? Detected::unknown
                                                                                    : Detected::age;
}

// Counts what goes through to `out`: the size of an armored file as written.
class CountingWriter final : public io::Writer {
 public:
  explicit CountingWriter(io::Writer& out) : out_(out) {}
  void write(const std::uint8_t* buf, std::size_t n) override {
    out_.write(buf, n);
    bytes_ += n;
  }
  void commit() override { out_.commit(); }
  std::string name() const override { return out_.name(); }
  std::uint64_t bytes() const { return bytes_; }

 private:
  io::Writer& out_;
  std::uint64_t bytes_ = 0;
};

// `out`, or ASCII armor around it (through a counter, to report the armored size).
class Target {
 public:
  Target(io::Writer& out, bool armor) : out_(out) {
    if (!armor) return;
    counter_.emplace(out);
    armor_.emplace(*counter_);
  }
  io::Writer& writer() { return armor_ ? static_cast<io::Writer&>(*armor_) : out_; }
  // Commits (armor: its last lines, then `out`); returns the armored size, or `binary_bytes` unarmored.
  std::uint64_t commit(std::uint64_t binary_bytes) {
    writer().commit();
    return counter_ ? counter_->bytes() : binary_bytes;
  }

 private:
  io::Writer& out_;
  std::optional<CountingWriter> counter_;
  std::optional<age::ArmorWriter> armor_;
};

PipelineConfig pipeline_config(const RunOptions& options) {
  return PipelineConfig{options.threads, options.progress};
}

// An input of neither format, unless it is empty or a cut pcrypt magic (the header parser's own refusals:
// "input is empty", "truncated header"): what was expected instead, and, for age armor after other text,
// that armor must begin at the first line.
void refuse_unknown(std::span<const std::uint8_t> start) {
  const std::size_t n = std::min(start.size(), kMagic.size());
  if (std::equal(start.begin(), start.begin() + static_cast<std::ptrdiff_t>(n), kMagic.begin())) return;
  constexpr std::string_view kArmorBegin = "-----BEGIN AGE ENCRYPTED FILE-----";
  const std::string_view text(reinterpret_cast<const char*>(start.data()), start.size());
  constexpr std::string_view kExpected =
      "expected a pcrypt file, a binary age file, or age armor beginning at the first line";
  if (text.find(kArmorBegin) != std::string_view::npos)
    throw Error(PCRYPT_E_NOT_ENCRYPTED,
                "not a pcrypt file nor an age file: " + std::string(kExpected) +
                    ", and this has text before -----BEGIN AGE ENCRYPTED FILE-----",
                "remove the text before the armor's BEGIN line");
  throw Error(PCRYPT_E_NOT_ENCRYPTED, "not a pcrypt file: bad magic; " + std::string(kExpected),
              "pcrypt reads files written by `pcrypt encrypt` and age files");
}

}  // namespace

std::string format_name(Format format) {
  switch (format) {
    case Format::age:
      return "age";
    case Format::cobblestone_128:
      return "cobblestone-128";
    case Format::cobblestone_256:
      return "cobblestone-256";
    case Format::pcrypt:
      break;
  }
  return "pcrypt";
}

Format parse_format(const std::string& name) {
  if (name == "age") return Format::age;
  if (name == "pcrypt") return Format::pcrypt;
  if (name == "cobblestone-128") return Format::cobblestone_128;
  if (name == "cobblestone-256") return Format::cobblestone_256;
  throw Error(PCRYPT_E_BAD_ARGUMENT, "unknown format '" + name + "'",
              "use 'pcrypt', 'age', 'cobblestone-128' or 'cobblestone-256'");
}

bool is_cobblestone(Format format) {
  return format == Format::cobblestone_128 || format == Format::cobblestone_256;
}

EncryptedFile::EncryptedFile(io::Reader& in) : EncryptedFile(in, std::nullopt) {}

EncryptedFile::EncryptedFile(io::Reader& in, std::optional<Format> told) : input_(in, 0), source_(in) {
  if (io::PositionalReader* p = in.positional()) origin_ = p->position();
  if (told && is_cobblestone(*told))
    file_ = cobblestone::open_cobblestone_file(input_, *told);
  else
    open_format();
  stream_at_ = file_->header_only_bytes();
}

void EncryptedFile::open_format() {
  switch (detect(input_)) {
    case Detected::age:
      file_ = age::open_age_file(input_);
      return;
    case Detected::unknown: {
      const auto start = input_.peek(kDetectBytes);
      if (const auto other = recognise_other_file(start))
        throw Error(PCRYPT_E_NOT_ENCRYPTED, "not a pcrypt file: this is " + other->what, other->hint,
                    ErrorFields().found_to_be(file_kind_of(other->kind)));
      refuse_unknown(start);
      [[fallthrough]];
    }
    case Detected::pcrypt:
      file_ = open_pcrypt_file(input_);  // an unknown input gets the header parser's own refusal
  }
}

EncryptedFile::~EncryptedFile() = default;

const FileDescription& EncryptedFile::description() const {
  return file_->description();
}

std::string EncryptedFile::info(std::optional<std::uint64_t> file_bytes, InfoDetail detail) const {
  return file_->info(file_bytes, detail);
}

std::string EncryptedFile::slot_words(std::size_t index) const {
  return file_->slot_words(index);
}

std::vector<std::string> EncryptedFile::slots_opened_by(const Credential& credential,
                                                        const UnlockLimits& limits) {
  std::vector<std::string> words;
  for (const std::size_t i : file_->slots_opened_by(credential, limits)) words.push_back(slot_words(i));
  return words;
}

std::string EncryptedFile::unlock(const std::vector<Credential>& credentials, const UnlockLimits& limits) {
  const std::optional<std::size_t> slot = file_->unlock(credentials, limits);
  opening_ = &credentials;
  unlocked_ = true;
  return slot ? slot_words(*slot) : std::string();
}

namespace {

void require_unlocked(bool unlocked) {
  if (!unlocked) throw std::logic_error("EncryptedFile: unlock() must come first");
}

}  // namespace

void EncryptedFile::position_stream(std::uint64_t offset) {
  if (stream_at_ == offset) return;
  io::PositionalReader* p = description().armored || !origin_ ? nullptr : file_->payload_input().positional();
  if (p == nullptr)
    throw Error(PCRYPT_E_NOT_SEEKABLE,
                "the input has been read past where this needs it, and cannot be read again",
                "a second pass over one opened file needs a regular file or memory as its source");
  p->seek(*origin_ + offset);
  stream_at_ = offset;
}

FileSizes EncryptedFile::measure(std::optional<std::uint64_t> file_bytes) {
  const FileDescription& d = description();
  FileSizes sizes;
  sizes.header_only_bytes = file_->header_only_bytes();
  if (file_bytes && !d.armored) {
    sizes.stored_bytes = sizes.decoded_bytes = *file_bytes;
  } else {
    io::Reader& rest = file_->payload_input();
    std::vector<std::uint8_t> buffer(std::size_t{1} << 16);
    std::uint64_t after = 0;
    while (const std::size_t n = rest.read(buffer.data(), buffer.size())) after += n;
    sizes.decoded_bytes = stream_at_ + after;
    stream_at_ = sizes.decoded_bytes;
    sizes.stored_bytes = d.armored ? input_.consumed() : sizes.decoded_bytes;
  }
  if (sizes.decoded_bytes >= d.header_bytes) {
    const PayloadLayout layout{d.chunk_size, d.header_bytes, d.final_chunk};
    sizes.records = layout.record_count(sizes.decoded_bytes - d.header_bytes);
    sizes.plaintext_bytes = layout.plaintext_bytes(sizes.decoded_bytes - d.header_bytes);
  }
  return sizes;
}

const KeyedPayload& EncryptedFile::payload() {
  require_unlocked(unlocked_);
  if (!payload_ready_) {
    position_stream(file_->header_only_bytes());  // an age file's payload nonce is read here
    file_->payload();
    payload_ready_ = true;
    stream_at_ = description().header_bytes;
  }
  return file_->payload();
}

KeyedPayload EncryptedFile::take_payload() {
  payload();
  unlocked_ = false;
  return std::move(file_->payload());
}

Transfer EncryptedFile::decrypt(io::Writer& out, const RunOptions& options) {
  const KeyedPayload& keyed = payload();
  position_stream(description().header_bytes);
  stream_at_ = kUnknownPosition;
  const PipelineStats stats = run_pipeline(PayloadCodec(Direction::open, keyed.cipher, keyed.layout),
                                           file_->payload_input(), out, pipeline_config(options));
  out.commit();
  const std::uint64_t header = description().header_bytes;
  // Armored, the file is the armor's text, all of which the decoder has read through input_ by now.
  const std::uint64_t file_bytes =
      description().armored ? input_.consumed() : header + stats.ciphertext_bytes;
  return Transfer{stats.plaintext_bytes, file_bytes, header, stats.chunks};
}

Transfer EncryptedFile::verify(const RunOptions& options) {
  io::DiscardWriter nowhere;
  return decrypt(nowhere, options);
}

RangeRead EncryptedFile::read_range(const ByteRange& range, io::Writer& out, const RunOptions& options) {
  const KeyedPayload& keyed = payload();
  RangeOptions range_options;
  range_options.threads = options.threads;
  range_options.progress = options.progress;
  RangeRead read;
  // Positional reads take the header at offset 0; an input that starts elsewhere (standard input left
  // mid-file by another program) and armor, whose offsets are not the payload's, are read in order. Where
  // the input stands now does not matter (an earlier decrypt or verify left it at the end).
  io::PositionalReader* file = description().armored ? nullptr : file_->payload_input().positional();
  if (file != nullptr && origin_ == std::uint64_t{0}) {
    read.positional = true;
    read.result = decrypt_range(*file, keyed, range, out, range_options);
  } else {
    position_stream(description().header_bytes);
    stream_at_ = kUnknownPosition;
    read.result = decrypt_range_stream(file_->payload_input(), keyed, range, out, range_options);
  }
  out.commit();
  return read;
}

RekeyResult EncryptedFile::rekey(RekeyRequest request, io::Writer& out, const NewFileSettings& settings,
                                 const RunOptions& options) {
  require_unlocked(unlocked_);
  const FileDescription& d = description();
  RekeyResult result;
  result.slots_before = d.slots;
  result.header_bytes_before = file_->header_only_bytes();
  RekeyChanges& changes = request.changes;
  changes.opening = opening_;
  if (changes.kek_cache == nullptr) changes.kek_cache = settings.kek_cache;
  Target target(out, d.armored);

  if (request.new_file_key) {
    // Each opening credential keeps its access as a new slot (an identity as one for its own recipient);
    // the old slots it opened are kept in that sense, the others dropped (core/rekey_policy.h).
    UnlockLimits limits;
    limits.kek_cache = changes.kek_cache;
    const std::vector<Credential> keeps_nobody;
    NewFileKeyPlan plan = plan_new_file_key(
        d.slots, request.keep_opening_access ? *opening_ : keeps_nobody, std::move(changes.add),
        d.format == Format::pcrypt, [&](const Credential& c) { return file_->slots_opened_by(c, limits); });
    for (const std::size_t i : plan.kept) result.kept.push_back(slot_words(i));
    for (const std::size_t i : plan.dropped) result.dropped.push_back(slot_words(i));
    const std::vector<Credential>& credentials = plan.credentials;
    NewFileSettings same_chunks = settings;
    same_chunks.chunk_size = d.chunk_size;
    position_stream(file_->header_only_bytes());  // the format reads its payload (and nonce) from here
    stream_at_ = kUnknownPosition;
    file_->reencrypt(target.writer(), credentials, same_chunks, pipeline_config(options));
    target.commit(0);
    result.slots_after = credentials.size();
    return result;
  }

  const std::vector<std::uint8_t> header = file_->rekeyed_header(changes, settings);
  result.header_bytes_after = header.size();
  io::Writer& w = target.writer();
  w.write(header.data(), header.size());
  auto* fd_in = dynamic_cast<io::FdReader*>(&source_);
  const int fd_out = out.file_descriptor();
  if (!d.armored && fd_in != nullptr && fd_out >= 0 && fd_in->positional() != nullptr && origin_) {
    // Binary: the bytes after the header as they are, reflinked where the file system can.
    result.copied_bytes = io::copy_range(fd_in->fd(), *origin_ + file_->header_only_bytes(), fd_out,
                                         source_.name(), out.name());
  } else {
    position_stream(file_->header_only_bytes());
    stream_at_ = kUnknownPosition;
    std::vector<std::uint8_t> buf(std::size_t{1} << 16);
    io::Reader& rest = file_->payload_input();
    while (const std::size_t n = rest.read(buf.data(), buf.size())) {
      w.write(buf.data(), n);
      result.copied_bytes += n;
    }
  }
  target.commit(0);
  // Counted by reading the new header back: the count is the format's business.
  io::MemoryReader reread(header);
  result.slots_after = EncryptedFile(reread).description().slots;
  return result;
}

RunCache::RunCache() : cache_(std::make_unique<PassphraseKekCache>()) {}
RunCache::~RunCache() = default;
std::size_t RunCache::argon2id_runs() const {
  return cache_->argon2id_runs();
}

namespace {

// A file's first bytes as an input that notes whether a reader asked for more than they hold.
class PrefixReader final : public io::Reader {
 public:
  explicit PrefixReader(std::span<const std::uint8_t> prefix) : prefix_(prefix) {}
  std::size_t read(std::uint8_t* buf, std::size_t n) override {
    const std::size_t got = std::min(n, prefix_.size() - pos_);
    if (got < n) ran_out_ = true;
    if (got > 0) std::memcpy(buf, prefix_.data() + pos_, got);
    pos_ += got;
    return got;
  }
  std::string name() const override { return "the file's first bytes"; }
  bool ran_out() const { return ran_out_; }

 private:
  std::span<const std::uint8_t> prefix_;
  std::size_t pos_ = 0;
  bool ran_out_ = false;
};

}  // namespace

bool header_incomplete(std::span<const std::uint8_t> prefix) {
  PrefixReader in(prefix);
  try {
    const EncryptedFile file(in);
    return prefix.size() < file.description().header_bytes;
  } catch (const Error&) {
    // A parse that failed after running out of bytes may only have needed more of them; one that failed
    // inside the prefix is malformed, and opening the file reports it.
    return in.ran_out();
  }
}

void check_credentials_for(Format format, std::size_t key_files, std::size_t recipients, bool passphrase) {
  if (format == Format::age) age::check_credential_mix(key_files, recipients, passphrase);
  if (is_cobblestone(format) && (key_files > 0 || recipients > 0 || passphrase))
    throw Error(PCRYPT_E_CREDENTIAL_MIX,
                format_name(format) +
                    " has no recipients, passphrases or key files: it is encrypted with one "
                    "raw key",
                "give the raw key alone (and the application's context, if it uses one)");
}

NewFile start_file(const std::vector<Credential>& credentials, const NewFileSettings& settings) {
  if (is_cobblestone(settings.format)) return cobblestone::new_cobblestone_file(credentials, settings);
  return settings.format == Format::age ? age::new_age_file(credentials, settings)
                                        : new_pcrypt_file(credentials, settings);
}

Transfer encrypt(io::Reader& in, io::Writer& out, const std::vector<Credential>& credentials,
                 const EncryptSettings& settings, const RunOptions& options) {
  if (settings.armor && settings.file.format != Format::age)
    throw Error(PCRYPT_E_FORMAT_OPTION, "armor is for age files", "use the age format");
  const NewFile file = start_file(credentials, settings.file);
  Target target(out, settings.armor);
  io::Writer& w = target.writer();
  w.write(file.header.data(), file.header.size());
  if (settings.header_written) settings.header_written();
  const PipelineStats stats =
      run_pipeline(PayloadCodec(Direction::seal, file.payload.cipher, file.payload.layout), in, w,
                   pipeline_config(options));
  const std::uint64_t binary = file.header.size() + stats.ciphertext_bytes;
  return Transfer{stats.plaintext_bytes, target.commit(binary), file.header.size(), stats.chunks};
}

}  // namespace pcrypt::core::door
