// `pcrypt info`: the header in plain words (no key needed), and/or the engine table.
#include <spdlog/spdlog.h>

#include <cstdio>
#include <span>
#include <vector>

#include "app/commands.h"
#include "app/credentials.h"
#include "app/endpoints.h"
#include "app/passphrase.h"
#include "app/public_key_credentials.h"
#include "app/report.h"
#include "app/run_files.h"
#include "core/door/encrypted_file.h"
#include "core/error.h"

namespace pcrypt::app {
namespace {

// -k/-i/-p: which slot(s) each credential opens, one "NAME opens: ..." line each. Argon2id runs for a
// passphrase (within the default ceiling); a slot that opens to a key the header MAC rejects is the usual
// wrong-key error (FORMAT.md §6.5).
std::string describe_openers(const InfoArgs& args, core::door::EncryptedFile& file) {
  std::string out;
  const auto line = [&](const std::string& name, const core::Credential& c) {
    std::string slots;
    for (const std::string& words : file.slots_opened_by(c, core::door::UnlockLimits{}))
      slots += (slots.empty() ? "" : ", ") + words;
    out += name + " opens: " + (slots.empty() ? std::string("no slot") : slots) + "\n";
  };
  for (const std::string& path : args.key_files)
    for (const core::Credential& c : read_key_or_identity_file(path)) line(path, c);
  for (const std::string& path : args.identity_files) {
    const std::vector<core::Credential> ids = gather_identities({path});
    for (std::size_t n = 0; n < ids.size(); ++n)
      line(ids.size() == 1 ? path : path + " (identity " + std::to_string(n + 1) + ")", ids[n]);
  }
  if (args.passphrase || !args.passphrase_file.empty())
    line("the passphrase",
         core::Credential{core::Credential::Kind::passphrase,
                          obtain_passphrase(args.passphrase_file, PassphrasePurpose::decrypt)});
  return out;
}

// One file's description; `heading`: with several files, a "file: NAME" line first. For either format, also
// which slot(s) the -k/-i/-p credentials open.
void info_file(const InfoArgs& args, bool heading) {
  Input input = open_input(args.file);
  refuse_terminal_input(input);
  const std::string description = naming_input(input.name, [&] {
    core::door::EncryptedFile file(*input.reader);
    // -v (the logger's level says whether it was given): every byte of long slot fields, not their SHA-256.
    const core::door::InfoDetail detail = spdlog::should_log(spdlog::level::info)
                                              ? core::door::InfoDetail::all_bytes
                                              : core::door::InfoDetail::summary;
    return file.info(input.size, detail) + describe_openers(args, file);
  });
  if (heading) std::printf("file: %s\n", input.name.c_str());
  std::fputs(description.c_str(), stdout);
  flush_stdout();
}

}  // namespace

int run_info(const InfoArgs& args) {
  if (args.engines) std::fputs(engine_table().c_str(), stdout);
  // `info --engines` alone is about this machine, not a file: don't wait on standard input.
  if (args.engines && args.file.empty()) {
    flush_stdout();
    return 0;
  }
  if (args.engines) std::fputc('\n', stdout);
  if (args.files.size() <= 1) {
    info_file(args, false);
    return 0;
  }
  // Several files, as `head` shows them: each under its name, a blank line between.
  bool first = true;
  return for_each_file(args.files, [&](const std::string& f) {
    if (!first) std::fputc('\n', stdout);
    first = false;
    InfoArgs one = args;
    one.file = f;
    one.files = {f};
    info_file(one, true);
  });
}

}  // namespace pcrypt::app
