// The age personality: age 1.3's command line (`age [-e] -r ... [-a] [-o OUT] [IN]`, `age -d [-i ...]`,
// `age -p`), its refusals, prompts, words and exit statuses, on pcrypt's library. Only what age's own
// users rely on is age's here; the work itself (parallel, every kind of recipient) is pcrypt's.
#include <pcrypt/pcrypt.h>
#include <sodium.h>

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/age_flags.h"
#include "app/age_passphrase.h"
#include "app/endpoints.h"
#include "app/environment.h"
#include "app/error_words.h"
#include "app/library.h"
#include "app/logging.h"
#include "app/personalities.h"
#include "app/plugin_ui.h"
#include "app/tty_prompt.h"
#include "io/file_info.h"
#include "io/stream.h"

namespace pcrypt::app {
namespace {

constexpr const char* kAgeUsage = R"(Usage:
    age [--encrypt] (-r RECIPIENT | -R PATH)... [--armor] [-o OUTPUT] [INPUT]
    age [--encrypt] --passphrase [--armor] [-o OUTPUT] [INPUT]
    age --decrypt [-i PATH | -j PLUGIN]... [-o OUTPUT] [INPUT]

Options:
    -e, --encrypt               Encrypt the input to the output. Default if omitted.
    -d, --decrypt               Decrypt the input to the output.
    -o, --output OUTPUT         Write the result to the file at path OUTPUT.
    -a, --armor                 Encrypt to a PEM encoded format.
    -p, --passphrase            Encrypt with a passphrase.
    -r, --recipient RECIPIENT   Encrypt to the specified RECIPIENT. Can be repeated.
    -R, --recipients-file PATH  Encrypt to recipients listed at PATH. Can be repeated.
    -i, --identity PATH         Use the identity file at PATH. Can be repeated.
    -j PLUGIN                   Use the default identity of the plugin age-plugin-PLUGIN. Can be repeated.

INPUT defaults to standard input, and OUTPUT defaults to standard output.
If OUTPUT exists, it is replaced, only once the command succeeded.

RECIPIENT can be an age public key ("age1..."), a post-quantum one ("age1pq1..."),
a plugin's, or an SSH public key ("ssh-ed25519 AAAA...", "ssh-rsa AAAA...").
Recipient files hold one recipient per line; empty lines and lines starting
with "#" are ignored. Identity files hold secret keys ("AGE-SECRET-KEY-1..."),
one per line, or an SSH private key. "-" reads either from standard input.
With -e given explicitly, -i also encrypts to that identity's recipient.

This is pcrypt answering to the name age (pcrypt(1), "age personality"):
age's command line and files, encrypted and decrypted in parallel.
PCRYPT_THREADS sets the number of worker threads (default: one per core).

Example:
    $ age-keygen -o key.txt
    Public key: age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p
    $ tar cvz ~/data | age -r age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p > data.tar.gz.age
    $ age --decrypt -i key.txt -o data.tar.gz data.tar.gz.age
)";

constexpr std::string_view kArmorEnd = "-----END AGE ENCRYPTED FILE-----";

// A failure as age reports it: "age: error: ..." and "age: hint: ..." lines, exit 1.
struct AgeFailure {
  std::string message;
  std::vector<std::string> hints;
};

[[noreturn]] void fail(std::string message, std::vector<std::string> hints = {}) {
  throw AgeFailure{std::move(message), std::move(hints)};
}

std::string go_quote(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

void say(const std::string& line) {
  std::fputs(("age: " + line + "\n").c_str(), stderr);
}

// age names files by their absolute path, made lexically (Go's filepath.Abs: no link followed).
std::string absolute(const std::string& path) {
  std::error_code ignored;
  const std::filesystem::path abs = std::filesystem::absolute(path, ignored);
  return abs.lexically_normal().string();
}

void warn_duplicates(const std::vector<std::string>& values, const std::string& what) {
  std::set<std::string> seen, warned;
  for (const std::string& v : values) {
    if (!seen.insert(v).second && warned.insert(v).second)
      say("warning: duplicate " + what + " " + go_quote(v));
  }
}

// The checks age makes on the flags alone, in its order and words.
void check_flags(const AgeArgs& a) {
  if (a.decrypt) {
    if (a.encrypt) fail("-e/--encrypt can't be used with -d/--decrypt");
    if (a.armor)
      fail("-a/--armor can't be used with -d/--decrypt",
           {"note that armored files are detected automatically, try again without -a/--armor"});
    if (a.passphrase)
      fail("-p/--passphrase can't be used with -d/--decrypt",
           {"note that password protected files are detected automatically"});
    if (!a.recipients.empty())
      fail("-r/--recipient can't be used with -d/--decrypt",
           {"did you mean to use -i/--identity to specify a private key?"});
    if (!a.recipient_files.empty())
      fail("-R/--recipients-file can't be used with -d/--decrypt",
           {"did you mean to use -i/--identity to specify a private key?"});
    return;
  }
  if (!a.identities.empty() && !a.encrypt)
    fail(
        "-i/--identity and -j can't be used in encryption mode unless symmetric encryption is explicitly "
        "selected with -e/--encrypt",
        {"did you forget to specify -d/--decrypt?"});
  if (a.recipients.empty() && a.recipient_files.empty() && a.identities.empty() && !a.passphrase)
    fail("missing recipients",
         {"did you forget to specify -r/--recipient, -R/--recipients-file or -p/--passphrase?"});
  if (!a.recipients.empty() && a.passphrase) fail("-p/--passphrase can't be combined with -r/--recipient");
  if (!a.recipient_files.empty() && a.passphrase)
    fail("-p/--passphrase can't be combined with -R/--recipients-file");
  if (!a.identities.empty() && a.passphrase)
    fail("-p/--passphrase can't be combined with -i/--identity and -j");
}

void check_inputs(const AgeArgs& a, const std::vector<std::string>& raw_args) {
  if (a.inputs.size() <= 1) return;
  std::string listed;
  for (const std::string& arg : a.inputs) {
    if (!listed.empty()) listed += ' ';
    listed += go_quote(arg);
  }
  std::vector<std::string> hints;
  if (a.inputs[1].starts_with("-")) {
    hints.emplace_back("the input file must be specified after all flags");
    // Suggest the same command with the input moved to the end.
    std::string suggestion = "age";
    const std::size_t first_input = raw_args.size() - a.inputs.size();
    for (std::size_t i = 0; i < raw_args.size(); ++i)
      if (i != first_input) suggestion += " " + raw_args[i];
    hints.emplace_back("did you mean:");
    hints.emplace_back("    " + suggestion + " " + raw_args[first_input]);
  } else {
    hints.emplace_back("only a single input file may be specified at a time");
  }
  fail("too many INPUT arguments: " + listed, hints);
}

unsigned threads_from_environment_or_default() {
  const char* text = threads_from_environment();
  if (text == nullptr || *text == '\0') return 0;
  char* end = nullptr;
  errno = 0;
  const unsigned long n = std::strtoul(text, &end, 10);
  if (errno != 0 || *end != '\0' || n > 4096 || text[0] == '-')
    fail("PCRYPT_THREADS must be a number of threads (0: one per core), not " + go_quote(text));
  return static_cast<unsigned>(n);
}

SecretBytes read_secret(const std::string& prompt) {
  try {
    return prompt_hidden(prompt + " ");
  } catch (const Error& e) {
    fail(std::string("could not read passphrase: ") + e.what());
  }
}

SecretBytes passphrase_for_encryption() {
  SecretBytes passphrase = read_secret("Enter passphrase (leave empty to autogenerate a secure one):");
  if (passphrase.empty()) {
    std::string generated = autogenerated_passphrase();
    passphrase = SecretBytes::copy_of(generated);
    sodium_memzero(generated.data(), generated.size());
    try {
      tell_terminal("age: using autogenerated passphrase " + go_quote(std::string(passphrase.text())) + "\n");
    } catch (const Error& e) {
      fail(std::string("could not print passphrase: ") + e.what());
    }
    return passphrase;
  }
  if (read_secret("Confirm passphrase:").text() != passphrase.text()) fail("passphrases didn't match");
  return passphrase;
}

// Standard input on a terminal, decrypting: an armored file being typed or pasted, read up to its END line
// (or the end of input) before anything is asked or written, so prompts and output do not get in its way.
std::vector<std::uint8_t> buffer_terminal_input() {
  std::vector<std::uint8_t> data;
  std::string line;
  for (;;) {
    char c = 0;
    const ssize_t n = ::read(STDIN_FILENO, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(std::string("failed to buffer terminal input: ") + std::strerror(errno));
    if (n == 0 || c == '\x04') break;
    data.push_back(static_cast<std::uint8_t>(c));
    if (c != '\n') {
      line += c;
      continue;
    }
    const std::size_t last = line.find_last_not_of(" \t\r");
    if (last != std::string::npos && line.substr(0, last + 1).ends_with(kArmorEnd)) break;
    line.clear();
  }
  return data;
}

void write_all(int fd, std::span<const std::uint8_t> bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      throw io::IoError(std::string("cannot write to standard output: ") + std::strerror(errno), errno);
    bytes = bytes.subspan(static_cast<std::size_t>(n));
  }
}

// Where the result goes: a file that appears only on success (age's lazily created output, made atomic),
// standard output, or, when both standard streams are the terminal, memory shown at the end (so the output
// does not get in the way of what is being typed).
class Destination {
 public:
  Destination(const AgeArgs& a, bool stdin_is_terminal) {
    path_ = is_standard_stream(a.output) ? std::string() : a.output;
    if (path_.empty() && io::is_terminal(STDOUT_FILENO)) {
      if (a.output != "-" && !a.decrypt && !a.armor)
        fail("refusing to output binary to the terminal",
             {"did you mean to use -a/--armor?", "force anyway with \"-o -\""});
      buffered_ = stdin_is_terminal;
    }
  }
  Sink open() {
    if (buffered_) return Sink::memory(memory_);
    writer_ = open_output(path_, true, io::Permissions::umask);
    return sink_of(*writer_);
  }
  void commit() {
    if (writer_) commit_written(*writer_);
    if (buffered_) write_all(STDOUT_FILENO, memory_);
  }

 private:
  std::string path_;
  bool buffered_ = false;
  std::vector<std::uint8_t> memory_;
  std::unique_ptr<io::Writer> writer_;
};

// The input: a file, standard input, or what was typed on the terminal (decrypting).
struct AgeInput {
  std::optional<Input> opened;
  std::vector<std::uint8_t> typed;
  bool from_terminal = false;  // standard input, and it is a terminal
  std::string name = "standard input";

  Source source() {
    if (opened) return source_of(*opened);
    return Source::memory(typed);
  }
};

AgeInput open_age_input(const AgeArgs& a) {
  AgeInput in;
  const std::string name = a.inputs.empty() ? std::string() : a.inputs[0];
  if (!is_standard_stream(name)) {
    try {
      in.opened.emplace(open_input(name));
    } catch (const std::exception& e) {
      fail("failed to open input file " + go_quote(name) + ": " + e.what());
    }
    in.name = name;
    return in;
  }
  in.from_terminal = io::is_terminal(STDIN_FILENO);
  if (a.decrypt && in.from_terminal) {
    in.typed = buffer_terminal_input();
    return in;
  }
  in.opened.emplace(open_input(""));
  return in;
}

// -o naming a file the command reads (the input, an identity or recipients file) is refused before anything
// is read: age compares absolute paths; the same file under another name is caught too.
void refuse_output_among_inputs(const AgeArgs& a) {
  if (is_standard_stream(a.output)) return;
  std::vector<std::string> read = a.identity_files();
  read.insert(read.end(), a.recipient_files.begin(), a.recipient_files.end());
  if (!a.inputs.empty() && !is_standard_stream(a.inputs[0])) read.push_back(a.inputs[0]);
  const std::string out = absolute(a.output);
  for (const std::string& path : read) {
    if (is_standard_stream(path)) continue;
    if (absolute(path) == out || (io::is_regular_file(path) && io::same_file(path, a.output)))
      fail("input and output file are the same: " + go_quote(a.output));
  }
}

Keys age_keys() {
  Keys keys;
  keys.ssh_key_passphrase = [](const std::string& key_name) -> std::optional<std::string> {
    return std::string(
        read_secret("Enter passphrase for " + go_quote(key_name) + ":").text());  // wiped by the library
  };
  keys.warn = [](const std::string& line) { say("warning: " + line); };
  return keys;
}

void encrypt_to(const AgeArgs& a, AgeInput& in, Destination& out, unsigned threads) {
  Recipients to;
  Keys keys = age_keys();
  if (a.passphrase) {
    keys.add_passphrase(passphrase_for_encryption());
  } else {
    refuse_recipients_from_data_input(a.recipient_files, in.opened && in.opened->is_stdin);
    keys.add_recipients(a.recipients, a.recipient_files, a.identity_files());
    for (const std::string& plugin : a.plugins()) {
      try {
        keys.add_plugin_recipient(plugin);
      } catch (const Error& e) {
        fail("initializing " + go_quote(plugin) + ": " + e.what());
      }
    }
  }
  to.keys = &keys;
  EncryptOptions options;
  options.format = Format::age;
  options.armor = a.armor;
  options.threads = threads;
  Sink sink = out.open();
  try {
    encrypt(in.source(), std::move(sink), to, options);
  } catch (const Error& e) {
    // age's word for recipients that cannot share a file (post-quantum beside classical ones).
    if (e.code() == PCRYPT_E_INCOMPATIBLE_RECIPIENTS)
      fail(std::string("incompatible recipients: ") + e.what(), {hint_for(e, CliPersonality::age)});
    throw;
  }
  out.commit();
}

void decrypt_from(const AgeArgs& a, AgeInput& in, Destination& out, unsigned threads) {
  Keys keys = age_keys();
  for (const AgeArgs::Identity& id : a.identities) {
    try {
      if (id.plugin)
        keys.add_plugin(id.value);
      else
        keys.add_identity_file(id.value);
    } catch (const Error& e) {
      fail((id.plugin ? "initializing " : "reading ") + go_quote(id.value) + ": " + e.what());
    }
  }
  File file = [&] {
    try {
      return File::open(in.source());
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::damaged_header) throw;
      const bool empty = e.code() == PCRYPT_E_EMPTY_INPUT ||
                         (in.opened && in.opened->size && *in.opened->size == 0) ||
                         (!in.opened && in.typed.empty());
      if (empty) fail("failed to read header: the input is empty, not an age file");
      fail(std::string("failed to read header: ") + e.what());
    }
  }();
  const Description& described = file.describe();
  const bool passphrase_file = described.passphrase_slots > 0;
  Credentials credentials;
  credentials.keys = &keys;
  if (a.identities.empty()) {
    if (!passphrase_file)
      fail("file is not passphrase-encrypted, identities are required",
           {"specify identities with -i/--identity or -j to decrypt this file"});
    credentials.passphrase = [] {  // the answer is wiped by the library
      return std::optional<std::string>(read_secret("Enter passphrase:").text());
    };
  }
  // With identities, a passphrase file is still offered to them: a plugin may stand for a passphrase
  // (age -d -j batchpass); only when none opens it is the passphrase file named.
  try {
    file.unlock(credentials);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::wrong_credential) throw;
    if (passphrase_file && a.identities.empty()) fail("incorrect passphrase");
    // (a plugin's own message, as a wrong passphrase given to age-plugin-batchpass, follows as a hint)
    if (passphrase_file)
      fail("file is passphrase-encrypted but identities were specified with -i/--identity or -j",
           {"remove all -i/--identity/-j flags to decrypt passphrase-encrypted files",
            a.plugins().empty() ? std::string() : std::string(e.what())});
    fail("no identity matched any of the recipients", {e.what()});
  }
  RunOptions run;
  run.threads = threads;
  Sink sink = out.open();
  file.decrypt(std::move(sink), run);
  out.commit();
}

int run_checked(int argc, char** argv) {
  log_warnings_as_age();
  const std::vector<std::string> raw(argv + 1, argv + argc);
  if (raw.empty()) {
    std::fputs(kAgeUsage, stderr);
    return 1;
  }
  const AgeParse parsed = parse_age_args(raw);
  if (parsed.outcome == AgeParse::Outcome::help) {
    std::fputs(kAgeUsage, stderr);
    return 0;
  }
  if (parsed.outcome == AgeParse::Outcome::bad_flag) {
    std::fputs((parsed.error + "\n").c_str(), stderr);
    std::fputs(kAgeUsage, stderr);
    return 2;
  }
  const AgeArgs& a = parsed.args;
  if (a.version) {
    require_open_stdout();
    std::printf("pcrypt %s (age personality)\n", version().c_str());
    flush_stdout();
    return 0;
  }
  check_inputs(a, raw);
  check_flags(a);
  warn_duplicates(a.recipients, "recipient");
  warn_duplicates(a.recipient_files, "recipients file");
  warn_duplicates(a.identity_files(), "identity file");
  const unsigned threads = threads_from_environment_or_default();
  set_plugin_host(terminal_plugin_host(plugin_search_path(), environment_for_plugins(), true));

  refuse_output_among_inputs(a);
  AgeInput in = open_age_input(a);
  Destination out(a, in.from_terminal);
  if (a.decrypt)
    decrypt_from(a, in, out, threads);
  else
    encrypt_to(a, in, out, threads);
  return 0;
}

void report(const std::string& message, const std::string& hint = {}) {
  say("error: " + message);
  if (!hint.empty()) say("hint: " + hint);
}

}  // namespace

int run_age(int argc, char** argv) {
  try {
    return run_checked(argc, argv);
  } catch (const AgeFailure& f) {
    say("error: " + f.message);
    for (const std::string& hint : f.hints)
      if (!hint.empty()) say("hint: " + hint);
  } catch (const Error& e) {
    // A reader gone away (`age -d f | head`) got what it wanted: no error line, but not a success either.
    if (e.kind() != ErrorKind::io || e.error_number() != EPIPE)
      report(e.what(), hint_for(e, CliPersonality::age));
  } catch (const io::IoError& e) {
    if (e.error_number() != EPIPE) report(e.what());
  } catch (const std::bad_alloc&) {
    report("out of memory");
  } catch (const std::exception& e) {
    report(e.what());
  }
  return 1;
}

}  // namespace pcrypt::app
