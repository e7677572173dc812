// The door (core/door/encrypted_file.h) on hostile bytes, the way every caller uses it: open (format
// detection, either header parser), describe, info, each slot in words, header_incomplete on every prefix
// length the input offers, then unlock with a fixed key file and identity (cheap work factors only) and
// decrypt and read a range when they open it. Every input either throws core::Error or behaves: nothing
// else may escape, and a description must fit the input.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "core/door/encrypted_file.h"
#include "core/error.h"
#include "core/keys/key_file.h"
#include "core/keys/recipient.h"
#include "io/memory_stream.h"

namespace {

std::vector<pcrypt::core::Credential> fixed_credentials() {
  using namespace pcrypt::core;
  std::vector<Credential> out;
  // Fixed, so a crash replays (made by pcrypt keygen, for this harness only).
  out.push_back(
      parse_key_file("PCRYPT-KEY-1:8MFn78DNOgwhAVrQzyUEIK3joF267k5ONF0CmU2BRlOqNgZp\n", "fuzz key"));
  for (Identity& id : parse_identity_file(
           "AGE-SECRET-KEY-1CAZ8S47ZY58K8FNVHHJRM8MRE9PTMWMXAVWA9MFVF28VEFK6A8VS3EG3LK\n", "fuzz identity"))
    out.push_back(Credential::of(std::move(id)));
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pcrypt;
  static const std::vector<core::Credential> credentials = [] {
    try {
      return fixed_credentials();
    } catch (const core::Error&) {
      return std::vector<core::Credential>();
    }
  }();
  (void)core::door::header_incomplete({data, size});
  io::MemoryReader in({data, size}, io::MemoryAccess::positional);
  try {
    core::door::EncryptedFile file(in);
    const core::door::FileDescription& d = file.description();
    if (!d.armored && d.header_bytes > size + 16) std::abort();  // age's nonce may be missing, no more
    if (file.info(size).empty()) std::abort();
    for (std::size_t i = 0; i < d.slots; ++i)
      if (file.slot_words(i).empty()) std::abort();
    core::door::UnlockLimits cheap;
    cheap.argon2id_ceiling = core::KdfLimits{1, std::uint64_t{64} << 10};
    cheap.max_scrypt_log2 = 4;
    if (credentials.empty()) std::abort();  // the fixed keys above must parse
    file.unlock(credentials, cheap);
    io::NullWriter nowhere;
    file.read_range(core::ByteRange{1, 100}, nowhere, core::door::RunOptions{1, {}});
  } catch (const core::Error&) {
    // Refused with a pcrypt error: what most inputs get.
  }
  return 0;
}
