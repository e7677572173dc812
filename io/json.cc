#include "io/json.h"

#include <cmath>
#include <cstdio>

namespace pcrypt::io {

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (u < 0x20 || c == '<' || c == '>' || c == '&') {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", u);
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

void JsonWriter::member(std::string_view name) {
  if (!first_) out_ += ',';
  first_ = false;
  if (indent_ > 0 && depth_ > 0) out_ += '\n' + std::string(static_cast<std::size_t>(depth_ * indent_), ' ');
  if (!name.empty()) out_ += json_string(name) + (indent_ > 0 ? ": " : ":");
}

JsonWriter& JsonWriter::begin_object(std::string_view name) {
  member(name);
  out_ += '{';
  ++depth_;
  first_ = true;
  return *this;
}

JsonWriter& JsonWriter::begin_array(std::string_view name) {
  member(name);
  out_ += '[';
  ++depth_;
  first_ = true;
  return *this;
}

void JsonWriter::close(char bracket) {
  --depth_;
  if (indent_ > 0 && !first_) out_ += '\n' + std::string(static_cast<std::size_t>(depth_ * indent_), ' ');
  out_ += bracket;
  first_ = false;
}

JsonWriter& JsonWriter::end_object() {
  close('}');
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  close(']');
  return *this;
}

JsonWriter& JsonWriter::string(std::string_view name, std::string_view value) {
  member(name);
  out_ += json_string(value);
  return *this;
}

JsonWriter& JsonWriter::string_element(std::string_view value) {
  return string({}, value);
}

JsonWriter& JsonWriter::number(std::string_view name, std::uint64_t value) {
  member(name);
  out_ += std::to_string(value);
  return *this;
}

JsonWriter& JsonWriter::optional_number(std::string_view name, std::optional<std::uint64_t> value) {
  return value ? number(name, *value) : null(name);
}

JsonWriter& JsonWriter::real(std::string_view name, double value) {
  member(name);
  if (!std::isfinite(value)) {
    out_ += "null";  // JSON has no infinity
    return *this;
  }
  char text[64];
  std::snprintf(text, sizeof text, "%.6g", value);
  out_ += text;
  return *this;
}

JsonWriter& JsonWriter::boolean(std::string_view name, bool value) {
  member(name);
  out_ += value ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null(std::string_view name) {
  member(name);
  out_ += "null";
  return *this;
}

}  // namespace pcrypt::io
