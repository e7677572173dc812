// The C API's encrypted file (include/pcrypt/pcrypt_c.h): open, describe, unlock, decrypt, verify, read_at
// and rekey, each one call of pcrypt::File.
#include <string.h>  // explicit_bzero

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "lib/c_api_internal.h"

using pcrypt::c_api::guarded;
using pcrypt::c_api::require;

namespace {

// pcrypt_file_read_at's own buffer, per thread, is kept between calls up to this size.
constexpr std::size_t kKeptReadBytes = std::size_t{16} << 20;

// A passphrase from the caller's callback, through a buffer the library wipes.
std::optional<std::string> ask(pcrypt_passphrase_fn callback, void* user, const char* key_name) {
  std::array<char, PCRYPT_MAX_PASSPHRASE_BYTES> buffer{};
  const int length = callback(user, key_name, buffer.data(), buffer.size());
  std::optional<std::string> answer;
  if (length > static_cast<int>(buffer.size())) {
    explicit_bzero(buffer.data(), buffer.size());
    throw pcrypt::Error(PCRYPT_E_BAD_ARGUMENT,
                        "the passphrase callback returned more bytes than the buffer holds");
  }
  if (length >= 0) answer.emplace(buffer.data(), static_cast<std::size_t>(length));
  explicit_bzero(buffer.data(), buffer.size());
  return answer;
}

// The C++ credentials for one unlock() call: they refer to `given`, which outlives the call.
pcrypt::Credentials credentials_of(const pcrypt_credentials& given) {
  pcrypt::Credentials by;
  by.identity_files = given.identity_files;
  for (const WipedString& text : given.identities) by.identities.push_back(text.text());
  by.key_files = given.key_files;
  if (given.passphrase) {
    by.passphrase = [&given]() -> std::optional<std::string> { return given.passphrase->text(); };
  } else if (given.passphrase_callback != nullptr) {
    by.passphrase = [&given] { return ask(given.passphrase_callback, given.passphrase_user, nullptr); };
  }
  if (given.passphrase_callback != nullptr)
    by.ssh_key_passphrase = [&given](const std::string& key_name) {
      return ask(given.passphrase_callback, given.passphrase_user, key_name.c_str());
    };
  by.max_scrypt_log2 = given.max_scrypt_log2;
  by.max_argon2id_memory_bytes = given.max_argon2id_memory_bytes;
  by.max_argon2id_passes = given.max_argon2id_passes;
  by.keys = given.raw_keys.get();
  return by;
}

// Wipes the copies of identity text a pcrypt::Credentials holds, when the unlock call is over.
struct WipedCredentials {
  pcrypt::Credentials by;
  ~WipedCredentials() {
    for (std::string& text : by.identities) explicit_bzero(text.data(), text.size());
  }
};

const pcrypt_source* source_of(const pcrypt_file* file) {
  return file != nullptr ? &file->source : nullptr;
}

}  // namespace

namespace pcrypt::c_api {

template <typename Handle>
auto& opened_file(Handle* file) {
  require(file, "the file");
  if (!file->file)
    throw pcrypt::Error(PCRYPT_E_WRONG_ORDER, "the file was given to a reader: read it through the reader");
  return *file->file;
}

pcrypt::File& opened(pcrypt_file* file) {
  return opened_file(file);
}

const pcrypt::File& opened(const pcrypt_file* file) {
  return opened_file(file);
}

}  // namespace pcrypt::c_api

int pcrypt_file_open(pcrypt_file** file, pcrypt_source* source) {
  return pcrypt::c_api::with_callback_errno(guarded([&] {
                                              require(file, "the file pointer");
                                              pcrypt::Source taken = pcrypt::c_api::take(source);
                                              *file = new pcrypt_file(pcrypt::File::open(std::move(taken)),
                                                                      source->callback_errno);
                                            }),
                                            source, nullptr);
}

int pcrypt_file_open_format(pcrypt_file** file, pcrypt_source* source, pcrypt_format format) {
  return pcrypt::c_api::with_callback_errno(
      guarded([&] {
        require(file, "the file pointer");
        const pcrypt::Format told = pcrypt::c_api::format_of(pcrypt::c_api::enum_bits(format), "the format");
        pcrypt::Source taken = pcrypt::c_api::take(source);
        *file = new pcrypt_file(pcrypt::File::open(std::move(taken), told), source->callback_errno);
      }),
      source, nullptr);
}

void pcrypt_file_free(pcrypt_file* file) {
  delete file;
}

pcrypt_format pcrypt_file_format(const pcrypt_file* file) {
  return file != nullptr ? pcrypt::c_api::c_format(file->description.format) : PCRYPT_FORMAT_PCRYPT;
}

int pcrypt_file_armored(const pcrypt_file* file) {
  return file != nullptr && file->description.armored ? 1 : 0;
}

uint64_t pcrypt_file_header_bytes(const pcrypt_file* file) {
  return file != nullptr ? file->description.header_bytes : 0;
}

size_t pcrypt_file_chunk_size(const pcrypt_file* file) {
  return file != nullptr ? file->description.chunk_size : 0;
}

size_t pcrypt_file_slots(const pcrypt_file* file) {
  return file != nullptr ? file->description.slots : 0;
}

size_t pcrypt_file_passphrase_slots(const pcrypt_file* file) {
  return file != nullptr ? file->description.passphrase_slots : 0;
}

const char* pcrypt_file_slots_in_words(const pcrypt_file* file) {
  return file != nullptr ? file->description.slots_in_words.c_str() : nullptr;
}

int pcrypt_file_info(pcrypt_file* file, int all_bytes, const char** text) {
  return guarded([&] {
    require(file, "the file");
    require(text, "the text pointer");
    file->info = pcrypt::c_api::opened(file).info(all_bytes != 0);
    *text = file->info.c_str();
  });
}

int pcrypt_file_unlock(pcrypt_file* file, const pcrypt_credentials* credentials) {
  return pcrypt::c_api::with_callback_errno(guarded([&] {
                                              require(file, "the file");
                                              require(credentials, "the credentials");
                                              WipedCredentials given{credentials_of(*credentials)};
                                              pcrypt::c_api::opened(file).unlock(given.by);
                                            }),
                                            source_of(file), nullptr);
}

int pcrypt_file_decrypt(pcrypt_file* file, pcrypt_sink* sink, const pcrypt_options* options,
                        pcrypt_transfer* transfer) {
  return pcrypt::c_api::with_callback_errno(
      guarded([&] {
        require(file, "the file");
        pcrypt::Sink taken = pcrypt::c_api::take(sink);
        pcrypt::c_api::put_transfer(
            pcrypt::c_api::opened(file).decrypt(std::move(taken), pcrypt::c_api::run_options(options)),
            transfer);
      }),
      source_of(file), sink);
}

int pcrypt_file_verify(pcrypt_file* file, const pcrypt_options* options, pcrypt_transfer* transfer) {
  return pcrypt::c_api::with_callback_errno(
      guarded([&] {
        require(file, "the file");
        pcrypt::c_api::put_transfer(pcrypt::c_api::opened(file).verify(pcrypt::c_api::run_options(options)),
                                    transfer);
      }),
      source_of(file), nullptr);
}

int pcrypt_file_read_at(const pcrypt_file* file, uint64_t offset, void* buffer, size_t size,
                        size_t* bytes_read) {
  return pcrypt::c_api::with_callback_errno(
      guarded([&] {
        require(file, "the file");
        require(bytes_read, "the bytes_read pointer");
        if (size > 0) require(buffer, "the buffer");
        // Decrypted into the library's own buffer and copied out only once every record of the range is
        // authenticated: a failure leaves the caller's buffer as it was (pcrypt_c.h: out-parameters are
        // untouched on failure), not holding earlier records' plaintext and later ones' ciphertext.
        thread_local std::vector<std::uint8_t> plaintext;
        struct Shrink {  // a buffer kept between calls, but not one of the largest read ever made
          ~Shrink() {
            if (plaintext.capacity() > kKeptReadBytes) std::vector<std::uint8_t>().swap(plaintext);
          }
        } shrink;
        const pcrypt::File& opened = pcrypt::c_api::opened(file);
        const std::uint64_t plaintext_bytes = opened.plaintext_size();
        const std::size_t want =
            offset >= plaintext_bytes
                ? 0
                : static_cast<std::size_t>(std::min<std::uint64_t>(size, plaintext_bytes - offset));
        if (plaintext.size() < want) plaintext.resize(want);
        const std::size_t got = opened.read_at(offset, {plaintext.data(), want});
        if (got > 0) std::memcpy(buffer, plaintext.data(), got);
        *bytes_read = got;
      }),
      source_of(file), nullptr);
}

int pcrypt_file_plaintext_size(const pcrypt_file* file, uint64_t* size) {
  return pcrypt::c_api::with_callback_errno(guarded([&] {
                                              require(file, "the file");
                                              require(size, "the size pointer");
                                              *size = pcrypt::c_api::opened(file).plaintext_size();
                                            }),
                                            source_of(file), nullptr);
}

// ---- Rekey

pcrypt_rekey* pcrypt_rekey_new(void) {
  return pcrypt::c_api::make_handle<pcrypt_rekey>([] { return new pcrypt_rekey{}; });
}

int pcrypt_rekey_remove_slot(pcrypt_rekey* rekey, size_t slot) {
  return guarded([&] {
    require(rekey, "the rekey request");
    if (slot == 0) throw pcrypt::Error(PCRYPT_E_BAD_SLOT, "slots are numbered from 1");
    rekey->request.remove_slots.push_back(slot);
  });
}

int pcrypt_rekey_remove_recipient(pcrypt_rekey* rekey, const char* recipient) {
  return guarded([&] {
    require(rekey, "the rekey request");
    require(recipient, "the recipient");
    rekey->request.remove_recipients.emplace_back(recipient);
  });
}

int pcrypt_rekey_remove_identity_file(pcrypt_rekey* rekey, const char* path) {
  return guarded([&] {
    require(rekey, "the rekey request");
    require(path, "the path");
    rekey->request.remove_identity_files.emplace_back(path);
  });
}

int pcrypt_rekey_add_recipient(pcrypt_rekey* rekey, const char* recipient) {
  return guarded([&] {
    require(rekey, "the rekey request");
    require(recipient, "the recipient");
    pcrypt::check_recipient(recipient);
    rekey->request.add_recipients.emplace_back(recipient);
  });
}

int pcrypt_rekey_add_key_file(pcrypt_rekey* rekey, const char* path) {
  return guarded([&] {
    require(rekey, "the rekey request");
    require(path, "the path");
    rekey->request.add_key_files.emplace_back(path);
  });
}

int pcrypt_rekey_add_passphrase(pcrypt_rekey* rekey, const char* passphrase) {
  return guarded([&] {
    require(rekey, "the rekey request");
    require(passphrase, "the passphrase");
    if (*passphrase == '\0') throw pcrypt::Error(PCRYPT_E_EMPTY_PASSPHRASE, "the passphrase is empty");
    rekey->add_passphrase.emplace(std::string(passphrase));
  });
}

int pcrypt_rekey_new_file_key(pcrypt_rekey* rekey, int keep_opening_access) {
  return guarded([&] {
    require(rekey, "the rekey request");
    rekey->request.new_file_key = true;
    rekey->request.keep_opening_access = keep_opening_access != 0;
  });
}

void pcrypt_rekey_free(pcrypt_rekey* rekey) {
  delete rekey;
}

int pcrypt_file_rekey(pcrypt_file* file, const pcrypt_rekey* rekey, pcrypt_sink* sink,
                      const pcrypt_options* options, size_t* slots_after) {
  return pcrypt::c_api::with_callback_errno(
      guarded([&] {
        require(file, "the file");
        require(rekey, "the rekey request");
        pcrypt::RekeyRequest request = rekey->request;
        if (rekey->add_passphrase) request.add_passphrase = rekey->add_passphrase->text();
        if (options != nullptr) {
          request.argon2id_memory_bytes = options->encrypt.argon2id_memory_bytes;
          request.argon2id_passes = options->encrypt.argon2id_passes;
        }
        struct WipeAddedPassphrase {
          std::optional<std::string>& passphrase;
          ~WipeAddedPassphrase() {
            if (passphrase) explicit_bzero(passphrase->data(), passphrase->size());
          }
        } wipe{request.add_passphrase};
        pcrypt::Sink taken = pcrypt::c_api::take(sink);
        const pcrypt::RekeyResult result =
            pcrypt::c_api::opened(file).rekey(request, std::move(taken), pcrypt::c_api::run_options(options));
        if (slots_after != nullptr) *slots_after = result.slots_after;
      }),
      source_of(file), sink);
}
