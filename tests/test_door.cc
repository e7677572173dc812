// The door (core/door/encrypted_file.h) for both formats, through its API only: open once, describe,
// unlock, decrypt, verify, ranges, the payload for positional reads, rekey with the one policy, encrypt's
// real sizes.
#include <catch2/catch.hpp>

#include <string>
#include <thread>
#include <vector>

#include "core/door/encrypted_file.h"
#include "core/keys/recipient.h"
#include "tests/test_crypt_support.h"

using namespace pcrypt;
using core::door::Format;
using test::Bytes;

namespace {

// A small chunk size so that a few KiB of pcrypt plaintext spans several records, as age's 64 KiB do.
core::door::EncryptSettings settings_for(Format format) {
  core::door::EncryptSettings settings;
  settings.file.format = format;
  settings.file.chunk_size = 4096;
  settings.file.argon2id = test::cheap_kdf();
  settings.file.scrypt_log2 = 10;
  return settings;
}

Bytes encrypt(Format format, const Bytes& plain, const std::vector<core::Credential>& to, bool armor = false,
              core::door::Transfer* transfer = nullptr) {
  io::MemoryReader in(plain);
  io::MemoryWriter out;
  core::door::EncryptSettings settings = settings_for(format);
  settings.armor = armor;
  const core::door::Transfer done = core::door::encrypt(in, out, to, settings, core::door::RunOptions{2, {}});
  if (transfer != nullptr) *transfer = done;
  return out.data();
}

core::door::UnlockLimits cheap_limits() {
  core::door::UnlockLimits limits;
  limits.max_scrypt_log2 = 10;
  return limits;
}

std::vector<core::Credential> one(core::Credential c) {
  std::vector<core::Credential> v;
  v.push_back(std::move(c));
  return v;
}

Bytes decrypt(const Bytes& file, const std::vector<core::Credential>& by) {
  io::MemoryReader in(file);
  core::door::EncryptedFile opened(in);
  opened.unlock(by, cheap_limits());
  io::MemoryWriter out;
  opened.decrypt(out, core::door::RunOptions{2, {}});
  return out.data();
}

struct Case {
  Format format;
  bool armor;
  const char* name;
};
const Case kCases[] = {
    {Format::pcrypt, false, "pcrypt"}, {Format::age, false, "age"}, {Format::age, true, "armored age"}};

}  // namespace

TEST_CASE("the door opens either format once and describes it before any key") {
  const core::Credential id = core::Credential::of(core::generate_x25519_identity());
  for (const Case& c : kCases) {
    INFO(c.name);
    const Bytes plain = test::random_bytes(200'000);
    core::door::Transfer written;
    const Bytes file = encrypt(c.format, plain, one(core::Credential::of(core::recipient_of(*id.identity))),
                               c.armor, &written);
    CHECK(written.encrypted_bytes == file.size());  // encrypt reports the real size, armor included
    CHECK(written.plaintext_bytes == plain.size());
    io::MemoryReader in(file);
    core::door::EncryptedFile opened(in);
    const core::door::FileDescription& d = opened.description();
    CHECK(d.format == c.format);
    CHECK(d.armored == c.armor);
    CHECK(d.slots == 1);
    CHECK(d.passphrase_slots == 0);
    CHECK(d.chunk_size == (c.format == Format::age ? 65536u : 4096u));
    if (!c.armor) CHECK(d.header_bytes == written.header_bytes);
    CHECK_THAT(opened.info(file.size()), Catch::Contains("X25519"));
    CHECK_FALSE(opened.unlocked());
  }
}

TEST_CASE("the door decrypts, verifies and refuses a wrong key in both formats") {
  const core::Credential id = core::Credential::of(core::generate_x25519_identity());
  const core::Credential other = core::Credential::of(core::generate_x25519_identity());
  for (const Case& c : kCases) {
    INFO(c.name);
    const Bytes plain = test::random_bytes(150'001);
    const Bytes file =
        encrypt(c.format, plain, one(core::Credential::of(core::recipient_of(*id.identity))), c.armor);
    CHECK(decrypt(file, one(test::copy(id))) == plain);

    io::MemoryReader in(file);
    core::door::EncryptedFile opened(in);
    opened.unlock(one(test::copy(id)), cheap_limits());
    CHECK(opened.verify(core::door::RunOptions{2, {}}).plaintext_bytes == plain.size());

    io::MemoryReader again(file);
    core::door::EncryptedFile wrong(again);
    test::error_of(core::ErrorKind::header, [&] { wrong.unlock(one(test::copy(other)), cheap_limits()); });
  }
}

TEST_CASE("the door's payload damage is a payload error and the sink is not committed") {
  const core::Credential id = core::Credential::of(core::generate_x25519_identity());
  for (const Case& c : {kCases[0], kCases[1]}) {
    INFO(c.name);
    const Bytes plain = test::random_bytes(100'000);
    Bytes file = encrypt(c.format, plain, one(core::Credential::of(core::recipient_of(*id.identity))));
    file[file.size() - 40] ^= 1;
    io::MemoryReader in(file);
    core::door::EncryptedFile opened(in);
    opened.unlock(one(test::copy(id)), cheap_limits());
    // A sink that records whether it was committed.
    struct Sink final : io::Writer {
      std::uint64_t bytes = 0;
      bool committed = false;
      void write(const std::uint8_t*, std::size_t n) override { bytes += n; }
      void commit() override { committed = true; }
      std::string name() const override { return "sink"; }
    } sink;
    test::error_of(core::ErrorKind::payload, [&] { opened.decrypt(sink, core::door::RunOptions{2, {}}); });
    CHECK_FALSE(sink.committed);
  }
}

TEST_CASE("the door reads ranges from one unlocked payload on 8 threads, in both formats") {
  const core::Credential id = core::Credential::of(core::generate_x25519_identity());
  for (const Case& c : {kCases[0], kCases[1]}) {
    INFO(c.name);
    const Bytes plain = test::random_bytes(600'000);
    const Bytes file = encrypt(c.format, plain, one(core::Credential::of(core::recipient_of(*id.identity))));
    io::MemoryReader in(file, io::MemoryAccess::positional);
    core::door::EncryptedFile opened(in);
    opened.unlock(one(test::copy(id)), cheap_limits());

    // A range through the door's own reader (in place, pread).
    io::MemoryWriter out;
    const core::door::RangeRead read =
        opened.read_range(core::ByteRange{70'000, 100'000}, out, core::door::RunOptions{2, {}});
    CHECK(read.positional);
    CHECK(out.data() == Bytes(plain.begin() + 70'000, plain.begin() + 170'000));

    // Many threads on one unlocked payload, each its own range (the Python reader's and read_at's way).
    const core::KeyedPayload& payload = opened.payload();
    const io::MemoryReader file_access(file, io::MemoryAccess::positional);
    std::vector<std::thread> threads;
    threads.reserve(8);
    std::vector<int> ok(8, 0);
    for (int t = 0; t < 8; ++t)
      threads.emplace_back([&, t] {
        const std::uint64_t offset = static_cast<std::uint64_t>(t) * 70'001;
        Bytes buf(50'000);
        core::RangeOptions options;
        options.threads = 1;
        const core::RangeResult r = core::decrypt_range_into(file_access, payload, offset, buf, options);
        ok[static_cast<std::size_t>(t)] =
            r.bytes_written == buf.size() &&
            std::equal(buf.begin(), buf.end(), plain.begin() + static_cast<std::ptrdiff_t>(offset));
      });
    for (std::thread& th : threads) th.join();
    for (int t = 0; t < 8; ++t) CHECK(ok[static_cast<std::size_t>(t)] == 1);
  }
}

TEST_CASE("the size a random-access reader reports is authenticated: no cut of a file has one") {
  // Every length from the header's end to the whole file, in both formats: a cut that leaves a length some
  // payload has (a header and one tag: an empty file's; a record boundary; inside a record) must fail as a
  // damaged payload, not report the shorter plaintext. Two records of age's 64 KiB; three of pcrypt's 4 KiB.
  const core::Credential id = core::Credential::of(core::generate_x25519_identity());
  for (const Case& c : {kCases[0], kCases[1]}) {
    INFO(c.name);
    const Bytes plain = test::random_bytes(c.format == Format::age ? 65'536 + 100 : 2 * 4096 + 100);
    const Bytes file = encrypt(c.format, plain, one(core::Credential::of(core::recipient_of(*id.identity))));
    io::MemoryReader in(file, io::MemoryAccess::positional);
    core::door::EncryptedFile opened(in);
    opened.unlock(one(test::copy(id)), cheap_limits());
    const core::KeyedPayload& payload = opened.payload();
    const std::uint64_t header = opened.description().header_bytes;
    const io::MemoryReader whole(file, io::MemoryAccess::positional);
    const core::AuthenticatedSize full = core::authenticated_size(whole, payload);
    CHECK(full.plaintext_bytes == plain.size());
    CHECK(full.file_bytes == file.size());
    std::size_t accepted = 0, refused = 0;
    for (std::size_t length = header; length < file.size(); ++length) {
      const io::MemoryReader cut(std::span<const std::uint8_t>(file.data(), length),
                                 io::MemoryAccess::positional);
      try {
        (void)core::authenticated_size(cut, payload);
        ++accepted;
        UNSCOPED_INFO("accepted a cut to " << length << " of " << file.size() << " bytes");
      } catch (const core::Error& e) {
        refused += e.kind() == core::ErrorKind::payload ? 1 : 0;
      }
    }
    CHECK(accepted == 0);
    CHECK(refused == file.size() - header);
  }
}

TEST_CASE("the door's rekey: one policy, the same answers for pcrypt and age") {
  const core::Credential a = core::Credential::of(core::generate_x25519_identity());
  const core::Credential b = core::Credential::of(core::generate_x25519_identity());
  const core::Credential pq = core::Credential::of(core::generate_hybrid_identity());
  for (const Case& c : kCases) {
    INFO(c.name);
    const Bytes plain = test::random_bytes(90'000);
    std::vector<core::Credential> to;
    to.push_back(core::Credential::of(core::recipient_of(*a.identity)));
    to.push_back(core::Credential::of(core::recipient_of(*b.identity)));
    const Bytes file = encrypt(c.format, plain, to, c.armor);

    const auto rekey = [&](core::door::RekeyRequest request, bool new_key = false) {
      io::MemoryReader in(file);
      core::door::EncryptedFile opened(in);
      const std::vector<core::Credential> by = one(test::copy(a));
      opened.unlock(by, cheap_limits());
      request.new_file_key = new_key;
      io::MemoryWriter out;
      opened.rekey(std::move(request), out, settings_for(c.format).file, core::door::RunOptions{2, {}});
      return out.data();
    };

    // Removing b's anonymous slot by its public key: only its identity could find it, in both formats.
    core::door::RekeyRequest by_public_key;
    by_public_key.changes.remove_recipients.push_back(core::recipient_of(*b.identity));
    CHECK_THAT(test::error_of(core::ErrorKind::usage, [&] { rekey(std::move(by_public_key)); }),
               Catch::Contains("are anonymous"));

    // A post-quantum recipient that is not in the file: the same explanation, both formats.
    core::door::RekeyRequest pq_key;
    pq_key.changes.remove_recipients.push_back(core::recipient_of(*pq.identity));
    CHECK_THAT(test::error_of(core::ErrorKind::usage, [&] { rekey(std::move(pq_key)); }),
               Catch::Contains("post-quantum recipient") && Catch::Contains("are anonymous"));

    // Removing the opener's own slot by its public key, adding a new one: b and the new key open it.
    const core::Credential fresh = core::Credential::of(core::generate_x25519_identity());
    core::door::RekeyRequest swap;
    swap.changes.remove_recipients.push_back(core::recipient_of(*a.identity));
    swap.changes.add.push_back(core::Credential::of(core::recipient_of(*fresh.identity)));
    const Bytes swapped = rekey(std::move(swap));
    CHECK(decrypt(swapped, one(test::copy(fresh))) == plain);
    CHECK(decrypt(swapped, one(test::copy(b))) == plain);
    test::error_of(core::ErrorKind::header, [&] { decrypt(swapped, one(test::copy(a))); });

    // A new file key: a keeps access, b loses it.
    const Bytes renewed = rekey(core::door::RekeyRequest{}, true);
    CHECK(decrypt(renewed, one(test::copy(a))) == plain);
    test::error_of(core::ErrorKind::header, [&] { decrypt(renewed, one(test::copy(b))); });
    io::MemoryReader again(renewed);
    CHECK(core::door::EncryptedFile(again).description().armored == c.armor);
  }
}

TEST_CASE("the door names what a non-encrypted input is, and tells when a prefix is too short") {
  const std::string key_text = test::key_file_string();
  const Bytes key_file(key_text.begin(), key_text.end());
  io::MemoryReader in(key_file);
  CHECK_THAT(test::error_of(core::ErrorKind::header, [&] { core::door::EncryptedFile opened(in); }),
             Catch::Contains("not a pcrypt file: this is a pcrypt key file"));

  const Bytes file = encrypt(Format::age, test::random_bytes(10),
                             one(core::Credential::of(core::recipient_of(core::generate_x25519_identity()))));
  io::MemoryReader whole(file);
  const std::uint64_t header = core::door::EncryptedFile(whole).description().header_bytes;
  CHECK(core::door::header_incomplete(std::span(file).first(static_cast<std::size_t>(header) - 1)));
  CHECK_FALSE(core::door::header_incomplete(std::span(file).first(static_cast<std::size_t>(header))));
}
