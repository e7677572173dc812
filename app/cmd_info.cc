// `pcrypt info`: the header in plain words (no key needed), and/or the engine table.
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
#include "core/age/describe.h"
#include "core/age/detect.h"
#include "core/error.h"
#include "core/pcrypt/crypt.h"
#include "core/pcrypt/file_description.h"
#include "core/pcrypt/format.h"
#include "core/pcrypt/keys.h"
#include "core/pcrypt/slot_words.h"

namespace pcrypt::app {
namespace {

// Enough for every header the format allows, and for the first lines of any key file.
constexpr std::size_t kStartBytes = 4096;

// The bytes already read, then the rest of the input.
class ReplayReader final : public io::Reader {
 public:
  ReplayReader(std::span<const std::uint8_t> start, io::Reader& rest) : start_(start), rest_(rest) {}
  std::size_t read(std::uint8_t* buf, std::size_t n) override {
    std::size_t got = 0;
    while (got < n && pos_ < start_.size()) buf[got++] = start_[pos_++];
    return got < n ? got + rest_.read(buf + got, n - got) : got;
  }
  std::string name() const override { return rest_.name(); }

 private:
  std::span<const std::uint8_t> start_;
  std::size_t pos_ = 0;
  io::Reader& rest_;
};

// -k/-i/-p: which slot(s) each credential opens, one "NAME opens: ..." line each. Argon2id runs for a
// passphrase (within the default ceiling); a slot that opens to a key the header MAC rejects is the usual
// wrong-key error (FORMAT.md §6.5).
std::string describe_openers(const InfoArgs& args, const core::ParsedHeader& parsed) {
  std::string out;
  const auto line = [&](const std::string& name, const core::Credential& c) {
    std::string slots;
    for (const std::size_t i : core::slots_opened_by(parsed, c, core::default_kdf_ceiling()))
      slots += (slots.empty() ? "" : ", ") + core::describe_slot(parsed.header, i);
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

// The header of whichever format the input is in (pcrypt, binary or armored age), in words; for pcrypt also
// which slot(s) the -k/-i/-p credentials open.
std::string describe(std::span<const std::uint8_t> start, Input& input, const InfoArgs& args) {
  ReplayReader in(start, *input.reader);
  const core::age::FileFormat format = core::age::detect_format(start);
  if (format == core::age::FileFormat::age_binary || format == core::age::FileFormat::age_armored) {
    core::age::BufferedInput buffered(in);
    const core::age::AgeInput age(buffered);
    return core::age::describe(age, input.size);
  }
  if (format != core::age::FileFormat::pcrypt)
    if (const auto other = core::recognise_other_file(start))
      throw core::Error(core::ErrorKind::header, "not a pcrypt file: this is " + other->what, other->hint);
  const core::ParsedHeader parsed = core::read_header(in);
  return core::describe_parsed_header(parsed) + core::describe_payload(parsed, input.size) +
         describe_openers(args, parsed);
}

// One file's description; `heading`: with several files, a "file: NAME" line first.
void info_file(const InfoArgs& args, bool heading) {
  Input input = open_input(args.file);
  refuse_terminal_input(input);
  std::vector<std::uint8_t> start(kStartBytes);
  start.resize(input.reader->read(start.data(), start.size()));
  std::string description;
  try {
    description = describe(start, input, args);
  } catch (const core::Error& e) {
    throw core::Error(e.kind(), with_file_context(e.what(), input.name), e.hint());
  }
  if (heading) std::printf("file: %s\n", input.name.c_str());
  std::fputs(description.c_str(), stdout);
  if (std::fflush(stdout) != 0) throw core::Error(core::ErrorKind::io, "cannot write to standard output");
}

}  // namespace

int run_info(const InfoArgs& args) {
  if (args.engines) std::fputs(engine_table().c_str(), stdout);
  // `info --engines` alone is about this machine, not a file: don't wait on standard input.
  if (args.engines && args.file.empty()) return 0;
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
