#include "bench/file_runs.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "bench/sinks.h"
#include "core/byte_size.h"
#include "core/error.h"

namespace pcrypt::app::bench {
namespace {

// Plain descriptors, no fsync and no atomic rename: the bench measures the data path, not durability (which
// `pcrypt encrypt -o FILE` adds on top), and the files are scratch.
class Fd {
 public:
  Fd(const std::string& path, int flags) : path_(path), fd_(::open(path.c_str(), flags | O_CLOEXEC, 0600)) {
    if (fd_ < 0) throw io::IoError("cannot open " + path + ": " + std::strerror(errno), errno);
  }
  ~Fd() { ::close(fd_); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_;
};

class FdReader final : public io::Reader {
 public:
  explicit FdReader(const std::string& path) : fd_(path, O_RDONLY) {}
  std::size_t read(std::uint8_t* buf, std::size_t n) override {
    std::size_t done = 0;
    while (done < n) {
      const ssize_t got = ::read(fd_.get(), buf + done, n - done);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) throw io::IoError("read " + fd_.path() + ": " + std::strerror(errno), errno);
      if (got == 0) break;
      done += static_cast<std::size_t>(got);
    }
    return done;
  }
  std::string name() const override { return fd_.path(); }

 private:
  Fd fd_;
};

class FdWriter final : public io::Writer {
 public:
  explicit FdWriter(const std::string& path) : fd_(path, O_WRONLY | O_CREAT | O_TRUNC) {}
  void write(const std::uint8_t* buf, std::size_t n) override {
    while (n > 0) {
      const ssize_t put = ::write(fd_.get(), buf, n);
      if (put < 0 && errno == EINTR) continue;
      if (put < 0) throw io::IoError("write " + fd_.path() + ": " + std::strerror(errno), errno);
      buf += put;
      n -= static_cast<std::size_t>(put);
    }
  }
  void commit() override {}
  std::string name() const override { return fd_.path(); }

 private:
  Fd fd_;
};

XXH128_hash_t hash_file(const std::string& path) {
  FdReader in(path);
  HashingWriter h;
  std::vector<std::uint8_t> buf(1 << 20);
  for (std::size_t n; (n = in.read(buf.data(), buf.size())) != 0;) h.write(buf.data(), n);
  return h.digest();
}

// Removes the scratch files however the runs end.
struct Scratch {
  std::vector<std::string> paths;
  ~Scratch() {
    for (const auto& p : paths) ::unlink(p.c_str());
  }
};

}  // namespace

void encrypt_with(const Crypt& crypt, io::Reader& in, io::Writer& out,
                  const std::vector<core::Credential>& creds) {
  core::door::encrypt(in, out, creds, crypt.settings, crypt.run);
}

void decrypt_with(const Crypt& crypt, io::Reader& in, io::Writer& out,
                  const std::vector<core::Credential>& creds) {
  core::door::EncryptedFile file(in);
  file.unlock(creds, crypt.limits);
  file.decrypt(out, crypt.run);
}

FileRuns run_through_files(const Context& ctx, const std::string& dir, std::span<const std::uint8_t> input,
                           const XXH128_hash_t& input_hash, const std::vector<core::Credential>& creds,
                           const Crypt& crypt, std::size_t runs, double max_time) {
  const std::string base = dir + "/pcrypt-bench-" + std::to_string(::getpid());
  Scratch scratch{{base + ".plain", base + ".pcrypt", base + ".out"}};
  const std::string& plain = scratch.paths[0];
  const std::string& sealed = scratch.paths[1];
  const std::string& opened = scratch.paths[2];
  try {
    FdWriter w(plain);
    w.write(input.data(), input.size());
  } catch (const io::IoError& e) {
    throw core::Error(PCRYPT_E_IO, e.what(), "--dir needs a writable directory with room for 3 x size");
  }
  auto encrypt = [&] {
    FdReader in(plain);
    FdWriter out(sealed);
    encrypt_with(crypt, in, out, creds);
  };
  auto decrypt = [&] {
    FdReader in(sealed);
    FdWriter out(opened);
    decrypt_with(crypt, in, out, creds);
  };
  FileRuns fr;
  for (std::size_t w = 0; w < ctx.method.warmups && !ctx.stop(); ++w) {
    encrypt();
    decrypt();
  }
  double spent = 0;
  for (std::size_t r = 0; r < runs && spent < max_time && !ctx.stop(); ++r) {
    ctx.progress("throughput: file run " + std::to_string(r + 1) + "/" + std::to_string(runs) + " in " + dir);
    fr.encrypt.push_back(time_seconds(encrypt));
    fr.decrypt.push_back(time_seconds(decrypt));
    spent += fr.encrypt.back() + fr.decrypt.back();
    fr.ok.push_back(same_hash(hash_file(opened), input_hash));  // untimed
  }
  fr.note = "files: " + core::format_bytes(input.size(), core::ByteStyle::exact) +
            " plaintext file -> encrypt -> ciphertext file -> "
            "decrypt -> output file, plain read(2)/write(2) without fsync (page cache); the output file is "
            "hashed with XXH3-128 after each run, outside the timing; scratch files are deleted afterwards";
  return fr;
}

}  // namespace pcrypt::app::bench
