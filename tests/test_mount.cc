// `pcrypt mount`'s pieces below FUSE: the names a folder's entries get (app/mount_names.h), the kernel's
// mount table as it is parsed (app/mount_table.h), and the reads of a file's plaintext with and without
// read-ahead (app/read_ahead.h), on a real encrypted file in memory. tests/cli/test_mount.sh mounts.
#include <catch2/catch.hpp>

#include <pcrypt/pcrypt.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "app/mount_names.h"
#include "app/mount_table.h"
#include "app/read_ahead.h"

using namespace pcrypt;
using namespace pcrypt::app;

namespace {

std::vector<std::string> names_of(const std::vector<NamedEntry>& entries) {
  return mount_names(entries);
}

// What every result of mount_names must be, whatever the entries.
void check_names(const std::vector<NamedEntry>& entries) {
  const std::vector<std::string> names = mount_names(entries);
  REQUIRE(names.size() == entries.size());
  std::set<std::string> seen;
  for (std::size_t i = 0; i < names.size(); ++i) {
    CHECK(seen.insert(names[i]).second);
    CHECK(!names[i].empty());
    CHECK(names[i] != ".");
    CHECK(names[i] != "..");
    const std::optional<std::string_view> suffix =
        entries[i].encrypted ? encrypted_suffix(entries[i].name) : std::nullopt;
    const bool stripped = suffix && names[i] + std::string(*suffix) == entries[i].name;
    CHECK((names[i] == entries[i].name || stripped));
  }
}

}  // namespace

TEST_CASE("mount names: encrypted files lose their suffix", "[mount]") {
  CHECK(names_of({{"a.txt.age", true}, {"b.pcrypt", true}, {"dir", false}}) ==
        std::vector<std::string>{"a.txt", "b", "dir"});
  CHECK(names_of({{"x.age", false}}) == std::vector<std::string>{"x.age"});  // a folder named x.age
  CHECK(encrypted_suffix("x.AGE") == std::nullopt);
  CHECK(encrypted_suffix(".age") == std::nullopt);  // no name left
  CHECK(encrypted_suffix("x.pcrypt") == ".pcrypt");
}

TEST_CASE("mount names: clashes keep full names, never a bad name", "[mount]") {
  // Two files with one plaintext name: both keep theirs.
  CHECK(names_of({{"x.age", true}, {"x.pcrypt", true}}) == std::vector<std::string>{"x.age", "x.pcrypt"});
  // A folder (or any full name) takes precedence over a plaintext name.
  CHECK(names_of({{"x", false}, {"x.age", true}}) == std::vector<std::string>{"x", "x.age"});
  // The full name a clash gives back may itself clash: x.age.age would be shown as x.age, which x.age keeps.
  CHECK(names_of({{"x.age", true}, {"x.age.age", true}, {"x.pcrypt", true}}) ==
        std::vector<std::string>{"x.age", "x.age.age", "x.pcrypt"});
  // "." and ".." are not names.
  CHECK(names_of({{"..age", true}, {"...pcrypt", true}}) == std::vector<std::string>{"..age", "...pcrypt"});
  check_names(
      {{"a.age", true}, {"a", true}, {"a.pcrypt", true}, {"a.age.pcrypt", true}, {"a.age.age", true}});
}

TEST_CASE("mount names: random folders keep the rules", "[mount]") {
  std::mt19937 rng(35);
  const std::vector<std::string> parts = {"a", ".", ".age", ".pcrypt", "x", ".."};
  for (int round = 0; round < 2000; ++round) {
    std::set<std::string> used;
    std::vector<NamedEntry> entries;
    const int count = static_cast<int>(rng() % 8);
    for (int i = 0; i < count; ++i) {
      std::string name;
      for (unsigned k = 0; k < 1 + rng() % 4; ++k) name += parts[rng() % parts.size()];
      if (name == "." || name == ".." || !used.insert(name).second) continue;
      entries.push_back({name, rng() % 3 != 0});
    }
    check_names(entries);
  }
}

TEST_CASE("mount table: fields, escapes and the type after the separator", "[mount]") {
  const std::string text =
      "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
      "61 22 0:53 / /mnt/with\\040space rw,nosuid,nodev,relatime shared:30 master:2 - fuse.pcrypt pcrypt "
      "ro,user_id=0,group_id=0,default_permissions\n"
      "garbage line\n"
      "62 22 0:54 / /tmp/back\\134slash rw - tmpfs tmpfs rw\n";
  const std::vector<MountTableEntry> entries = parse_mountinfo(text);
  REQUIRE(entries.size() == 3);
  CHECK(entries[1].device == "0:53");
  CHECK(entries[1].mount_point == "/mnt/with space");
  CHECK(entries[1].type == kPcryptMountType);
  CHECK(entries[2].mount_point == "/tmp/back\\slash");
  CHECK(unescape_mount_field("a\\011b\\012c") == "a\tb\nc");
  CHECK(unescape_mount_field("no\\9escape\\04") == "no\\9escape\\04");  // not three octal digits
  CHECK(unescape_mount_field("\\") == "\\");
}

namespace {

struct EncryptedInMemory {
  std::vector<std::uint8_t> plain, encrypted;
};

EncryptedInMemory encrypted(std::size_t size, std::size_t chunk) {
  EncryptedInMemory e;
  std::mt19937 rng(7);
  e.plain.resize(size);
  for (auto& b : e.plain) b = static_cast<std::uint8_t>(rng());
  Recipients to;
  to.passphrase = "mount test";
  EncryptOptions options;
  options.format = Format::pcrypt;
  options.chunk_size = chunk;
  options.argon2id_memory_bytes = 64 << 10;
  options.argon2id_passes = 1;
  encrypt(Source::memory(e.plain), Sink::memory(e.encrypted), to, options);
  return e;
}

File unlocked(const std::vector<std::uint8_t>& bytes) {
  File file = File::open(Source::memory(bytes));
  Credentials by;
  by.passphrase = [] { return std::optional<std::string>("mount test"); };
  file.unlock(by);
  return file;
}

std::vector<std::uint8_t> read_all(PlaintextStream& stream, std::size_t piece) {
  std::vector<std::uint8_t> out;
  std::vector<std::uint8_t> buffer(piece);
  for (;;) {
    const std::size_t got = stream.read(out.size(), buffer);
    if (got == 0) return out;
    out.insert(out.end(), buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(got));
  }
}

}  // namespace

TEST_CASE("read-ahead: sequential and random reads give the plaintext, within the budget", "[mount]") {
  const std::size_t chunk = 4096;
  const EncryptedInMemory e = encrypted(5 * (2 << 20) + 1234, chunk);
  const File file = unlocked(e.encrypted);
  const std::size_t budget = 8 << 20;
  ReadAheadPool pool(2, budget);
  {
    PlaintextStream stream(file, e.plain.size(), chunk, pool);
    CHECK(stream.window_bytes() == (2 << 20));
    CHECK(read_all(stream, 128 << 10) == e.plain);
    CHECK(pool.reserved() <= budget);
    // Past the end: nothing.
    std::vector<std::uint8_t> buffer(10);
    CHECK(stream.read(e.plain.size(), buffer) == 0);
    CHECK(stream.read(e.plain.size() + 5, buffer) == 0);
  }
  CHECK(pool.reserved() <= budget);

  PlaintextStream stream(file, e.plain.size(), chunk, pool);
  std::vector<std::thread> readers;
  std::atomic<int> wrong{0};
  for (unsigned t = 0; t < 8; ++t)
    readers.emplace_back([&, t] {
      std::mt19937_64 rng(t);
      std::vector<std::uint8_t> buffer;
      for (int i = 0; i < 100; ++i) {
        const std::uint64_t offset = rng() % e.plain.size();
        buffer.resize(1 + rng() % (300 << 10));
        const std::size_t got = stream.read(offset, buffer);
        const std::size_t want = std::min<std::size_t>(buffer.size(), e.plain.size() - offset);
        if (got != want || !std::equal(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(got),
                                       e.plain.begin() + static_cast<std::ptrdiff_t>(offset)))
          ++wrong;
      }
    });
  for (std::thread& t : readers) t.join();
  CHECK(wrong == 0);
  CHECK(pool.reserved() <= budget);
}

TEST_CASE("read-ahead: every window's memory comes back to the pool", "[mount]") {
  const std::size_t chunk = 64 << 10;
  const EncryptedInMemory e = encrypted(9 << 20, chunk);
  const File file = unlocked(e.encrypted);
  ReadAheadPool pool(2, 6 << 20);  // room for three windows: the reader must manage with fewer than it asks
  {
    PlaintextStream stream(file, e.plain.size(), chunk, pool);
    CHECK(read_all(stream, 100 << 10) == e.plain);
    PlaintextPieces pieces;
    stream.read(1 << 20, 3 << 20, pieces);  // back to the start: read directly
    CHECK(pieces.bytes() == (3u << 20));
    CHECK(std::equal(e.plain.begin() + (1 << 20), e.plain.begin() + (4 << 20), pieces.direct.begin()));
    CHECK(pool.reserved() > 0);  // the windows at the end, still held by the stream
  }
  CHECK(pool.reserved() == 0);
}

TEST_CASE("read-ahead: a damaged record fails only the reads that touch it", "[mount]") {
  const std::size_t chunk = 4096;
  const EncryptedInMemory e = encrypted(3 << 20, chunk);
  std::vector<std::uint8_t> damaged = e.encrypted;
  const File intact = unlocked(e.encrypted);
  // Record 300's ciphertext, after the header and 300 records of a chunk and its 16-byte tag (FORMAT.md).
  const std::uint64_t header = intact.describe().header_bytes;
  const std::uint64_t record_bytes = chunk + 16;
  damaged[header + 300 * record_bytes + 10] ^= 1;
  const File file = unlocked(damaged);
  ReadAheadPool pool(2, 16 << 20);
  PlaintextStream stream(file, e.plain.size(), chunk, pool);
  std::vector<std::uint8_t> buffer(64 << 10);
  std::uint64_t offset = 0;
  std::size_t failures = 0;
  while (offset < e.plain.size()) {  // sequentially, so the damaged window is read ahead and dropped
    try {
      const std::size_t got = stream.read(offset, buffer);
      CHECK(std::equal(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(got),
                       e.plain.begin() + static_cast<std::ptrdiff_t>(offset)));
    } catch (const Error& error) {
      CHECK(error.kind() == ErrorKind::damaged_payload);
      CHECK(offset / chunk <= 300);
      CHECK((offset + buffer.size()) / chunk >= 300);
      ++failures;
    }
    offset += buffer.size();
  }
  CHECK(failures == 1);
  // A read of one record beside it, alone.
  std::vector<std::uint8_t> one(chunk);
  CHECK(stream.read(301 * chunk, one) == chunk);
  CHECK(std::equal(one.begin(), one.end(), e.plain.begin() + 301 * chunk));
  CHECK_THROWS_AS(stream.read(300 * chunk + 5, std::span(one).first(1)), Error);
}
