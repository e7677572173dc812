// `pcrypt keygen`: like age-keygen, the key goes to standard output unless -o names a file (created 0600,
// never over an existing file without -f).
#include <string>

#include "app/commands.h"
#include "app/endpoints.h"
#include "app/library.h"

namespace pcrypt::app {

int run_keygen(const KeygenArgs& args) {
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
