#include "core/age/plugin_serve.h"

#include <sodium.h>

#include <cstring>

#include "core/age/plugin_channel.h"
#include "core/age/stanzas.h"
#include "core/error.h"
#include "core/keys/bech32.h"
#include "core/keys/plugin_host.h"
#include "io/stream.h"

namespace pcrypt::core::age {
namespace {

constexpr std::string_view kClient = "the age client";

[[noreturn]] void broken(const std::string& what) {
  throw Error(PCRYPT_E_PLUGIN, std::string(kClient) + " " + what);
}

class Exchange {
 public:
  Exchange(io::BufferedInput& in, const std::function<void(std::string_view)>& send) : in_(in), send_(send) {}

  Stanza receive() {
    bool ended = false;
    try {
      ended = in_.peek(1).empty();
    } catch (const io::IoError& e) {
      broken(std::string("cannot be read from: ") + std::strerror(e.error_number()));
    }
    if (ended) broken("ended the exchange before it was over");
    try {
      return read_stanza(in_);
    } catch (const io::IoError& e) {
      broken(std::string("cannot be read from: ") + std::strerror(e.error_number()));
    } catch (const Error& e) {
      std::string what = e.what();
      constexpr std::string_view prefix = "malformed age header: ";  // read_stanza's words for headers
      if (what.starts_with(prefix)) what.erase(0, prefix.size());
      if (what.find("ends before") != std::string::npos)
        broken("ended the exchange in the middle of a message");
      broken("sent a malformed message: " + what);
    }
  }

  void send(std::vector<std::string> args, std::span<const std::uint8_t> body = {}) {
    std::string text;
    append_stanza(text, Stanza{std::move(args), std::vector<std::uint8_t>(body.begin(), body.end())});
    send_(text);
    sodium_memzero(text.data(), text.size());  // it may hold a file key
  }

  // The client's reply to what was just sent: "ok" and nothing else.
  void expect_ok() {
    const Stanza s = receive();
    if (s.args[0] != "ok") broken("answered '" + s.args[0].substr(0, 40) + "' where 'ok' was due");
    if (s.args.size() != 1 || !s.body.empty()) broken("sent an 'ok' with arguments or a body");
  }

  void report_error(std::vector<std::string> where, const std::string& message) {
    where.insert(where.begin(), "error");
    send(std::move(where), std::span(reinterpret_cast<const std::uint8_t*>(message.data()), message.size()));
    expect_ok();
  }

 private:
  io::BufferedInput& in_;
  const std::function<void(std::string_view)>& send_;
};

void expect_shape(const Stanza& s, std::size_t args, bool body) {
  if (s.args.size() != args + 1)
    broken("sent '" + s.args[0] + "' with " + std::to_string(s.args.size() - 1) + " arguments, not " +
           std::to_string(args));
  if (body && s.body.empty()) broken("sent '" + s.args[0] + "' without its body");
  if (!body && !s.body.empty()) broken("sent '" + s.args[0] + "' with a body it cannot have");
}

// The Bech32 payload of a recipient (age1NAME1…) or identity (AGE-PLUGIN-NAME-1…) of plugin `name`;
// Error(usage) saying what is wrong with it otherwise.
std::vector<std::uint8_t> payload_of(const std::string& encoding, bool identity, const std::string& name) {
  try {
    const bech32::Decoded d = bech32::decode(encoding, bech32::long_max_length);
    const std::optional<std::string> named =
        identity ? plugin_of_identity_prefix(d.hrp) : plugin_of_recipient_prefix(d.hrp);
    if (named != name)
      throw Error(identity ? PCRYPT_E_NOT_AN_IDENTITY : PCRYPT_E_NOT_A_RECIPIENT,
                  std::string(identity ? "an identity" : "a recipient") + " not of plugin " + name + " ('" +
                      d.hrp + "')");
    return bech32::from_words(d.words);
  } catch (const bech32::DecodeError& e) {
    throw Error(identity ? PCRYPT_E_NOT_AN_IDENTITY : PCRYPT_E_NOT_A_RECIPIENT,
                std::string(identity ? "malformed identity: " : "malformed recipient: ") + e.what());
  }
}

PluginExit recipient_v1(const PluginKeys& keys, Exchange& client) {
  // Phase 1 (the client's): recipients and identities to wrap to, file keys, extensions, done. Commands
  // this plugin does not know (grease, newer extensions) are passed over, as the protocol says.
  std::vector<std::string> recipients, identities;
  std::vector<SecretBytes> file_keys;
  bool labels_wanted = false;
  while (true) {
    const Stanza s = client.receive();
    const std::string& command = s.args[0];
    if (command == "done") {
      expect_shape(s, 0, false);
      break;
    }
    if (command == "add-recipient" || command == "add-identity") {
      expect_shape(s, 1, false);
      (command == "add-recipient" ? recipients : identities).push_back(s.args[1]);
    } else if (command == "wrap-file-key") {
      expect_shape(s, 0, true);
      if (s.body.size() != kFileKeyBytes)
        broken("sent a file key of " + std::to_string(s.body.size()) + " bytes, not " +
               std::to_string(kFileKeyBytes));
      file_keys.emplace_back(std::span<const std::uint8_t>(s.body));
    } else if (command == "extension-labels") {
      expect_shape(s, 0, false);
      labels_wanted = true;
    }
  }
  if (recipients.empty() && identities.empty()) broken("gave no recipient and no identity to wrap to");
  if (file_keys.empty()) broken("gave no file key to wrap");

  // Every key parsed before anything is wrapped: a refused one is the client's to hear about first.
  std::vector<PluginWrapper> wrappers;
  std::vector<std::pair<std::string, std::size_t>> whose;  // ("recipient"|"identity", index), for errors
  const auto add = [&](const std::vector<std::string>& encodings, bool identity) -> bool {
    const auto& handler = identity ? keys.identity_as_recipient : keys.recipient;
    for (std::size_t i = 0; i < encodings.size(); ++i) {
      const std::string kind = identity ? "identity" : "recipient";
      try {
        if (!handler)
          throw Error(identity ? PCRYPT_E_NOT_AN_IDENTITY : PCRYPT_E_NOT_A_RECIPIENT,
                      "age-plugin-" + keys.name + " does not take " +
                          (identity ? "identities" : "recipients") + " to encrypt to");
        std::vector<std::uint8_t> data = payload_of(encodings[i], identity, keys.name);
        wrappers.push_back(handler(data));
        sodium_memzero(data.data(), data.size());
        whose.emplace_back(kind, i);
      } catch (const Error& e) {
        client.report_error({kind, std::to_string(i)}, e.what());
        return false;
      }
    }
    return true;
  };
  if (!add(recipients, false) || !add(identities, true)) return PluginExit::key_refused;

  // Wrapping: one stanza list per file key; every recipient must carry the same labels (age 1.3).
  std::vector<std::vector<Stanza>> stanzas(file_keys.size());
  std::optional<std::vector<std::string>> labels;
  for (std::size_t f = 0; f < file_keys.size(); ++f)
    for (std::size_t r = 0; r < wrappers.size(); ++r) {
      try {
        PluginWrap wrapped = wrappers[r](file_keys[f]);
        if (!labels)
          labels = wrapped.labels;
        else if (*labels != wrapped.labels)
          throw Error(PCRYPT_E_INCOMPATIBLE_RECIPIENTS,
                      "its labels differ from the other recipients' (they cannot share a file)");
        for (Stanza& s : wrapped.stanzas) stanzas[f].push_back(std::move(s));
      } catch (const Error& e) {
        client.report_error({whose[r].first, std::to_string(whose[r].second)}, e.what());
        return PluginExit::key_refused;
      }
    }

  // Phase 2 (ours): labels when asked for, then each stanza, each answered "ok"; done.
  if (labels_wanted) {
    std::vector<std::string> args{"labels"};
    args.insert(args.end(), labels->begin(), labels->end());
    client.send(std::move(args));
    client.expect_ok();
  }
  for (std::size_t f = 0; f < stanzas.size(); ++f)
    for (const Stanza& s : stanzas[f]) {
      std::vector<std::string> args{"recipient-stanza", std::to_string(f)};
      args.insert(args.end(), s.args.begin(), s.args.end());
      client.send(std::move(args), s.body);
      client.expect_ok();
    }
  client.send({"done"});
  return PluginExit::done;
}

PluginExit identity_v1(const PluginKeys& keys, Exchange& client) {
  // Phase 1 (the client's): identities, then the stanzas of each file (file indexes 0, 1, … in order), done.
  std::vector<std::string> identities;
  std::vector<std::vector<Stanza>> files;
  while (true) {
    const Stanza s = client.receive();
    const std::string& command = s.args[0];
    if (command == "done") {
      expect_shape(s, 0, false);
      break;
    }
    if (command == "add-identity") {
      expect_shape(s, 1, false);
      identities.push_back(s.args[1]);
    } else if (command == "recipient-stanza") {
      if (s.args.size() < 3) broken("sent a recipient-stanza without a file index and a stanza type");
      const std::optional<std::size_t> file = parse_protocol_index(s.args[1]);
      if (!file || (*file != files.size() && *file + 1 != files.size()))
        broken("sent a stanza of file '" + s.args[1].substr(0, 12) + "' out of order");
      if (*file == files.size()) files.emplace_back();
      files[*file].push_back(Stanza{{s.args.begin() + 2, s.args.end()}, s.body});
    }
  }
  if (identities.empty()) broken("gave no identity");
  if (files.empty()) broken("gave no stanza to unwrap");

  std::vector<PluginUnwrapper> unwrappers;
  for (std::size_t i = 0; i < identities.size(); ++i) {
    try {
      if (!keys.identity)
        throw Error(PCRYPT_E_NOT_AN_IDENTITY,
                    "age-plugin-" + keys.name + " does not decrypt with identities");
      std::vector<std::uint8_t> data = payload_of(identities[i], true, keys.name);
      unwrappers.push_back(keys.identity(data));
      sodium_memzero(data.data(), data.size());
    } catch (const Error& e) {
      client.report_error({"identity", std::to_string(i)}, e.what());
      return PluginExit::key_refused;
    }
  }

  // Phase 2 (ours): per file, the first identity's file key, or the error that stops it (the client may go
  // on with other files and other identities).
  for (std::size_t f = 0; f < files.size(); ++f)
    for (const PluginUnwrapper& unwrap : unwrappers) {
      std::optional<SecretBytes> file_key;
      try {
        file_key = unwrap(files[f]);
      } catch (const Error& e) {
        client.report_error({"stanza", std::to_string(f), "0"}, e.what());
        break;
      }
      if (!file_key) continue;
      client.send({"file-key", std::to_string(f)}, file_key->span());
      client.expect_ok();
      break;
    }
  client.send({"done"});
  return PluginExit::done;
}

}  // namespace

PluginExit serve_plugin(const PluginKeys& keys, std::string_view state_machine, io::BufferedInput& in,
                        const std::function<void(std::string_view text)>& send) {
  Exchange client(in, send);
  if (state_machine == "recipient-v1") return recipient_v1(keys, client);
  if (state_machine == "identity-v1") return identity_v1(keys, client);
  throw Error(PCRYPT_E_BAD_ARGUMENT,
              "unknown state machine '" + std::string(state_machine).substr(0, 40) + "'",
              "age clients start a plugin with --age-plugin=recipient-v1 or --age-plugin=identity-v1");
}

}  // namespace pcrypt::core::age
