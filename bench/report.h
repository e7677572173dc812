// Result tables of `pcrypt bench` and their four renderings (table, markdown, csv, json). Header-only so the
// unit tests can check the formats; the JSON layout is documented in docs/benchmarks/method.md ("JSON
// schema").
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "io/json.h"

namespace pcrypt::app::bench {

enum class Format { table, markdown, csv, json };

inline std::optional<Format> parse_format(std::string_view name) {
  if (name == "table") return Format::table;
  if (name == "markdown" || name == "md") return Format::markdown;
  if (name == "csv") return Format::csv;
  if (name == "json") return Format::json;
  return std::nullopt;
}

struct Column {
  std::string key;    // machine name (csv header, json member): lower_snake_case with the unit in it
  std::string label;  // human header for table/markdown, unit included, e.g. "rate (MB/s)"
  int decimals = 0;   // digits after the point when a double is shown to humans (csv/json keep 9 significant)
};

// A missing value (monostate) is empty in text/csv and null in json.
using Cell = std::variant<std::monostate, std::int64_t, double, std::string>;

struct Table {
  std::string experiment;  // "keystream", "throughput", "engines"
  std::string id;          // stable per kind of table, e.g. "keystream_xor_bytes"
  std::string title;
  std::vector<Column> columns;
  std::vector<std::vector<Cell>> rows;  // each row has columns.size() cells
  std::vector<std::string> notes;       // how to read the table; method details
};

struct Fact {
  std::string key;    // json member / csv key
  std::string label;  // for people
  std::string value;
};

namespace detail {

using io::json_string;

inline std::string printf_double(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// What people see: fixed decimals.
inline std::string human(const Cell& c, const Column& col) {
  if (std::holds_alternative<std::int64_t>(c)) return std::to_string(std::get<std::int64_t>(c));
  if (std::holds_alternative<std::string>(c)) return std::get<std::string>(c);
  if (std::holds_alternative<double>(c)) {
    const double v = std::get<double>(c);
    if (!std::isfinite(v)) return "n/a";
    char fmt[16];
    std::snprintf(fmt, sizeof fmt, "%%.%df", col.decimals);
    return printf_double(fmt, v);
  }
  return "";
}

// What programs read: 9 significant digits is enough to recompute rates from times without visible error.
inline std::string machine_number(double v) {
  return printf_double("%.9g", v);
}

inline bool is_number(const Cell& c) {
  return std::holds_alternative<std::int64_t>(c) || std::holds_alternative<double>(c);
}

inline std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"') out += '"';
    out += ch;
  }
  return out + "\"";
}

inline std::string json_value(const Cell& c) {
  if (std::holds_alternative<std::int64_t>(c)) return std::to_string(std::get<std::int64_t>(c));
  if (std::holds_alternative<std::string>(c)) return json_string(std::get<std::string>(c));
  if (std::holds_alternative<double>(c)) {
    const double v = std::get<double>(c);
    return std::isfinite(v) ? machine_number(v) : "null";
  }
  return "null";
}

inline std::string csv_value(const Cell& c) {
  if (std::holds_alternative<double>(c)) {
    const double v = std::get<double>(c);
    return std::isfinite(v) ? machine_number(v) : "";
  }
  if (std::holds_alternative<std::int64_t>(c)) return std::to_string(std::get<std::int64_t>(c));
  if (std::holds_alternative<std::string>(c)) return csv_field(std::get<std::string>(c));
  return "";
}

inline std::string render_text_table(const Table& t) {
  std::vector<std::size_t> width(t.columns.size());
  std::vector<bool> numeric(t.columns.size(), false);
  for (std::size_t i = 0; i < t.columns.size(); ++i) width[i] = t.columns[i].label.size();
  for (const auto& row : t.rows)
    for (std::size_t i = 0; i < row.size() && i < width.size(); ++i) {
      width[i] = std::max(width[i], human(row[i], t.columns[i]).size());
      if (is_number(row[i])) numeric[i] = true;
    }
  auto cell = [&](const std::string& s, std::size_t i) {
    const std::string pad(width[i] - s.size(), ' ');
    return numeric[i] ? pad + s : s + pad;
  };
  std::string out = t.title + "\n";
  std::string line;
  for (std::size_t i = 0; i < t.columns.size(); ++i) line += (i ? "  " : "") + cell(t.columns[i].label, i);
  out += line + "\n";
  line.clear();
  for (std::size_t i = 0; i < t.columns.size(); ++i) line += (i ? "  " : "") + std::string(width[i], '-');
  out += line + "\n";
  for (const auto& row : t.rows) {
    line.clear();
    for (std::size_t i = 0; i < t.columns.size(); ++i)
      line += (i ? "  " : "") + cell(i < row.size() ? human(row[i], t.columns[i]) : "", i);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  for (const auto& n : t.notes) out += "  note: " + n + "\n";
  return out + "\n";
}

inline std::string render_markdown_table(const Table& t) {
  std::string out = "#### " + t.title + "\n\n|";
  for (const auto& c : t.columns) out += " " + c.label + " |";
  out += "\n|";
  for (std::size_t i = 0; i < t.columns.size(); ++i) {
    const bool numeric = !t.rows.empty() && i < t.rows.front().size() && is_number(t.rows.front()[i]);
    out += numeric ? "---:|" : "---|";
  }
  out += "\n";
  for (const auto& row : t.rows) {
    out += "|";
    // Appended piece by piece: GCC 12 at -O3 reports a false -Wrestrict for `"literal" + std::string&&`.
    for (std::size_t i = 0; i < t.columns.size(); ++i) {
      out += ' ';
      if (i < row.size()) out += human(row[i], t.columns[i]);
      out += " |";
    }
    out += "\n";
  }
  if (!t.notes.empty()) out += "\n";
  for (const auto& n : t.notes) out += "*" + n + "*  \n";
  return out + "\n";
}

inline std::string render_csv_table(const Table& t) {
  std::string out = "# table: " + t.experiment + "/" + t.id + ": " + t.title + "\n";
  for (std::size_t i = 0; i < t.columns.size(); ++i) out += (i ? "," : "") + t.columns[i].key;
  out += "\n";
  for (const auto& row : t.rows) {
    for (std::size_t i = 0; i < t.columns.size(); ++i) {
      if (i != 0) out += ',';
      if (i < row.size()) out += csv_value(row[i]);
    }
    out += "\n";
  }
  for (const auto& n : t.notes) out += "# note: " + n + "\n";
  return out + "\n";
}

inline std::string render_json_table(const Table& t) {
  std::string out = "    {\"experiment\": " + json_string(t.experiment) + ", \"id\": " + json_string(t.id) +
                    ", \"title\": " + json_string(t.title) + ",\n     \"columns\": [";
  for (std::size_t i = 0; i < t.columns.size(); ++i)
    out += std::string(i ? ", " : "") + "{\"key\": " + json_string(t.columns[i].key) +
           ", \"label\": " + json_string(t.columns[i].label) + "}";
  out += "],\n     \"rows\": [";
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    out += std::string(r ? ",\n" : "\n") + "       {";
    for (std::size_t i = 0; i < t.columns.size(); ++i)
      out += std::string(i ? ", " : "") + json_string(t.columns[i].key) + ": " +
             (i < t.rows[r].size() ? json_value(t.rows[r][i]) : "null");
    out += "}";
  }
  out += "],\n     \"notes\": [";
  for (std::size_t i = 0; i < t.notes.size(); ++i) out += (i ? ", " : "") + json_string(t.notes[i]);
  return out + "]}";
}

}  // namespace detail

// The header: machine facts, then the tables as they complete (render_table), then the footer. Streaming so a
// long run shows each table as soon as it is done and an interrupted run still yields well-formed output.
inline std::string render_begin(Format f, const std::vector<Fact>& facts) {
  std::string out;
  switch (f) {
    case Format::table:
      out = "pcrypt bench (MB = 10^6 bytes, MiB = 2^20 bytes; times in seconds)\n";
      for (const auto& fact : facts) out += "  " + fact.label + ": " + fact.value + "\n";
      return out + "\n";
    case Format::markdown:
      out = "### pcrypt bench\n\nMB = 10^6 bytes, MiB = 2^20 bytes; times in seconds.\n\n";
      for (const auto& fact : facts) out += "- " + fact.label + ": " + fact.value + "\n";
      return out + "\n";
    case Format::csv:
      out = "# pcrypt bench; MB = 10^6 bytes, MiB = 2^20 bytes; times in seconds\n";
      for (const auto& fact : facts) out += "# " + fact.key + ": " + fact.value + "\n";
      return out + "\n";
    case Format::json:
      out =
          "{\n  \"schema\": \"pcrypt-bench/1\",\n  \"units\": {\"MB\": 1000000, \"MiB\": 1048576, \"time\": "
          "\"s\"},\n"
          "  \"machine\": {";
      for (std::size_t i = 0; i < facts.size(); ++i)
        out += std::string(i ? ", " : "") + "\n    " + detail::json_string(facts[i].key) + ": " +
               detail::json_string(facts[i].value);
      return out + "\n  },\n  \"tables\": [";
  }
  return out;
}

// index: how many tables were rendered before this one (json needs the separators).
inline std::string render_table(Format f, const Table& t, std::size_t index) {
  switch (f) {
    case Format::table:
      return detail::render_text_table(t);
    case Format::markdown:
      return detail::render_markdown_table(t);
    case Format::csv:
      return detail::render_csv_table(t);
    case Format::json:
      return std::string(index ? ",\n" : "\n") + detail::render_json_table(t);
  }
  return {};
}

inline std::string render_end(Format f, bool interrupted) {
  switch (f) {
    case Format::table:
    case Format::markdown:
      return interrupted ? "INTERRUPTED: the results above are partial.\n" : "";
    case Format::csv:
      return interrupted ? "# interrupted: true\n" : "";
    case Format::json:
      return std::string("\n  ],\n  \"interrupted\": ") + (interrupted ? "true" : "false") + "\n}\n";
  }
  return {};
}

}  // namespace pcrypt::app::bench
