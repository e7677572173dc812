// `pcrypt bench throughput --dir DIR`: the same runs as in memory, but reading and writing real files, so the
// page cache, read(2)/write(2) and the file system are in the measurement.
#pragma once

#include <xxhash.h>

#include <span>
#include <string>
#include <vector>

#include "bench/context.h"
#include "core/door/encrypted_file.h"

namespace pcrypt::app::bench {

// One configuration's encryption and decryption, through the door as every client does it.
struct Crypt {
  core::door::EncryptSettings settings;
  core::door::UnlockLimits limits;
  core::door::RunOptions run;
};
void encrypt_with(const Crypt& crypt, io::Reader& in, io::Writer& out,
                  const std::vector<core::Credential>& creds);
void decrypt_with(const Crypt& crypt, io::Reader& in, io::Writer& out,
                  const std::vector<core::Credential>& creds);

struct FileRuns {
  std::vector<double> encrypt, decrypt;
  std::vector<bool> ok;  // decrypted file hashed to the input's XXH3-128
  std::string note;
};

FileRuns run_through_files(const Context& ctx, const std::string& dir, std::span<const std::uint8_t> input,
                           const XXH128_hash_t& input_hash, const std::vector<core::Credential>& creds,
                           const Crypt& crypt, std::size_t runs, double max_time);

}  // namespace pcrypt::app::bench
