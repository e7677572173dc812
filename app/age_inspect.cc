// The age-inspect personality: pcrypt run as `age-inspect` (or `pcrypt age-inspect`) takes age 1.3's
// age-inspect command line: what an age file's header and length say without its key -- armor, stanza
// types, whether it is post-quantum, the size breakdown -- in words, or with --json in age-inspect's own
// JSON schema (app/file_facts.h; `pcrypt info --json` is pcrypt's richer one, from the same facts).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <string>

#include <pcrypt/pcrypt.h>

#include "app/age_personality.h"
#include "app/endpoints.h"
#include "app/file_facts.h"
#include "app/go_flags.h"
#include "app/personalities.h"
#include "io/json.h"
#include "io/stream.h"

namespace pcrypt::app {

using io::json_string;
namespace {

constexpr const char* kInspectName = "age-inspect";

constexpr const char* kInspectUsage = R"(Usage:
    age-inspect [INPUT]
    age-inspect [--json] [INPUT]

Options:
    --json           Print the facts as JSON, for scripts.
    -v, --version    Print the version.

Says what an age file's header and size tell without its key: armor, the types
of its recipients' stanzas, whether it is post-quantum, and how its bytes divide
into header, armor, encryption overhead and payload. INPUT defaults to standard
input ("-" names it explicitly). This is pcrypt under age-inspect's name
(pcrypt(1), AGE-KEYGEN AND AGE-INSPECT); `pcrypt info --json` says more.)";

int usage_error() {
  std::fprintf(stderr, "%s\n", kInspectUsage);
  return 1;
}

void print_words(const std::string& name, const FileFacts& facts) {
  const Sizes& s = facts.sizes;
  std::printf("%s is an age file, version %s.\n\n", name.c_str(),
              json_string("age-encryption.org/v1").c_str());
  if (facts.description.armored) std::printf("It is ASCII-armored.\n\n");
  std::printf("Its stanzas, one for each recipient, are of these types:\n");
  for (const SlotSummary& slot : facts.slots) std::printf("  - %s\n", json_string(slot.type).c_str());
  std::printf("\n");
  if (facts.post_quantum == "yes")
    std::printf("It is post-quantum: every stanza resists a quantum computer.\n\n");
  if (facts.post_quantum == "no") std::printf("It is NOT post-quantum: some stanza is classical.\n\n");
  if (facts.post_quantum == "unknown")
    std::printf("Whether it is post-quantum is unknown: its stanza types are not known here.\n\n");
  std::printf("Its bytes, if it decrypts:\n\n");
  const auto row = [](const char* what, std::uint64_t bytes) {
    std::printf("    %-20s%12" PRIu64 " bytes\n", what, bytes);
  };
  row("Header", s.header_bytes);
  if (facts.description.armored) row("Armor overhead", s.armor_bytes);
  row("Encryption overhead", s.overhead_bytes);
  row("Payload", s.plaintext_bytes.value_or(0));
  std::printf("    %-20s-------------------\n", "");
  row("Total", s.header_bytes + s.armor_bytes + s.overhead_bytes + s.plaintext_bytes.value_or(0));
  std::printf("\nFor scripts: --json.\n");
}

int inspect(const std::string& path, bool json) {
  int fd = STDIN_FILENO;
  if (!path.empty() && path != "-") {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      throw AgeToolError{"failed to open input file \"" + path + "\": " + go_open_error(path, errno)};
  } else if (path.empty() && ::isatty(STDIN_FILENO) != 0) {
    return usage_error();  // age-inspect does not wait on a terminal
  }
  FileFacts facts;
  try {
    File file = File::open(Source::fd(fd, path.empty() || path == "-" ? "standard input" : path));
    if (file.describe().format != Format::age)
      throw AgeToolError{"inspection failed: not an age file but a pcrypt file (pcrypt info describes it)"};
    facts = gather_facts(file);
  } catch (const Error& e) {
    if (fd != STDIN_FILENO) ::close(fd);
    throw AgeToolError{std::string("inspection failed: ") + e.what()};
  } catch (...) {
    if (fd != STDIN_FILENO) ::close(fd);
    throw;
  }
  if (fd != STDIN_FILENO) ::close(fd);
  if (!facts.sizes.plaintext_bytes)
    throw AgeToolError{"inspection failed: the file is cut short: no complete age file is " +
                       std::to_string(facts.sizes.file_bytes - facts.sizes.armor_bytes) + " bytes long"};
  if (json)
    std::fputs(age_inspect_json(facts).c_str(), stdout);
  else
    print_words(path.empty() ? "<stdin>" : path, facts);
  flush_stdout();
  return 0;
}

}  // namespace

int run_age_inspect(int argc, char** argv) {
  bool version = false, json = false;
  GoFlags flags;
  flags.add_bool("v", &version);
  flags.add_bool("version", &version);
  flags.add_bool("json", &json);
  const GoFlags::Outcome parsed = flags.parse(argc, argv);
  if (const std::optional<int> code = usage_exit_code(parsed, kInspectUsage)) return *code;
  try {
    if (version) return print_age_version();
    if (parsed.arguments.size() > 1) return usage_error();
    return inspect(parsed.arguments.empty() ? std::string() : parsed.arguments[0], json);
  } catch (const AgeToolError& e) {
    return report_age_error(kInspectName, e.message);
  } catch (const io::IoError& e) {
    return report_age_error(kInspectName, e.what());
  }
}

}  // namespace pcrypt::app
