// AES engines: the keyed primitives every other part of pcrypt uses, and the run-time choice among them.
//
// An engine is one implementation of AES (ours for AES-NI, VAES, portable constant-time; libsodium's as the
// reference). All engines are byte-for-byte interchangeable: the file format does not know which one sealed a
// chunk. Keyed objects are immutable after construction, so one instance may be shared by all pipeline
// workers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace pcrypt::aes {

inline constexpr std::size_t kBlockBytes = 16;
inline constexpr std::size_t kGcmKeyBytes = 32;     // AES-256-GCM: pcrypt's own format uses nothing else
inline constexpr std::size_t kGcm128KeyBytes = 16;  // AES-128-GCM: C2SP chunked encryption (Cobblestone-128)
inline constexpr std::size_t kGcmNonceBytes = 12;
inline constexpr std::size_t kGcmTagBytes = 16;

// A keyed AES-GCM instance (AES-256 or AES-128; 96-bit nonces, 128-bit tags). seal/open are const and
// thread-safe.
class Gcm {
 public:
  virtual ~Gcm() = default;
  // Encrypts len bytes from in to out and writes the 16-byte tag. out == in (in place) is allowed; any other
  // overlap is not.
  virtual void seal(std::uint8_t* out, std::uint8_t* tag, const std::uint8_t* in, std::size_t len,
                    const std::uint8_t* aad, std::size_t aad_len, const std::uint8_t* nonce) const = 0;
  // Verifies the tag in constant time and decrypts. On failure returns false and leaves out[0..len) zeroed:
  // no unauthenticated plaintext is ever released. out == in is allowed.
  [[nodiscard]] virtual bool open(std::uint8_t* out, const std::uint8_t* in, std::size_t len,
                                  const std::uint8_t* tag, const std::uint8_t* aad, std::size_t aad_len,
                                  const std::uint8_t* nonce) const = 0;
};

// A keyed raw AES instance (128-, 192- or 256-bit key) for CTR keystreams and per-block experiments.
class BlockCipher {
 public:
  virtual ~BlockCipher() = default;
  virtual void encrypt_blocks(std::uint8_t* out, const std::uint8_t* in, std::size_t blocks) const = 0;
  virtual void decrypt_blocks(std::uint8_t* out, const std::uint8_t* in, std::size_t blocks) const = 0;
  // SP 800-38A CTR mode: counter is a 128-bit big-endian integer, incremented once per block (mod 2^128) and
  // left pointing at the next unused block on return. A partial final block consumes a whole counter value.
  // out == in is allowed.
  virtual void ctr_xor(std::uint8_t* out, const std::uint8_t* in, std::size_t len,
                       std::uint8_t* counter) const = 0;
  // The keystream alone (same counter rules as ctr_xor).
  virtual void ctr_keystream(std::uint8_t* out, std::size_t len, std::uint8_t* counter) const = 0;
};

struct Engine {
  std::string_view name;         // "vaes", "aesni", "portable", "sodium"
  std::string_view description;  // one line for --version / bench headers
  bool (*supported)();           // can this CPU and OS run it?
  std::unique_ptr<Gcm> (*make_gcm)(std::span<const std::uint8_t, kGcmKeyBytes> key);
  // AES-128-GCM from the same code as make_gcm (10 rounds instead of 14); nullptr where the engine has none
  // (libsodium implements only AES-256-GCM).
  std::unique_ptr<Gcm> (*make_gcm128)(std::span<const std::uint8_t, kGcm128KeyBytes> key);
  // nullptr for engines without raw AES (libsodium exposes none). key must be 16, 24 or 32 bytes.
  std::unique_ptr<BlockCipher> (*make_block_cipher)(std::span<const std::uint8_t> key);
  // nullptr, or why this engine, though supported, should not be the default on this CPU (empty: it should).
  std::string_view (*not_preferred)() = nullptr;
};

// Every engine compiled in, fastest first, whether or not this CPU supports it.
std::span<const Engine> all_engines();
// nullptr if no engine has that name.
const Engine* find_engine(std::string_view name);
// The fastest engine this CPU supports and that is not marked not_preferred here (the default).
const Engine& best_engine();
// One line saying which engine best_engine() picks and why the faster ones were passed over, e.g.
// "vaes (vaes512 not preferred: Ice Lake server downclocks on 512-bit code)".
std::string best_engine_reason();
// AES-GCM with a 16- or 32-byte key from engine e. Throws std::invalid_argument for another key length, and
// for a 16-byte key on an engine without AES-128-GCM (sodium): the caller chose that engine by name, so it is
// refused rather than silently replaced.
std::unique_ptr<Gcm> make_gcm_any(const Engine& e, std::span<const std::uint8_t> key);
// The engine called `name`; best_engine() for "" or "auto". Throws std::invalid_argument with a one-line
// message if the name is unknown or unsupported on this CPU. (Where the name comes from -- an option, the
// environment -- is the CLI's business: see core/engine_choice.h.)
const Engine& select_engine(std::string_view name = {});

}  // namespace pcrypt::aes
