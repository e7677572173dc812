// libpcrypt's pull-style decryptor (docs/LIBRARY.md, "Reading as a stream"):
// the plaintext of an unlocked File handed out by read() calls, for a program that streams it into a parser,
// a socket or a compressor rather than into a sink. The model is Go's age.Decrypt, which returns a reader,
// and libzstd's ZSTD_decompressStream.
//
//   pcrypt::File file = pcrypt::File::open(pcrypt::Source::fd(0, "standard input"));
//   file.unlock(by);
//   pcrypt::Reader in(std::move(file));
//   std::vector<std::uint8_t> buffer(64 << 10);
//   while (const std::size_t n = in.read(buffer)) consume(buffer.data(), n);
//
// Records are read ahead and authenticated on `threads` workers in the background (the pipeline File::decrypt
// runs), from any source: a regular file (positional reads on the workers), a pipe, memory, a read-at
// callback, armored age. Memory is bounded by that pipeline's pool (docs/LIBRARY.md, "Memory"), whatever the
// file's size and however slowly the caller reads. Only authenticated plaintext is ever returned: read()
// returns the bytes of every record before a damaged one, then the next read() throws the error
// (ErrorKind::damaged_payload, naming the record), and no byte of the damaged record is returned.
#pragma once

#include <pcrypt/pcrypt.h>

namespace pcrypt {
inline namespace v1 {
namespace detail {
struct ReaderImpl;  // the hidden part, defined inside the library only
}  // namespace detail

// Not copyable, moveable; one thread at a time. Any call on a moved-from Reader is ErrorKind::usage.
class PCRYPT_API Reader {
 public:
  // Takes an unlocked File (ErrorKind::usage when it is not unlocked, or moved from) and starts reading its
  // records ahead on `options.threads` workers (0 = one per core this process may use), as File::decrypt
  // takes them. `options.progress` is called with the plaintext bytes authenticated so far, from the
  // read-ahead's thread (an exception it throws ends the read-ahead: the next read() throws it). A source
  // that can only be read in order (a pipe, armor) must not have been decrypted or verified already: the
  // first read() then says so (ErrorKind::usage).
  explicit Reader(File file, const RunOptions& options = {});
  Reader(Reader&&) noexcept;
  Reader& operator=(Reader&&) noexcept;
  // Stops the read-ahead and waits for its threads (a read of the source in progress, a pipe's, returns
  // first). What was not read is dropped.
  ~Reader();

  // Fills `buffer` with the next plaintext bytes and returns how many: all of buffer.size() unless the
  // plaintext ends first, 0 only at its end (and for an empty buffer). A failure (a damaged or truncated
  // record, a source that fails) is thrown by the first read() that would return a byte of the failed
  // record; a read() that gathered bytes before it returns them, and the next one throws. After a failure
  // every read() throws the same error again.
  std::size_t read(std::span<std::uint8_t> buffer);

  // Plaintext bytes returned so far.
  std::uint64_t position() const;
  // Whether read() has returned 0 (the whole plaintext was read and authenticated).
  bool at_end() const;
  // What the whole run moved, as File::decrypt returns it; ErrorKind::usage before at_end().
  Transfer transfer() const;
  // The file's description, as File::describe.
  const Description& describe() const;

 private:
  using Impl = detail::ReaderImpl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace v1
}  // namespace pcrypt
