// Test helpers for the AES engine suites: the engines to run, hex, a strict little JSON reader for the
// Wycheproof file, and a reader for the SP 800-38A CTR text file. Vector files live in tests/vectors/aes/
// (see README there).
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/aes/engine.h"
#include "tests/source_dir.h"
#include "tests/test_bytes.h"

namespace aes_test {

using pcrypt::test::Bytes;

// Supported engines, in registry order; absent ones are reported loudly, and the list that ran is printed.
inline std::vector<const pcrypt::aes::Engine*> engines_under_test(bool need_block_cipher) {
  std::vector<const pcrypt::aes::Engine*> out;
  std::string ran;
  for (const pcrypt::aes::Engine& e : pcrypt::aes::all_engines()) {
    if (need_block_cipher && e.make_block_cipher == nullptr) continue;  // e.g. libsodium: no raw AES
    if (!e.supported()) {
      WARN("SKIPPED: engine " << e.name << " not supported on this CPU");
      continue;
    }
    out.push_back(&e);
    ran += (ran.empty() ? "" : ", ") + std::string(e.name);
  }
  WARN("engines tested" << (need_block_cipher ? " (raw AES)" : "") << ": " << ran);
  return out;
}

// libsodium's AES-256-GCM, the reference the engines are compared with; null, with a warning that the
// comparison is skipped, on a CPU where libsodium does not offer it (it needs AES-NI).
inline const pcrypt::aes::Engine* sodium_reference() {
  const pcrypt::aes::Engine* e = pcrypt::aes::find_engine("sodium");
  REQUIRE(e != nullptr);
  if (e->supported()) return e;
  WARN("SKIPPED: libsodium AES-256-GCM (the reference) is not supported on this CPU");
  return nullptr;
}

// The engine the differential tests compare every other one with: libsodium's where it runs (x86-64 with
// AES-NI), else our portable engine (e.g. on ARM64, where libsodium 1.0.18 has no AES-GCM), which the
// known-answer tests check independently (test_aes_kat.cc, test_aes_portable_gcm.cc). Says which it is.
inline const pcrypt::aes::Engine* gcm_reference() {
  const pcrypt::aes::Engine* e = pcrypt::aes::find_engine("sodium");
  REQUIRE(e != nullptr);
  if (!e->supported()) {
    e = pcrypt::aes::find_engine("portable");
    REQUIRE(e != nullptr);
    WARN("reference: portable engine (libsodium AES-256-GCM is not supported on this CPU)");
  }
  return e;
}

// A valid pointer even for an empty vector (whose data() may be null): libsodium declares its buffer
// arguments nonnull, so the engines are never handed nullptr, even with length 0.
inline std::uint8_t* ptr(Bytes& b) {
  static std::uint8_t none[1];
  return b.empty() ? none : b.data();
}
inline const std::uint8_t* ptr(const Bytes& b) {
  static const std::uint8_t none[1] = {};
  return b.empty() ? none : b.data();
}

// AES-256-GCM or AES-128-GCM by the key's length.
inline std::unique_ptr<pcrypt::aes::Gcm> make_gcm(const pcrypt::aes::Engine& e, const Bytes& key) {
  return pcrypt::aes::make_gcm_any(e, key);
}

// Supported engines with AES-128-GCM (all but sodium), in registry order; the list that ran is printed.
inline std::vector<const pcrypt::aes::Engine*> gcm128_engines_under_test() {
  std::vector<const pcrypt::aes::Engine*> out;
  std::string ran;
  for (const pcrypt::aes::Engine* e : engines_under_test(false)) {
    if (e->make_gcm128 == nullptr) continue;
    out.push_back(e);
    ran += (ran.empty() ? "" : ", ") + std::string(e->name);
  }
  WARN("engines tested (AES-128-GCM): " << ran);
  return out;
}

using pcrypt::test::from_hex;

inline std::string to_hex(const std::uint8_t* p, std::size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < n; ++i) (s += digits[p[i] >> 4]) += digits[p[i] & 15];
  return s;
}
inline std::string to_hex(const Bytes& b) {
  return to_hex(b.data(), b.size());
}

inline std::string read_vector_file(const std::string& name) {
  const std::string path = std::string(pcrypt::test::source_dir()) + "/tests/vectors/aes/" + name;
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open " + path);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// --- A strict JSON reader (RFC 8259 subset the vector files need: no \u escapes beyond ASCII). Any syntax
// error throws, so a truncated or corrupted vector file fails the test instead of silently running fewer
// cases.
struct Json {
  enum class Kind { null, boolean, number, string, array, object } kind = Kind::null;
  bool boolean = false;
  std::string text;  // string value, or the number's literal text
  std::vector<Json> items;
  std::map<std::string, Json> members;

  const Json& at(const std::string& key) const {
    auto it = members.find(key);
    if (kind != Kind::object || it == members.end()) throw std::runtime_error("JSON: missing member " + key);
    return it->second;
  }
  const std::string& str() const {
    if (kind != Kind::string) throw std::runtime_error("JSON: not a string");
    return text;
  }
  long long integer() const {
    if (kind != Kind::number) throw std::runtime_error("JSON: not a number");
    return std::stoll(text);
  }
};

class JsonParser {
 public:
  explicit JsonParser(const std::string& s) : s_(s) {}
  Json parse_document() {
    Json v = value();
    skip_ws();
    if (pos_ != s_.size()) fail("trailing data");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("JSON: " + what + " at offset " + std::to_string(pos_));
  }
  void skip_ws() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t'))
      ++pos_;
  }
  char peek() {
    skip_ws();
    if (pos_ >= s_.size()) fail("unexpected end");
    return s_[pos_];
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  void literal(const char* word) {
    for (const char* p = word; *p; ++p, ++pos_)
      if (pos_ >= s_.size() || s_[pos_] != *p) fail(std::string("expected ") + word);
  }
  Json value() {
    Json v;
    const char c = peek();
    if (c == '{') {
      v.kind = Json::Kind::object;
      ++pos_;
      if (peek() == '}') return ++pos_, v;
      for (;;) {
        std::string key = string_body();
        expect(':');
        if (!v.members.emplace(std::move(key), value()).second) fail("duplicate key");
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        expect('}');
        return v;
      }
    }
    if (c == '[') {
      v.kind = Json::Kind::array;
      ++pos_;
      if (peek() == ']') return ++pos_, v;
      for (;;) {
        v.items.push_back(value());
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        expect(']');
        return v;
      }
    }
    if (c == '"') {
      v.kind = Json::Kind::string;
      v.text = string_body();
      return v;
    }
    if (c == 't' || c == 'f') {
      v.kind = Json::Kind::boolean;
      v.boolean = c == 't';
      literal(c == 't' ? "true" : "false");
      return v;
    }
    if (c == 'n') {
      literal("null");
      return v;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      v.kind = Json::Kind::number;
      const std::size_t start = pos_;
      if (s_[pos_] == '-') ++pos_;
      while (pos_ < s_.size() && std::string_view("0123456789.eE+-").find(s_[pos_]) != std::string_view::npos)
        ++pos_;
      v.text = s_.substr(start, pos_ - start);
      return v;
    }
    fail("unexpected character");
  }
  std::string string_body() {
    expect('"');
    std::string out;
    for (;;) {
      if (pos_ >= s_.size()) fail("unterminated string");
      const char c = s_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) fail("unterminated escape");
      const char e = s_[pos_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          if (pos_ + 4 > s_.size()) fail("short \\u escape");
          const unsigned code = static_cast<unsigned>(std::stoul(s_.substr(pos_, 4), nullptr, 16));
          pos_ += 4;
          out += code < 0x80 ? static_cast<char>(code) : '?';  // only comments could hold non-ASCII
          break;
        }
        default:
          fail("bad escape");
      }
    }
  }

  const std::string& s_;
  std::size_t pos_ = 0;
};

// --- Wycheproof AEAD vectors.
struct GcmVector {
  long long id;
  std::string comment;
  Bytes key, iv, aad, msg, ct, tag;
  bool valid;  // "valid" or "acceptable" (none of the latter in aes_gcm_test.json) vs "invalid"
};

struct GcmVectors {
  std::vector<GcmVector> usable;  // key_bits, 96-bit IV, 128-bit tag: what the Gcm interface takes
  std::size_t total = 0;          // every test in the file, to check nothing was lost in reading
};

// The tests with keys of key_bits (256 or 128) bits.
inline GcmVectors read_wycheproof_gcm(const std::string& name, long long key_bits = 256) {
  const Json doc = JsonParser(read_vector_file(name)).parse_document();
  if (doc.at("algorithm").str() != "AES-GCM") throw std::runtime_error("not an AES-GCM vector file");
  GcmVectors out;
  for (const Json& group : doc.at("testGroups").items) {
    const bool usable = group.at("keySize").integer() == key_bits && group.at("ivSize").integer() == 96 &&
                        group.at("tagSize").integer() == 128;
    for (const Json& t : group.at("tests").items) {
      ++out.total;
      if (!usable) continue;
      const std::string& result = t.at("result").str();
      if (result != "valid" && result != "invalid" && result != "acceptable")
        throw std::runtime_error("unknown result " + result);
      out.usable.push_back({t.at("tcId").integer(), t.at("comment").str(), from_hex(t.at("key").str()),
                            from_hex(t.at("iv").str()), from_hex(t.at("aad").str()),
                            from_hex(t.at("msg").str()), from_hex(t.at("ct").str()),
                            from_hex(t.at("tag").str()), result != "invalid"});
    }
  }
  if (out.total != static_cast<std::size_t>(doc.at("numberOfTests").integer()))
    throw std::runtime_error("numberOfTests does not match the tests read");
  return out;
}

// --- SP 800-38A CTR sections: "[title]" then "Label   hex" lines; a line of bare hex continues the previous
// label; repeated labels (one per block) concatenate in file order.
using CtrSection = std::map<std::string, Bytes>;

inline std::map<std::string, CtrSection> read_sp800_38a(const std::string& name) {
  std::istringstream in(read_vector_file(name));
  std::map<std::string, CtrSection> sections;
  CtrSection* current = nullptr;
  std::string line, last_label;
  while (std::getline(in, line)) {
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    if (line[first] == '[') {
      current = &sections[line.substr(first + 1, line.find(']') - first - 1)];
      continue;
    }
    if (line.compare(first, 7, "Block #") == 0) continue;
    if (current == nullptr) throw std::runtime_error("SP 800-38A: data before a section");
    const std::size_t last_space = line.find_last_of(" \t", line.find_last_not_of(" \t\r"));
    const std::string hex = line.substr(last_space == std::string::npos ? 0 : last_space + 1);
    std::string label =
        last_space == std::string::npos || last_space < first ? "" : line.substr(first, last_space - first);
    label.erase(label.find_last_not_of(" \t") + 1);
    if (label.empty()) label = last_label;
    const Bytes bytes = from_hex(hex.substr(0, hex.find_last_not_of('\r') + 1));
    Bytes& dst = (*current)[label];
    dst.insert(dst.end(), bytes.begin(), bytes.end());
    last_label = label;
  }
  return sections;
}

}  // namespace aes_test
