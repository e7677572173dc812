// io/json.h: the one JSON writer behind `info --json`, the run summaries, age-inspect and `bench --format
// json`. The CLI tests parse its output with Python's json module; these pin the escaping and the layout
// rules.
#include "io/json.h"

#include <catch2/catch.hpp>
#include <string>

using pcrypt::io::json_string;
using pcrypt::io::JsonWriter;

TEST_CASE("json_string escapes what RFC 8259 requires, and <, >, & as Go does") {
  CHECK(json_string("plain") == "\"plain\"");
  CHECK(json_string("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(json_string("\n\r\t") == "\"\\n\\r\\t\"");
  CHECK(json_string(std::string("\x01\x1f", 2)) == "\"\\u0001\\u001f\"");
  CHECK(json_string(std::string(1, '\0')) == "\"\\u0000\"");
  CHECK(json_string("<a&b>") == "\"\\u003ca\\u0026b\\u003e\"");
  // Bytes above 0x7f pass through: the writer's input is UTF-8 text.
  CHECK(json_string("caf\xc3\xa9") == "\"caf\xc3\xa9\"");
}

TEST_CASE("JsonWriter on one line: no spaces, members in order, null for a missing number") {
  JsonWriter out;
  out.begin_object()
      .string("format", "age")
      .number("bytes", 42)
      .optional_number("plaintext", std::nullopt)
      .boolean("armor", false)
      .begin_array("stanzas")
      .string_element("X25519")
      .string_element("scrypt")
      .end_array()
      .end_object();
  CHECK(out.text() ==
        R"({"format":"age","bytes":42,"plaintext":null,"armor":false,"stanzas":["X25519","scrypt"]})");
}

TEST_CASE("JsonWriter indented as Go's json.Encoder.SetIndent lays it out") {
  JsonWriter out(4);
  out.begin_object().string("a", "x").begin_array("b").string_element("y").end_array().end_object();
  CHECK(out.text() == "{\n    \"a\": \"x\",\n    \"b\": [\n        \"y\"\n    ]\n}");
  JsonWriter empty(4);
  empty.begin_object().begin_array("none").end_array().end_object();
  CHECK(empty.text() == "{\n    \"none\": []\n}");
}

TEST_CASE("JsonWriter::real keeps up to 6 significant digits") {
  JsonWriter out;
  out.begin_object().real("seconds", 1.23456789).real("whole", 2.0).end_object();
  CHECK(out.text() == R"({"seconds":1.23457,"whole":2})");
  JsonWriter infinite;
  infinite.begin_object().real("rate", 1.0 / 0.0).end_object();
  CHECK(infinite.text() == R"({"rate":null})");  // JSON has no infinity
}
