// The C API's encryption and keys (include/pcrypt/pcrypt_c.h): recipients, pcrypt::encrypt, the streaming
// Encryptor, and new identities and key files.
#include <string.h>  // explicit_bzero

#include "lib/c_api_internal.h"

using pcrypt::c_api::enum_bits;
using pcrypt::c_api::guarded;
using pcrypt::c_api::require;

namespace {

// The C++ recipients for one call: the passphrase copied in for the call's length only, then wiped.
struct CallRecipients {
  explicit CallRecipients(const pcrypt_recipients& given) : to(given.to) {
    if (given.passphrase) to.passphrase = given.passphrase->text();
    to.keys = given.raw_keys.get();
  }
  CallRecipients(const CallRecipients&) = delete;
  CallRecipients& operator=(const CallRecipients&) = delete;
  ~CallRecipients() {
    if (to.passphrase) explicit_bzero(to.passphrase->data(), to.passphrase->size());
  }
  pcrypt::Recipients to;
};

}  // namespace

pcrypt_recipients* pcrypt_recipients_new(void) {
  return pcrypt::c_api::make_handle<pcrypt_recipients>([] { return new pcrypt_recipients{}; });
}

int pcrypt_recipients_add(pcrypt_recipients* recipients, const char* recipient) {
  return guarded([&] {
    require(recipients, "the recipients");
    require(recipient, "the recipient");
    pcrypt::check_recipient(recipient);
    recipients->to.recipients.emplace_back(recipient);
  });
}

int pcrypt_recipients_add_file(pcrypt_recipients* recipients, const char* path) {
  return guarded([&] {
    require(recipients, "the recipients");
    require(path, "the path");
    recipients->to.recipient_files.emplace_back(path);
  });
}

int pcrypt_recipients_add_key_file(pcrypt_recipients* recipients, const char* path) {
  return guarded([&] {
    require(recipients, "the recipients");
    require(path, "the path");
    recipients->to.key_files.emplace_back(path);
  });
}

int pcrypt_recipients_set_passphrase(pcrypt_recipients* recipients, const char* passphrase) {
  return guarded([&] {
    require(recipients, "the recipients");
    require(passphrase, "the passphrase");
    if (*passphrase == '\0') throw pcrypt::Error(PCRYPT_E_EMPTY_PASSPHRASE, "the passphrase is empty");
    recipients->passphrase.emplace(std::string(passphrase));
  });
}

int pcrypt_recipients_add_raw_key(pcrypt_recipients* recipients, const void* key, size_t key_size,
                                  const void* context, size_t context_size) {
  return guarded([&] {
    require(recipients, "the recipients");
    pcrypt::c_api::add_raw_key(recipients->raw_keys, key, key_size, context, context_size);
  });
}

int pcrypt_recipients_add_raw_key_file(pcrypt_recipients* recipients, const char* path, const void* context,
                                       size_t context_size) {
  return guarded([&] {
    require(recipients, "the recipients");
    pcrypt::c_api::add_raw_key_file(recipients->raw_keys, path, context, context_size);
  });
}

int pcrypt_generate_raw_key(void* key, size_t size) {
  return guarded([&] {
    require(key, "the key buffer");
    const pcrypt::SecretBytes made = pcrypt::generate_raw_key(size);
    std::memcpy(key, made.data(), made.size());
  });
}

void pcrypt_recipients_free(pcrypt_recipients* recipients) {
  delete recipients;
}

int pcrypt_encrypt(pcrypt_source* plaintext, pcrypt_sink* sink, const pcrypt_recipients* recipients,
                   const pcrypt_options* options, pcrypt_transfer* transfer) {
  return pcrypt::c_api::with_callback_errno(
      guarded([&] {
        require(recipients, "the recipients");
        const CallRecipients to(*recipients);
        pcrypt::Source from = pcrypt::c_api::take(plaintext);
        pcrypt::Sink into = pcrypt::c_api::take(sink);
        pcrypt::c_api::put_transfer(
            pcrypt::encrypt(std::move(from), std::move(into), to.to, pcrypt::c_api::encrypt_options(options)),
            transfer);
      }),
      plaintext, sink);
}

int pcrypt_encryptor_new(pcrypt_encryptor** encryptor, pcrypt_sink* sink, const pcrypt_recipients* recipients,
                         const pcrypt_options* options) {
  return pcrypt::c_api::with_callback_errno(
      guarded([&] {
        require(encryptor, "the encryptor pointer");
        require(recipients, "the recipients");
        const CallRecipients to(*recipients);
        pcrypt::Sink into = pcrypt::c_api::take(sink);
        *encryptor = new pcrypt_encryptor(
            pcrypt::Encryptor(std::move(into), to.to, pcrypt::c_api::encrypt_options(options)),
            sink->callback_errno);
      }),
      nullptr, sink);
}

int pcrypt_encryptor_write(pcrypt_encryptor* encryptor, const void* data, size_t size) {
  return pcrypt::c_api::with_callback_errno(
      guarded([&] {
        require(encryptor, "the encryptor");
        if (size > 0) require(data, "the data");
        encryptor->encryptor.write({static_cast<const std::uint8_t*>(data), size});
      }),
      nullptr, encryptor != nullptr ? &encryptor->sink : nullptr);
}

int pcrypt_encryptor_finish(pcrypt_encryptor* encryptor, pcrypt_transfer* transfer) {
  return pcrypt::c_api::with_callback_errno(guarded([&] {
                                              require(encryptor, "the encryptor");
                                              pcrypt::c_api::put_transfer(encryptor->encryptor.finish(),
                                                                          transfer);
                                            }),
                                            nullptr, encryptor != nullptr ? &encryptor->sink : nullptr);
}

void pcrypt_encryptor_free(pcrypt_encryptor* encryptor) {
  delete encryptor;
}

// ---- Keys

int pcrypt_keygen(pcrypt_key** key, pcrypt_key_type type) {
  return guarded([&] {
    require(key, "the key pointer");
    auto* made = new pcrypt_key{};
    try {
      const auto raw = enum_bits(type);
      switch (raw) {
        case PCRYPT_KEY_AGE_X25519:
        case PCRYPT_KEY_AGE_PQ: {
          pcrypt::NewIdentity identity = pcrypt::generate_identity(raw == PCRYPT_KEY_AGE_PQ);
          made->text = WipedString(std::move(identity.file_text));
          made->recipient = std::move(identity.recipient);
          break;
        }
        case PCRYPT_KEY_PCRYPT_KEY_FILE:
          made->text = WipedString(pcrypt::generate_key_file());
          break;
        default:
          throw pcrypt::Error(PCRYPT_E_BAD_ARGUMENT, "unknown key type " + std::to_string(raw));
      }
    } catch (...) {
      delete made;
      throw;
    }
    *key = made;
  });
}

const char* pcrypt_key_text(const pcrypt_key* key) {
  return key != nullptr ? key->text.text().c_str() : nullptr;
}

const char* pcrypt_key_recipient(const pcrypt_key* key) {
  return key != nullptr ? key->recipient.c_str() : nullptr;
}

void pcrypt_key_free(pcrypt_key* key) {
  delete key;
}

int pcrypt_check_recipient(const char* recipient) {
  return guarded([&] {
    require(recipient, "the recipient");
    pcrypt::check_recipient(recipient);
  });
}
