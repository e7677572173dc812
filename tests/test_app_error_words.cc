// The library speaks its own words and the CLI its flags (app/error_words.h), chosen by code and fields:
// representative failing calls of the public API give errors and hints that name no command-line flag nor
// `pcrypt` command; every library hint that names the API (a parameter such as key_files) has the CLI's own
// hint for its code, in flags (so no API word reaches a person at a shell, and a new such hint without CLI
// words fails here); and the CLI's hints carry the failure's data (the work factor, what a misplaced file is,
// the types a file opens with).
#include <catch2/catch.hpp>

#include <pcrypt/pcrypt.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <optional>
#include <regex>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "app/error_words.h"
#include "tests/source_dir.h"

namespace {

using pcrypt::app::cli_hint;
using pcrypt::app::CliPersonality;

std::string vector_path(const std::string& name) {
  return std::string(pcrypt::test::source_dir()) + "/tests/vectors/" + name;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Scratch {
  std::string dir;
  Scratch() {
    char name[] = "/tmp/pcrypt-error-words-XXXXXX";
    dir = ::mkdtemp(name);
  }
  ~Scratch() { std::system(("rm -rf '" + dir + "'").c_str()); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  std::string write(const std::string& name, const std::string& text) const {
    std::string path = dir + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  std::string write(const std::string& name, const std::vector<std::uint8_t>& bytes) const {
    std::string path = dir + "/" + name;
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return path;
  }
};

// The library error a call throws.
template <typename Fn>
pcrypt::Error failure(Fn fn) {
  try {
    fn();
  } catch (const pcrypt::Error& e) {
    return e;
  }
  FAIL("no pcrypt::Error was thrown");
  return pcrypt::Error(PCRYPT_E_INTERNAL, "none");
}

// Whether `text` has a command-line flag or names a `pcrypt` command. Other programs' commands the library
// may suggest (ssh-keygen's, age-keygen's) are not ours.
bool names_cli_flag(std::string text) {
  text = std::regex_replace(text, std::regex("(ssh-keygen|age-keygen)[^;)\n]*"), "");
  static const std::regex flag(R"((^|[\s(/'"`])--?[A-Za-z])");
  static const std::regex command(R"(['`]pcrypt |pcrypt (keygen|info|recipient|decrypt|encrypt)\b)");
  return std::regex_search(text, flag) || std::regex_search(text, command);
}

// Whether `text` names a parameter or type of the API ("a key file (key_files)", "aes_engines() lists",
// "Format::age"), as the library's hints do for its callers.
bool names_api(const std::string& text) {
  static const std::regex api(R"(\b[a-z]+_[a-z_]+\b|Format::|\(passphrase\))");
  return std::regex_search(text, api);
}

std::string words(const pcrypt::Error& e) {
  return std::string(e.what()) + "\n" + e.hint();
}

std::vector<std::uint8_t> encrypted(const pcrypt::Recipients& to, pcrypt::Format format) {
  static const std::vector<std::uint8_t> plain(1000, 'x');
  pcrypt::EncryptOptions options;
  options.format = format;
  options.argon2id_memory_bytes = 1 << 20;
  options.argon2id_passes = 1;
  std::vector<std::uint8_t> out;
  pcrypt::encrypt(pcrypt::Source::memory(plain), pcrypt::Sink::memory(out), to, options);
  return out;
}

pcrypt::Recipients to_recipients(std::vector<std::string> recipients) {
  pcrypt::Recipients to;
  to.recipients = std::move(recipients);
  return to;
}

// Opens `file` with `by` (cheap Argon2id allowed) and rekeys it with `request` into memory.
void rekey(const std::vector<std::uint8_t>& file, pcrypt::Credentials by,
           const pcrypt::RekeyRequest& request) {
  by.max_argon2id_memory_bytes = 2 << 20;
  by.max_argon2id_passes = 1;
  pcrypt::File opened = pcrypt::File::open(pcrypt::Source::memory(file));
  opened.unlock(by);
  std::vector<std::uint8_t> out;
  opened.rekey(request, pcrypt::Sink::memory(out));
}

void unlock(const std::vector<std::uint8_t>& file, const pcrypt::Credentials& by) {
  pcrypt::File opened = pcrypt::File::open(pcrypt::Source::memory(file));
  opened.unlock(by);
}

// The errors of representative failing calls.
std::vector<pcrypt::Error> library_failures(const Scratch& scratch) {
  std::vector<pcrypt::Error> out;
  const pcrypt::NewIdentity a = pcrypt::generate_identity();
  const pcrypt::NewIdentity b = pcrypt::generate_identity();
  const pcrypt::NewIdentity pq = pcrypt::generate_identity(true);
  const std::string key = scratch.write("a.key", pcrypt::generate_key_file());
  const std::string other_key = scratch.write("other.key", pcrypt::generate_key_file());
  const std::string a_identity = scratch.write("a.txt", a.file_text);
  const std::string ssh_ed25519 = vector_path("files/ssh_ed25519.key");
  const std::string ssh_rsa = vector_path("files/ssh_rsa.key");
  const std::string ed25519_recipient = pcrypt::recipients_of(read_text(ssh_ed25519)).at(0);
  const std::string rsa_recipient = pcrypt::recipients_of(read_text(ssh_rsa)).at(0);
  pcrypt::Credentials by_a;
  by_a.identities = {a.file_text};
  pcrypt::Credentials by_key;
  by_key.key_files = {key};

  // Limits an opened file may ask for.
  pcrypt::Recipients passphrase;
  passphrase.passphrase = "correct horse";
  const std::vector<std::uint8_t> age_passphrase = encrypted(passphrase, pcrypt::Format::age);
  out.push_back(failure([&] {
    pcrypt::Credentials by;
    by.passphrase = [] { return std::optional<std::string>("correct horse"); };
    by.max_scrypt_log2 = 10;
    unlock(age_passphrase, by);
  }));
  const std::vector<std::uint8_t> pcrypt_passphrase = encrypted(passphrase, pcrypt::Format::pcrypt);
  out.push_back(failure([&] {
    pcrypt::Credentials by;
    by.passphrase = [] { return std::optional<std::string>("correct horse"); };
    by.max_argon2id_memory_bytes = 512 * 1024;
    unlock(pcrypt_passphrase, by);
  }));
  // What a new file can be made with.
  out.push_back(failure([] {
    pcrypt::Recipients key_file;
    key_file.key_files = {"k.key"};
    pcrypt::check_recipients(key_file, pcrypt::Format::age);
  }));
  out.push_back(failure([] {
    pcrypt::Recipients passphrase_beside;
    passphrase_beside.recipients = {"age1..."};
    passphrase_beside.passphrase = "p";
    pcrypt::check_recipients(passphrase_beside, pcrypt::Format::age);
  }));
  std::vector<std::string> many;
  many.reserve(256);
  for (int i = 0; i < 256; ++i) many.push_back(pcrypt::generate_identity().recipient);
  out.push_back(failure([&] { encrypted(to_recipients(many), pcrypt::Format::pcrypt); }));
  out.push_back(failure([] { pcrypt::Session session("no-such-engine"); }));
  // What opens a file.
  const std::vector<std::uint8_t> age_to_a = encrypted(to_recipients({a.recipient}), pcrypt::Format::age);
  out.push_back(failure([&] {
    pcrypt::Credentials by;
    by.identities = {b.file_text};
    unlock(age_to_a, by);
  }));
  const std::vector<std::uint8_t> age_to_pq = encrypted(to_recipients({pq.recipient}), pcrypt::Format::age);
  out.push_back(failure([&] {
    pcrypt::Credentials by;
    by.identities = {b.file_text};
    unlock(age_to_pq, by);
  }));
  pcrypt::Recipients four_kinds = to_recipients({a.recipient, ed25519_recipient});
  four_kinds.key_files = {key};
  four_kinds.passphrase = "correct horse";
  const std::vector<std::uint8_t> pcrypt_four = encrypted(four_kinds, pcrypt::Format::pcrypt);
  out.push_back(failure([&] {
    pcrypt::Credentials by;
    by.identities = {pq.file_text};
    unlock(pcrypt_four, by);
  }));
  // (post-quantum and classical recipients cannot share a file)
  const std::vector<std::uint8_t> pcrypt_pq =
      encrypted(to_recipients({pq.recipient}), pcrypt::Format::pcrypt);
  out.push_back(failure([&] { unlock(pcrypt_pq, by_key); }));
  const std::vector<std::uint8_t> pcrypt_rsa =
      encrypted(to_recipients({rsa_recipient}), pcrypt::Format::pcrypt);
  out.push_back(failure([&] { unlock(pcrypt_rsa, by_key); }));
  // Key, identity and recipient files.
  out.push_back(failure([&] { pcrypt::Keys().add_key_file(scratch.dir + "/missing.key", true); }));
  out.push_back(failure([&] { pcrypt::Keys().add_key_file(scratch.dir + "/missing.key", false); }));
  out.push_back(failure([&] { pcrypt::Keys().add_identity_file(scratch.dir + "/missing.txt"); }));
  const std::string pcrypt_file = scratch.write("file.pcrypt", pcrypt_four);
  out.push_back(failure([&] { pcrypt::Keys().add_key_file(pcrypt_file); }));
  out.push_back(failure([&] { pcrypt::Keys().add_identity_file(key); }));
  out.push_back(failure([&] { pcrypt::Keys().add_key_file(scratch.write("garbage.key", "not a key\n")); }));
  out.push_back(failure([&] { pcrypt::File::open(pcrypt::Source::path(key)); }));
  out.push_back(failure([&] { pcrypt::File::open(pcrypt::Source::path(a_identity)); }));
  out.push_back(failure([&] { pcrypt::File::open(pcrypt::Source::path(ssh_rsa)); }));
  out.push_back(
      failure([&] { pcrypt::File::open(pcrypt::Source::path(vector_path("recipients/ssh_rsa.key.pub"))); }));
  const std::string recipient_file = scratch.write("recipients.txt", a.recipient + "\n");
  out.push_back(failure([&] { pcrypt::File::open(pcrypt::Source::path(recipient_file)); }));
  out.push_back(failure([&] { pcrypt::Keys().add_key_file(scratch.write("file.age", age_to_a)); }));
  out.push_back(failure([&] { pcrypt::Keys().add_identity_file(recipient_file); }));
  std::string secret_line = a.file_text.substr(a.file_text.find("AGE-SECRET"));
  secret_line.erase(secret_line.find_last_not_of('\n') + 1);
  out.push_back(failure([&] { pcrypt::Keys().add_recipients({secret_line}, {}); }));
  // Rekey.
  out.push_back(failure([&] { rekey(age_to_a, by_a, {}); }));
  const std::vector<std::uint8_t> pcrypt_to_a =
      encrypted(to_recipients({a.recipient}), pcrypt::Format::pcrypt);
  out.push_back(failure([&] { rekey(pcrypt_to_a, by_a, {}); }));
  out.push_back(failure([&] {
    pcrypt::RekeyRequest request;
    request.remove_slots = {1};
    rekey(pcrypt_to_a, by_a, request);
  }));
  out.push_back(failure([&] {
    pcrypt::RekeyRequest request;
    request.add_recipients.assign(many.begin(), many.begin() + 255);
    rekey(pcrypt_to_a, by_a, request);
  }));
  out.push_back(failure([&] {
    pcrypt::Keys five;
    for (const char* p : {"one", "two", "three", "four", "five"}) five.add_passphrase(p);
    pcrypt::RekeyRequest request;
    request.add_keys = &five;
    rekey(pcrypt_to_a, by_a, request);
  }));
  out.push_back(failure([&] {
    pcrypt::RekeyRequest request;
    request.remove_slots = {5};
    rekey(pcrypt_to_a, by_a, request);
  }));
  out.push_back(failure([&] {
    pcrypt::RekeyRequest request;
    request.remove_identity_files = {other_key};
    rekey(pcrypt_four, by_key, request);
  }));
  out.push_back(failure([&] {
    pcrypt::RekeyRequest request;
    request.remove_recipients = {a.recipient};
    rekey(pcrypt_four, by_key, request);
  }));
  out.push_back(failure([&] {
    pcrypt::RekeyRequest request;
    request.remove_recipients = {rsa_recipient};
    rekey(pcrypt_four, by_key, request);
  }));
  out.push_back(failure([&] {
    pcrypt::RekeyRequest request;
    request.add_recipients = {ed25519_recipient};
    rekey(pcrypt_four, by_key, request);
  }));
  out.push_back(failure([&] {
    pcrypt::RekeyRequest request;
    request.add_key_files = {key};
    rekey(pcrypt_four, by_a, request);
  }));
  out.push_back(failure([&] {
    pcrypt::RekeyRequest request;
    request.add_key_files = {key};
    request.new_file_key = true;
    rekey(pcrypt_four, by_key, request);
  }));
  // C2SP chunked encryption: one raw key and its context, and nothing else.
  const pcrypt::SecretBytes raw16 = pcrypt::generate_raw_key(16);
  const std::string context = "app v1";
  const std::span<const std::uint8_t> context_bytes(reinterpret_cast<const std::uint8_t*>(context.data()),
                                                    context.size());
  pcrypt::Keys raw;
  raw.add_raw_key(raw16, context_bytes);
  pcrypt::Recipients to_raw;
  to_raw.keys = &raw;
  const std::vector<std::uint8_t> cobblestone = encrypted(to_raw, pcrypt::Format::cobblestone_128);
  const auto open_cobblestone = [&](const pcrypt::Credentials& by) {
    pcrypt::File opened =
        pcrypt::File::open(pcrypt::Source::memory(cobblestone), pcrypt::Format::cobblestone_128);
    opened.unlock(by);
  };
  out.push_back(failure([&] {
    pcrypt::Keys no_context;
    no_context.add_raw_key(raw16);
    pcrypt::Credentials by;
    by.keys = &no_context;
    open_cobblestone(by);
  }));
  out.push_back(failure([&] { open_cobblestone(by_key); }));
  out.push_back(failure([&] { open_cobblestone(pcrypt::Credentials{}); }));
  out.push_back(failure([&] {
    pcrypt::Keys long_key;
    long_key.add_raw_key(pcrypt::generate_raw_key(32));
    pcrypt::Recipients to;
    to.keys = &long_key;
    encrypted(to, pcrypt::Format::cobblestone_128);
  }));
  out.push_back(failure([&] {
    pcrypt::Recipients to;
    to.key_files = {key};
    encrypted(to, pcrypt::Format::cobblestone_256);
  }));
  return out;
}

}  // namespace

std::optional<pcrypt::Error> with_code(const std::vector<pcrypt::Error>& failures, pcrypt::ErrorCode code) {
  for (const pcrypt::Error& e : failures)
    if (e.code() == code) return e;
  return std::nullopt;
}

TEST_CASE(
    "error words: library errors name no CLI flag; every hint in the API's words has the CLI's by code") {
  const Scratch scratch;
  const std::vector<pcrypt::Error> failures = library_failures(scratch);
  std::size_t api_worded = 0;
  for (const pcrypt::Error& e : failures) {
    CAPTURE(words(e), e.code_name());
    CHECK_FALSE(names_cli_flag(words(e)));
    const std::optional<std::string> cli = cli_hint(e);
    if (names_api(e.hint())) {
      ++api_worded;
      REQUIRE(cli.has_value());
    }
    // What the CLI says instead names its flags or commands, and no API parameter.
    if (cli) {
      CAPTURE(*cli);
      CHECK(names_cli_flag(*cli));
      CHECK_FALSE(names_api(*cli));
      CHECK(*cli != e.hint());
    }
    CHECK_FALSE(names_api(pcrypt::app::hint_for(e)));
  }
  CHECK(api_worded >= 15);  // the provocations below do reach the API-worded hints
}

TEST_CASE("error words: hints carry the failure's data, for each personality") {
  const Scratch scratch;
  const std::vector<pcrypt::Error> failures = library_failures(scratch);
  const auto code = [&](pcrypt::ErrorCode c) {
    const std::optional<pcrypt::Error> e = with_code(failures, c);
    REQUIRE(e.has_value());
    return *e;
  };
  // The work factor asked, from its field; age has no --max-work-factor, so its personality keeps the
  // library's advice.
  const pcrypt::Error scrypt = code(PCRYPT_E_EXCESSIVE_SCRYPT_WORK);
  const std::string asked = std::to_string(scrypt.field(PCRYPT_FIELD_SCRYPT_LOG2_ASKED).value());
  CHECK(cli_hint(scrypt) == "if you trust this file, raise the limit with --max-work-factor " + asked);
  CHECK_FALSE(cli_hint(scrypt, CliPersonality::age).has_value());
  CHECK(cli_hint(code(PCRYPT_E_EXCESSIVE_ARGON2ID_WORK))->find("--max-kdf-memory") != std::string::npos);
  // The slot types a pcrypt file opens with, cheapest first.
  // (an age file's post-quantum stanzas ask for the identity's own prefix instead).
  std::size_t opens_with = 0;
  for (const pcrypt::Error& e : failures) {
    if (e.code() != PCRYPT_E_UNHANDLED_STANZA) continue;
    const bool age = e.field(PCRYPT_FIELD_FILE_KIND) == PCRYPT_FILE_AGE_ENCRYPTED;
    const bool pq = std::find(e.stanza_types().begin(), e.stanza_types().end(), "mlkem768x25519") !=
                    e.stanza_types().end();
    CAPTURE(words(e));
    if (age && pq) {
      CHECK(cli_hint(e)->find("AGE-SECRET-KEY-PQ-1... identity with -i") != std::string::npos);
    } else {
      CHECK(cli_hint(e)->starts_with("it opens with "));
      ++opens_with;
    }
  }
  CHECK(opens_with >= 2);
  // A file given in the wrong place: what it is decides the advice.
  for (const pcrypt::Error& e : failures) {
    const std::optional<std::uint64_t> is = e.field(PCRYPT_FIELD_FILE_KIND);
    const bool misplaced = e.code() == PCRYPT_E_NOT_A_KEY_FILE || e.code() == PCRYPT_E_NOT_AN_IDENTITY ||
                           e.code() == PCRYPT_E_NOT_A_RECIPIENT || e.code() == PCRYPT_E_NOT_ENCRYPTED;
    if (!is || !misplaced) continue;  // (other codes' kind is the file a call is about: an age file's rekey)
    CAPTURE(words(e));
    const std::string hint = cli_hint(e).value_or("");
    switch (*is) {
      case PCRYPT_FILE_KEY_FILE:
        CHECK(hint.find("-k") != std::string::npos);
        break;
      case PCRYPT_FILE_IDENTITY:
      case PCRYPT_FILE_SSH_PRIVATE_KEY:
        CHECK((hint.find("-i") != std::string::npos || hint.find("public key") != std::string::npos));
        break;
      case PCRYPT_FILE_RECIPIENT:
      case PCRYPT_FILE_SSH_PUBLIC_KEY:
        CHECK((hint.find("-r") != std::string::npos ||
               hint.find("-i needs the secret key") != std::string::npos));
        break;
      case PCRYPT_FILE_AGE_ENCRYPTED:
      case PCRYPT_FILE_PCRYPT_ENCRYPTED:
        CHECK(hint.find("FILE to") != std::string::npos);
        break;
      default:
        FAIL("unknown file kind " << *is);
    }
  }
  // A missing key file: the path, from its field, in the keygen command.
  bool missing_key = false;
  for (const pcrypt::Error& e : failures)
    if (e.code() == PCRYPT_E_IO && e.field(PCRYPT_FIELD_FILE_ROLE) == PCRYPT_FILE_KEY_FILE) {
      CHECK(cli_hint(e) == "create one with 'pcrypt keygen -o " + scratch.dir + "/missing.key'");
      missing_key = true;
    }
  CHECK(missing_key);
  // Rekey: the file's format (its kind field) decides slot or stanza.
  for (const pcrypt::Error& e : failures)
    if (e.code() == PCRYPT_E_NOTHING_TO_CHANGE) {
      const bool age = e.field(PCRYPT_FIELD_FILE_KIND) == PCRYPT_FILE_AGE_ENCRYPTED;
      CHECK(
          cli_hint(e)->starts_with(age ? "add a stanza with --add-recipient" : "add a slot with --add-key"));
    }
  CHECK(cli_hint(code(PCRYPT_E_ANONYMOUS_RECIPIENT)) ==
        "give the identity instead: --remove-key IDENTITY-FILE");
  CHECK(cli_hint(code(PCRYPT_E_ALREADY_IN_FILE)).has_value());
  CHECK(cli_hint(code(PCRYPT_E_TOO_MANY_SLOTS))->find("--format age") != std::string::npos);
  CHECK(cli_hint(code(PCRYPT_E_TOO_MANY_PASSPHRASES))->find("--remove-slot") != std::string::npos);
  CHECK(cli_hint(code(PCRYPT_E_NOT_IN_FILE))->find("pcrypt info") != std::string::npos);
  CHECK(cli_hint(code(PCRYPT_E_UNKNOWN_ENGINE)) == "'pcrypt --version' lists the engines this CPU supports");
  // A Cobblestone file opened with the wrong context: the CLI names its two options.
  const std::optional<std::string> commitment = cli_hint(code(PCRYPT_E_COMMITMENT_MISMATCH));
  REQUIRE(commitment.has_value());
  CHECK(commitment->find("--raw-key") != std::string::npos);
  CHECK(commitment->find("--context") != std::string::npos);
  // An age file no identity opens: age's personality in its own words, by the stanza types.
  for (const pcrypt::Error& e : failures)
    if (e.code() == PCRYPT_E_NO_IDENTITY_MATCHED || e.code() == PCRYPT_E_UNHANDLED_STANZA) {
      const bool pq = std::find(e.stanza_types().begin(), e.stanza_types().end(), "mlkem768x25519") !=
                      e.stanza_types().end();
      if (std::find(e.stanza_types().begin(), e.stanza_types().end(), "key-file") != e.stanza_types().end())
        continue;  // a pcrypt file's
      CHECK(cli_hint(e, CliPersonality::age) ==
            (pq ? "give the matching AGE-SECRET-KEY-PQ-1... identity with -i"
                : "check the -i identity file, or -p for a passphrase-encrypted file"));
    }
}

TEST_CASE(
    "error words: a failure the CLI found itself keeps its hint; others without CLI words keep theirs") {
  const pcrypt::app::CliError own(PCRYPT_E_NO_CREDENTIAL, "no key given", "decrypt it with -k KEYFILE");
  CHECK(pcrypt::app::hint_for(own) == "decrypt it with -k KEYFILE");
  const pcrypt::Error library(PCRYPT_E_UNKNOWN_ENGINE, "unknown engine", "aes_engines() lists them");
  CHECK(pcrypt::app::hint_for(library) == "'pcrypt --version' lists the engines this CPU supports");
  const pcrypt::Error plain(PCRYPT_E_TRUNCATED, "truncated payload", "the file was cut short");
  CHECK_FALSE(cli_hint(plain).has_value());
  CHECK(pcrypt::app::hint_for(plain) == "the file was cut short");
}
