// The header read ahead of decryption, so that the credentials can be chosen from the slots the file has:
// `-p` on a file without a passphrase slot is refused before any prompt, and a file whose slots are all
// passphrase slots may ask for the passphrase when no credential was given. The bytes read are replayed, so
// core::decrypt_stream still reads (and authenticates) the whole file itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/pcrypt/format.h"
#include "io/stream.h"

namespace pcrypt::app {

class PeekedInput final : public io::Reader {
 public:
  // Reads the header from `in` (core::read_header: throws core::Error(header) if it is malformed).
  explicit PeekedInput(io::Reader& in);

  const core::ParsedHeader& parsed() const { return parsed_; }
  const core::FileHeader& header() const { return parsed_.header; }
  std::uint64_t header_bytes() const { return peeked_.size(); }
  // The header's bytes first, then the rest of `in`.
  std::size_t read(std::uint8_t* buf, std::size_t n) override;
  std::string name() const override { return in_.name(); }
  // Once the header has been replayed, `in` stands right after it, so the pipeline may pread the records of a
  // regular file itself (core/pipeline.cc) instead of reading them through this wrapper.
  io::PositionalReader* positional() override {
    return replayed_ == peeked_.size() ? in_.positional() : nullptr;
  }

 private:
  io::Reader& in_;
  std::vector<std::uint8_t> peeked_;
  std::size_t replayed_ = 0;
  core::ParsedHeader parsed_;
};

// How many slots of `kind` the header has.
std::size_t count_slots(const core::FileHeader& header, core::SlotKind kind);

// "2 key-file slots and 1 passphrase slot": for messages.
std::string describe_slots(const core::FileHeader& header);

}  // namespace pcrypt::app
