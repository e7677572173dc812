// `pcrypt keygen --identity` / `--pq` and `pcrypt recipient`: X25519 and post-quantum hybrid identities in
// age's encoding (FORMAT.md §10.5, §10.6).
#include <sodium.h>

#include <cstdio>
#include <string>

#include "app/commands.h"
#include "app/endpoints.h"
#include "app/public_key_credentials.h"
#include "core/recipient.h"

namespace pcrypt::app {
namespace {

// The authorized_keys / .pub form of an SSH public key blob (without the comment, which the blob lacks).
std::string ssh_public_line(const std::vector<std::uint8_t>& blob) {
  std::string b64(sodium_base64_ENCODED_LEN(blob.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
  sodium_bin2base64(b64.data(), b64.size(), blob.data(), blob.size(), sodium_base64_VARIANT_ORIGINAL);
  b64.pop_back();  // the terminating NUL
  return "ssh-ed25519 " + b64;
}

}  // namespace

int run_keygen_identity(const KeygenArgs& args) {
  const core::Identity identity =
      args.pq ? core::generate_hybrid_identity() : core::generate_x25519_identity();
  const std::string recipient = args.pq ? core::format_hybrid_recipient(identity.hybrid->public_key())
                                        : core::format_x25519_recipient(identity.public_key);
  const std::string secret =
      args.pq ? core::format_hybrid_identity(identity.secret) : core::format_x25519_identity(identity.secret);
  const std::string text = "# public key: " + recipient + "\n" + secret + "\n";

  const std::string path = is_standard_stream(args.output) ? std::string() : args.output;
  if (!path.empty()) check_output_path(Input{}, path, args.force);
  const std::unique_ptr<io::Writer> out = open_output(path, args.force);
  out->write(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  out->commit();
  std::fprintf(stderr, "public key: %s\n", recipient.c_str());
  return 0;
}

int run_recipient(const RecipientArgs& args) {
  for (const core::Identity& identity : read_identity_files(args.files)) {
    if (identity.kind == core::Identity::Kind::x25519)
      std::printf("%s\n", core::format_x25519_recipient(identity.public_key).c_str());
    else if (identity.kind == core::Identity::Kind::mlkem768_x25519)
      std::printf("%s\n", core::format_hybrid_recipient(identity.hybrid->public_key()).c_str());
    else
      std::printf("%s\n", ssh_public_line(identity.blob).c_str());
  }
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace pcrypt::app
