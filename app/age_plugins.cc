// The age-plugin-batchpass and age-plugin-pq personalities: pcrypt run under the names of age 1.3's two
// helper plugins is that plugin for any age client (C2SP age-plugin.md; the protocol is the library's,
// pcrypt::serve_age_plugin). The client starts it with --age-plugin=recipient-v1 or identity-v1 and talks
// over its standard input and output; run by hand without that flag, it prints its usage and exits 1.
//
// batchpass reads its passphrase from the environment here (age's variables), only when the client hands
// it an identity, and the client shows what goes wrong in the plugin's words. pq's -identity converts
// native post-quantum identities to the plugin form.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <pcrypt/pcrypt.h>

#include "app/age_personality.h"
#include "app/endpoints.h"
#include "app/environment.h"
#include "app/error_words.h"
#include "app/go_flags.h"
#include "app/personalities.h"
#include "io/stream.h"

namespace pcrypt::app {
namespace {

constexpr const char* kBatchpassUsage = R"(Usage:
    AGE_PASSPHRASE=PASSPHRASE age -e -j batchpass [-o OUTPUT] [INPUT]
    AGE_PASSPHRASE=PASSPHRASE age -d -j batchpass [-o OUTPUT] [INPUT]

age-plugin-batchpass lets an age client encrypt and decrypt with a passphrase
without a terminal, for scripts. The files are ordinary age passphrase (scrypt)
files, which any age opens with the same passphrase typed in.

Most scripts are better served by a native key: age-keygen makes one, and
`age -e -i KEY` encrypts to it as `age -d -i KEY` decrypts. Keep passphrases out
of shell history and out of other users' sight.

Environment:
    AGE_PASSPHRASE                  The passphrase.
    AGE_PASSPHRASE_FD               Instead, a file descriptor to read it from
                                    (trailing newlines removed). Not both.
    AGE_PASSPHRASE_WORK_FACTOR      Encrypting: scrypt's log2 N, 1 to 30 (18).
    AGE_PASSPHRASE_MAX_WORK_FACTOR  Decrypting: the largest log2 N run, 1 to 30
                                    (22); a file asking more is refused.

This is pcrypt under age-plugin-batchpass's name (pcrypt(1), AGE-KEYGEN AND
AGE-INSPECT). An age client runs it as
`age-plugin-batchpass --age-plugin=STATE-MACHINE`.)";

constexpr const char* kPqUsage = R"(Usage:
    age-plugin-pq -identity [-o OUTPUT] [INPUT]

Options:
    -identity              Print each post-quantum identity (AGE-SECRET-KEY-PQ-1...)
                           of INPUT, or of standard input, in its plugin form
                           (AGE-PLUGIN-PQ-1...).
    -o, --output OUTPUT    Write to OUTPUT, a new file (mode 0600) that must not exist.
    -version               Print the version.

age-plugin-pq gives age clients without them age 1.3's hybrid post-quantum keys
(ML-KEM-768 + X25519): placed on PATH, it encrypts to age1pq1... recipients as
they are, and decrypts with identities converted by -identity. Files made with
either form of an identity open with the other.

This is pcrypt under age-plugin-pq's name (pcrypt(1), AGE-KEYGEN AND AGE-INSPECT).
An age client runs it as `age-plugin-pq --age-plugin=STATE-MACHINE`.)";

constexpr std::size_t kMaxPassphraseBytes = std::size_t{1} << 20;

[[noreturn]] void refuse(const std::string& message) {
  throw CliError(PCRYPT_E_BAD_ARGUMENT, message);
}

// A work factor variable's value, 1 to 30 (age's range); `fallback` when unset.
unsigned work_factor_from(const char* variable, unsigned fallback) {
  const std::string text = batchpass_variable(variable);
  if (text.empty()) return fallback;
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size())
    refuse(std::string("invalid ") + variable + ": '" + text + "' is not a whole number");
  if (value < 1 || value > 30) refuse(std::string(variable) + " must be between 1 and 30");
  return static_cast<unsigned>(value);
}

SecretBytes passphrase_from_fd(const std::string& text) {
  int fd = -1;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), fd);
  if (ec != std::errc() || end != text.data() + text.size() || fd < 0)
    refuse("invalid AGE_PASSPHRASE_FD: '" + text + "' is not a file descriptor number");
  SecretBytes buffer(kMaxPassphraseBytes + 1);
  std::size_t got = 0;
  while (got < buffer.size()) {
    const ssize_t n = ::read(fd, buffer.data() + got, buffer.size() - got);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      const int saved = errno;
      ::close(fd);
      refuse("cannot read the passphrase from file descriptor " + text + ": " + std::strerror(saved));
    }
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (got > kMaxPassphraseBytes) refuse("the passphrase from file descriptor " + text + " is over 1 MiB");
  while (got > 0 && (buffer.data()[got - 1] == '\n' || buffer.data()[got - 1] == '\r')) --got;
  return SecretBytes(buffer.span().first(got));
}

// The passphrase, from exactly one of the two variables; asked for when an identity comes.
SecretBytes batchpass_passphrase() {
  const std::string direct = batchpass_variable("AGE_PASSPHRASE");
  const std::string fd = batchpass_variable("AGE_PASSPHRASE_FD");
  if (!direct.empty() && !fd.empty()) refuse("AGE_PASSPHRASE and AGE_PASSPHRASE_FD are mutually exclusive");
  if (direct.empty() && fd.empty()) refuse("AGE_PASSPHRASE or AGE_PASSPHRASE_FD must be set");
  SecretBytes passphrase = direct.empty() ? passphrase_from_fd(fd) : SecretBytes::copy_of(direct);
  if (passphrase.size() == 0) refuse("the passphrase is empty");
  return passphrase;
}

// The plugin's side of the exchange on standard input and output.
int serve(const AgeHelperPlugin& plugin, const char* name, const std::string& state_machine) {
  try {
    return serve_age_plugin(plugin, state_machine, STDIN_FILENO, STDOUT_FILENO);
  } catch (const Error& e) {
    report_age_error(name, e.what());
    // age's plugin framework: 4 for a state machine it does not run, 1 for a broken exchange.
    return e.kind() == ErrorKind::usage ? 4 : 1;
  }
}

// Run by hand (no --age-plugin): the usage and exit 1, as nothing was asked that this program does.
int by_hand(const char* usage) {
  std::fprintf(stderr, "%s\n", usage);
  return 1;
}

}  // namespace

int run_age_plugin_batchpass(int argc, char** argv) {
  std::string state_machine;
  GoFlags flags;
  flags.add_string("age-plugin", &state_machine);
  const GoFlags::Outcome parsed = flags.parse(argc, argv);
  if (const std::optional<int> code = usage_exit_code(parsed, kBatchpassUsage)) return *code;
  if (state_machine.empty() || !parsed.arguments.empty()) return by_hand(kBatchpassUsage);
  AgeHelperPlugin plugin;
  plugin.name = "batchpass";
  plugin.passphrase_for_encrypting = [] {
    SecretBytes passphrase = batchpass_passphrase();
    return AgePluginPassphrase{std::move(passphrase), work_factor_from("AGE_PASSPHRASE_WORK_FACTOR", 18)};
  };
  plugin.passphrase_for_decrypting = [] {
    SecretBytes passphrase = batchpass_passphrase();
    return AgePluginPassphrase{std::move(passphrase), work_factor_from("AGE_PASSPHRASE_MAX_WORK_FACTOR", 22)};
  };
  return serve(plugin, "age-plugin-batchpass", state_machine);
}

int run_age_plugin_pq(int argc, char** argv) {
  constexpr const char* kName = "age-plugin-pq";
  std::string state_machine, output;
  bool version = false, identity = false;
  GoFlags flags;
  flags.add_string("age-plugin", &state_machine);
  flags.add_bool("version", &version);
  flags.add_bool("identity", &identity);
  flags.add_string("o", &output);
  flags.add_string("output", &output);
  const GoFlags::Outcome parsed = flags.parse(argc, argv);
  if (const std::optional<int> code = usage_exit_code(parsed, kPqUsage)) return *code;
  if (version) return print_age_version();
  if (!state_machine.empty()) {
    AgeHelperPlugin plugin;
    plugin.name = "pq";
    return serve(plugin, kName, state_machine);
  }
  if (!identity) return by_hand(kPqUsage);
  try {
    const std::vector<std::string>& args = parsed.arguments;
    if (args.size() > 1) throw AgeToolError{"too many arguments"};
    const std::string input = args.empty() ? std::string("-") : args[0];
    if (!output.empty()) {
      struct stat st {};
      if (::lstat(output.c_str(), &st) == 0)
        throw AgeToolError{"failed to open output file \"" + output + "\": " + go_open_error(output, EEXIST)};
    }
    std::string text;
    {
      const Input in = open_input(input);
      std::uint8_t buffer[1 << 14];
      for (std::size_t n; (n = in.reader->read(buffer, sizeof buffer)) > 0;)
        text.append(reinterpret_cast<const char*>(buffer), n);
    }
    std::vector<std::string> identities;
    try {
      identities = age_pq_plugin_identities(text, input == "-" ? "standard input" : input);
    } catch (const Error& e) {
      throw AgeToolError{std::string("failed to convert identities: ") + e.what()};
    }
    if (identities.empty()) throw AgeToolError{"no identities found in the input"};
    std::string lines;
    for (std::string& line : identities) {
      lines += line + "\n";
      std::fill(line.begin(), line.end(), '\0');
    }
    // A secret key: a new file of mode 0600, written whole or not at all (open_output), or standard output.
    const std::unique_ptr<io::Writer> out = open_output(output.empty() ? std::string("-") : output, false);
    out->write(reinterpret_cast<const std::uint8_t*>(lines.data()), lines.size());
    out->commit();
    std::fill(lines.begin(), lines.end(), '\0');
    return 0;
  } catch (const AgeToolError& e) {
    return report_age_error(kName, e.message);
  } catch (const Error& e) {
    return report_age_error(kName, e.what());
  } catch (const io::IoError& e) {
    return report_age_error(kName, e.what());
  }
}

}  // namespace pcrypt::app
