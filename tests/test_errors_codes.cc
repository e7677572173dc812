// Every error code of <pcrypt/errors.h> provoked through the public C++ API (the C API's twin is
// tests/lib/test_error_codes.c): the code, its name and its kind, and the fields that come with it. A code
// no test here can provoke is listed in kNotProvoked with the reason, so a new code without a test fails.
// Through <pcrypt/pcrypt.h> alone, as a program using the installed library.
#include <pcrypt/pcrypt.h>

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace pcrypt::test {
const char* source_dir();  // tests/source_dir.cc
}

// The out-of-memory case asks scrypt for a petabyte: under AddressSanitizer (CI's build-fuzz) that allocation
// must fail as it does without it, malloc returning NULL, not abort the test. Read by ASan at startup; inert
// in other builds.
extern "C" const char*
__asan_default_options() {  // NOLINT(bugprone-reserved-identifier,readability-identifier-naming)
  return "allocator_may_return_null=1";
}

namespace {

using Bytes = std::vector<std::uint8_t>;

struct Scratch {
  std::string dir;
  Scratch() {
    char name[] = "/tmp/pcrypt-error-codes-XXXXXX";
    dir = ::mkdtemp(name);
  }
  ~Scratch() { std::system(("rm -rf '" + dir + "'").c_str()); }
  std::string path(const std::string& name) const { return dir + "/" + name; }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path(name), std::ios::binary) << text;
    return path(name);
  }
  std::string write(const std::string& name, const Bytes& bytes) const {
    return write(name, std::string(bytes.begin(), bytes.end()));
  }
};

template <typename Fn>
pcrypt::Error error_of(Fn fn) {
  try {
    fn();
  } catch (const pcrypt::Error& e) {
    return e;
  }
  FAIL("no pcrypt::Error was thrown");
  return pcrypt::Error(PCRYPT_E_NONE, "");
}

Bytes encrypt_to(pcrypt::Format format, const Bytes& plain, const pcrypt::Recipients& to, bool armor = false,
                 std::uint64_t argon2id_memory = 0) {
  Bytes out;
  pcrypt::EncryptOptions options;
  options.format = format;
  options.armor = armor;
  options.chunk_size = 64 * 1024;
  options.argon2id_memory_bytes = argon2id_memory;
  options.argon2id_passes = argon2id_memory == 0 ? 0 : 1;
  pcrypt::encrypt(pcrypt::Source::memory(plain), pcrypt::Sink::memory(out), to, options);
  return out;
}

pcrypt::Recipients to_recipient(const std::string& recipient) {
  pcrypt::Recipients to;
  to.recipients = {recipient};
  return to;
}

pcrypt::Recipients with_passphrase(const std::string& passphrase) {
  pcrypt::Recipients to;
  to.passphrase = passphrase;
  return to;
}

pcrypt::File opened(const Bytes& bytes) {
  return pcrypt::File::open(pcrypt::Source::memory(bytes));
}

pcrypt::Credentials by_identity(const std::string& identity_text) {
  pcrypt::Credentials by;
  by.identities = {identity_text};
  return by;
}

pcrypt::Credentials by_passphrase(const std::string& passphrase) {
  pcrypt::Credentials by;
  by.passphrase = [passphrase] { return std::optional<std::string>(passphrase); };
  return by;
}

// The test plugin of tests/cli/plugins (python3), found through the plugin host; `mode` its PCTEST_MODE.
void use_test_plugin(const std::string& mode) {
  pcrypt::PluginHost host;
  host.search_path = std::string(pcrypt::test::source_dir()) + "/tests/cli/plugins";
  host.environment = {"PATH=/usr/bin:/bin", "PCTEST_MODE=" + mode};
  pcrypt::set_plugin_host(host);
}

std::pair<std::string, std::string> test_plugin_keys() {  // identity, recipient
  const std::string command =
      std::string(pcrypt::test::source_dir()) + "/tests/cli/plugins/age-plugin-pctest --keygen";
  FILE* out = ::popen(command.c_str(), "r");
  REQUIRE(out != nullptr);
  char line[512] = {};
  const bool read = std::fgets(line, sizeof line, out) != nullptr;
  ::pclose(out);
  REQUIRE(read);
  std::string text(line);
  const std::size_t space = text.find(' ');
  REQUIRE(space != std::string::npos);
  std::string recipient = text.substr(space + 1);
  while (!recipient.empty() && (recipient.back() == '\n' || recipient.back() == '\r')) recipient.pop_back();
  return {text.substr(0, space), recipient};
}

// Codes no test provokes, and why: each is a failure of the machine, not of a call or a file.
const std::map<int, const char*> kNotProvoked = {
    {PCRYPT_E_CRYPTO_BACKEND, "OpenSSL or libsodium failing an operation on valid input"},
    {PCRYPT_E_RESOURCES, "the system refusing threads"},
    {PCRYPT_E_INTERNAL, "a bug in libpcrypt"},
    {PCRYPT_E_RECORD_LIMIT,
     "record 2^64 - 1: no file reaches it (tests/test_format_records.cc seals it in core)"},
};

// Codes the C++ API cannot give, only the C API's callbacks and handles (tests/lib/test_error_codes.c).
const std::set<int> kCOnly = {PCRYPT_E_CALLBACK};

}  // namespace

TEST_CASE("error codes: every code has a distinct stable name, and its hundreds are its kind") {
  std::set<std::string> names;
  int codes = 0;
#define PCRYPT_TEST_CODE_(name, number, description)                      \
  {                                                                       \
    ++codes;                                                              \
    CHECK(std::string(pcrypt::error_code_name(name)) == #name);           \
    CHECK(names.insert(pcrypt::error_code_name(name)).second);            \
    CHECK(static_cast<int>(pcrypt::kind_of(name)) == (number) / 100 - 1); \
    CHECK(std::strlen(description) > 0);                                  \
  }
  PCRYPT_ERROR_CODES(PCRYPT_TEST_CODE_)
#undef PCRYPT_TEST_CODE_
  CHECK(codes == static_cast<int>(names.size()));
  CHECK(std::string(pcrypt::error_code_name(PCRYPT_E_NONE)) == "PCRYPT_E_NONE");
  CHECK(std::string(pcrypt::error_code_name(static_cast<pcrypt::ErrorCode>(99))).empty());
  // The numbers are a promise (docs/LIBRARY.md, "Stability"): a few of them, spelled out.
  CHECK(PCRYPT_E_IO == 100);
  CHECK(PCRYPT_E_NULL_ARGUMENT == 201);
  CHECK(PCRYPT_E_WRONG_PASSPHRASE == 300);
  CHECK(PCRYPT_E_NO_IDENTITY_MATCHED == 301);
  CHECK(PCRYPT_E_EXCESSIVE_SCRYPT_WORK == 305);
  CHECK(PCRYPT_E_NOT_ENCRYPTED == 400);
  CHECK(PCRYPT_E_DAMAGED_RECORD == 500);
  CHECK(PCRYPT_E_TRUNCATED == 501);
}

TEST_CASE("error codes: each failure the C++ API reports gives its own code and fields") {
  Scratch scratch;
  const Bytes plain(200'000, 0x5a);
  const pcrypt::NewIdentity alice = pcrypt::generate_identity();
  const pcrypt::NewIdentity bob = pcrypt::generate_identity();
  const pcrypt::NewIdentity post_quantum = pcrypt::generate_identity(true);
  const Bytes age_file = encrypt_to(pcrypt::Format::age, plain, to_recipient(alice.recipient));
  const Bytes pcrypt_file = encrypt_to(pcrypt::Format::pcrypt, plain, to_recipient(alice.recipient));
  const Bytes armored = encrypt_to(pcrypt::Format::age, plain, to_recipient(alice.recipient), true);
  const Bytes scrypt_file = encrypt_to(pcrypt::Format::age, Bytes(10, 1), with_passphrase("right"));
  const Bytes argon2id_file =
      encrypt_to(pcrypt::Format::pcrypt, Bytes(10, 1), with_passphrase("right"), false, 64 * 1024);

  std::map<int, std::function<void()>> provoke;
  std::map<int, std::function<void(const pcrypt::Error&)>> also;  // the fields a code must carry

  // io
  provoke[PCRYPT_E_IO] = [&] { pcrypt::File::open(pcrypt::Source::path(scratch.path("missing"))); };
  also[PCRYPT_E_IO] = [](const pcrypt::Error& e) { CHECK(e.error_number() == ENOENT); };
  provoke[PCRYPT_E_OUTPUT_EXISTS] = [&] {
    const std::string exists = scratch.write("exists", "x");
    pcrypt::File file = opened(age_file);
    file.unlock(by_identity(alice.file_text));
    file.decrypt(pcrypt::Sink::path(exists));
  };
  also[PCRYPT_E_OUTPUT_EXISTS] = [](const pcrypt::Error& e) { CHECK(e.error_number() == EEXIST); };
  provoke[PCRYPT_E_OUT_OF_MEMORY] = [&] {
    // scrypt at 2^40 needs 1 PiB: the allocation fails at once (the stanza's MAC is never reached).
    std::string text(scrypt_file.begin(), scrypt_file.end());
    const std::size_t at = text.find("scrypt ");
    const std::size_t end = text.find('\n', at);
    const std::size_t space = text.rfind(' ', end);
    text.replace(space + 1, end - space - 1, "40");
    pcrypt::Credentials by = by_passphrase("right");
    by.max_scrypt_log2 = 40;
    opened(Bytes(text.begin(), text.end())).unlock(by);
  };
  provoke[PCRYPT_E_INPUT_CHANGED] = [&] {
    // Plaintext to encrypt from a source that says it holds more than it gives: the input shrank while it
    // was read. (An encrypted source that does the same is a file cut short: PCRYPT_E_TRUNCATED.)
    const Bytes& bytes = plain;
    pcrypt::Source shrinking = pcrypt::Source::callback(
        bytes.size() + 100'000, [&bytes](std::uint64_t offset, std::span<std::uint8_t> out) -> std::size_t {
          if (offset >= bytes.size()) return 0;
          const std::size_t n =
              static_cast<std::size_t>(std::min<std::uint64_t>(out.size(), bytes.size() - offset));
          std::memcpy(out.data(), bytes.data() + offset, n);
          return n;
        });
    Bytes out;
    pcrypt::EncryptOptions options;
    options.format = pcrypt::Format::age;
    pcrypt::encrypt(std::move(shrinking), pcrypt::Sink::memory(out), to_recipient(alice.recipient), options);
  };
  // Named copies, not a structured binding: lambdas capture these, which clang 14 refuses for bindings.
  const std::pair<std::string, std::string> plugin_keys = test_plugin_keys();
  const std::string& plugin_identity = plugin_keys.first;
  const std::string& plugin_recipient = plugin_keys.second;
  provoke[PCRYPT_E_PLUGIN] = [&] {
    use_test_plugin("garbage");
    encrypt_to(pcrypt::Format::age, plain, to_recipient(plugin_recipient));
  };

  // usage
  provoke[PCRYPT_E_BAD_ARGUMENT] = [&] {
    pcrypt::EncryptOptions options;
    options.format = pcrypt::Format::pcrypt;
    options.chunk_size = 1;
    Bytes out;
    pcrypt::encrypt(pcrypt::Source::memory(plain), pcrypt::Sink::memory(out), to_recipient(alice.recipient),
                    options);
  };
  provoke[PCRYPT_E_NULL_ARGUMENT] = [] { pcrypt::Source::callback(10, nullptr); };
  provoke[PCRYPT_E_MOVED_FROM] = [&] {
    pcrypt::File file = opened(age_file);
    pcrypt::File other = std::move(file);
    (void)file.describe();  // NOLINT(bugprone-use-after-move): the point
  };
  provoke[PCRYPT_E_WRONG_ORDER] = [&] {
    std::vector<std::uint8_t> part(10);
    (void)opened(age_file).read_at(0, part);
  };
  provoke[PCRYPT_E_NO_CREDENTIAL] = [&] { encrypt_to(pcrypt::Format::age, plain, pcrypt::Recipients{}); };
  provoke[PCRYPT_E_EMPTY_PASSPHRASE] = [] { pcrypt::Keys().add_passphrase(std::string()); };
  provoke[PCRYPT_E_PASSPHRASE_REQUIRED] = [&] {
    // An identity file encrypted with a passphrase, and no way to ask for it.
    const Bytes protected_identity =
        encrypt_to(pcrypt::Format::age, Bytes(alice.file_text.begin(), alice.file_text.end()),
                   with_passphrase("secret"));
    pcrypt::Credentials by;
    by.identity_files = {scratch.write("protected.age", protected_identity)};
    opened(age_file).unlock(by);
  };
  provoke[PCRYPT_E_CREDENTIAL_MIX] = [&] {
    pcrypt::Recipients to = to_recipient(alice.recipient);
    to.passphrase = "also";
    encrypt_to(pcrypt::Format::age, plain, to);
  };
  provoke[PCRYPT_E_INCOMPATIBLE_RECIPIENTS] = [&] {
    pcrypt::Recipients to = to_recipient(alice.recipient);
    to.recipients.push_back(post_quantum.recipient);
    encrypt_to(pcrypt::Format::age, plain, to);
  };
  provoke[PCRYPT_E_FORMAT_OPTION] = [&] {
    encrypt_to(pcrypt::Format::pcrypt, plain, to_recipient(alice.recipient), true);
  };
  provoke[PCRYPT_E_NOT_A_RECIPIENT] = [] { pcrypt::check_recipient("not a recipient"); };
  provoke[PCRYPT_E_NOT_AN_IDENTITY] = [&] {
    pcrypt::Credentials by;
    by.identity_files = {scratch.write("public.txt", alice.recipient + "\n")};
    opened(age_file).unlock(by);
  };
  also[PCRYPT_E_NOT_AN_IDENTITY] = [](const pcrypt::Error& e) { CHECK(!std::string(e.what()).empty()); };
  provoke[PCRYPT_E_NOT_A_KEY_FILE] = [&] {
    pcrypt::Credentials by;
    by.key_files = {scratch.write("not-a-key", std::string("hello\n"))};
    opened(pcrypt_file).unlock(by);
  };
  provoke[PCRYPT_E_PLUGIN_NOT_FOUND] = [&] {
    use_test_plugin("");
    pcrypt::Keys keys;
    keys.add_plugin_recipient("nosuchplugin");
    pcrypt::Recipients to;
    to.keys = &keys;
    encrypt_to(pcrypt::Format::age, plain, to);
  };
  provoke[PCRYPT_E_PLUGIN_REFUSED] = [&] {
    use_test_plugin("error");
    encrypt_to(pcrypt::Format::age, plain, to_recipient(plugin_recipient));
  };
  provoke[PCRYPT_E_UNKNOWN_ENGINE] = [] { pcrypt::Session session("no-such-engine"); };
  provoke[PCRYPT_E_NOTHING_TO_CHANGE] = [&] {
    pcrypt::File file = opened(age_file);
    file.unlock(by_identity(alice.file_text));
    Bytes out;
    file.rekey(pcrypt::RekeyRequest{}, pcrypt::Sink::memory(out));
  };
  provoke[PCRYPT_E_LAST_SLOT] = [&] {
    pcrypt::File file = opened(age_file);
    file.unlock(by_identity(alice.file_text));
    pcrypt::RekeyRequest request;
    request.remove_slots = {1};
    Bytes out;
    file.rekey(request, pcrypt::Sink::memory(out));
  };
  provoke[PCRYPT_E_BAD_SLOT] = [&] {
    pcrypt::File file = opened(age_file);
    file.unlock(by_identity(alice.file_text));
    pcrypt::RekeyRequest request;
    request.remove_slots = {5};
    request.add_recipients = {bob.recipient};
    Bytes out;
    file.rekey(request, pcrypt::Sink::memory(out));
  };
  // A rekey's additions and removals the file cannot take (pcrypt's format, opened by alice).
  const auto rekey_pcrypt = [&](const pcrypt::RekeyRequest& request) {
    pcrypt::File file = opened(pcrypt_file);
    file.unlock(by_identity(alice.file_text));
    Bytes out;
    file.rekey(request, pcrypt::Sink::memory(out));
  };
  provoke[PCRYPT_E_ANONYMOUS_RECIPIENT] = [&] {
    pcrypt::RekeyRequest request;
    request.remove_recipients = {bob.recipient};  // alice's own would be found by her identity
    rekey_pcrypt(request);
  };
  provoke[PCRYPT_E_NOT_IN_FILE] = [&] {
    pcrypt::RekeyRequest request;
    request.remove_identity_files = {scratch.write("bob.txt", bob.file_text)};
    rekey_pcrypt(request);
  };
  provoke[PCRYPT_E_ALREADY_IN_FILE] = [&] {
    pcrypt::RekeyRequest request;
    request.add_recipients = {alice.recipient};
    rekey_pcrypt(request);
  };
  also[PCRYPT_E_ALREADY_IN_FILE] = [](const pcrypt::Error& e) { CHECK(e.field(PCRYPT_FIELD_SLOT) == 1u); };
  provoke[PCRYPT_E_TOO_MANY_PASSPHRASES] = [&] {
    pcrypt::Keys five;
    for (const char* p : {"one", "two", "three", "four", "five"}) five.add_passphrase(p);
    pcrypt::RekeyRequest request;
    request.add_keys = &five;
    rekey_pcrypt(request);
  };
  also[PCRYPT_E_TOO_MANY_PASSPHRASES] = [](const pcrypt::Error& e) {
    CHECK(e.field(PCRYPT_FIELD_SLOT) == 5u);
  };
  provoke[PCRYPT_E_TOO_MANY_SLOTS] = [&] {
    pcrypt::RekeyRequest request;
    for (int i = 0; i < 255; ++i) request.add_recipients.push_back(pcrypt::generate_identity().recipient);
    rekey_pcrypt(request);
  };
  also[PCRYPT_E_TOO_MANY_SLOTS] = [](const pcrypt::Error& e) { CHECK(e.field(PCRYPT_FIELD_SLOT) == 256u); };
  provoke[PCRYPT_E_PAST_THE_END] = [&] {
    pcrypt::File file = opened(pcrypt_file);
    file.unlock(by_identity(alice.file_text));
    Bytes out;
    file.read_range(plain.size() + 10, 5, pcrypt::Sink::memory(out));
  };
  also[PCRYPT_E_PAST_THE_END] = [&](const pcrypt::Error& e) {
    CHECK(e.field(PCRYPT_FIELD_PLAINTEXT_SIZE) == plain.size());
    CHECK(e.field(PCRYPT_FIELD_OFFSET) == plain.size() + 10);
  };
  provoke[PCRYPT_E_NOT_SEEKABLE] = [&] {
    pcrypt::File file = opened(armored);
    file.unlock(by_identity(alice.file_text));
    std::vector<std::uint8_t> part(10);
    (void)file.read_at(0, part);
  };

  // wrong credential
  provoke[PCRYPT_E_WRONG_PASSPHRASE] = [&] { opened(scrypt_file).unlock(by_passphrase("wrong")); };
  also[PCRYPT_E_WRONG_PASSPHRASE] = [](const pcrypt::Error& e) {
    CHECK(e.stanza_types() == std::vector<std::string>{"scrypt"});
  };
  provoke[PCRYPT_E_NO_IDENTITY_MATCHED] = [&] { opened(age_file).unlock(by_identity(bob.file_text)); };
  also[PCRYPT_E_NO_IDENTITY_MATCHED] = [](const pcrypt::Error& e) {
    CHECK(e.stanza_types() == std::vector<std::string>{"X25519"});
  };
  provoke[PCRYPT_E_UNHANDLED_STANZA] = [&] { opened(age_file).unlock(by_identity(post_quantum.file_text)); };
  also[PCRYPT_E_UNHANDLED_STANZA] = [](const pcrypt::Error& e) {
    CHECK(e.stanza_types() == std::vector<std::string>{"X25519"});
  };
  provoke[PCRYPT_E_WRONG_CREDENTIAL] = [&] { opened(pcrypt_file).unlock(by_identity(bob.file_text)); };
  provoke[PCRYPT_E_HEADER_MAC] = [&] {
    std::string text(age_file.begin(), age_file.end());
    const std::size_t mac = text.find("--- ") + 4;
    text[mac] = text[mac] == 'A' ? 'B' : 'A';
    opened(Bytes(text.begin(), text.end())).unlock(by_identity(alice.file_text));
  };
  provoke[PCRYPT_E_EXCESSIVE_SCRYPT_WORK] = [&] {
    pcrypt::Credentials by = by_passphrase("right");
    by.max_scrypt_log2 = 10;
    opened(scrypt_file).unlock(by);
  };
  also[PCRYPT_E_EXCESSIVE_SCRYPT_WORK] = [](const pcrypt::Error& e) {
    CHECK(e.field(PCRYPT_FIELD_SCRYPT_LOG2_ASKED) > 10u);
    CHECK(e.field(PCRYPT_FIELD_SCRYPT_LOG2_ALLOWED) == 10u);
  };
  provoke[PCRYPT_E_EXCESSIVE_ARGON2ID_WORK] = [&] {
    pcrypt::Credentials by = by_passphrase("right");
    by.max_argon2id_memory_bytes = 32 * 1024;
    opened(argon2id_file).unlock(by);
  };
  also[PCRYPT_E_EXCESSIVE_ARGON2ID_WORK] = [](const pcrypt::Error& e) {
    CHECK(e.field(PCRYPT_FIELD_ARGON2ID_MEMORY_ASKED) == 64u * 1024);
    CHECK(e.field(PCRYPT_FIELD_ARGON2ID_MEMORY_ALLOWED) == 32u * 1024);
    CHECK(e.field(PCRYPT_FIELD_ARGON2ID_PASSES_ASKED) == 1u);
    CHECK(e.field(PCRYPT_FIELD_SLOT) == 1u);
  };
  provoke[PCRYPT_E_WRONG_KEY_PASSPHRASE] = [&] {
    // An OpenSSH key protected by a passphrase (ssh-keygen, where installed), answered wrongly.
    const std::string key = scratch.path("ssh_key");
    if (std::system(("ssh-keygen -q -t ed25519 -N right -C '' -f " + key + " >/dev/null 2>&1").c_str()) !=
        0) {
      WARN("ssh-keygen is not installed: PCRYPT_E_WRONG_KEY_PASSPHRASE untested");
      throw pcrypt::Error(PCRYPT_E_WRONG_KEY_PASSPHRASE, "untested");
    }
    std::ifstream pub_in(key + ".pub");
    std::string pub;
    std::getline(pub_in, pub);
    const Bytes file = encrypt_to(pcrypt::Format::age, plain, to_recipient(pub));
    pcrypt::Credentials by;
    by.identity_files = {key};
    by.ssh_key_passphrase = [](const std::string&) { return std::optional<std::string>("wrong"); };
    opened(file).unlock(by);
  };
  provoke[PCRYPT_E_PLUGIN_UNWRAP_FAILED] = [&] {
    use_test_plugin("");
    const Bytes file = encrypt_to(pcrypt::Format::age, plain, to_recipient(plugin_recipient));
    use_test_plugin("garbage");
    opened(file).unlock(by_identity(plugin_identity));
  };

  provoke[PCRYPT_E_COMMITMENT_MISMATCH] = [&] {
    // A Cobblestone-128 file opened with its key but another context.
    const pcrypt::SecretBytes key = pcrypt::generate_raw_key(16);
    pcrypt::Keys encrypting;
    encrypting.add_raw_key(key, Bytes{'a'});
    pcrypt::Recipients to;
    to.keys = &encrypting;
    pcrypt::EncryptOptions options;
    options.format = pcrypt::Format::cobblestone_128;
    Bytes file;
    pcrypt::encrypt(pcrypt::Source::memory(plain), pcrypt::Sink::memory(file), to, options);
    pcrypt::Keys decrypting;
    decrypting.add_raw_key(key, Bytes{'b'});
    pcrypt::Credentials by;
    by.keys = &decrypting;
    pcrypt::File::open(pcrypt::Source::memory(file), pcrypt::Format::cobblestone_128).unlock(by);
  };

  // damaged header
  provoke[PCRYPT_E_NOT_ENCRYPTED] = [] { opened(Bytes{'h', 'e', 'l', 'l', 'o', '\n'}); };
  provoke[PCRYPT_E_EMPTY_INPUT] = [] { opened(Bytes{}); };
  provoke[PCRYPT_E_MALFORMED_HEADER] = [] {
    const std::string text = "age-encryption.org/v1\n-> X25519\n--- AAAA\n";
    opened(Bytes(text.begin(), text.end()));
  };
  provoke[PCRYPT_E_UNSUPPORTED_VERSION] = [] {
    const std::string text = "age-encryption.org/v2\n";
    opened(Bytes(text.begin(), text.end()));
  };
  provoke[PCRYPT_E_TRUNCATED_HEADER] = [&] { opened(Bytes(pcrypt_file.begin(), pcrypt_file.begin() + 20)); };
  provoke[PCRYPT_E_MALFORMED_ARMOR] = [] {
    const std::string text = "-----BEGIN AGE ENCRYPTED FILE-----\n!!!!\n-----END AGE ENCRYPTED FILE-----\n";
    opened(Bytes(text.begin(), text.end()));
  };

  // damaged payload
  provoke[PCRYPT_E_DAMAGED_RECORD] = [&] {
    Bytes damaged = age_file;
    damaged[damaged.size() - 70'000] ^= 1;
    pcrypt::File file = opened(damaged);
    file.unlock(by_identity(alice.file_text));
    file.verify();
  };
  also[PCRYPT_E_DAMAGED_RECORD] = [](const pcrypt::Error& e) {
    REQUIRE(e.field(PCRYPT_FIELD_RECORD).has_value());
    CHECK(*e.field(PCRYPT_FIELD_RECORD) == 1u);  // 70,000 bytes from the end: records 3 and 2 are 68,960
    CHECK(e.field(PCRYPT_FIELD_OFFSET).has_value());
  };
  provoke[PCRYPT_E_TRUNCATED] = [&] {
    // Cut inside the final record's tag (a cut elsewhere in a record fails its authentication instead).
    const std::size_t final_record = plain.size() % (64 * 1024) + 16;
    // The cut copy outlives the file: a memory source is not copied.
    const Bytes cut(age_file.begin(), age_file.end() - static_cast<std::ptrdiff_t>(final_record - 5));
    pcrypt::File file = opened(cut);
    file.unlock(by_identity(alice.file_text));
    file.verify();
  };

  int checked = 0;
#define PCRYPT_TEST_CODE_(name, number, description)                \
  if (kNotProvoked.count(name) == 0 && kCOnly.count(name) == 0) {   \
    INFO(#name);                                                    \
    REQUIRE(provoke.count(name) == 1);                              \
    const pcrypt::Error e = error_of(provoke[name]);                \
    CHECK(std::string(e.code_name()) == #name);                     \
    CHECK(e.kind() == pcrypt::kind_of(name));                       \
    CHECK(!std::string(e.what()).empty());                          \
    if (also.count(name) == 1 && e.code() == (name)) also[name](e); \
    ++checked;                                                      \
  }
  PCRYPT_ERROR_CODES(PCRYPT_TEST_CODE_)
#undef PCRYPT_TEST_CODE_
  CHECK(checked == static_cast<int>(provoke.size()));
  pcrypt::set_plugin_host(pcrypt::PluginHost{});
}

TEST_CASE("error codes: the seven failures of issue 41 are seven codes with seven names") {
  const Bytes plain(1000, 1);
  const pcrypt::NewIdentity alice = pcrypt::generate_identity();
  const pcrypt::NewIdentity bob = pcrypt::generate_identity();
  const Bytes file = encrypt_to(pcrypt::Format::age, plain, to_recipient(alice.recipient));
  const Bytes scrypt_file = encrypt_to(pcrypt::Format::age, plain, with_passphrase("right"));
  std::vector<pcrypt::Error> errors;
  errors.push_back(error_of([&] { opened(scrypt_file).unlock(by_passphrase("wrong")); }));
  errors.push_back(error_of([&] { opened(file).unlock(by_identity(bob.file_text)); }));
  errors.push_back(error_of([&] {
    Bytes damaged = file;
    damaged.back() ^= 1;
    pcrypt::File f = opened(damaged);
    f.unlock(by_identity(alice.file_text));
    f.verify();
  }));
  errors.push_back(error_of([&] {
    const Bytes cut(file.begin(), file.end() - 1011);  // 5 of its one record's 1016 bytes; outlives f
    pcrypt::File f = opened(cut);
    f.unlock(by_identity(alice.file_text));
    f.verify();
  }));
  errors.push_back(error_of([&] {
    pcrypt::Credentials by = by_passphrase("right");
    by.max_scrypt_log2 = 1;
    opened(scrypt_file).unlock(by);
  }));
  errors.push_back(error_of([] { opened(Bytes{'n', 'o', 't'}); }));
  errors.push_back(error_of([] { pcrypt::Sink::callback(nullptr); }));
  std::set<int> codes;
  std::set<std::string> names;
  for (const pcrypt::Error& e : errors) {
    codes.insert(e.code());
    names.insert(e.code_name());
  }
  CHECK(codes == std::set<int>{PCRYPT_E_WRONG_PASSPHRASE, PCRYPT_E_NO_IDENTITY_MATCHED,
                               PCRYPT_E_DAMAGED_RECORD, PCRYPT_E_TRUNCATED, PCRYPT_E_EXCESSIVE_SCRYPT_WORK,
                               PCRYPT_E_NOT_ENCRYPTED, PCRYPT_E_NULL_ARGUMENT});
  CHECK(names.size() == 7);
}
