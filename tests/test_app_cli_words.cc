// The library speaks its own words and the CLI its flags (app/cli_words.h): representative failing calls of
// the public API give errors and hints that name no command-line flag nor `pcrypt` command; every library
// phrase of the CLI's table is one the library really produces (so the table cannot rot); and the table puts
// them back in the flags the command line has (tests/cli/ assert those in the printed hints).
#include <catch2/catch.hpp>

#include <pcrypt/pcrypt.h>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "app/cli_words.h"
#include "tests/source_dir.h"

namespace {

using pcrypt::app::cli_phrases;
using pcrypt::app::CliPersonality;
using pcrypt::app::CliPhrase;
using pcrypt::app::in_cli_words;

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
    char name[] = "/tmp/pcrypt-cli-words-XXXXXX";
    dir = ::mkdtemp(name);
  }
  ~Scratch() { std::system(("rm -rf '" + dir + "'").c_str()); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  std::string write(const std::string& name, const std::string& text) const {
    const std::string path = dir + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  std::string write(const std::string& name, const std::vector<std::uint8_t>& bytes) const {
    const std::string path = dir + "/" + name;
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return path;
  }
};

// A library error as "message\nhint".
template <typename Fn>
std::string failure(Fn fn) {
  try {
    fn();
  } catch (const pcrypt::Error& e) {
    return std::string(e.what()) + "\n" + e.hint();
  }
  FAIL("no pcrypt::Error was thrown");
  return {};
}

// Whether `text` has a command-line flag or names a `pcrypt` command. Other programs' commands the library
// may suggest (ssh-keygen's, age-keygen's) are not ours.
bool names_cli_flag(std::string text) {
  text = std::regex_replace(text, std::regex("(ssh-keygen|age-keygen)[^;)\n]*"), "");
  static const std::regex flag(R"((^|[\s(/'"`])--?[A-Za-z])");
  static const std::regex command(R"(['`]pcrypt |pcrypt (keygen|info|recipient|decrypt|encrypt)\b)");
  return std::regex_search(text, flag) || std::regex_search(text, command);
}

// Whether `text` has the library phrase (its `{}` matching any text).
bool has_phrase(const std::string& text, std::string_view phrase) {
  const std::size_t hole = phrase.find("{}");
  if (hole == std::string_view::npos) return text.find(phrase) != std::string::npos;
  const std::size_t head = text.find(phrase.substr(0, hole));
  if (head == std::string::npos) return false;
  return text.find(phrase.substr(hole + 2), head + hole) != std::string::npos;
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

// `phrase` with its `{}` (if any) filled with "X". (Built by concatenation: GCC 12 misreports
// std::string::replace here as an overlapping copy, -Wrestrict.)
std::string filled(std::string_view phrase) {
  const std::size_t hole = phrase.find("{}");
  if (hole == std::string_view::npos) return std::string(phrase);
  return std::string(phrase.substr(0, hole)) + "X" + std::string(phrase.substr(hole + 2));
}

// The errors of representative failing calls, each "message\nhint".
std::vector<std::string> library_failures(const Scratch& scratch) {
  std::vector<std::string> out;
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
  out.push_back(failure([] { pcrypt::check_recipients_for(pcrypt::Format::age, 1, 0, false); }));
  out.push_back(failure([] { pcrypt::check_recipients_for(pcrypt::Format::age, 0, 1, true); }));
  std::vector<std::string> many;
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
  out.push_back(failure([&] { pcrypt::Keys().add_recipients({}, {"-"}, true); }));
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
  return out;
}

}  // namespace

TEST_CASE("cli words: library errors name no CLI flag, and every library phrase of the CLI's table is real") {
  const Scratch scratch;
  const std::vector<std::string> failures = library_failures(scratch);
  for (const std::string& text : failures) {
    CAPTURE(text);
    CHECK_FALSE(names_cli_flag(text));
  }
  for (const CliPhrase& phrase : cli_phrases()) {
    CAPTURE(phrase.library);
    CHECK(std::any_of(failures.begin(), failures.end(),
                      [&](const std::string& text) { return has_phrase(text, phrase.library); }));
    // The table's own words: the library's name no flag; the CLI's differ from them.
    CHECK_FALSE(names_cli_flag(std::string(phrase.library)));
    CHECK(phrase.pcrypt != phrase.library);
  }
}

TEST_CASE("cli words: the command line puts its flags back, the age personality only those age has") {
  const std::string scrypt = "if you trust this file, raise the scrypt work-factor limit (log2 N) to 23";
  CHECK(in_cli_words(scrypt) == "if you trust this file, raise the limit with --max-work-factor 23");
  CHECK(in_cli_words(scrypt, CliPersonality::age) == scrypt);  // age has no --max-work-factor
  CHECK(in_cli_words("create a new key file at /tmp/x y.key") ==
        "create one with 'pcrypt keygen -o /tmp/x y.key'");
  CHECK(in_cli_words("create a new key file") == "create a key file with `pcrypt keygen`");
  CHECK(
      in_cli_words(
          "it opens with a key file (key_files) or the SSH ed25519 key with tag 0a1b2c3d (identity_files)") ==
      "it opens with -k KEYFILE or -i SSH-KEY (the ed25519 key with tag 0a1b2c3d)");
  CHECK(in_cli_words("check the identity files, or give a passphrase for a passphrase-encrypted file",
                     CliPersonality::age) ==
        "check the -i identity file, or -p for a passphrase-encrypted file");
  // Text without a library phrase, the CLI's own, is unchanged.
  CHECK(in_cli_words("no key given: use -k KEYFILE, -r RECIPIENT") ==
        "no key given: use -k KEYFILE, -r RECIPIENT");
  // Every phrase, wherever it stands, becomes the CLI's words, which name a flag or a pcrypt command.
  for (const CliPhrase& phrase : cli_phrases()) {
    CAPTURE(phrase.library);
    const std::string library = filled(phrase.library), pcrypt = filled(phrase.pcrypt);
    CHECK(in_cli_words("(" + library) == "(" + pcrypt);
    CHECK(names_cli_flag(pcrypt));
  }
}
