// `pcrypt decrypt --offset N --length M`: one plaintext byte range (File::read_range), of a pcrypt or age
// file.

#include <chrono>
#include <optional>

#include <pcrypt/pcrypt.h>

#include "app/commands.h"
#include "app/credentials.h"
#include "app/crypt_options.h"
#include "app/endpoints.h"
#include "app/logging.h"
#include "app/progress.h"
#include "app/report.h"
#include "app/size_arg.h"
#include "app/unlocked_run.h"

namespace pcrypt::app {
namespace {

struct ByteRange {
  std::uint64_t offset = 0;
  std::optional<std::uint64_t> length;  // none: to the end
};

ByteRange parse_range(const CryptArgs& args) {
  ByteRange range;
  if (!args.offset.empty()) range.offset = parse_size(args.offset, "--offset");
  if (!args.length.empty()) range.length = parse_size(args.length, "--length");
  return range;
}

}  // namespace

int run_decrypt_range(const CryptArgs& args, Verbosity verbosity) {
  require_credential(args, PassphrasePurpose::decrypt);
  const DecryptChoices choices = decrypt_choices(args);
  const ByteRange range = parse_range(args);
  // A part of the plaintext under the whole file's name would pass for the whole file: without -o, a range
  // goes to standard output, as tail and head write theirs.
  const std::string out_path = !args.output_given || is_standard_stream(args.output) ? "" : args.output;
  Input input = open_decrypt_input(args.file, out_path, args.force);
  DecryptionInput opened(args, input);

  const std::unique_ptr<io::Writer> out = open_output(out_path, args.force);
  // The header was read once, by `opened`, which left the input at the payload: the library reads the
  // range's records from there, in place where it can.
  const auto run = run_unlocked(opened, std::move(choices), input.name, "decrypting", std::nullopt,
                                progress_wanted(verbosity == Verbosity::quiet, args.progress),
                                [&](File& file, const RunOptions& options) {
                                  const RangeRead read =
                                      file.read_range(range.offset, range.length, sink_of(*out), options);
                                  commit_written(*out);
                                  return read;
                                });
  const RangeRead& read = run.result;
  log::info("{}", read.positional
                      ? "read the range's records in place (pread)"
                      : "read the input in order, discarding the records before the range unauthenticated");
  log::info("wrote {} of plaintext from {} authenticated chunks", format_bytes(read.bytes), read.records);
  return 0;
}

}  // namespace pcrypt::app
