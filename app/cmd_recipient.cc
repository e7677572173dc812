// `pcrypt keygen --identity` / `--pq` and `pcrypt recipient`: X25519 and post-quantum hybrid identities in
// age's encoding (FORMAT.md §10.5, §10.6).
#include <cstdio>
#include <string>

#include "app/commands.h"
#include "app/endpoints.h"
#include "app/library.h"

namespace pcrypt::app {

int run_keygen_identity(const KeygenArgs& args) {
  const NewIdentity identity = generate_identity(args.pq);
  const std::string& text = identity.file_text;
  const std::string& recipient = identity.recipient;

  const std::string path = is_standard_stream(args.output) ? std::string() : args.output;
  if (!path.empty()) check_output_path(Input{}, path, args.force);
  const std::unique_ptr<io::Writer> out = open_output(path, args.force);
  out->write(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  out->commit();
  std::fprintf(stderr, "public key: %s\n", recipient.c_str());
  return 0;
}

int run_recipient(const RecipientArgs& args) {
  Keys identities = terminal_keys();
  for (const std::string& path : args.files) identities.add_identity_file(path);
  for (const std::string& recipient : identities.recipients()) std::printf("%s\n", recipient.c_str());
  flush_stdout();
  return 0;
}

}  // namespace pcrypt::app
