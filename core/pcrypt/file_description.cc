#include "core/pcrypt/file_description.h"
#include "core/counted.h"

#include <string_view>

#include "core/byte_size.h"
#include "core/records.h"

namespace pcrypt::core {
namespace {

std::string count(std::size_t n, const char* kind) {
  return counted(n, std::string(kind) + " slot");
}

std::string slot_kinds(const FileHeader& h) {
  std::size_t keys = 0, passphrases = 0, x25519 = 0, ssh = 0, hybrid = 0, rsa = 0;
  for (const KeySlot& s : h.slots) {
    switch (s.kind) {
      case SlotKind::key_file:
        ++keys;
        break;
      case SlotKind::passphrase:
        ++passphrases;
        break;
      case SlotKind::x25519:
        ++x25519;
        break;
      case SlotKind::ssh_ed25519:
        ++ssh;
        break;
      case SlotKind::mlkem768_x25519:
        ++hybrid;
        break;
      case SlotKind::ssh_rsa:
        ++rsa;
        break;
    }
  }
  std::string out;
  const auto add = [&out](std::size_t n, const std::string& what) {
    if (n == 0) return;
    out += (out.empty() ? "" : " or ") + what;
  };
  add(keys, "a key file (" + count(keys, "key-file") + ")");
  add(x25519, "an X25519 identity (" + count(x25519, "X25519 recipient") + ")");
  add(ssh, "an SSH ed25519 key (" + count(ssh, "SSH ed25519 recipient") + ")");
  add(rsa, "an SSH RSA key (" + count(rsa, "SSH RSA recipient") + ")");
  add(hybrid, "a post-quantum identity (" + count(hybrid, "ML-KEM-768 + X25519 recipient") + ")");
  add(passphrases, "a passphrase (" + count(passphrases, "passphrase") + ")");
  return out;
}

}  // namespace

std::string describe_payload(const ParsedHeader& parsed, std::optional<std::uint64_t> file_bytes) {
  std::string out = "unlocked by: " + slot_kinds(parsed.header) + "\n";
  if (!file_bytes) return out + "plaintext size: unknown (the input is not a regular file)\n";
  const PayloadLayout layout{parsed.header.chunk_size, parsed.total_bytes()};
  const std::uint64_t payload = *file_bytes > layout.payload_offset ? *file_bytes - layout.payload_offset : 0;
  const std::optional<std::uint64_t> records = layout.record_count(payload);
  if (!records)
    return out + "payload: " + bytes_in_words(payload) +
           ", a length no complete payload has: the file is truncated\n";
  const std::uint64_t plaintext = payload - *records * kChunkTagBytes;
  out += "plaintext size: " + bytes_in_words(plaintext) +
         ", from the file size (not verified: that needs the key)\n";
  const std::uint64_t final_bytes = plaintext - (*records - 1) * layout.chunk_size;
  out +=
      "chunks: " + std::to_string(*records) + ", the final one holding " + bytes_in_words(final_bytes) + "\n";
  out += "payload: " + bytes_in_words(payload) + ", the plaintext and a 16-byte tag per chunk\n";
  return out;
}

std::optional<OtherFile> recognise_other_file(std::span<const std::uint8_t> start) {
  const std::string_view text(reinterpret_cast<const char*>(start.data()), start.size());
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    if (line.empty() || line == "\r" || line.front() == '#') continue;
    using Kind = OtherFile::Kind;
    if (line.starts_with("PCRYPT-KEY-"))
      return OtherFile{Kind::pcrypt_key_file, "a pcrypt key file, not an encrypted file",
                       "use it as a key file (key_files) to encrypt or decrypt"};
    // AGE-SECRET-KEY-1 (X25519), AGE-SECRET-KEY-PQ-1 (post-quantum), AGE-PLUGIN-NAME-1 (a plugin's).
    if (line.starts_with("AGE-SECRET-KEY-") || line.starts_with("AGE-PLUGIN-"))
      return OtherFile{Kind::identity, "an age identity (secret key) file",
                       "use it as an identity file (identity_files) to decrypt files encrypted to it (or to "
                       "encrypt to yourself); its recipient is its public key"};
    if (line.starts_with("age1"))
      return OtherFile{Kind::recipient, "an age recipient (public key)",
                       "encrypt to it (recipients, recipient_files)"};
    if (line.starts_with("age-encryption.org/"))
      return OtherFile{Kind::age_file, "an age-encrypted file",
                       "open it as the encrypted file (pcrypt reads age files)"};
    if (line.starts_with("-----BEGIN OPENSSH PRIVATE KEY-----"))
      return OtherFile{Kind::ssh_private_key, "an OpenSSH private key",
                       "use it as an identity file (identity_files) to decrypt files encrypted to its public "
                       "key; its recipient is that public key"};
    for (std::string_view type : {"ssh-ed25519 ", "ssh-rsa ", "ecdsa-sha2-", "sk-ssh-ed25519"})
      if (line.starts_with(type))
        return OtherFile{Kind::ssh_public_key, "an OpenSSH public key",
                         "encrypt to it (recipients, recipient_files); decrypting needs the private key "
                         "(identity_files)"};
    return std::nullopt;
  }
  return std::nullopt;
}

pcrypt_file_kind file_kind_of(OtherFile::Kind kind) {
  switch (kind) {
    case OtherFile::Kind::pcrypt_key_file:
      return PCRYPT_FILE_KEY_FILE;
    case OtherFile::Kind::identity:
      return PCRYPT_FILE_IDENTITY;
    case OtherFile::Kind::recipient:
      return PCRYPT_FILE_RECIPIENT;
    case OtherFile::Kind::age_file:
      return PCRYPT_FILE_AGE_ENCRYPTED;
    case OtherFile::Kind::ssh_private_key:
      return PCRYPT_FILE_SSH_PRIVATE_KEY;
    case OtherFile::Kind::ssh_public_key:
      return PCRYPT_FILE_SSH_PUBLIC_KEY;
  }
  return PCRYPT_FILE_KEY_FILE;
}

}  // namespace pcrypt::core
