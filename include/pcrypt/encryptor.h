// libpcrypt's streaming encryptor (docs/LIBRARY.md): a new encrypted file
// made from plaintext pushed in pieces, for callers that do not have their plaintext as one stream to
// hand to pcrypt::encrypt -- a Python file object, a network receiver, a program producing its output.
// The model is libzstd's ZSTD_compressStream: create with a sink, recipients and options; write() any
// number of times, pieces of any size; finish() once.
//
//   pcrypt::Recipients to;
//   to.recipients = {"age1..."};
//   pcrypt::Encryptor out(pcrypt::Sink::path("log.age"), to, pcrypt::EncryptOptions{});
//   while (producing) out.write(next_piece());
//   out.finish();   // log.age appears now, complete
//
// The file is the one pcrypt::encrypt writes for the same recipients and options (the same header, the
// same records; only the random keys and nonces differ), in either format, binary only (armor is
// ErrorKind::usage). Records are sealed as soon as enough plaintext has arrived, on `options.threads`
// workers within each write(); the last record is kept back until finish() says it is the last.
#pragma once

#include <pcrypt/pcrypt.h>

namespace pcrypt {
inline namespace v1 {
namespace detail {
struct EncryptorImpl;  // the hidden part, defined inside the library only
}  // namespace detail

// Not copyable, moveable; one thread at a time.
class PCRYPT_API Encryptor {
 public:
  // Makes the header (running Argon2id or scrypt for a passphrase) and writes it to `sink`. Errors as
  // pcrypt::encrypt's: ErrorKind::usage for no recipient, what the format forbids, a chunk size out of
  // range, or armor.
  Encryptor(Sink sink, const Recipients& to, const EncryptOptions& options);
  Encryptor(Encryptor&&) noexcept;
  Encryptor& operator=(Encryptor&&) noexcept;
  // An encryptor destroyed before finish() abandons its file: a path sink's file never appears. (An fd or
  // callback sink keeps what was written, a file without its final record, which every reader rejects
  // as truncated.)
  ~Encryptor();

  // Appends plaintext. ErrorKind::usage after finish() or after a failed call (the file is then abandoned).
  void write(std::span<const std::uint8_t> plaintext);
  // Seals the final record and completes the sink (a path sink's file appears, fsynced). Returns the bytes
  // moved. ErrorKind::usage when called twice.
  Transfer finish();

  // Plaintext bytes written so far.
  std::uint64_t plaintext_bytes() const noexcept;

 private:
  using Impl = detail::EncryptorImpl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace v1
}  // namespace pcrypt
