// `pcrypt rekey`: a new header (slots added or removed, same file key) followed by the payload bytes copied
// unchanged; for an age file, stanzas instead of slots. The header work is core::rekey_header, the copy
// io::copy_range, the atomic replacement io::AtomicFileWriter: the original stays whole until the new file is
// complete and synced.
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
#include "app/run_files.h"
#include "app/size_arg.h"
#include "core/age/armor.h"
#include "core/age/file.h"
#include "core/age/rekey.h"
#include "core/error.h"
#include "core/keys/recipient.h"
#include "core/pcrypt/format.h"
#include "core/pcrypt/keys.h"
#include "core/pcrypt/rekey.h"
#include "core/pcrypt/slot_words.h"
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
  a.max_work_factor = args.max_work_factor;
  // rekey -p --add-passphrase may ask for two passphrases: then the prompts say which is which.
  if (args.add_passphrase || !args.add_passphrase_file.empty()) a.passphrase_role = "current";
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
  a.passphrase_role = "new";
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

// --remove-key: each file is a key file or an identity file (whatever opens slots).
std::vector<core::Credential> removal_credentials(const std::vector<std::string>& paths) {
  std::vector<core::Credential> out;
  for (const std::string& path : paths)
    for (core::Credential& c : read_key_or_identity_file(path)) out.push_back(std::move(c));
  return out;
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

// In place, the file keeps its owner, group and mode (or rekey refuses before writing); a new file (-o) is
// private, as every file pcrypt encrypts.
io::Permissions rewrite_permissions(bool in_place) {
  return in_place ? io::Permissions::same_as_target : io::Permissions::owner_only;
}

// --new-file-key: decrypt and re-encrypt in one pass; slots for the opening credentials, then the added ones.
int reencrypt(const RekeyArgs& args, Verbosity verbosity, Input& input, const core::ParsedHeader& parsed,
              const SecretBytes& file_key, const std::vector<core::Credential>& opening,
              core::RekeyChanges& changes) {
  const core::DecryptOptions open_options = decrypt_options(opening_args(args));
  core::NewFileKeySlots plan = core::new_file_key_slots(parsed, opening, std::move(changes.add),
                                                        open_options.kdf_ceiling, changes.kek_cache);
  // Who keeps access and who loses it, said before the work starts: the point of a new file key.
  std::string kept, dropped;
  for (const std::size_t i : plan.kept)
    kept += (kept.empty() ? "" : ", ") + core::describe_slot(parsed.header, i);
  for (const std::size_t i : plan.dropped)
    dropped += (dropped.empty() ? "" : ", ") + core::describe_slot(parsed.header, i);
  spdlog::warn("new file key: kept {} (re-made for the credentials given); dropped {}",
               kept.empty() ? std::string("no old slot") : kept,
               dropped.empty() ? std::string("none") : dropped);
  const std::vector<core::Credential>& slots = plan.credentials;
  core::EncryptOptions options = encrypt_options(opening_args(args));
  options.kdf = changes.kdf;
  options.kek_cache = changes.kek_cache;
  const bool in_place = args.output.empty();
  const std::string out_path = in_place ? args.file : args.output;
  io::AtomicFileWriter out(out_path, in_place || args.force, io::TempFile::unnamed_if_supported,
                           rewrite_permissions(in_place));
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

// An age file's --new-file-key: the stanzas of the result are the opening credentials' (an identity as its
// recipient, a passphrase as itself) and the added ones; the payload is opened and sealed again in one pass.
// A binary file stays binary, an armored one armored.
int reencrypt_age(const RekeyArgs& args, const Input& input, core::age::AgeInput& age,
                  const SecretBytes& file_key, const std::vector<core::Credential>& opening,
                  core::RekeyChanges& changes, io::AtomicFileWriter& out) {
  std::vector<core::Credential> credentials;
  for (const core::Credential& c : opening)
    if (c.kind != core::Credential::Kind::key_file)
      core::keep_access(c, credentials);  // none opens age files
  for (core::Credential& c : changes.add) credentials.push_back(std::move(c));
  spdlog::warn(
      "new file key: the result has {} stanza(s), for the credentials given; every other recipient "
      "of {} loses access",
      credentials.size(), input.name);
  core::age::EncryptOptions options = age_encrypt_options(opening_args(args));
  std::optional<core::age::ArmorWriter> armored;
  if (age.armored()) armored.emplace(out);
  io::Writer& target = armored ? static_cast<io::Writer&>(*armored) : out;
  try {
    core::age::reencrypt_stream(age, file_key, target, credentials, options);
  } catch (const core::Error& e) {
    throw core::Error(e.kind(), with_file_context(e.what(), input.name), e.hint());
  }
  target.commit();
  return 0;
}

// An age file: a new header (core/age/rekey.h), then the payload nonce and payload unchanged. A binary file's
// are copied as bytes (core's copy_range, reflinks where the file system has them); an armored file is
// armored again around the new header and the decoded rest, so it stays armored.
int rekey_age_file(const RekeyArgs& args, const Input& input, DecryptionInput& opened,
                   core::RekeyChanges& changes, const std::string& out_path, bool in_place) {
  core::age::AgeInput& age = opened.age();
  const core::age::DecryptOptions open_options = age_decrypt_options(opening_args(args));
  const SecretBytes file_key = [&] {
    try {
      return core::age::unlock(age, opened.credentials(), open_options.max_scrypt_log2);
    } catch (const core::Error& e) {
      throw core::Error(e.kind(), with_file_context(e.what(), input.name), e.hint());
    }
  }();
  changes.add = added_credentials(args);
  changes.opening = &opened.credentials();
  io::AtomicFileWriter out(out_path, in_place || args.force, io::TempFile::unnamed_if_supported,
                           rewrite_permissions(in_place));
  if (args.new_file_key) return reencrypt_age(args, input, age, file_key, opened.credentials(), changes, out);
  const std::string header = core::age::rekey_header(
      age.header(), file_key, changes, core::age::kDefaultScryptLog2, open_options.max_scrypt_log2);
  const auto* header_bytes = reinterpret_cast<const std::uint8_t*>(header.data());
  std::uint64_t rest_bytes = 0;
  if (age.armored()) {
    core::age::ArmorWriter armored(out);
    armored.write(header_bytes, header.size());
    std::vector<std::uint8_t> buf(1 << 16);
    while (const std::size_t n = age.rest().read(buf.data(), buf.size())) {
      armored.write(buf.data(), n);
      rest_bytes += n;
    }
    armored.commit();  // the END line, then `out` committed
  } else {
    out.write(header_bytes, header.size());
    const auto* reader = dynamic_cast<const io::FdReader*>(input.reader.get());
    if (reader == nullptr) throw std::logic_error("rekey: the input is not a file descriptor");
    rest_bytes = io::copy_range(reader->fd(), age.header().total_bytes, out.fd(), input.name, out_path);
    out.commit();
  }
  spdlog::info("rekeyed age file {}: {} stanza(s) -> header of {} bytes, {} bytes after it copied unchanged",
               out_path, age.header().stanzas.size(), header.size(), rest_bytes);
  return 0;
}

int rekey_file(const RekeyArgs& args, Verbosity verbosity) {
  const CryptArgs opening = opening_args(args);
  require_credential(opening, PassphrasePurpose::decrypt);
  const core::DecryptOptions open_options = decrypt_options(opening);
  core::RekeyChanges changes;
  changes.kdf = encrypt_options(opening).kdf;
  changes.remove_slots = slot_numbers(args.remove_slots);
  const bool removes =
      !args.remove_slots.empty() || !args.remove_keys.empty() || !args.remove_recipients.empty();
  if (args.new_file_key && removes)
    throw core::Error(
        core::ErrorKind::usage,
        "--remove-slot, --remove-key and --remove-recipient have no meaning with --new-file-key",
        "the new file has only the slots of the credentials given (-k/-i/-p and --add-*)");
  if (!args.new_file_key && !removes && args.add_keys.empty() && !args.add_passphrase &&
      args.add_passphrase_file.empty() && args.add_recipients.empty() && args.add_recipient_files.empty())
    throw core::Error(
        core::ErrorKind::usage, "nothing to change",
        "add a slot with --add-key/--add-recipient/--add-passphrase, or remove one with --remove-slot N, "
        "--remove-key FILE or --remove-recipient RECIPIENT");
  for (const std::string& r : args.remove_recipients)
    changes.remove_recipients.push_back(core::parse_recipient(r));
  changes.remove_opened_by = removal_credentials(args.remove_keys);

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
  if (opened.is_age()) return rekey_age_file(args, input, opened, changes, out_path, in_place);
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
  changes.opening = &credentials;
  if (args.new_file_key) return reencrypt(args, verbosity, input, parsed, file_key, credentials, changes);
  // In place the target is the input itself, a regular file: replacing it is the point. Opened before the
  // new slots' Argon2id runs, so an interruption at any later moment finds (and removes) the temporary.
  io::AtomicFileWriter out(out_path, in_place || args.force, io::TempFile::unnamed_if_supported,
                           rewrite_permissions(in_place));
  const std::vector<std::uint8_t> header = core::rekey_header(parsed, file_key, changes);
  out.write(header.data(), header.size());
  const auto* reader = dynamic_cast<const io::FdReader*>(input.reader.get());
  if (reader == nullptr) throw std::logic_error("rekey: the input is not a file descriptor");
  const std::uint64_t payload =
      io::copy_range(reader->fd(), parsed.total_bytes(), out.fd(), input.name, out_path);
  out.commit();
  spdlog::info(
      "rekeyed {}: {} slot(s) -> {} slot(s), header {} -> {} bytes, {} payload bytes copied unchanged",
      out_path, parsed.header.slots.size(), header[core::kFixedHeaderBytes - 1], parsed.total_bytes(),
      header.size(), payload);
  spdlog::info("Argon2id runs: {}", cache.argon2id_runs());
  return 0;
}

}  // namespace

int run_rekey(const RekeyArgs& args, Verbosity verbosity) {
  if (args.files.size() <= 1) return rekey_file(args, verbosity);
  if (!args.output.empty())
    throw core::Error(core::ErrorKind::usage, "-o cannot be used with several files",
                      "several files are each rekeyed in place; run once per file to write elsewhere");
  return for_each_file(args.files, [&](const std::string& f) {
    RekeyArgs one = args;
    one.file = f;
    one.files = {f};
    rekey_file(one, verbosity);
  });
}

}  // namespace pcrypt::app
