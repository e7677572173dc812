// `pcrypt info`: the header in plain words (no key needed), and/or the engine table.
#include <cstdio>
#include <span>
#include <vector>

#include "app/commands.h"
#include "app/endpoints.h"
#include "app/report.h"
#include "core/age/describe.h"
#include "core/age/detect.h"
#include "core/crypt.h"
#include "core/error.h"
#include "core/file_description.h"
#include "core/format.h"

namespace pcrypt::app {
namespace {

// Enough for every header the format allows, and for the first lines of any key file.
constexpr std::size_t kStartBytes = 4096;

// The bytes already read, then the rest of the input.
class ReplayReader final : public io::Reader {
 public:
  ReplayReader(std::span<const std::uint8_t> start, io::Reader& rest) : start_(start), rest_(rest) {}
  std::size_t read(std::uint8_t* buf, std::size_t n) override {
    std::size_t got = 0;
    while (got < n && pos_ < start_.size()) buf[got++] = start_[pos_++];
    return got < n ? got + rest_.read(buf + got, n - got) : got;
  }
  std::string name() const override { return rest_.name(); }

 private:
  std::span<const std::uint8_t> start_;
  std::size_t pos_ = 0;
  io::Reader& rest_;
};

// The header of whichever format the input is in (pcrypt, binary or armored age), in words.
std::string describe(std::span<const std::uint8_t> start, Input& input) {
  ReplayReader in(start, *input.reader);
  const core::age::FileFormat format = core::age::detect_format(start);
  if (format == core::age::FileFormat::age_binary || format == core::age::FileFormat::age_armored) {
    core::age::BufferedInput buffered(in);
    const core::age::AgeInput age(buffered);
    return core::age::describe(age, input.size);
  }
  if (format != core::age::FileFormat::pcrypt)
    if (const auto other = core::recognise_other_file(start))
      throw core::Error(core::ErrorKind::header, "not a pcrypt file: this is " + other->what, other->hint);
  const core::ParsedHeader parsed = core::read_header(in);
  return core::describe_parsed_header(parsed) + core::describe_payload(parsed, input.size);
}

}  // namespace

int run_info(const InfoArgs& args) {
  if (args.engines) std::fputs(engine_table().c_str(), stdout);
  // `info --engines` alone is about this machine, not a file: don't wait on standard input.
  if (args.engines && args.file.empty()) return 0;

  Input input = open_input(args.file);
  refuse_terminal_input(input);
  std::vector<std::uint8_t> start(kStartBytes);
  start.resize(input.reader->read(start.data(), start.size()));
  std::string description;
  try {
    description = describe(start, input);
  } catch (const core::Error& e) {
    throw core::Error(e.kind(), with_file_context(e.what(), input.name), e.hint());
  }
  if (args.engines) std::fputc('\n', stdout);
  std::fputs(description.c_str(), stdout);
  if (std::fflush(stdout) != 0) throw core::Error(core::ErrorKind::io, "cannot write to standard output");
  return 0;
}

}  // namespace pcrypt::app
