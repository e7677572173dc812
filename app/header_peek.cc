#include "app/header_peek.h"

#include <algorithm>
#include <cstring>

#include "core/pcrypt/slot_words.h"

namespace pcrypt::app {
namespace {

// Keeps a copy of everything read through it.
class RecordingReader final : public io::Reader {
 public:
  RecordingReader(io::Reader& in, std::vector<std::uint8_t>& record) : in_(in), record_(record) {}
  std::size_t read(std::uint8_t* buf, std::size_t n) override {
    const std::size_t got = in_.read(buf, n);
    record_.insert(record_.end(), buf, buf + got);
    return got;
  }
  std::string name() const override { return in_.name(); }

 private:
  io::Reader& in_;
  std::vector<std::uint8_t>& record_;
};

}  // namespace

PeekedInput::PeekedInput(io::Reader& in) : in_(in) {
  RecordingReader recorder(in_, peeked_);
  parsed_ = core::read_header(recorder);
}

std::size_t PeekedInput::read(std::uint8_t* buf, std::size_t n) {
  const std::size_t from_peek = std::min(n, peeked_.size() - replayed_);
  if (from_peek > 0) std::memcpy(buf, peeked_.data() + replayed_, from_peek);
  replayed_ += from_peek;
  // The contract is "fewer than n only at the end": go on into the input itself.
  return from_peek == n ? n : from_peek + in_.read(buf + from_peek, n - from_peek);
}

std::size_t count_slots(const core::FileHeader& header, core::SlotKind kind) {
  return static_cast<std::size_t>(std::count_if(header.slots.begin(), header.slots.end(),
                                                [kind](const core::KeySlot& s) { return s.kind == kind; }));
}

std::string describe_slots(const core::FileHeader& header) {
  return core::describe_slot_counts(header);
}

}  // namespace pcrypt::app
