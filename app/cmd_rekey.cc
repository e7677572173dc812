// `pcrypt rekey`: a new header (slots added or removed, same file key) followed by the payload bytes copied
// unchanged. The header work is core::rekey_header, the copy io::copy_range, the atomic replacement
// io::AtomicFileWriter: the original stays whole until the new file is complete and synced.
#include <sodium.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <algorithm>
#include <stdexcept>

#include "app/commands.h"
#include "app/credentials.h"
#include "app/crypt_options.h"
#include "app/endpoints.h"
#include "app/progress.h"
#include "app/report.h"
#include "app/size_arg.h"
#include "core/error.h"
#include "core/format.h"
#include "core/keys.h"
#include "core/recipient.h"
#include "core/rekey.h"
#include "io/atomic_file.h"
#include "io/copy_range.h"
#include "io/fd_stream.h"
#include "io/file_info.h"

namespace pcrypt::app {
namespace {

// The credential that opens the file, in decrypt's terms (so -k/-i/-p/--passphrase-file behave the same).
CryptArgs opening_args(const RekeyArgs& args) {
  CryptArgs a;
  a.file = args.file;
  a.key_files = args.key_files;
  a.identity_files = args.identity_files;
  a.passphrase = args.passphrase;
  a.passphrase_file = args.passphrase_file;
  a.max_kdf_memory = args.max_kdf_memory;
  a.max_kdf_ops = args.max_kdf_ops;
  a.kdf_memory = args.kdf_memory;
  a.kdf_ops = args.kdf_ops;
  a.threads = args.threads;
  return a;
}

// The credentials to add, in encrypt's terms (key files and recipients deduplicated, a new passphrase asked
// twice).
std::vector<core::Credential> added_credentials(const RekeyArgs& args) {
  CryptArgs a;
  a.file = args.file;  // never standard input, so '--add-recipients-file -' may read it
  a.key_files = args.add_keys;
  a.recipients = args.add_recipients;
  a.recipient_files = args.add_recipient_files;
  a.passphrase = args.add_passphrase;
  a.passphrase_file = args.add_passphrase_file;
  if (a.key_files.empty() && a.recipients.empty() && a.recipient_files.empty() && !wants_passphrase(a))
    return {};
  return gather_credentials(a, PassphrasePurpose::encrypt);
}

std::vector<std::size_t> slot_numbers(const std::vector<std::string>& texts) {
  std::vector<std::size_t> numbers;
  numbers.reserve(texts.size());
  for (const std::string& t : texts)
    numbers.push_back(static_cast<std::size_t>(parse_count(t, "--remove-slot", 1, core::kMaxSlots)));
  return numbers;
}

// A key file being added that already opens a slot the result keeps would only duplicate it.
void refuse_duplicate_keys(const core::ParsedHeader& parsed, const std::vector<core::Credential>& added,
                           const std::vector<std::size_t>& removed) {
  const std::vector<core::KeySlot>& slots = parsed.header.slots;
  for (const core::Credential& c : added) {
    if (c.kind != core::Credential::Kind::key_file) continue;
    for (std::size_t i = 0; i < slots.size(); ++i) {
      if (std::find(removed.begin(), removed.end(), i + 1) != removed.end()) continue;
      if (core::open_slot(slots[i], c))
        throw core::Error(core::ErrorKind::usage,
                          "a key file given with --add-key already opens slot " + std::to_string(i + 1));
    }
  }
}

// In place, a symlink would be replaced by a regular file and a hard link split from its siblings: both are
// surprises for a command that promises to change only who can open the file.
void check_in_place_target(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return;  // open_input reports it
  if (S_ISLNK(st.st_mode))
    throw core::Error(core::ErrorKind::io, "refusing to rekey a symlink in place (" + path + ")",
                      "rekey the file it points to, or write the result elsewhere with -o");
  if (S_ISREG(st.st_mode) && st.st_nlink > 1)
    throw core::Error(core::ErrorKind::io,
                      "refusing to rekey a file with several hard links in place (" + path + ")",
                      "the other names would keep the old header; write the result elsewhere with -o");
}

bool same_key(const core::Credential& a, const core::Credential& b) {
  return a.kind == b.kind && a.secret.size() == b.secret.size() &&
         sodium_memcmp(a.secret.data(), b.secret.data(), a.secret.size()) == 0;
}

// --new-file-key: decrypt and re-encrypt in one pass; slots for the opening credentials, then the added ones.
int reencrypt(const RekeyArgs& args, Verbosity verbosity, Input& input, const core::ParsedHeader& parsed,
              const SecretBytes& file_key, const std::vector<core::Credential>& opening,
              core::RekeyChanges& changes) {
  std::vector<core::Credential> slots;
  for (const core::Credential& c : opening) {
    // An identity keeps its access as a slot for its own public key.
    if (c.kind == core::Credential::Kind::identity && c.identity)
      slots.push_back(core::Credential::of(core::recipient_of(*c.identity)));
    else
      slots.push_back(core::Credential{c.kind, SecretBytes(c.secret.span())});
  }
  for (core::Credential& c : changes.add) {
    const bool repeated = std::any_of(slots.begin(), slots.end(), [&](const core::Credential& s) {
      return s.kind == core::Credential::Kind::key_file && same_key(s, c);
    });
    if (repeated)
      throw core::Error(core::ErrorKind::usage, "a key file given with --add-key is also given with -k");
    slots.push_back(std::move(c));
  }
  core::EncryptOptions options = encrypt_options(opening_args(args));
  options.kdf = changes.kdf;
  options.kek_cache = changes.kek_cache;
  const bool in_place = args.output.empty();
  const std::string out_path = in_place ? args.file : args.output;
  io::AtomicFileWriter out(out_path, in_place || args.force);
  ProgressLine progress("re-encrypting", input.size, progress_wanted(verbosity == Verbosity::quiet, false));
  options.progress = [&progress](std::uint64_t bytes) { progress.update(bytes); };
  try {
    core::reencrypt_stream(parsed, file_key, *input.reader, out, slots, options);
  } catch (const core::Error& e) {
    throw core::Error(e.kind(), with_file_context(e.what(), input.name), e.hint());
  }
  out.commit();
  progress.finish();
  spdlog::info("re-encrypted {} under a new file key with {} slot(s)", out_path, slots.size());
  return 0;
}

}  // namespace

int run_rekey(const RekeyArgs& args, Verbosity verbosity) {
  const CryptArgs opening = opening_args(args);
  require_credential(opening, PassphrasePurpose::decrypt);
  const core::DecryptOptions open_options = decrypt_options(opening);
  core::RekeyChanges changes;
  changes.kdf = encrypt_options(opening).kdf;
  changes.remove_slots = slot_numbers(args.remove_slots);
  if (args.new_file_key && !changes.remove_slots.empty())
    throw core::Error(core::ErrorKind::usage, "--remove-slot has no meaning with --new-file-key",
                      "the new file has only the slots of the credentials given (-k/-i/-p and --add-*)");
  if (!args.new_file_key && changes.remove_slots.empty() && args.add_keys.empty() && !args.add_passphrase &&
      args.add_passphrase_file.empty() && args.add_recipients.empty() && args.add_recipient_files.empty())
    throw core::Error(
        core::ErrorKind::usage, "nothing to change",
        "add a slot with --add-key/--add-recipient/--add-passphrase, or remove one with --remove-slot N");

  const bool in_place = args.output.empty();
  const std::string out_path = in_place ? args.file : args.output;
  if (is_standard_stream(args.file) || io::descriptor_path(args.file))
    throw core::Error(core::ErrorKind::usage, "rekey needs a file, not standard input");
  if (!in_place &&
      (args.output == "-" || io::descriptor_path(args.output) || io::is_stream_file(args.output)))
    throw core::Error(core::ErrorKind::usage, "rekey writes a file: -o must name a regular file");
  Input input = open_input(args.file);
  if (!io::is_regular_file(args.file))
    throw core::Error(core::ErrorKind::io, "rekey needs a regular file (" + args.file + ")");
  if (in_place)
    check_in_place_target(args.file);
  else
    check_output_path(input, out_path, args.force);

  core::PassphraseKekCache cache;
  changes.kek_cache = &cache;
  // The payload is read from `input` itself, which the header's reading left at the payload: nothing needs
  // the header's bytes replayed.
  DecryptionInput opened(opening, *input.reader, input.name);
  opened.require_pcrypt("rekey");
  const core::ParsedHeader& parsed = opened.parsed();
  const std::vector<core::Credential>& credentials = opened.credentials();
  const SecretBytes file_key = [&] {
    try {
      return core::unlock_file_key(parsed, credentials, open_options.kdf_ceiling, &cache);
    } catch (const core::Error& e) {
      throw core::Error(e.kind(), with_file_context(e.what(), input.name), e.hint());
    }
  }();
  changes.add = added_credentials(args);
  if (args.new_file_key) return reencrypt(args, verbosity, input, parsed, file_key, credentials, changes);
  refuse_duplicate_keys(parsed, changes.add, changes.remove_slots);
  // In place the target is the input itself, a regular file: replacing it is the point. Opened before the
  // new slots' Argon2id runs, so an interruption at any later moment finds (and removes) the temporary.
  io::AtomicFileWriter out(out_path, in_place || args.force);
  const std::vector<std::uint8_t> header = core::rekey_header(parsed, file_key, changes);
  out.write(header.data(), header.size());
  const auto* reader = dynamic_cast<const io::FdReader*>(input.reader.get());
  if (reader == nullptr) throw std::logic_error("rekey: the input is not a file descriptor");
  const std::uint64_t payload =
      io::copy_range(reader->fd(), parsed.total_bytes(), out.fd(), input.name, out_path);
  out.commit();
  spdlog::info(
      "rekeyed {}: {} slot(s) -> {} slot(s), header {} -> {} bytes, {} payload bytes copied unchanged",
      out_path, parsed.header.slots.size(),
      parsed.header.slots.size() - changes.remove_slots.size() + changes.add.size(), parsed.total_bytes(),
      header.size(), payload);
  spdlog::info("Argon2id runs: {}", cache.argon2id_runs());
  return 0;
}

}  // namespace pcrypt::app
