// A JSON writer for what pcrypt prints for scripts (`info --json`, `--json` run summaries, age-inspect):
// objects and arrays built in order, strings escaped as RFC 8259 requires. Nothing is parsed here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pcrypt::io {

// `text` as a JSON string, quotes included. Control characters, '"' and '\\' are escaped, and so are '<',
// '>' and '&' (as \u003c...), as Go's encoder does, so that age-inspect's output matches age's byte for byte.
std::string json_string(std::string_view text);

// Writes one value. `indent` 0: all on one line, no spaces ({"a":1}); else each member on its own line,
// indented by that many spaces per level, with ": " between name and value (Go's json.Encoder.SetIndent).
class JsonWriter {
 public:
  explicit JsonWriter(int indent = 0) : indent_(indent) {}

  JsonWriter& begin_object(std::string_view name = {});
  JsonWriter& end_object();
  JsonWriter& begin_array(std::string_view name = {});
  JsonWriter& end_array();
  JsonWriter& string(std::string_view name, std::string_view value);
  JsonWriter& string_element(std::string_view value);
  JsonWriter& number(std::string_view name, std::uint64_t value);
  JsonWriter& optional_number(std::string_view name, std::optional<std::uint64_t> value);  // null if none
  JsonWriter& real(std::string_view name, double value);  // up to 6 significant decimals
  JsonWriter& boolean(std::string_view name, bool value);
  JsonWriter& null(std::string_view name);

  const std::string& text() const { return out_; }

 private:
  void member(std::string_view name);  // the separator, the line break and the name (inside an object)
  void close(char bracket);

  int indent_;
  int depth_ = 0;
  bool first_ = true;  // nothing written yet at this depth
  std::string out_;
};

}  // namespace pcrypt::io
