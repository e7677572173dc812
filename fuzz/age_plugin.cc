// The age plugin protocol, client side (core/age/plugin.h): the input is everything a plugin says in the
// interactive phase (stanzas: msg, confirm, request-secret, recipient-stanza, file-key, error, grease, done,
// or garbage), replayed to both state machines; what the client answers is thrown away. Any input either
// throws core::Error or ends with at most one stanza per recipient (wrap) and a 16-byte file key or none
// (unwrap). Seeds: tests/vectors/age/plugin/.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/age/plugin.h"
#include "core/age/plugin_channel.h"
#include "core/error.h"
#include "io/buffered_input.h"
#include "io/memory_stream.h"

namespace {

class Replay final : public pcrypt::core::age::PluginConnection {
 public:
  Replay(const std::uint8_t* data, std::size_t size) : raw_({data, size}), in_(raw_) {}
  const std::string& program() const override { return program_; }
  using PluginConnection::send;
  void send(const pcrypt::core::age::Stanza& stanza) override {
    if (stanza.args.empty()) std::abort();  // the client never sends a stanza without a command
  }
  pcrypt::core::age::Stanza receive() override {
    return pcrypt::core::age::read_plugin_message(in_, program_);
  }
  void finish() override {}

 private:
  std::string program_ = "age-plugin-fuzz";
  pcrypt::io::MemoryReader raw_;
  pcrypt::io::BufferedInput in_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::string> recipients = {
      "age1fuzz1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq4y0mh3c",
      "age1fuzz1qyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqs2e8hjd"};
  const pcrypt::SecretBytes file_key(std::vector<std::uint8_t>(16, 7));
  {
    Replay plugin(data, size);
    try {
      const auto stanzas = pcrypt::core::age::wrap_over(plugin, recipients, file_key).stanzas;
      if (stanzas.empty() || stanzas.size() > recipients.size()) std::abort();
      for (const auto& s : stanzas)
        if (s.args.empty()) std::abort();
    } catch (const pcrypt::core::Error&) {
    }
  }
  {
    Replay plugin(data, size);
    const std::vector<std::string_view> identities = {"AGE-PLUGIN-FUZZ-1QQQQQQQQQQQQQQ"};
    const std::vector<pcrypt::core::age::Stanza> header_stanzas = {
        {{"fuzz", "tag"}, std::vector<std::uint8_t>(32)}};
    std::vector<std::string> failures;
    try {
      const auto key = pcrypt::core::age::unwrap_over(plugin, identities, header_stanzas, failures);
      if (key && key->size() != 16) std::abort();
    } catch (const pcrypt::core::Error&) {
    }
  }
  return 0;
}
