// `pcrypt keygen`: like age-keygen, the key goes to standard output unless -o names a file (created 0600,
// never over an existing file without -f).
#include <string>

#include "app/commands.h"
#include "app/endpoints.h"
#include "app/error_words.h"
#include "app/library.h"

namespace pcrypt::app {

namespace {

// `keygen --raw 16|32`: the key's bytes alone (C2SP chunked encryption's input key), never to a terminal.
int run_keygen_raw(const KeygenArgs& args) {
  if (args.raw != "16" && args.raw != "32")
    throw CliError(PCRYPT_E_BAD_ARGUMENT, "--raw " + args.raw + ": a raw key is 16 or 32 bytes",
                   "--raw 16 for cobblestone-128, --raw 32 for cobblestone-256");
  if (args.identity || args.pq)
    throw CliError(PCRYPT_E_BAD_ARGUMENT, "--raw makes a raw key, not an identity");
  const SecretBytes key = generate_raw_key(args.raw == "16" ? 16 : 32);
  const std::string path = is_standard_stream(args.output) ? std::string() : args.output;
  if (path.empty())
    refuse_terminal_stdout(false);
  else
    check_output_path(Input{}, path, args.force);
  const std::unique_ptr<io::Writer> out = open_output(path, args.force);
  out->write(key.data(), key.size());
  out->commit();
  return 0;
}

}  // namespace

int run_keygen(const KeygenArgs& args) {
  if (!args.raw.empty()) return run_keygen_raw(args);
  if (args.identity || args.pq) return run_keygen_identity(args);
  const std::string text = generate_key_file();

  const std::string path = is_standard_stream(args.output) ? std::string() : args.output;
  if (!path.empty()) check_output_path(Input{}, path, args.force);
  const std::unique_ptr<io::Writer> out = open_output(path, args.force);
  out->write(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  out->commit();
  return 0;
}

}  // namespace pcrypt::app
