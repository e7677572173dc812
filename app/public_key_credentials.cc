#include "app/public_key_credentials.h"

#include <algorithm>
#include <string_view>

#include "app/secret_file.h"
#include "core/aes/secret_bytes.h"
#include "core/error.h"

namespace pcrypt::app {
namespace {

// Identity and recipients files are small text files; a bigger one is a mistake (a data file given by
// accident), reported by the parser as whatever it finds in the first part.
constexpr std::size_t kTextFileLimit = 1 << 20;

std::string source_path(const std::string& path) {
  return path == "-" ? std::string("/dev/stdin") : path;
}

std::string_view as_text(const SecretBytes& buf, std::size_t len) {
  return {reinterpret_cast<const char*>(buf.data()), len};
}

bool same_recipient(const core::Recipient& a, const core::Recipient& b) {
  if (a.index() != b.index()) return false;
  const auto key = [](const auto& x) {
    return std::vector<std::uint8_t>(x.public_key.begin(), x.public_key.end());
  };
  return std::visit(key, a) == std::visit(key, b);
}

}  // namespace

std::vector<core::Credential> gather_recipients(const std::vector<std::string>& recipients,
                                                const std::vector<std::string>& recipient_files,
                                                bool data_from_stdin) {
  std::vector<core::Recipient> all;
  for (const std::string& text : recipients) all.push_back(core::parse_recipient(text));
  for (const std::string& path : recipient_files) {
    if (path == "-" && data_from_stdin)
      throw core::Error(core::ErrorKind::usage,
                        "-R - reads recipients from standard input, which is the data",
                        "give the data as FILE, or the recipients in a file");
    SecretBytes buf(kTextFileLimit);
    const std::size_t len = read_secret_file(source_path(path), "recipients file", buf.data(), buf.size());
    const std::string name = path == "-" ? std::string("standard input") : path;
    for (core::Recipient& r : core::parse_recipients_file(as_text(buf, len), name))
      all.push_back(std::move(r));
  }
  std::vector<core::Credential> out;
  std::vector<core::Recipient> seen;
  for (core::Recipient& r : all) {
    if (std::any_of(seen.begin(), seen.end(),
                    [&r](const core::Recipient& s) { return same_recipient(s, r); }))
      continue;  // one slot per key is enough; a second would only grow the header
    seen.push_back(r);
    out.push_back(core::Credential::of(std::move(r)));
  }
  return out;
}

std::vector<core::Identity> read_identity_files(const std::vector<std::string>& paths) {
  std::vector<core::Identity> out;
  for (const std::string& path : paths) {
    SecretBytes buf(kTextFileLimit);
    const std::size_t len = read_secret_file(source_path(path), "identity file", buf.data(), buf.size(),
                                             "create one with 'pcrypt keygen --identity -o " + path + "'");
    for (core::Identity& id : core::parse_identity_file(as_text(buf, len), path))
      out.push_back(std::move(id));
  }
  return out;
}

std::vector<core::Credential> gather_identities(const std::vector<std::string>& paths) {
  std::vector<core::Credential> out;
  for (core::Identity& id : read_identity_files(paths)) out.push_back(core::Credential::of(std::move(id)));
  return out;
}

}  // namespace pcrypt::app
