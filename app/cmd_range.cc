// `pcrypt decrypt --offset N --length M`: one plaintext byte range (core/range.h), of a pcrypt or age file.
#include <spdlog/spdlog.h>

#include <optional>

#include "app/commands.h"
#include "app/credentials.h"
#include "app/crypt_options.h"
#include "app/endpoints.h"
#include "app/progress.h"
#include "app/report.h"
#include "core/age/file.h"
#include "core/byte_size.h"
#include "core/error.h"
#include "core/pcrypt/keys.h"
#include "core/pcrypt/range.h"
#include "core/range.h"

namespace pcrypt::app {
namespace {

core::ByteRange parse_range(const CryptArgs& args) {
  core::ByteRange range;
  if (!args.offset.empty()) range.offset = core::parse_size(args.offset, "--offset");
  if (!args.length.empty()) range.length = core::parse_size(args.length, "--length");
  return range;
}

}  // namespace

int run_decrypt_range(const CryptArgs& args, Verbosity verbosity) {
  require_credential(args, PassphrasePurpose::decrypt);
  const core::DecryptOptions options = decrypt_options(args);
  const core::ByteRange range = parse_range(args);
  // A part of the plaintext under the whole file's name would pass for the whole file: without -o, a range
  // goes to standard output, as tail and head write theirs.
  const std::string out_path = !args.output_given || is_standard_stream(args.output) ? "" : args.output;
  Input input = open_decrypt_input(args.file, out_path, args.force);
  DecryptionInput opened(args, *input.reader, input.name);

  const std::unique_ptr<io::Writer> out = open_output(out_path, args.force);
  ProgressLine progress("decrypting", std::nullopt,
                        progress_wanted(verbosity == Verbosity::quiet, args.progress));
  const core::RangeOptions range_options{options.threads, options.engine,
                                         [&progress](std::uint64_t bytes) { progress.update(bytes); }};
  core::RangeResult result;
  try {
    // The header was parsed once, by `opened`; its reading left the input at the payload (an age file's
    // after its nonce), so the records are read from there and nothing needs the header's bytes replayed.
    io::Reader* rest = input.reader.get();
    std::optional<core::KeyedPayload> payload;
    if (opened.is_age()) {
      core::age::AgeInput& age = opened.age();
      const core::age::DecryptOptions age_options = age_decrypt_options(args);
      const SecretBytes file_key = core::age::unlock(age, opened.credentials(), age_options.max_scrypt_log2);
      payload.emplace(core::age::open_payload(age, file_key, age_options.backend));
      // Armor's offsets are not the payload's: an armored file is read in order, through its decoder.
      rest = &age.rest();
    } else {
      const core::ParsedHeader& parsed = opened.parsed();
      payload.emplace(core::keyed_payload(
          parsed, core::unlock_file_key(parsed, opened.credentials(), options.kdf_ceiling), options.engine));
    }
    io::PositionalReader* file = opened.is_age() && opened.age().armored() ? nullptr : rest->positional();
    // Positional reads take the header at offset 0; input that starts elsewhere (standard input left
    // mid-file by another program) is read in order.
    if (file != nullptr && file->position() == payload->layout.payload_offset) {
      spdlog::info("reading the range's records in place (pread)");
      result = core::decrypt_range(*file, *payload, range, *out, range_options);
    } else {
      spdlog::info("reading the input in order, discarding the records before the range unauthenticated");
      result = core::decrypt_range_stream(*rest, *payload, range, *out, range_options);
    }
  } catch (const core::Error& e) {
    if (e.kind() == core::ErrorKind::header || e.kind() == core::ErrorKind::payload)
      throw core::Error(e.kind(), with_file_context(e.what(), input.name), e.hint());
    throw;
  }
  out->commit();
  progress.finish();
  spdlog::info("wrote {} of plaintext from {} authenticated chunks", core::format_bytes(result.bytes_written),
               result.records_opened);
  return 0;
}

}  // namespace pcrypt::app
