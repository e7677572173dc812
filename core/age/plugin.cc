#include "core/age/plugin.h"

#include <sodium.h>

#include <algorithm>
#include <cctype>
#include <mutex>

#include "core/age/base64.h"
#include "core/age/plugin_channel.h"
#include "core/age/stanzas.h"
#include "core/error.h"
#include "io/stream.h"

namespace pcrypt::core::age {
namespace {

std::shared_ptr<PluginUi> ui() {
  return plugin_host().ui;
}

std::string text_of(const std::vector<std::uint8_t>& body) {
  return std::string(body.begin(), body.end());
}

// Long encodings (a post-quantum plugin's are thousands of characters) are cut for messages.
std::string shorten(std::string_view text) {
  return text.size() > 40 ? std::string(text.substr(0, 40)) + "..." : std::string(text);
}

[[noreturn]] void protocol_error(const PluginConnection& channel, const std::string& what) {
  throw Error(PCRYPT_E_PLUGIN, channel.program() + " sent a malformed message: " + what,
              "the plugin does not speak age-plugin.md's protocol as pcrypt understands it");
}

// The requests both state machines share in their interactive phase (msg, confirm, request-public,
// request-secret), answered through the UI. False if `s` is none of them.
bool answer_user_request(PluginConnection& channel, const Stanza& s) {
  const std::string& command = s.args[0];
  const std::string& program = channel.program();
  if (command == "msg") {
    channel.send({ui()->message(program, text_of(s.body)) ? "ok" : "fail"});
    return true;
  }
  if (command == "confirm") {
    if (s.args.size() < 2 || s.args.size() > 3) protocol_error(channel, "confirm needs one or two choices");
    std::string labels[2];
    for (std::size_t i = 1; i < s.args.size(); ++i) {
      const auto label = decode_base64_raw(s.args[i]);
      if (!label) protocol_error(channel, "a confirm choice is not canonical unpadded base64");
      labels[i - 1] = text_of(*label);
    }
    const std::optional<bool> yes = ui()->confirm(program, text_of(s.body), labels[0], labels[1]);
    if (yes)
      channel.send({"ok", *yes ? "yes" : "no"});
    else
      channel.send({"fail"});
    return true;
  }
  if (command == "request-public") {
    const std::optional<std::string> answer = ui()->request_public(program, text_of(s.body));
    if (answer)
      channel.send({"ok"}, std::span(reinterpret_cast<const std::uint8_t*>(answer->data()), answer->size()));
    else
      channel.send({"fail"});
    return true;
  }
  if (command == "request-secret") {
    const std::optional<SecretBytes> answer = ui()->request_secret(program, text_of(s.body));
    if (answer)
      channel.send({"ok"}, answer->span());
    else
      channel.send({"fail"});
    return true;
  }
  return false;
}

// "error" in either state machine: its kind and index ("recipient 1", "identity 0", "stanza 0 2",
// "internal") and the message in its body, for the user.
std::string error_report(const PluginConnection& channel, const Stanza& s,
                         const std::vector<std::string>& recipients) {
  if (s.args.size() < 2) protocol_error(channel, "an error without its kind");
  const std::string& kind = s.args[1];
  const std::string message = text_of(s.body);
  if (kind == "internal") return channel.program() + ": " + message;
  if ((kind == "recipient" || kind == "identity") && s.args.size() == 3) {
    const auto i = parse_protocol_index(s.args[2]);
    if (!i) protocol_error(channel, "an error's index is not a number");
    std::string who = kind + " " + std::to_string(*i + 1);
    if (kind == "recipient" && *i < recipients.size()) who = "recipient " + shorten(recipients[*i]);
    return channel.program() + " (" + who + "): " + message;
  }
  if (kind == "stanza" && s.args.size() == 4) {
    const auto stanza = parse_protocol_index(s.args[3]);
    if (!stanza) protocol_error(channel, "an error's stanza index is not a number");
    return channel.program() + " (stanza " + std::to_string(*stanza + 1) + "): " + message;
  }
  protocol_error(channel, "an error of unknown kind '" + shorten(kind) + "'");
}

}  // namespace

PluginWrap wrap_with_plugin(const std::string& name, const std::vector<std::string>& recipients,
                            const SecretBytes& file_key) {
  PluginChannel channel(name, "recipient-v1");
  return wrap_over(channel, recipients, file_key);
}

PluginWrap wrap_over(PluginConnection& channel, const std::vector<std::string>& recipients,
                     const SecretBytes& file_key) {
  // Phase 1 (ours): every recipient (an identity to encrypt to is AGE-PLUGIN-…, never a lowercase age1…),
  // the one file key, the labels extension, done. The plugin numbers recipients and identities apart in
  // its errors; an identity is secret, so only recipients are named in messages.
  std::vector<std::string> public_recipients;
  for (const std::string& r : recipients) {
    const bool identity = r.starts_with("AGE-PLUGIN-");
    if (!identity) public_recipients.push_back(r);
    Stanza add{{identity ? "add-identity" : "add-recipient", r}, {}};
    channel.send(add);
    sodium_memzero(add.args[1].data(), add.args[1].size());
  }
  channel.send({"wrap-file-key"}, file_key.span());
  channel.send({"extension-labels"});
  channel.send({"done"});
  // Phase 2 (the plugin's): requests answered one by one, until its done.
  std::vector<Stanza> stanzas;
  std::optional<std::vector<std::string>> labels;
  std::vector<std::string> errors;
  while (true) {
    // A plugin may end the exchange right after an error (age's plugin framework exits then, status 3):
    // its error is what the user hears, not that it left.
    std::optional<Stanza> next;
    try {
      next = channel.receive();
    } catch (const Error& e) {
      if (errors.empty() || e.kind() != ErrorKind::io) throw;
      break;
    }
    const Stanza& s = *next;
    const std::string& command = s.args[0];
    if (command == "done") break;
    if (answer_user_request(channel, s)) continue;
    if (command == "recipient-stanza") {
      if (s.args.size() < 3)
        protocol_error(channel, "recipient-stanza without a file index and a stanza type");
      if (s.args[1] != "0")
        protocol_error(channel, "recipient-stanza for file " + shorten(s.args[1]) + ", not 0");
      stanzas.push_back(Stanza{{s.args.begin() + 2, s.args.end()}, s.body});
      channel.send({"ok"});
    } else if (command == "labels") {
      if (labels) protocol_error(channel, "labels sent twice");
      labels.emplace(s.args.begin() + 1, s.args.end());
      std::sort(labels->begin(), labels->end());
      channel.send({"ok"});
    } else if (command == "error") {
      errors.push_back(error_report(channel, s, public_recipients));
      channel.send({"ok"});
    } else {
      channel.send({"unsupported"});  // a newer command, or grease
    }
  }
  channel.finish();
  if (!errors.empty()) {
    std::string message = errors.front();
    if (errors.size() > 1) message += " (and " + std::to_string(errors.size() - 1) + " more errors)";
    throw Error(PCRYPT_E_PLUGIN_REFUSED, "cannot encrypt: " + message);
  }
  const std::string& program = channel.program();
  if (stanzas.empty())
    throw Error(PCRYPT_E_PLUGIN, program + " finished without wrapping the file key (no stanza, no error)");
  if (stanzas.size() > recipients.size())
    throw Error(PCRYPT_E_PLUGIN, program + " returned " + std::to_string(stanzas.size()) + " stanzas for " +
                                     std::to_string(recipients.size()) +
                                     (recipients.size() == 1 ? " recipient" : " recipients") +
                                     " (age-plugin.md: at most one each)");
  return PluginWrap{std::move(stanzas), labels ? std::move(*labels) : std::vector<std::string>{}};
}

std::optional<SecretBytes> unwrap_with_plugin(const std::string& name,
                                              const std::vector<std::string_view>& identities,
                                              const std::vector<Stanza>& stanzas,
                                              std::vector<std::string>& failures) {
  try {
    PluginChannel channel(name, "identity-v1");
    return unwrap_over(channel, identities, stanzas, failures);
  } catch (const Error& e) {
    // A missing plugin's hint (install it) is worth keeping; the others only point back at its messages.
    failures.push_back(e.kind() == ErrorKind::usage && !e.hint().empty()
                           ? std::string(e.what()) + "; " + e.hint()
                           : std::string(e.what()));
    return std::nullopt;
  } catch (const io::IoError& e) {  // (the channel turns its own into Error; this keeps any other one local)
    failures.push_back(std::string(e.what()));
    return std::nullopt;
  }
}

std::optional<SecretBytes> unwrap_over(PluginConnection& channel,
                                       const std::vector<std::string_view>& identities,
                                       const std::vector<Stanza>& stanzas,
                                       std::vector<std::string>& failures) {
  // Phase 1 (ours): the identities, then every stanza of the file (file index 0), done.
  for (const std::string_view id : identities) {
    Stanza add{{"add-identity", std::string(id)}, {}};
    channel.send(add);
    sodium_memzero(add.args[1].data(), add.args[1].size());
  }
  for (const Stanza& s : stanzas) {
    Stanza forwarded{{"recipient-stanza", "0"}, s.body};
    forwarded.args.insert(forwarded.args.end(), s.args.begin(), s.args.end());
    channel.send(forwarded);
  }
  channel.send({"done"});
  // Phase 2 (the plugin's).
  std::optional<SecretBytes> file_key;
  const std::size_t failures_before = failures.size();
  while (true) {
    // As in wrap_over: after an error the plugin may leave without its done.
    std::optional<Stanza> next;
    try {
      next = channel.receive();
    } catch (const Error& e) {
      if (failures.size() == failures_before || e.kind() != ErrorKind::io) throw;
      break;
    }
    Stanza& s = *next;
    const std::string& command = s.args[0];
    if (command == "done") break;
    if (answer_user_request(channel, s)) continue;
    if (command == "file-key") {
      if (s.args.size() != 2 || s.args[1] != "0") protocol_error(channel, "file-key for a file other than 0");
      if (s.body.size() != kFileKeyBytes)
        protocol_error(channel, "a file key of " + std::to_string(s.body.size()) + " bytes, not 16");
      if (!file_key) file_key.emplace(std::span<const std::uint8_t>(s.body));  // at most one per file
      sodium_memzero(s.body.data(), s.body.size());
      channel.send({"ok"});
    } else if (command == "error") {
      failures.push_back(error_report(channel, s, {}));
      channel.send({"ok"});
    } else {
      channel.send({"unsupported"});
    }
  }
  channel.finish();
  return file_key;
}

}  // namespace pcrypt::core::age
