#include "app/public_key_credentials.h"

#include <sodium.h>

#include <algorithm>
#include <string_view>

#include <spdlog/spdlog.h>

#include "app/secret_file.h"
#include "app/tty_prompt.h"
#include "core/aes/secret_bytes.h"
#include "core/error.h"
#include "core/pcrypt/file_description.h"

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

// The passphrase of a protected OpenSSH key, asked on the terminal when a slot needs the key (as age does).
SecretBytes ask_ssh_key_passphrase(const std::string& key_name) {
  try {
    return prompt_hidden("Enter passphrase for SSH key " + key_name + ": ");
  } catch (const core::Error& e) {
    if (e.kind() != core::ErrorKind::usage) throw;
    throw core::Error(
        core::ErrorKind::usage,
        "SSH key " + key_name + " is protected by a passphrase and there is no terminal to ask for it",
        "run pcrypt from a terminal, or decrypt a copy of the key: cp KEY copy && ssh-keygen -p -N '' "
        "-f copy");
  }
}

}  // namespace

std::vector<core::Credential> gather_recipients(const std::vector<std::string>& recipients,
                                                const std::vector<std::string>& recipient_files,
                                                bool data_from_stdin,
                                                const std::vector<std::string>& identity_files) {
  std::vector<core::Recipient> all;
  all.reserve(recipients.size());
  for (const std::string& text : recipients) all.push_back(core::parse_recipient(text));
  for (const std::string& path : recipient_files) {
    if (path == "-" && data_from_stdin)
      throw core::Error(core::ErrorKind::usage,
                        "-R - reads recipients from standard input, which is the data",
                        "give the data as FILE, or the recipients in a file");
    SecretBytes buf(kTextFileLimit);
    const std::size_t len = read_secret_file(source_path(path), "recipients file", buf.data(), buf.size());
    const std::string name = path == "-" ? std::string("standard input") : path;
    std::vector<std::string> ignored;
    for (core::Recipient& r : core::parse_recipients_file(as_text(buf, len), name, &ignored))
      all.push_back(std::move(r));
    for (const std::string& line : ignored) spdlog::warn("{}: {}", name, line);
  }
  for (const core::Identity& id : read_identity_files(identity_files)) all.push_back(core::recipient_of(id));
  std::vector<core::Credential> out;
  std::vector<core::Recipient> seen;
  for (core::Recipient& r : all) {
    if (std::any_of(seen.begin(), seen.end(),
                    [&r](const core::Recipient& s) { return core::same_recipient(s, r); }))
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
    // A key file or an age file given to -i: name it and the option that takes it.
    const auto other = core::recognise_other_file(buf.span().first(len));
    if (other && other->kind == core::OtherFile::Kind::pcrypt_key_file)
      throw core::Error(core::ErrorKind::usage, path + " is a pcrypt key file, not an identity",
                        "give a key file with -k KEYFILE");
    if (other && other->kind == core::OtherFile::Kind::age_file)
      throw core::Error(core::ErrorKind::usage, path + " is " + other->what + ", not an identity",
                        other->hint);
    for (core::Identity& id : core::parse_identity_file(as_text(buf, len), path, ask_ssh_key_passphrase))
      out.push_back(std::move(id));
  }
  return out;
}

std::vector<core::Credential> gather_identities(const std::vector<std::string>& paths) {
  std::vector<core::Credential> out;
  for (core::Identity& id : read_identity_files(paths)) out.push_back(core::Credential::of(std::move(id)));
  return out;
}

std::string recipient_text(const core::Identity& identity) {
  if (identity.kind == core::Identity::Kind::plugin)
    core::recipient_of(identity);  // throws: only the plugin knows
  if (identity.kind == core::Identity::Kind::x25519)
    return core::format_x25519_recipient(identity.public_key);
  if (identity.kind == core::Identity::Kind::mlkem768_x25519)
    return core::format_hybrid_recipient(identity.hybrid->public_key());
  const std::vector<std::uint8_t>& blob = identity.blob;
  std::string b64(sodium_base64_ENCODED_LEN(blob.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
  sodium_bin2base64(b64.data(), b64.size(), blob.data(), blob.size(), sodium_base64_VARIANT_ORIGINAL);
  b64.pop_back();  // the terminating NUL
  return (identity.kind == core::Identity::Kind::ssh_rsa ? "ssh-rsa " : "ssh-ed25519 ") + b64;
}

}  // namespace pcrypt::app
