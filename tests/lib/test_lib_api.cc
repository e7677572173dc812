// libpcrypt through its public header only (this file includes nothing of pcrypt's but <pcrypt/pcrypt.h>, and
// its target links only the shared library): both formats, every source and sink kind, ranges from 8 threads
// on one opened file, every error kind, rekey.
#include <pcrypt/encryptor.h>
#include <pcrypt/pcrypt.h>
#include <pcrypt/reader.h>

#include <catch2/catch.hpp>

#include "public_api_support.h"

#include <fcntl.h>
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <vector>

namespace {

using pcrypt_test::encrypted;
using pcrypt_test::random_bytes;

// A scratch directory removed at the end.
struct Scratch {
  std::string dir;
  Scratch() {
    char name[] = "/tmp/pcrypt-lib-test-XXXXXX";
    dir = ::mkdtemp(name);
  }
  ~Scratch() { std::system(("rm -rf '" + dir + "'").c_str()); }
  std::string path(const std::string& name) const { return dir + "/" + name; }
  void write(const std::string& name, const std::string& text) const { std::ofstream(path(name)) << text; }
};

template <typename Fn>
pcrypt::Error error_of(Fn fn) {
  try {
    fn();
  } catch (const pcrypt::Error& e) {
    return e;
  }
  FAIL("no pcrypt::Error was thrown");
  return pcrypt::Error(PCRYPT_E_IO, "");
}

}  // namespace

TEST_CASE("libpcrypt: both formats round-trip through every source and sink") {
  Scratch scratch;
  const pcrypt::NewIdentity id = pcrypt::generate_identity();
  scratch.write("id.txt", id.file_text);
  const std::vector<std::uint8_t> plain = random_bytes(300'001, 1);
  for (const pcrypt::Format format : {pcrypt::Format::age, pcrypt::Format::pcrypt}) {
    INFO((format == pcrypt::Format::age ? "age" : "pcrypt"));
    const std::vector<std::uint8_t> file = encrypted(format, plain, id.recipient);
    {
      std::ofstream(scratch.path("f"), std::ios::binary)
          .write(reinterpret_cast<const char*>(file.data()), static_cast<std::streamsize>(file.size()));
    }
    pcrypt::Credentials by;
    by.identity_files = {scratch.path("id.txt")};

    // Path source, path sink (appears only complete).
    pcrypt::File from_path = pcrypt::File::open(pcrypt::Source::path(scratch.path("f")));
    CHECK(from_path.describe().format == format);
    CHECK(from_path.describe().slots == 1);
    from_path.unlock(by);
    const std::string out = scratch.path(format == pcrypt::Format::age ? "out.age.plain" : "out.plain");
    CHECK(from_path.decrypt(pcrypt::Sink::path(out)).plaintext_bytes == plain.size());
    std::ifstream back(out, std::ios::binary);
    const std::vector<std::uint8_t> got((std::istreambuf_iterator<char>(back)),
                                        std::istreambuf_iterator<char>());
    CHECK(got == plain);

    // Memory source, callback sink; identity text instead of a file.
    pcrypt::File from_memory = pcrypt::File::open(pcrypt::Source::memory(file));
    pcrypt::Credentials by_text;
    by_text.identities = {id.file_text};
    from_memory.unlock(by_text);
    std::vector<std::uint8_t> pieces;
    from_memory.decrypt(pcrypt::Sink::callback(
        [&](std::span<const std::uint8_t> p) { pieces.insert(pieces.end(), p.begin(), p.end()); }));
    CHECK(pieces == plain);
    CHECK(from_memory.verify().plaintext_bytes == plain.size());
    CHECK(from_memory.plaintext_size() == plain.size());
    CHECK_FALSE(from_memory.info().empty());
  }
}

TEST_CASE("libpcrypt: read_at from 8 threads on one opened file, through a read-at callback source") {
  const pcrypt::NewIdentity id = pcrypt::generate_identity();
  const std::vector<std::uint8_t> plain = random_bytes(1'500'000, 2);
  for (const pcrypt::Format format : {pcrypt::Format::age, pcrypt::Format::pcrypt}) {
    INFO((format == pcrypt::Format::age ? "age" : "pcrypt"));
    const std::vector<std::uint8_t> file = encrypted(format, plain, id.recipient);
    std::atomic<std::uint64_t> calls{0};
    pcrypt::File opened = pcrypt::File::open(pcrypt::Source::callback(
        file.size(), [&](std::uint64_t offset, std::span<std::uint8_t> buffer) -> std::size_t {
          ++calls;
          if (offset >= file.size()) return 0;
          const std::size_t n = std::min<std::uint64_t>(buffer.size(), file.size() - offset);
          std::copy_n(file.begin() + static_cast<std::ptrdiff_t>(offset), n, buffer.begin());
          return n;
        }));
    pcrypt::Credentials by;
    by.identities = {id.file_text};
    opened.unlock(by);
    std::vector<int> ok(8, 0);
    std::vector<std::thread> threads;
    threads.reserve(8);
    for (int t = 0; t < 8; ++t)
      threads.emplace_back([&, t] {
        std::mt19937_64 rng(static_cast<unsigned>(t));
        int good = 1;
        for (int i = 0; i < 20; ++i) {
          const std::uint64_t offset = rng() % plain.size();
          std::vector<std::uint8_t> buf(static_cast<std::size_t>(rng() % 100'000));
          const std::size_t n = opened.read_at(offset, buf);
          const std::size_t want = std::min<std::uint64_t>(buf.size(), plain.size() - offset);
          good &= n == want && std::equal(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n),
                                          plain.begin() + static_cast<std::ptrdiff_t>(offset));
        }
        ok[static_cast<std::size_t>(t)] = good;
      });
    for (std::thread& th : threads) th.join();
    CHECK(std::count(ok.begin(), ok.end(), 1) == 8);
    CHECK(calls.load() > 0);
  }
}

TEST_CASE("libpcrypt: every error kind, with the CLI's exit code and words") {
  const pcrypt::NewIdentity id = pcrypt::generate_identity();
  const pcrypt::NewIdentity other = pcrypt::generate_identity();
  const std::vector<std::uint8_t> plain = random_bytes(200'000, 3);
  std::vector<std::uint8_t> file = encrypted(pcrypt::Format::age, plain, id.recipient);

  // damaged_header: not an encrypted file.
  const std::vector<std::uint8_t> text = {'h', 'e', 'l', 'l', 'o', '\n'};
  const pcrypt::Error not_encrypted = error_of([&] { pcrypt::File::open(pcrypt::Source::memory(text)); });
  CHECK(not_encrypted.kind() == pcrypt::ErrorKind::damaged_header);
  CHECK(not_encrypted.code() == PCRYPT_E_NOT_ENCRYPTED);

  // wrong_credential.
  pcrypt::File opened = pcrypt::File::open(pcrypt::Source::memory(file));
  pcrypt::Credentials wrong;
  wrong.identities = {other.file_text};
  const pcrypt::Error refused = error_of([&] { opened.unlock(wrong); });
  CHECK(refused.kind() == pcrypt::ErrorKind::wrong_credential);
  CHECK(refused.code() == PCRYPT_E_NO_IDENTITY_MATCHED);

  // usage: a read before unlock, and no credential at all.
  std::vector<std::uint8_t> buf(10);
  CHECK(error_of([&] { (void)opened.read_at(0, buf); }).kind() == pcrypt::ErrorKind::usage);
  CHECK(error_of([&] { opened.unlock(pcrypt::Credentials{}); }).kind() == pcrypt::ErrorKind::usage);
  // usage: what age forbids (a key file), said before anything is written.
  pcrypt::Recipients with_key;
  with_key.key_files = {"/nonexistent.key"};
  std::vector<std::uint8_t> nothing;
  CHECK(error_of([&] {
          pcrypt::encrypt(pcrypt::Source::memory(plain), pcrypt::Sink::memory(nothing), with_key, {});
        }).kind() != pcrypt::ErrorKind::damaged_payload);

  // damaged_payload: a flipped byte in a record (record 2 of 4: the final one, which authenticates the size,
  // is read by every range); the range that holds it fails, one elsewhere does not.
  file[file.size() - (plain.size() - 3 * 65536 + 16) - 100] ^= 1;
  pcrypt::File damaged = pcrypt::File::open(pcrypt::Source::memory(file));
  pcrypt::Credentials by;
  by.identities = {id.file_text};
  damaged.unlock(by);
  std::vector<std::uint8_t> tail(1000);
  const pcrypt::Error bad = error_of([&] { (void)damaged.read_at(3 * 65536 - 500, tail); });
  CHECK(bad.kind() == pcrypt::ErrorKind::damaged_payload);
  CHECK(bad.code() == PCRYPT_E_DAMAGED_RECORD);
  std::vector<std::uint8_t> head(1000);
  CHECK(damaged.read_at(0, head) == head.size());
  CHECK(std::equal(head.begin(), head.end(), plain.begin()));
  CHECK(error_of([&] { damaged.verify(); }).kind() == pcrypt::ErrorKind::damaged_payload);

  // io: a source path that does not exist.
  CHECK(error_of([] { pcrypt::Source::path("/nonexistent/pcrypt-lib-test"); }).kind() ==
        pcrypt::ErrorKind::io);
}

TEST_CASE("libpcrypt: rekey gives the same answers on both formats") {
  const pcrypt::NewIdentity a = pcrypt::generate_identity();
  const pcrypt::NewIdentity b = pcrypt::generate_identity(true);
  const pcrypt::NewIdentity c = pcrypt::generate_identity(true);
  const std::vector<std::uint8_t> plain = random_bytes(70'000, 4);
  for (const pcrypt::Format format : {pcrypt::Format::age, pcrypt::Format::pcrypt}) {
    INFO((format == pcrypt::Format::age ? "age" : "pcrypt"));
    std::vector<std::uint8_t> file;
    pcrypt::Recipients to;
    to.recipients = {b.recipient, c.recipient};
    pcrypt::EncryptOptions options;
    options.format = format;
    pcrypt::encrypt(pcrypt::Source::memory(plain), pcrypt::Sink::memory(file), to, options);

    pcrypt::File opened = pcrypt::File::open(pcrypt::Source::memory(file));
    pcrypt::Credentials by_b;
    by_b.identities = {b.file_text};
    opened.unlock(by_b);
    // c's slot is anonymous: only its own identity could find it.
    pcrypt::RekeyRequest remove_c;
    remove_c.remove_recipients = {c.recipient};
    std::vector<std::uint8_t> out;
    const pcrypt::Error anonymous = error_of([&] { opened.rekey(remove_c, pcrypt::Sink::memory(out)); });
    CHECK(anonymous.kind() == pcrypt::ErrorKind::usage);
    CHECK_THAT(anonymous.what(),
               Catch::Contains("post-quantum recipient") && Catch::Contains("are anonymous"));
    // b's own slot, found through b's identity, replaced by a new post-quantum recipient.
    const pcrypt::NewIdentity d = pcrypt::generate_identity(true);
    pcrypt::RekeyRequest swap;
    swap.remove_recipients = {b.recipient};
    swap.add_recipients = {d.recipient};
    std::vector<std::uint8_t> rekeyed;
    opened.rekey(swap, pcrypt::Sink::memory(rekeyed));
    pcrypt::File again = pcrypt::File::open(pcrypt::Source::memory(rekeyed));
    pcrypt::Credentials by_d;
    by_d.identities = {d.file_text};
    again.unlock(by_d);
    std::vector<std::uint8_t> back;
    again.decrypt(pcrypt::Sink::memory(back));
    CHECK(back == plain);
    pcrypt::File gone = pcrypt::File::open(pcrypt::Source::memory(rekeyed));
    CHECK(error_of([&] { gone.unlock(by_b); }).kind() == pcrypt::ErrorKind::wrong_credential);
  }
}

TEST_CASE("libpcrypt: keys and recipients") {
  const pcrypt::NewIdentity id = pcrypt::generate_identity();
  CHECK(id.recipient.rfind("age1", 0) == 0);
  CHECK(pcrypt::recipients_of(id.file_text) == std::vector<std::string>{id.recipient});
  CHECK_NOTHROW(pcrypt::check_recipient(id.recipient));
  CHECK(error_of([] { pcrypt::check_recipient("age1notarecipient"); }).kind() == pcrypt::ErrorKind::usage);
  CHECK(pcrypt::generate_key_file().find("PCRYPT-KEY-1:") != std::string::npos);
  CHECK(pcrypt::version() == PCRYPT_TEST_VERSION);
}

TEST_CASE("libpcrypt: what a command-line client needs: keys read once, a session, progress, ranges") {
  Scratch scratch;
  const std::string key_text = pcrypt::generate_key_file();
  scratch.write("a.key", key_text);
  scratch.write("same.key", key_text);
  const std::vector<std::uint8_t> plain = random_bytes(200'000, 5);

  // Two files of one run with one passphrase: one salt, one Argon2id run for both, and the session's
  // cache opens both with one more.
  pcrypt::Session session;
  CHECK_FALSE(session.engine().empty());
  CHECK(error_of([] { pcrypt::Session("no-such-engine"); }).kind() == pcrypt::ErrorKind::usage);
  pcrypt::Recipients to;
  to.key_files = {scratch.path("a.key")};
  to.passphrase = "correct horse";
  pcrypt::EncryptOptions options;
  options.format = pcrypt::Format::pcrypt;
  options.chunk_size = 4096;
  options.argon2id_memory_bytes = 64 * 1024;
  options.argon2id_passes = 1;
  options.session = &session;
  int headers = 0;
  std::uint64_t progressed = 0;
  options.header_written = [&] { ++headers; };
  options.progress = [&](std::uint64_t bytes) { progressed = bytes; };
  std::vector<std::vector<std::uint8_t>> files(2);
  for (std::vector<std::uint8_t>& file : files)
    pcrypt::encrypt(pcrypt::Source::memory(plain), pcrypt::Sink::memory(file), to, options);
  CHECK(headers == 2);
  CHECK(progressed == plain.size());
  CHECK(session.argon2id_runs() == 1);

  // Keys: one key file named twice (a copy) is held once; the second name says which one it is.
  pcrypt::Keys keys;
  const pcrypt::Keys::Added first = keys.add_key_file(scratch.path("a.key"));
  CHECK(first.added);
  CHECK(first.index == 0);
  const pcrypt::Keys::Added same = keys.add_key_file(scratch.path("same.key"));
  CHECK_FALSE(same.added);
  CHECK(same.index == 0);
  CHECK(keys.size() == 1);

  pcrypt::File opened = pcrypt::File::open(pcrypt::Source::memory(files[0]));
  CHECK(opened.describe().format == pcrypt::Format::pcrypt);  // whose slots the command line calls "slots"
  CHECK(opened.slots_opened_by(keys, {}) == std::vector<std::vector<std::string>>{{"slot 1 (key-file)"}});
  pcrypt::Credentials by;
  by.keys = &keys;
  by.session = &session;
  CHECK(opened.unlock(by) == "slot 1 (key-file)");
  pcrypt::RunOptions run;
  run.threads = 2;
  std::uint64_t done = 0;
  run.progress = [&](std::uint64_t bytes) { done = bytes; };
  std::vector<std::uint8_t> back;
  const pcrypt::Transfer t = opened.decrypt(pcrypt::Sink::memory(back), run);
  CHECK(back == plain);
  CHECK(done == plain.size());
  CHECK(t.chunks == (plain.size() + 4095) / 4096);
  CHECK(t.header_bytes + t.chunks * (4096 + 16) >= t.encrypted_bytes);

  // A passphrase asked only for a passphrase slot; the session's cache spares a second Argon2id run.
  pcrypt::File second = pcrypt::File::open(pcrypt::Source::memory(files[1]));
  pcrypt::Credentials by_passphrase;
  by_passphrase.passphrase = [] { return std::optional<std::string>("correct horse"); };
  by_passphrase.session = &session;
  CHECK(second.unlock(by_passphrase) == "slot 2 (passphrase)");
  CHECK(session.argon2id_runs() == 1);

  // A range into a sink, read in place from memory.
  std::vector<std::uint8_t> part;
  const pcrypt::RangeRead read = second.read_range(5000, 10'000, pcrypt::Sink::memory(part));
  CHECK(read.bytes == 10'000);
  CHECK(read.records == 3);
  CHECK(read.positional);
  CHECK(std::equal(part.begin(), part.end(), plain.begin() + 5000));
  CHECK(pcrypt::worker_threads(3) == 3);
  CHECK(pcrypt::worker_threads(0) >= 1);
}

TEST_CASE("libpcrypt: an unpublished file sink takes records in any order; io errors carry errno") {
  Scratch scratch;
  const pcrypt::NewIdentity id = pcrypt::generate_identity();
  const std::vector<std::uint8_t> plain = random_bytes(3'000'000, 6);
  const std::vector<std::uint8_t> file = encrypted(pcrypt::Format::pcrypt, plain, id.recipient);
  pcrypt::File opened = pcrypt::File::open(pcrypt::Source::memory(file));
  pcrypt::Credentials by;
  by.identities = {id.file_text};
  opened.unlock(by);
  const std::string path = scratch.path("out");
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
  REQUIRE(fd >= 0);
  pcrypt::RunOptions run;
  run.threads = 4;
  opened.decrypt(pcrypt::Sink::unpublished_file(fd), run);
  ::close(fd);
  std::ifstream back(path, std::ios::binary);
  CHECK(std::vector<std::uint8_t>((std::istreambuf_iterator<char>(back)), std::istreambuf_iterator<char>()) ==
        plain);

  // A pipe whose reader went away: the error says EPIPE, as the CLI needs to end quietly.
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  ::close(fds[0]);
  const auto old = std::signal(SIGPIPE, SIG_IGN);
  const pcrypt::Error gone = error_of([&] { opened.decrypt(pcrypt::Sink::fd(fds[1])); });
  std::signal(SIGPIPE, old);
  ::close(fds[1]);
  CHECK(gone.kind() == pcrypt::ErrorKind::io);
  CHECK(gone.error_number() == EPIPE);
}

TEST_CASE("libpcrypt: an armored age file rekeyed after unlock stays armored (its stream is read once)") {
  const pcrypt::NewIdentity id = pcrypt::generate_identity();
  const pcrypt::NewIdentity added = pcrypt::generate_identity();
  const std::vector<std::uint8_t> plain = random_bytes(100'000, 7);
  const std::vector<std::uint8_t> file = encrypted(pcrypt::Format::age, plain, id.recipient, true);
  pcrypt::File opened = pcrypt::File::open(pcrypt::Source::memory(file));
  pcrypt::Credentials by;
  by.identities = {id.file_text};
  opened.unlock(by);
  pcrypt::RekeyRequest add;
  add.add_recipients = {added.recipient};
  std::vector<std::uint8_t> rekeyed;
  const pcrypt::RekeyResult result = opened.rekey(add, pcrypt::Sink::memory(rekeyed), {});
  CHECK(result.slots_before == 1);
  CHECK(result.slots_after == 2);
  pcrypt::File again = pcrypt::File::open(pcrypt::Source::memory(rekeyed));
  CHECK(again.describe().armored);
  pcrypt::Credentials by_added;
  by_added.identities = {added.file_text};
  again.unlock(by_added);
  std::vector<std::uint8_t> back;
  again.decrypt(pcrypt::Sink::memory(back));
  CHECK(back == plain);
}

TEST_CASE("libpcrypt: sizes, limits, engines, recipients read once, as the CLI uses them") {
  Scratch scratch;
  // (Sizes in pcrypt's grammar are the command line's: tests/test_app_args.cc.)
  CHECK(pcrypt::limits::min_chunk_size == 4096);
  // The engines as data, the command line's table made of them (tests/test_aes_cpu.cc): the portable one
  // everywhere, exactly one default.
  const std::vector<pcrypt::AesEngine> engines = pcrypt::aes_engines();
  CHECK(std::any_of(engines.begin(), engines.end(),
                    [](const pcrypt::AesEngine& e) { return e.name == "portable" && e.supported; }));
  CHECK(pcrypt::default_engine_reason().rfind(pcrypt::Session().engine() + " (", 0) == 0);
  // age's payload cipher's backends, OpenSSL's among them on every CPU.
  const std::vector<std::string> backends = pcrypt::chacha20poly1305_backends();
  CHECK(std::find(backends.begin(), backends.end(), "openssl") != backends.end());
  CHECK(error_of([] { pcrypt::Session("no-such-engine"); }).kind() == pcrypt::ErrorKind::usage);

  // Recipients read once, a repeated one kept once; an identity file's recipients; age forbids a passphrase
  // beside recipients, before anything is read.
  const pcrypt::NewIdentity id = pcrypt::generate_identity();
  scratch.write("id.txt", id.file_text);
  scratch.write("recipients.txt", "# a comment\n" + id.recipient + "\n");
  pcrypt::Keys to_keys;
  to_keys.add_recipients({id.recipient}, {scratch.path("recipients.txt")}, {scratch.path("id.txt")});
  CHECK(to_keys.size() == 1);
  pcrypt::Keys identities;
  CHECK(identities.add_identity_file(scratch.path("id.txt")) == 1);
  CHECK(identities.recipients() == std::vector<std::string>{id.recipient});
  // Judged by what is named, nothing read: the files named need not exist.
  pcrypt::Recipients passphrase_beside;
  passphrase_beside.recipient_files = {scratch.path("missing.txt")};
  passphrase_beside.passphrase = "";
  CHECK(error_of([&] { pcrypt::check_recipients(passphrase_beside, pcrypt::Format::age); }).kind() ==
        pcrypt::ErrorKind::usage);
  passphrase_beside.key_files = {scratch.path("missing.key")};
  CHECK_NOTHROW(pcrypt::check_recipients(passphrase_beside, pcrypt::Format::pcrypt));
  // An identity's recipient, to oneself: the file opens with the identity.
  pcrypt::Recipients to_self;
  to_self.identity_files = {scratch.path("id.txt")};
  std::vector<std::uint8_t> for_self;
  const std::vector<std::uint8_t> self_plain = random_bytes(100, 3);
  pcrypt::encrypt(pcrypt::Source::memory(self_plain), pcrypt::Sink::memory(for_self), to_self, {});
  pcrypt::File self_file = pcrypt::File::open(pcrypt::Source::memory(for_self));
  pcrypt::Credentials by_self;
  by_self.identity_files = {scratch.path("id.txt")};
  self_file.unlock(by_self);
  std::vector<std::uint8_t> self_back;
  self_file.decrypt(pcrypt::Sink::memory(self_back));
  CHECK(self_back == self_plain);

  const std::vector<std::uint8_t> plain = random_bytes(10'000, 8);
  std::vector<std::uint8_t> file;
  pcrypt::Recipients to;
  to.keys = &to_keys;
  pcrypt::EncryptOptions options;
  options.format = pcrypt::Format::age;
  pcrypt::encrypt(pcrypt::Source::memory(plain), pcrypt::Sink::memory(file), to, options);
  pcrypt::File opened = pcrypt::File::open(pcrypt::Source::memory(file));
  CHECK(opened.describe().slots == 1);
  pcrypt::Credentials by;
  by.keys = &identities;
  CHECK(opened.unlock(by).empty());  // age does not say which stanza opened it
  std::vector<std::uint8_t> back;
  opened.decrypt(pcrypt::Sink::memory(back));
  CHECK(back == plain);
}

TEST_CASE("libpcrypt: the streaming encryptor's file, written in pieces of random sizes, opens everywhere") {
  Scratch scratch;
  const pcrypt::NewIdentity id = pcrypt::generate_identity();
  scratch.write("id.txt", id.file_text);
  pcrypt::Credentials by;
  by.identity_files = {scratch.path("id.txt")};
  std::mt19937 rng(7);
  // Sizes around the record boundaries (4 KiB records), an empty file, and enough for several batches.
  for (const pcrypt::Format format : {pcrypt::Format::pcrypt, pcrypt::Format::age}) {
    const std::size_t chunk = format == pcrypt::Format::age ? 64 * 1024 : 4096;
    for (const std::size_t size :
         {std::size_t{0}, std::size_t{1}, chunk - 1, chunk, chunk + 1, 3 * chunk, std::size_t{5'000'001}}) {
      INFO((format == pcrypt::Format::age ? "age " : "pcrypt ") << size << " bytes");
      const std::vector<std::uint8_t> plain = random_bytes(size, static_cast<unsigned>(size));
      pcrypt::Recipients to;
      to.recipients = {id.recipient};
      pcrypt::EncryptOptions options;
      options.format = format;
      options.chunk_size = chunk;
      options.threads = 3;
      const std::string path = scratch.path("streamed");
      pcrypt::Encryptor out(pcrypt::Sink::path(path, true), to, options);
      for (std::size_t done = 0; done < size;) {
        // Mostly small pieces, some of several batches at once.
        const std::size_t piece = rng() % 8 == 0 ? rng() % (20 * chunk) : rng() % (2 * chunk + 1);
        const std::size_t n = std::min(piece, size - done);
        out.write(std::span<const std::uint8_t>(plain).subspan(done, n));
        done += n;
      }
      CHECK(out.plaintext_bytes() == size);
      const pcrypt::Transfer t = out.finish();
      CHECK(t.plaintext_bytes == size);

      // The same size as pcrypt::encrypt's file for the same recipient and options.
      std::vector<std::uint8_t> whole;
      const pcrypt::Transfer whole_t =
          pcrypt::encrypt(pcrypt::Source::memory(plain), pcrypt::Sink::memory(whole), to, options);
      // All four figures as encrypt() gives them for the same input (finish() once said 0 header bytes and
      // 0 records).
      CHECK(t.plaintext_bytes == whole_t.plaintext_bytes);
      CHECK(t.encrypted_bytes == whole_t.encrypted_bytes);
      CHECK(t.header_bytes == whole_t.header_bytes);
      CHECK(t.chunks == whole_t.chunks);
      CHECK(t.header_bytes > 0);
      CHECK(t.chunks == std::max<std::size_t>(1, (size + chunk - 1) / chunk));
      pcrypt::File file = pcrypt::File::open(pcrypt::Source::path(path));
      CHECK(file.describe().chunk_size == chunk);
      file.unlock(by);
      CHECK(file.plaintext_size() == size);
      CHECK(t.encrypted_bytes == whole.size());
      std::vector<std::uint8_t> back;
      file.decrypt(pcrypt::Sink::memory(back));
      CHECK(back == plain);

      if (const char* cli = std::getenv("PCRYPT_TEST_CLI")) {
        const std::string decrypted = scratch.path("cli.out");
        std::string command = std::string("'") + cli;
        command.append("' decrypt -f -i '").append(scratch.path("id.txt")).append("' '").append(path);
        command.append("' -o '").append(decrypted).append("'");
        REQUIRE(std::system(command.c_str()) == 0);
        std::ifstream in(decrypted, std::ios::binary);
        const std::vector<std::uint8_t> got((std::istreambuf_iterator<char>(in)),
                                            std::istreambuf_iterator<char>());
        CHECK(got == plain);
      }
    }
  }
}

TEST_CASE("libpcrypt: the streaming encryptor's misuse and abandoned files") {
  Scratch scratch;
  const pcrypt::NewIdentity id = pcrypt::generate_identity();
  pcrypt::Recipients to;
  to.recipients = {id.recipient};
  const std::vector<std::uint8_t> plain = random_bytes(3'000'000, 3);

  pcrypt::Encryptor done(pcrypt::Sink::path(scratch.path("done")), to, pcrypt::EncryptOptions{});
  done.write(plain);
  done.finish();
  CHECK(error_of([&] { done.write(plain); }).kind() == pcrypt::ErrorKind::usage);
  CHECK(error_of([&] { done.finish(); }).kind() == pcrypt::ErrorKind::usage);

  // Destroyed unfinished: no file at the path, however much was written.
  {
    pcrypt::Encryptor abandoned(pcrypt::Sink::path(scratch.path("abandoned")), to, pcrypt::EncryptOptions{});
    abandoned.write(plain);
  }
  CHECK(::access(scratch.path("abandoned").c_str(), F_OK) != 0);

  pcrypt::EncryptOptions armored;
  armored.armor = true;
  CHECK(error_of([&] { pcrypt::Encryptor(pcrypt::Sink::path(scratch.path("a")), to, armored); }).kind() ==
        pcrypt::ErrorKind::usage);
  CHECK(error_of([&] {
          pcrypt::Encryptor(pcrypt::Sink::path(scratch.path("none")), pcrypt::Recipients{},
                            pcrypt::EncryptOptions{});
        }).kind() == pcrypt::ErrorKind::usage);
  pcrypt::Recipients key_file;
  scratch.write("k", pcrypt::generate_key_file());
  key_file.key_files = {scratch.path("k")};
  CHECK(error_of([&] {  // age takes no key files, as pcrypt::encrypt says
          pcrypt::Encryptor(pcrypt::Sink::path(scratch.path("age")), key_file, pcrypt::EncryptOptions{});
        })
            .kind() == pcrypt::ErrorKind::usage);
  CHECK(::access(scratch.path("none").c_str(), F_OK) != 0);

  // A sink that fails: the error, then the encryptor refuses to go on.
  pcrypt::Encryptor failing(pcrypt::Sink::callback([](std::span<const std::uint8_t> piece) {
                              if (piece.size() > 1000) throw pcrypt::Error(PCRYPT_E_IO, "disk full");
                            }),
                            to, pcrypt::EncryptOptions{});
  const std::vector<std::uint8_t> several_batches(100u << 20);  // records go out from within write()
  CHECK(error_of([&] { failing.write(several_batches); }).kind() == pcrypt::ErrorKind::io);
  CHECK(error_of([&] { failing.write(plain); }).kind() == pcrypt::ErrorKind::usage);
  CHECK(error_of([&] { failing.finish(); }).kind() == pcrypt::ErrorKind::usage);
}

TEST_CASE("libpcrypt: encrypt and the Encryptor make passphrase slots of the Argon2id costs asked for") {
  pcrypt::Recipients to;
  to.passphrase = "correct horse";
  pcrypt::EncryptOptions options;
  options.format = pcrypt::Format::pcrypt;
  options.argon2id_memory_bytes = 1 << 20;
  options.argon2id_passes = 1;
  const std::vector<std::uint8_t> plain = random_bytes(100'000, 9);
  std::vector<std::uint8_t> whole, streamed;
  pcrypt::encrypt(pcrypt::Source::memory(plain), pcrypt::Sink::memory(whole), to, options);
  pcrypt::Encryptor out(pcrypt::Sink::memory(streamed), to, options);
  out.write(plain);
  out.finish();
  for (const std::vector<std::uint8_t>* file : {&whole, &streamed}) {
    pcrypt::File opened = pcrypt::File::open(pcrypt::Source::memory(*file));
    pcrypt::Credentials by;
    by.passphrase = [] { return std::optional<std::string>("correct horse"); };
    by.max_argon2id_memory_bytes = 2 << 20;  // the defaults (256 MiB) would be refused
    by.max_argon2id_passes = 1;
    opened.unlock(by);
    CHECK(opened.plaintext_size() == plain.size());
  }
}

TEST_CASE("libpcrypt: rekey with a new file key and keep_opening_access off: the added are everyone") {
  const pcrypt::NewIdentity admin = pcrypt::generate_identity();
  const pcrypt::NewIdentity alice = pcrypt::generate_identity();
  const pcrypt::NewIdentity bob = pcrypt::generate_identity();
  const std::vector<std::uint8_t> plain = random_bytes(150'000, 11);
  const auto opens = [](const std::vector<std::uint8_t>& file, const pcrypt::NewIdentity& who) {
    pcrypt::File f = pcrypt::File::open(pcrypt::Source::memory(file));
    pcrypt::Credentials by;
    by.identities = {who.file_text};
    try {
      f.unlock(by);
    } catch (const pcrypt::Error& e) {
      CHECK(e.kind() == pcrypt::ErrorKind::wrong_credential);
      return false;
    }
    std::vector<std::uint8_t> back;
    f.decrypt(pcrypt::Sink::memory(back));
    CHECK(back.size() == 150'000);
    return true;
  };
  for (const pcrypt::Format format : {pcrypt::Format::age, pcrypt::Format::pcrypt}) {
    INFO((format == pcrypt::Format::age ? "age" : "pcrypt"));
    std::vector<std::uint8_t> file;
    pcrypt::Recipients to;
    to.recipients = {admin.recipient, alice.recipient, bob.recipient};
    pcrypt::EncryptOptions options;
    options.format = format;
    pcrypt::encrypt(pcrypt::Source::memory(plain), pcrypt::Sink::memory(file), to, options);

    for (const bool keep : {true, false}) {
      INFO("keep_opening_access " << keep);
      pcrypt::File opened = pcrypt::File::open(pcrypt::Source::memory(file));
      pcrypt::Credentials by_admin;
      by_admin.identities = {admin.file_text};
      opened.unlock(by_admin);
      // Revoking bob knowing only alice's public key: the new list is alice (and, kept, the admin).
      pcrypt::RekeyRequest revoke;
      revoke.new_file_key = true;
      revoke.keep_opening_access = keep;
      revoke.add_recipients = {alice.recipient};
      std::vector<std::uint8_t> rekeyed;
      const pcrypt::RekeyResult result = opened.rekey(revoke, pcrypt::Sink::memory(rekeyed), {});
      CHECK(result.slots_after == (keep ? 2U : 1U));
      CHECK(opens(rekeyed, alice));
      CHECK(opens(rekeyed, admin) == keep);
      CHECK_FALSE(opens(rekeyed, bob));
    }
  }
}

TEST_CASE("libpcrypt: info gives a post-quantum slot's long fields as a digest, or every byte") {
  const pcrypt::NewIdentity pq = pcrypt::generate_identity(true);
  std::vector<std::uint8_t> file;
  pcrypt::Recipients to;
  to.recipients = {pq.recipient};
  pcrypt::EncryptOptions options;
  options.format = pcrypt::Format::pcrypt;
  pcrypt::encrypt(pcrypt::Source::memory(random_bytes(100, 12)), pcrypt::Sink::memory(file), to, options);
  const pcrypt::File opened = pcrypt::File::open(pcrypt::Source::memory(file));
  const std::string summary = opened.info();
  const std::string all = opened.info(true);
  CHECK_THAT(summary, Catch::Contains("1120 bytes, SHA-256 "));
  CHECK_THAT(all, !Catch::Contains("bytes, SHA-256"));
  // 1,120 bytes in hex are 2,240 characters on one line: the summary has no line that long.
  const auto longest_line = [](const std::string& text) {
    std::size_t longest = 0, start = 0;
    for (std::size_t end = text.find('\n'); end != std::string::npos; end = text.find('\n', start)) {
      longest = std::max(longest, end - start);
      start = end + 1;
    }
    return longest;
  };
  CHECK(longest_line(all) > 2240);
  CHECK(longest_line(summary) < 200);
}

namespace {

// A read-at callback source over `file` that counts its calls and bytes, as an object store bills them.
struct CountingStore {
  const std::vector<std::uint8_t>& file;
  std::atomic<std::uint64_t> requests{0};
  std::atomic<std::uint64_t> bytes{0};
  explicit CountingStore(const std::vector<std::uint8_t>& f) : file(f) {}
  pcrypt::Source source() {
    return pcrypt::Source::callback(
        file.size(), [this](std::uint64_t offset, std::span<std::uint8_t> buffer) {
          ++requests;
          const std::size_t n =
              offset >= file.size() ? 0 : std::min<std::uint64_t>(buffer.size(), file.size() - offset);
          std::copy_n(file.begin() + static_cast<std::ptrdiff_t>(offset), n, buffer.begin());
          bytes += n;
          return n;
        });
  }
  void reset() {
    requests = 0;
    bytes = 0;
  }
};

pcrypt::Credentials identity_credentials(const pcrypt::NewIdentity& id) {
  pcrypt::Credentials by;
  by.identities = {id.file_text};
  return by;
}

}  // namespace

TEST_CASE("libpcrypt: read_range stays positional after decrypt() and verify() on the same File") {
  const pcrypt::NewIdentity id = pcrypt::generate_identity();
  const std::vector<std::uint8_t> plain = random_bytes(6'000'000, 20);
  for (const pcrypt::Format format : {pcrypt::Format::age, pcrypt::Format::pcrypt}) {
    INFO((format == pcrypt::Format::age ? "age" : "pcrypt"));
    const std::vector<std::uint8_t> file = encrypted(format, plain, id.recipient);
    for (const bool whole_first : {false, true}) {
      CountingStore store(file);
      pcrypt::File opened = pcrypt::File::open(store.source());
      opened.unlock(identity_credentials(id));
      if (whole_first) {
        opened.verify(pcrypt::RunOptions{2, {}, nullptr});
        std::vector<std::uint8_t> all;
        opened.decrypt(pcrypt::Sink::memory(all), pcrypt::RunOptions{2, {}, nullptr});
        CHECK(all == plain);
      }
      store.reset();
      std::vector<std::uint8_t> part;
      const pcrypt::RangeRead read = opened.read_range(5'000'000, 10'000, pcrypt::Sink::memory(part));
      CHECK(read.positional);
      CHECK(read.bytes == 10'000);
      CHECK(std::equal(part.begin(), part.end(), plain.begin() + 5'000'000));
      CHECK(store.requests <= 2);     // one run of adjacent records (two: it straddles them)
      CHECK(store.bytes <= 200'000);  // those records only, not the file up to them
    }
  }
}

TEST_CASE("libpcrypt: Source::fd starts the file where the descriptor stands, for every call") {
  Scratch scratch;
  const pcrypt::NewIdentity id = pcrypt::generate_identity();
  const std::vector<std::uint8_t> plain = random_bytes(300'000, 21);
  for (const pcrypt::Format format : {pcrypt::Format::age, pcrypt::Format::pcrypt}) {
    INFO((format == pcrypt::Format::age ? "age" : "pcrypt"));
    const std::vector<std::uint8_t> file = encrypted(format, plain, id.recipient);
    std::vector<std::uint8_t> container(100, 'x');  // another program's bytes before the file
    container.insert(container.end(), file.begin(), file.end());
    const std::string path = scratch.path("container");
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(container.data()),
               static_cast<std::streamsize>(container.size()));
    const int fd = ::open(path.c_str(), O_RDONLY);
    REQUIRE(fd >= 0);
    REQUIRE(::lseek(fd, 100, SEEK_SET) == 100);
    pcrypt::File opened = pcrypt::File::open(pcrypt::Source::fd(fd));
    opened.unlock(identity_credentials(id));
    CHECK(opened.plaintext_size() == plain.size());
    std::vector<std::uint8_t> part(1000);
    CHECK(opened.read_at(200'000, part) == part.size());
    CHECK(std::equal(part.begin(), part.end(), plain.begin() + 200'000));
    CHECK(opened.verify(pcrypt::RunOptions{2, {}, nullptr}).plaintext_bytes == plain.size());
    std::vector<std::uint8_t> all;
    const pcrypt::Transfer t = opened.decrypt(pcrypt::Sink::memory(all), pcrypt::RunOptions{2, {}, nullptr});
    CHECK(all == plain);
    CHECK(t.encrypted_bytes == file.size());
    std::vector<std::uint8_t> range;
    CHECK(opened.read_range(299'000, std::nullopt, pcrypt::Sink::memory(range)).positional);
    CHECK(std::equal(range.begin(), range.end(), plain.begin() + 299'000, plain.end()));
    ::close(fd);
  }
}

TEST_CASE("libpcrypt: Transfer::encrypted_bytes counts an armored file's armor, decrypting as encrypting") {
  const pcrypt::NewIdentity id = pcrypt::generate_identity();
  const std::vector<std::uint8_t> plain = random_bytes(1'000'000, 22);
  const std::vector<std::uint8_t> file = encrypted(pcrypt::Format::age, plain, id.recipient, true);
  pcrypt::File opened = pcrypt::File::open(pcrypt::Source::memory(file));
  opened.unlock(identity_credentials(id));
  std::vector<std::uint8_t> out;
  const pcrypt::Transfer t = opened.decrypt(pcrypt::Sink::memory(out));
  CHECK(out == plain);
  CHECK(t.encrypted_bytes == file.size());
  CHECK(t.plaintext_bytes == plain.size());
}

TEST_CASE("libpcrypt: a moved-from File, Encryptor, Keys or Session is a usage error, never a crash") {
  const pcrypt::NewIdentity id = pcrypt::generate_identity();
  const std::vector<std::uint8_t> plain = random_bytes(1000, 23);
  const std::vector<std::uint8_t> file = encrypted(pcrypt::Format::age, plain, id.recipient);
  pcrypt::File first = pcrypt::File::open(pcrypt::Source::memory(file));
  pcrypt::File second = std::move(first);
  second.unlock(identity_credentials(id));
  std::vector<std::uint8_t> buf(10);
  // NOLINTBEGIN(bugprone-use-after-move): what a moved-from object does is the subject
  for (const pcrypt::Error& e :
       {error_of([&] { (void)first.describe(); }), error_of([&] { first.unlock(identity_credentials(id)); }),
        error_of([&] { (void)first.read_at(0, buf); }), error_of([&] { (void)first.plaintext_size(); }),
        error_of([&] { first.verify(); }), error_of([&] { (void)first.info(); })}) {
    CHECK(e.kind() == pcrypt::ErrorKind::usage);
    CHECK(std::string(e.what()) == "this File was moved from");
  }
  CHECK(second.read_at(0, buf) == buf.size());

  pcrypt::Recipients to;
  to.recipients = {id.recipient};
  std::vector<std::uint8_t> out;
  pcrypt::Encryptor writer(pcrypt::Sink::memory(out), to, pcrypt::EncryptOptions{});
  pcrypt::Encryptor moved = std::move(writer);
  const pcrypt::Error write_error = error_of([&] { writer.write(plain); });
  CHECK(write_error.kind() == pcrypt::ErrorKind::usage);
  CHECK(std::string(write_error.what()) == "this Encryptor was moved from");
  CHECK(error_of([&] { writer.finish(); }).kind() == pcrypt::ErrorKind::usage);
  moved.write(plain);
  moved.finish();

  pcrypt::Keys keys;
  pcrypt::Keys other_keys = std::move(keys);
  CHECK(error_of([&] { (void)keys.size(); }).kind() == pcrypt::ErrorKind::usage);
  CHECK(other_keys.size() == 0);
  pcrypt::Session session;
  pcrypt::Session other_session = std::move(session);
  CHECK(error_of([&] { (void)session.engine(); }).kind() == pcrypt::ErrorKind::usage);
  CHECK_FALSE(other_session.engine().empty());
  // NOLINTEND(bugprone-use-after-move)
}

TEST_CASE("libpcrypt: read_at at or past the end returns 0, as pread") {
  const pcrypt::NewIdentity id = pcrypt::generate_identity();
  const std::vector<std::uint8_t> plain = random_bytes(100'000, 24);
  for (const pcrypt::Format format : {pcrypt::Format::age, pcrypt::Format::pcrypt}) {
    const std::vector<std::uint8_t> file = encrypted(format, plain, id.recipient);
    pcrypt::File opened = pcrypt::File::open(pcrypt::Source::memory(file));
    opened.unlock(identity_credentials(id));
    std::vector<std::uint8_t> buf(10);
    CHECK(opened.read_at(plain.size(), buf) == 0);
    CHECK(opened.read_at(plain.size() + 1, buf) == 0);
    CHECK(opened.read_at(UINT64_MAX, buf) == 0);
    CHECK(opened.read_at(plain.size() - 3, buf) == 3);
  }
}

namespace {
struct CallersOwn {
  int code;
};
}  // namespace

TEST_CASE("libpcrypt: an exception a callback throws reaches the caller unchanged, from every call") {
  const pcrypt::NewIdentity id = pcrypt::generate_identity();
  const std::vector<std::uint8_t> plain = random_bytes(3'000'000, 25);
  const std::vector<std::uint8_t> file = encrypted(pcrypt::Format::age, plain, id.recipient);
  const auto code_of = [](auto fn) {
    try {
      fn();
    } catch (const CallersOwn& own) {
      return own.code;
    } catch (...) {
      return -1;
    }
    return 0;
  };
  const auto failing_source = [&](std::uint64_t after) {
    return pcrypt::Source::callback(
        file.size(), [&file, after](std::uint64_t offset, std::span<std::uint8_t> b) {
          if (offset >= after) throw CallersOwn{7};
          const std::size_t n = std::min<std::uint64_t>(b.size(), file.size() - offset);
          std::copy_n(file.begin() + static_cast<std::ptrdiff_t>(offset), n, b.begin());
          return n;
        });
  };
  // A source's read_at: whole-file calls, ranges, read_at, the reader.
  for (const unsigned threads : {1u, 3u}) {
    pcrypt::File opened = pcrypt::File::open(failing_source(1'000'000));
    opened.unlock(identity_credentials(id));
    CHECK(code_of([&] { opened.verify(pcrypt::RunOptions{threads, {}, nullptr}); }) == 7);
    std::vector<std::uint8_t> out;
    CHECK(code_of([&] {
            opened.decrypt(pcrypt::Sink::memory(out), pcrypt::RunOptions{threads, {}, nullptr});
          }) == 7);
    CHECK(code_of([&] { opened.read_range(2'000'000, 10, pcrypt::Sink::memory(out)); }) == 7);
    std::vector<std::uint8_t> buf(10);
    CHECK(code_of([&] { (void)opened.read_at(2'000'000, buf); }) == 7);
    pcrypt::Reader in(std::move(opened), pcrypt::RunOptions{threads, {}, nullptr});
    std::vector<std::uint8_t> all(plain.size());
    CHECK(code_of([&] {
            while (in.read(all) != 0) {
            }
          }) == 7);
  }
  // A sink's write, and progress.
  pcrypt::File opened = pcrypt::File::open(pcrypt::Source::memory(file));
  opened.unlock(identity_credentials(id));
  CHECK(code_of([&] {
          opened.decrypt(pcrypt::Sink::callback([](std::span<const std::uint8_t>) { throw CallersOwn{8}; }),
                         pcrypt::RunOptions{2, {}, nullptr});
        }) == 8);
  pcrypt::RunOptions options;
  options.threads = 2;
  options.progress = [](std::uint64_t) { throw CallersOwn{9}; };
  CHECK(code_of([&] { opened.verify(options); }) == 9);
  pcrypt::Recipients to;
  to.recipients = {id.recipient};
  std::vector<std::uint8_t> sink;
  CHECK(code_of([&] { pcrypt::encrypt(failing_source(100), pcrypt::Sink::memory(sink), to, {}); }) == 7);
  // A passphrase callback.
  pcrypt::Credentials asking;
  asking.passphrase = []() -> std::optional<std::string> { throw CallersOwn{10}; };
  // An age file's scrypt header as the format writes it (salt, wrapped key and MAC of zero bytes, work factor
  // 2^10) and an empty payload's nonce and tag: unlock asks for the passphrase before running scrypt or
  // checking anything it protects. (pcrypt::encrypt writes age's 2^18, two seconds of scrypt here.)
  const std::string scrypt_header =
      "age-encryption.org/v1\n"
      "-> scrypt AAAAAAAAAAAAAAAAAAAAAA 10\n"
      "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n"
      "--- AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n";
  std::vector<std::uint8_t> scrypt_file(scrypt_header.begin(), scrypt_header.end());
  scrypt_file.resize(scrypt_file.size() + 32);
  pcrypt::File locked = pcrypt::File::open(pcrypt::Source::memory(scrypt_file));
  CHECK(locked.describe().passphrase_slots == 1);
  CHECK(code_of([&] { locked.unlock(asking); }) == 10);
}

TEST_CASE("libpcrypt: an object store is asked once for a long range, at most three times to open a file") {
  const pcrypt::NewIdentity id = pcrypt::generate_identity();
  const std::vector<std::uint8_t> plain = random_bytes(12u << 20, 26);
  for (const pcrypt::Format format : {pcrypt::Format::age, pcrypt::Format::pcrypt}) {
    INFO((format == pcrypt::Format::age ? "age" : "pcrypt"));
    const std::vector<std::uint8_t> file = encrypted(format, plain, id.recipient);
    CountingStore store(file);
    pcrypt::File opened = pcrypt::File::open(store.source());
    opened.unlock(identity_credentials(id));
    CHECK(opened.plaintext_size() == plain.size());
    // The header (and, for age, its payload nonce), then the final record, which authenticates the size.
    CHECK(store.requests <= 3);
    store.reset();
    std::vector<std::uint8_t> part(4u << 20);
    CHECK(opened.read_at(3'000'000, part) == part.size());
    CHECK(std::equal(part.begin(), part.end(), plain.begin() + 3'000'000));
    CHECK(store.requests == 1);
    CHECK(store.bytes <= part.size() + 200'000);
    store.reset();
    // A whole-file pass asks for an item of records (about 1 MiB) at a time, not a record at a time.
    opened.verify(pcrypt::RunOptions{2, {}, nullptr});
    CHECK(store.requests <= 16);
  }
}

TEST_CASE("libpcrypt: passphrases handed over as SecretBytes (guarded memory) encrypt, open and rekey") {
  // The type itself: zeroed on allocation, copied in, moved out (the source left empty), read as text.
  pcrypt::SecretBytes room(16);
  CHECK(room.size() == 16);
  CHECK(std::all_of(room.data(), room.data() + room.size(), [](std::uint8_t b) { return b == 0; }));
  pcrypt::SecretBytes typed = pcrypt::SecretBytes::copy_of("correct horse");
  CHECK(typed.text() == "correct horse");
  pcrypt::SecretBytes moved = std::move(typed);
  CHECK(moved.text() == "correct horse");
  CHECK(typed.empty());  // NOLINT(bugprone-use-after-move): a moved-from SecretBytes is empty, by contract
  CHECK(pcrypt::SecretBytes(moved.span().first(7)).text() == "correct");

  const std::vector<std::uint8_t> plain = random_bytes(150'000, 21);
  for (const pcrypt::Format format : {pcrypt::Format::pcrypt, pcrypt::Format::age}) {
    CAPTURE(format == pcrypt::Format::age ? "age" : "pcrypt");
    pcrypt::Keys keys;
    keys.add_passphrase(pcrypt::SecretBytes::copy_of("correct horse"));
    CHECK(keys.size() == 1);
    pcrypt::Recipients to;
    to.keys = &keys;
    pcrypt::EncryptOptions options;
    options.format = format;
    options.argon2id_memory_bytes = 1 << 20;  // cheap Argon2id (pcrypt)
    options.argon2id_passes = 1;
    std::vector<std::uint8_t> file;
    pcrypt::encrypt(pcrypt::Source::memory(plain), pcrypt::Sink::memory(file), to, options);
    const auto opens_with = [&](const pcrypt::Credentials& given) {
      pcrypt::Credentials by = given;
      by.max_argon2id_memory_bytes = 2 << 20;
      by.max_argon2id_passes = 1;
      pcrypt::File opened = pcrypt::File::open(pcrypt::Source::memory(file));
      opened.unlock(by);
      std::vector<std::uint8_t> out;
      opened.decrypt(pcrypt::Sink::memory(out));
      return out == plain;
    };
    // The same passphrase as SecretBytes (Credentials::keys), and through the callback, opens it.
    pcrypt::Keys same;
    same.add_passphrase(pcrypt::SecretBytes::copy_of("correct horse"));
    pcrypt::Credentials by_keys;
    by_keys.keys = &same;
    CHECK(opens_with(by_keys));
    pcrypt::Credentials by_callback;
    by_callback.passphrase = [] { return std::optional<std::string>("correct horse"); };
    CHECK(opens_with(by_callback));
    // Another passphrase does not.
    pcrypt::Keys wrong;
    wrong.add_passphrase(pcrypt::SecretBytes::copy_of("correct horsf"));
    pcrypt::Credentials by_wrong;
    by_wrong.keys = &wrong;
    CHECK(error_of([&] { (void)opens_with(by_wrong); }).kind() == pcrypt::ErrorKind::wrong_credential);

    // Rekey: a passphrase added as SecretBytes (RekeyRequest::add_keys) opens the new header.
    if (format == pcrypt::Format::pcrypt) {
      pcrypt::Keys added;
      added.add_passphrase(pcrypt::SecretBytes::copy_of("battery staple"));
      pcrypt::RekeyRequest request;
      request.add_keys = &added;
      request.argon2id_memory_bytes = 1 << 20;
      request.argon2id_passes = 1;
      pcrypt::File opened = pcrypt::File::open(pcrypt::Source::memory(file));
      by_keys.max_argon2id_memory_bytes = 2 << 20;
      by_keys.max_argon2id_passes = 1;
      opened.unlock(by_keys);
      std::vector<std::uint8_t> rekeyed;
      opened.rekey(request, pcrypt::Sink::memory(rekeyed));
      file = rekeyed;
      CHECK(opens_with(by_callback));  // the old passphrase's slot is kept
      pcrypt::Keys new_one;
      new_one.add_passphrase(pcrypt::SecretBytes::copy_of("battery staple"));
      pcrypt::Credentials by_new;
      by_new.keys = &new_one;
      CHECK(opens_with(by_new));
    }
  }
  // An empty passphrase is refused, as the std::string form refuses it.
  pcrypt::Keys keys;
  CHECK(error_of([&] { keys.add_passphrase(pcrypt::SecretBytes()); }).kind() == pcrypt::ErrorKind::usage);
  CHECK(error_of([&] { keys.add_passphrase(pcrypt::SecretBytes(0)); }).kind() == pcrypt::ErrorKind::usage);
}

TEST_CASE("libpcrypt: no cut of a file reads as a valid file through read_at or plaintext_size") {
  // A file cut to a length some payload has (its header and one tag: an empty file's; a record boundary;
  // inside a record) once read as a shorter valid file: an empty one at the shortest cut (plaintext_size 0,
  // read_at 0 bytes). Every length near the header, each record boundary and the end, and a sample between.
  const pcrypt::NewIdentity id = pcrypt::generate_identity();
  const std::vector<std::uint8_t> plain = random_bytes(2 * pcrypt_test::kRecordSize + 100, 31);
  for (const pcrypt::Format format : {pcrypt::Format::age, pcrypt::Format::pcrypt}) {
    INFO((format == pcrypt::Format::age ? "age" : "pcrypt"));
    const std::vector<std::uint8_t> file = encrypted(format, plain, id.recipient);
    const std::uint64_t header = pcrypt::File::open(pcrypt::Source::memory(file)).describe().header_bytes;
    const std::uint64_t record = pcrypt_test::kRecordSize + 16;
    std::vector<std::uint64_t> cuts;
    for (std::uint64_t length = header; length < file.size(); ++length) {
      const std::uint64_t into = length - header;
      const bool near_boundary = into % record < 40 || record - into % record <= 40;
      if (into < 64 || near_boundary || file.size() - length <= 40 || into % 509 == 0) cuts.push_back(length);
    }
    std::size_t accepted = 0;
    for (const std::uint64_t length : cuts) {
      const std::span<const std::uint8_t> cut(file.data(), length);
      pcrypt::File opened = pcrypt::File::open(pcrypt::Source::memory(cut));
      opened.unlock(identity_credentials(id));
      std::vector<std::uint8_t> buf(10, 0xA5);
      const auto damaged = [](auto call) {
        try {
          call();
        } catch (const pcrypt::Error& e) {
          return e.kind() == pcrypt::ErrorKind::damaged_payload;
        }
        return false;
      };
      if (!damaged([&] { (void)opened.plaintext_size(); }) ||
          !damaged([&] { (void)opened.read_at(0, buf); })) {
        ++accepted;
        UNSCOPED_INFO("a cut to " << length << " of " << file.size() << " bytes was read");
      }
    }
    CHECK(accepted == 0);
    // The same through an object store, and the whole file still reads.
    const std::vector<std::uint8_t> shortest(file.begin(),
                                             file.begin() + static_cast<std::ptrdiff_t>(header + 16));
    CountingStore store(shortest);
    pcrypt::File remote = pcrypt::File::open(store.source());
    remote.unlock(identity_credentials(id));
    CHECK(error_of([&] { (void)remote.plaintext_size(); }).kind() == pcrypt::ErrorKind::damaged_payload);
    pcrypt::File whole = pcrypt::File::open(pcrypt::Source::memory(file));
    whole.unlock(identity_credentials(id));
    CHECK(whole.plaintext_size() == plain.size());
  }
}
