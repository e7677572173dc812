// `pcrypt rekey`: a new header (slots added or removed, same file key) followed by the payload bytes copied
// unchanged; for an age file, stanzas instead of slots. The header work is libpcrypt's File::rekey (which
// copies the payload with copy_file_range into the temporary), the atomic replacement io::AtomicFileWriter:
// the original stays whole until the new file is complete and synced.
#include <sodium.h>
#include <sys/stat.h>

#include <algorithm>
#include <stdexcept>

#include <pcrypt/pcrypt.h>

#include "app/commands.h"
#include "app/credentials.h"
#include "app/crypt_options.h"
#include "app/endpoints.h"
#include "app/error_words.h"
#include "app/library.h"
#include "app/logging.h"
#include "app/progress.h"
#include "app/report.h"
#include "app/run_files.h"
#include "app/size_arg.h"
#include "io/atomic_file.h"
#include "io/file_info.h"

namespace pcrypt::app {
namespace {

// How many old slots rekey --new-file-key names in its one warning line before it counts them instead.
constexpr std::size_t kNamedSlots = 4;

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
std::optional<Keys> added_credentials(const RekeyArgs& args) {
  CryptArgs a;
  a.file = args.file;  // never standard input, so '--add-recipients-file -' may read it
  a.key_files = args.add_keys;
  a.recipients = args.add_recipients;
  a.recipients.insert(a.recipients.end(), args.recipients.begin(), args.recipients.end());
  a.recipient_files = args.add_recipient_files;
  a.recipient_files.insert(a.recipient_files.end(), args.recipient_files.begin(), args.recipient_files.end());
  a.passphrase = args.add_passphrase;
  a.passphrase_file = args.add_passphrase_file;
  a.passphrase_role = "new";
  if (a.key_files.empty() && a.recipients.empty() && a.recipient_files.empty() && !wants_passphrase(a))
    return std::nullopt;
  return gather_credentials(a, PassphrasePurpose::encrypt);
}

std::vector<std::size_t> slot_numbers(const std::vector<std::string>& texts) {
  std::vector<std::size_t> numbers;
  numbers.reserve(texts.size());
  for (const std::string& t : texts)
    numbers.push_back(static_cast<std::size_t>(parse_count(t, "--remove-slot", 1, limits::max_slots)));
  return numbers;
}

// --remove-key: each file is a key file or an identity file (whatever opens slots).
Keys removal_credentials(const std::vector<std::string>& paths) {
  Keys keys = terminal_keys();
  for (const std::string& path : paths) keys.add_key_or_identity_file(path);
  return keys;
}

// In place, a symlink would be replaced by a regular file and a hard link split from its siblings: both are
// surprises for a command that promises to change only who can open the file.
void check_in_place_target(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return;  // open_input reports it
  if (S_ISLNK(st.st_mode))
    throw CliError(PCRYPT_E_IO, "refusing to rekey a symlink in place (" + path + ")",
                   "rekey the file it points to, or write the result elsewhere with -o");
  if (S_ISREG(st.st_mode) && st.st_nlink > 1)
    throw CliError(PCRYPT_E_IO, "refusing to rekey a file with several hard links in place (" + path + ")",
                   "the other names would keep the old header; write the result elsewhere with -o");
}

// In place, the file keeps its owner, group and mode (or rekey refuses before writing); a new file (-o) is
// private, as every file pcrypt encrypts.
io::Permissions rewrite_permissions(bool in_place) {
  return in_place ? io::Permissions::same_as_target : io::Permissions::owner_only;
}

int rekey_file(const RekeyArgs& args, Verbosity verbosity) {
  const CryptArgs opening = opening_args(args);
  require_credential(opening, PassphrasePurpose::decrypt);
  DecryptChoices open_choices = decrypt_choices(opening);
  RekeyRequest request;
  request.new_file_key = args.new_file_key;
  // -r/-R: the whole list of who can open the new file, so the opening credentials keep no slot of their own.
  const bool replaces_all = !args.recipients.empty() || !args.recipient_files.empty();
  if (replaces_all && !args.new_file_key)
    throw CliError(
        PCRYPT_E_BAD_ARGUMENT, "-r/-R name everyone who can open the new file: they go with --new-file-key",
        "to add recipients beside the existing slots, use --add-recipient or --add-recipients-file");
  request.keep_opening_access = !replaces_all;
  // New passphrase slots' Argon2id costs; the engine and the Argon2id cache are the opening's session.
  const EncryptOptions new_slots = encrypt_choices(opening).options;
  request.argon2id_memory_bytes = new_slots.argon2id_memory_bytes;
  request.argon2id_passes = new_slots.argon2id_passes;
  request.remove_slots = slot_numbers(args.remove_slots);
  const bool removes =
      !args.remove_slots.empty() || !args.remove_keys.empty() || !args.remove_recipients.empty();
  if (args.new_file_key && removes)
    throw CliError(PCRYPT_E_BAD_ARGUMENT,
                   "--remove-slot, --remove-key and --remove-recipient have no meaning with --new-file-key",
                   "the new file has only the slots of the credentials given (-k/-i/-p and --add-*)");
  if (!args.new_file_key && !removes && args.add_keys.empty() && !args.add_passphrase &&
      args.add_passphrase_file.empty() && args.add_recipients.empty() && args.add_recipient_files.empty())
    throw Error(
        PCRYPT_E_NOTHING_TO_CHANGE, "nothing to change",
        "add a slot with --add-key/--add-recipient/--add-passphrase, or remove one with --remove-slot N, "
        "--remove-key FILE or --remove-recipient RECIPIENT");
  for (const std::string& r : args.remove_recipients) {
    check_recipient(r);
    request.remove_recipients.push_back(r);
  }
  const Keys removed = removal_credentials(args.remove_keys);
  request.remove_keys = &removed;

  const bool in_place = args.output.empty();
  const std::string out_path = in_place ? args.file : args.output;
  if (is_standard_stream(args.file) || io::descriptor_path(args.file))
    throw CliError(PCRYPT_E_BAD_ARGUMENT, "rekey needs a file, not standard input");
  if (!in_place &&
      (args.output == "-" || io::descriptor_path(args.output) || io::is_stream_file(args.output)))
    throw CliError(PCRYPT_E_BAD_ARGUMENT, "rekey writes a file: -o must name a regular file");
  Input input = open_input(args.file);
  if (!io::is_regular_file(args.file))
    throw CliError(PCRYPT_E_IO, "rekey needs a regular file (" + args.file + ")");
  if (in_place)
    check_in_place_target(args.file);
  else
    check_output_path(input, out_path, args.force);

  // The header is read once; the payload is read from `input` itself, where the header's reading left it.
  DecryptionInput opened(opening, input);
  opened.unlock(open_choices.limits);
  const std::optional<Keys> added = added_credentials(args);
  if (added) request.add_keys = &*added;
  // In place the target is the input itself, a regular file: replacing it is the point. Opened before the
  // new slots' Argon2id runs, so an interruption at any later moment finds (and removes) the temporary.
  io::AtomicFileWriter out(out_path, in_place || args.force, io::TempFile::unnamed_if_supported,
                           rewrite_permissions(in_place));
  const Description& before = opened.file().describe();
  // What the format calls a slot, in the command line's messages: age's header holds stanzas.
  const std::string slot_noun = before.format == Format::age ? "stanza" : "slot";
  ProgressLine progress("re-encrypting", input.size,
                        progress_wanted(verbosity == Verbosity::quiet || !args.new_file_key, false));
  open_choices.run.progress = [&progress](std::uint64_t bytes) { progress.update(bytes); };
  const RekeyResult result = naming_input(input.name, [&] {
    RekeyResult done = opened.file().rekey(request, sink_of(out), open_choices.run);
    commit_written(out);
    return done;
  });
  progress.finish();
  const auto listed = [](const std::vector<std::string>& words, const char* none) {
    std::string text;
    for (const std::string& w : words) text += (text.empty() ? "" : ", ") + w;
    return text.empty() ? std::string(none) : text;
  };
  if (args.new_file_key && replaces_all) {
    // The user listed everyone who keeps access: nothing to warn about; -v says what was replaced.
    log::info("new file key: {} replaced by {} for the recipients and credentials given",
              counted(result.dropped.size(), "old " + slot_noun), result.slots_after);
    log::info("replaced: {}", listed(result.dropped, "none"));
    log::info("re-encrypted {} under a new file key with {}", out_path,
              counted(result.slots_after, slot_noun));
  } else if (args.new_file_key) {
    // Who keeps access and who loses it: the point of a new file key. A few slots are named; many are
    // counted (a team of 250 would make one unreadable line), and -v names them all.
    if (result.kept.size() + result.dropped.size() <= kNamedSlots)
      log::warn("new file key: kept {} (re-made for the credentials given); dropped {}",
                listed(result.kept, "no old slot"), listed(result.dropped, "none"));
    else
      log::warn(
          "new file key: kept {} (re-made for the credentials given); dropped {} (their "
          "holders lose access; -v lists them)",
          counted(result.kept.size(), "old " + slot_noun), result.dropped.size());
    log::info("kept: {}", listed(result.kept, "no old slot"));
    log::info("dropped: {}", listed(result.dropped, "none"));
    log::info("re-encrypted {} under a new file key with {}", out_path,
              counted(result.slots_after, slot_noun));
  } else {
    log::info("rekeyed {}: {} -> {}, header {} -> {} bytes, {} after it copied unchanged", out_path,
              counted(result.slots_before, slot_noun), counted(result.slots_after, slot_noun),
              result.header_bytes_before, result.header_bytes_after, counted(result.copied_bytes, "byte"));
  }
  log::info("Argon2id runs: {}", open_choices.session->argon2id_runs());
  return 0;
}

}  // namespace

int run_rekey(const RekeyArgs& args, Verbosity verbosity) {
  if (args.files.size() <= 1) return rekey_file(args, verbosity);
  if (!args.output.empty())
    throw CliError(PCRYPT_E_BAD_ARGUMENT, "-o cannot be used with several files",
                   "several files are each rekeyed in place; run once per file to write elsewhere");
  return for_each_file(args.files, [&](const std::string& f) {
    RekeyArgs one = args;
    one.file = f;
    one.files = {f};
    rekey_file(one, verbosity);
  });
}

}  // namespace pcrypt::app
