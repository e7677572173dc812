// `pcrypt info`: the header in plain words (no key needed), and/or the engine table.

#include <cstdio>
#include <span>
#include <vector>

#include "app/commands.h"
#include "app/endpoints.h"
#include "app/file_facts.h"
#include "app/library.h"
#include "app/logging.h"
#include "app/passphrase.h"
#include "app/report.h"
#include "app/run_files.h"

namespace pcrypt::app {
namespace {

// -k/-i/-p: which slot(s) each credential opens, one "NAME opens: ..." line each. Argon2id runs for a
// passphrase (within the default ceiling); a slot that opens to a key the header MAC rejects is the usual
// wrong-key error (FORMAT.md §6.5).
std::string describe_openers(const InfoArgs& args, File& file) {
  std::string out;
  const auto lines = [&](const Keys& keys, const auto& name_of) {
    const std::vector<std::vector<std::string>> opened = file.slots_opened_by(keys, Credentials{});
    for (std::size_t n = 0; n < opened.size(); ++n) {
      std::string slots;
      for (const std::string& words : opened[n]) slots += (slots.empty() ? "" : ", ") + words;
      out += name_of(n, opened.size()) + " opens: " + (slots.empty() ? std::string("no slot") : slots) + "\n";
    }
  };
  for (const std::string& path : args.key_files) {
    Keys keys = terminal_keys();
    keys.add_key_or_identity_file(path);
    lines(keys, [&](std::size_t, std::size_t) { return path; });
  }
  for (const std::string& path : args.identity_files) {
    Keys keys = terminal_keys();
    keys.add_identity_file(path);
    lines(keys, [&](std::size_t n, std::size_t count) {
      return count == 1 ? path : path + " (identity " + std::to_string(n + 1) + ")";
    });
  }
  if (args.passphrase || !args.passphrase_file.empty()) {
    Keys keys;
    keys.add_passphrase(obtain_passphrase(args.passphrase_file, PassphrasePurpose::decrypt));
    lines(keys, [](std::size_t, std::size_t) { return std::string("the passphrase"); });
  }
  return out;
}

// One file's description; `heading`: with several files, a "file: NAME" line first. For either format, also
// which slot(s) the -k/-i/-p credentials open.
void info_file(const InfoArgs& args, bool heading) {
  Input input = open_input(args.file);
  refuse_terminal_input(input);
  if (args.json) {
    // One line per file (JSON Lines), whatever the number of files: a script reads line by line.
    const std::string line = naming_input(input.name, [&] {
      File file = File::open(source_of(input));
      return info_json(input.name, gather_facts(file));
    });
    std::printf("%s\n", line.c_str());
    flush_stdout();
    return;
  }
  const std::string description = naming_input(input.name, [&] {
    File file = File::open(source_of(input));
    // -v (the logger's level says whether it was given): every byte of long slot fields, not their SHA-256.
    return file.info(log::enabled(log::Level::info)) + describe_openers(args, file);
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
  // Several files, as `head` shows them: each under its name, a blank line between (JSON: a line each).
  bool first = true;
  return for_each_file(args.files, [&](const std::string& f) {
    if (!first && !args.json) std::fputc('\n', stdout);
    first = false;
    InfoArgs one = args;
    one.file = f;
    one.files = {f};
    info_file(one, true);
  });
}

}  // namespace pcrypt::app
