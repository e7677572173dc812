// age's native recipient stanzas and the rules on using them (C2SP age.md "Native recipient types"; the ssh
// types are the reference implementation's, specified in docs/FORMAT.md "age format"). Each credential makes:
//  - X25519: "X25519 SHARE"; wrap key = HKDF(X25519(e, R), salt = E || R, "age-encryption.org/v1/X25519");
//  - scrypt: "scrypt SALT LOG2N"; wrap key = scrypt(N = 2^LOG2N, r = 8, p = 1,
//    salt = "age-encryption.org/v1/scrypt" || SALT);
//  - ssh-ed25519: "ssh-ed25519 TAG SHARE", TAG = SHA-256(SSH public key blob)[:4]; the X25519 secret is
//    tweaked;
//  - ssh-rsa: "ssh-rsa TAG"; the body is RSA-OAEP-SHA-256(file key, label "age-encryption.org/v1/ssh-rsa");
//  - mlkem768x25519: "mlkem768x25519 ENC"; HPKE base mode, KEM MLKEM768-X25519 (core/pq/hpke.h),
//    info = "age-encryption.org/mlkem768x25519", aad empty.
// The X25519, scrypt and ssh-ed25519 bodies are ChaCha20-Poly1305(wrap key, nonce 0, 16-byte file key), and
// the mlkem768x25519 body the HPKE ciphertext of the file key: exactly 32 bytes each.
// Post-quantum recipients are never mixed with classical ones in a file pcrypt writes (age.md: "SHOULD NOT";
// age 1.3 refuses); files from others that mix them are read.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "core/aes/secret_bytes.h"
#include "core/age/header.h"
#include "core/keys/credential.h"
#include "core/keys/recipient.h"

namespace pcrypt::core::age {

inline constexpr std::size_t kFileKeyBytes = 16;
inline constexpr unsigned kDefaultScryptLog2 = 18;     // what age writes
inline constexpr unsigned kDefaultMaxScryptLog2 = 22;  // the most age (and pcrypt, unless raised) will run
inline constexpr unsigned kMaxScryptLog2 = 40;  // beyond any machine's memory: refused even when asked for

// A fresh random 16-byte file key.
SecretBytes new_file_key();

// What age forbids or cannot hold, checked before anything is asked or written: key files (age has no such
// recipient), a passphrase together with anything else ("an scrypt stanza must be the only stanza"), nothing
// at all. Throws Error(usage) naming the rule.
void check_credential_mix(std::size_t key_files, std::size_t recipients, bool passphrase);

// age 1.3's rule, and pcrypt's in both formats: post-quantum (age1pq1…) recipients are not mixed with X25519
// or SSH ones (a future quantum computer would open the file through the classical stanza). Throws
// Error(usage) saying so.
void check_no_quantum_mix(const std::vector<Credential>& credentials);
// The same rule on counts (rekey: kept stanzas and added recipients).
void check_no_quantum_mix(std::size_t post_quantum, std::size_t classical);

// One stanza per credential (recipients and at most one passphrase). Throws Error(usage) for what age
// forbids or cannot hold: a passphrase together with anything else ("an scrypt stanza must be the only
// stanza"), key files, no credential, or post-quantum (age1pq1…) recipients together with X25519/SSH ones.
std::vector<Stanza> wrap_file_key(const SecretBytes& file_key, const std::vector<Credential>& credentials,
                                  unsigned scrypt_log2);

// The file key, tried credential by credential, each on the stanzas in order (as age does). Error(header)
// when: an scrypt stanza is not alone; a stanza of a type a credential handles is malformed (wrong argument
// count, non-canonical base64, a body that is not 32 bytes, an all-zero shared secret); a work factor above
// `max_scrypt_log2` (the hint names --max-work-factor); an mlkem768x25519 stanza whose X25519 share is a
// low-order point; none opens (the message says so; its hint asks for an AGE-SECRET-KEY-PQ-1… identity when
// the file has mlkem768x25519 stanzas and none was given). Does not check the header MAC.
SecretBytes unwrap_file_key(const Header& header, std::span<const Credential> credentials,
                            unsigned max_scrypt_log2);

// The file key `credential` finds in `stanza`; nullopt when the stanza is not for it (another type, another
// key, a wrong passphrase). Errors as unwrap_file_key's for a malformed stanza of a type the credential
// handles, or an scrypt work factor above `max_scrypt_log2`.
std::optional<SecretBytes> unwrap_stanza(const Stanza& stanza, const Credential& credential,
                                         unsigned max_scrypt_log2);

// Whether `credential` opens `stanza` to `file_key` (rekey --remove-key; rekey's duplicate check). Errors as
// unwrap_file_key's for a malformed stanza of a type the credential handles.
bool opens(const Stanza& stanza, const Credential& credential, const SecretBytes& file_key,
           unsigned max_scrypt_log2);
// Whether an SSH recipient's tag is on `stanza` (of its own type); always false for X25519, whose stanzas do
// not say whom they are for.
bool carries_tag_of(const Stanza& stanza, const Recipient& recipient);

// For messages and `pcrypt info`: "1 X25519 stanza and 2 other stanzas".
std::string describe_stanzas(const Header& header);
std::size_t count_stanzas(const Header& header, std::string_view type);

}  // namespace pcrypt::core::age
