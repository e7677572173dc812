#include "core/aes/engine.h"

#include <array>
#include <stdexcept>

#include "core/aes/engine_registry.h"

namespace pcrypt::aes {
namespace {

// Stand-ins for an engine built only for another architecture: listed (so `--engine vaes` on an ARM machine
// says "not supported on this CPU" rather than "unknown"), never supported, never constructed.
[[maybe_unused]] bool not_this_architecture() {
  return false;
}
[[maybe_unused]] std::unique_ptr<Gcm> no_gcm(std::span<const std::uint8_t, kGcmKeyBytes>) {
  throw std::logic_error("AES engine not built for this architecture");
}
[[maybe_unused]] std::unique_ptr<Gcm> no_gcm128(std::span<const std::uint8_t, kGcm128KeyBytes>) {
  throw std::logic_error("AES engine not built for this architecture");
}
[[maybe_unused]] std::unique_ptr<BlockCipher> no_block_cipher(std::span<const std::uint8_t>) {
  throw std::logic_error("AES engine not built for this architecture");
}

#if defined(PCRYPT_ENGINES_X86_64)
namespace x86 = detail;
#else
namespace x86 {
constexpr auto vaes512_supported = not_this_architecture, vaes_supported = not_this_architecture,
               aesni_supported = not_this_architecture;
constexpr auto make_vaes512_gcm = no_gcm, make_vaes_gcm = no_gcm, make_aesni_gcm = no_gcm;
constexpr auto make_vaes512_gcm128 = no_gcm128, make_vaes_gcm128 = no_gcm128, make_aesni_gcm128 = no_gcm128;
constexpr auto make_vaes512_block_cipher = no_block_cipher, make_vaes_block_cipher = no_block_cipher,
               make_aesni_block_cipher = no_block_cipher;
constexpr std::string_view (*vaes512_not_preferred)() = nullptr;
}  // namespace x86
#endif
#if defined(PCRYPT_ENGINES_AARCH64)
namespace arm = detail;
#else
namespace arm {
constexpr auto armce_supported = not_this_architecture;
constexpr auto make_armce_gcm = no_gcm;
constexpr auto make_armce_gcm128 = no_gcm128;
constexpr auto make_armce_block_cipher = no_block_cipher;
}  // namespace arm
#endif

// Fastest first: best_engine() takes the first supported one. The x86-64 and AArch64 engines never run on
// the same machine, so their relative order does not matter.
const std::array kEngines{
    Engine{"vaes512", "our AES-GCM: VAES + VPCLMULQDQ, 512-bit AVX-512", x86::vaes512_supported,
           x86::make_vaes512_gcm, x86::make_vaes512_gcm128, x86::make_vaes512_block_cipher,
           x86::vaes512_not_preferred},
    Engine{"vaes", "our AES-GCM: VAES + VPCLMULQDQ, 256-bit AVX2", x86::vaes_supported, x86::make_vaes_gcm,
           x86::make_vaes_gcm128, x86::make_vaes_block_cipher},
    Engine{"aesni", "our AES-GCM: AES-NI + PCLMULQDQ, 128-bit", x86::aesni_supported, x86::make_aesni_gcm,
           x86::make_aesni_gcm128, x86::make_aesni_block_cipher},
    Engine{"armce", "our AES-GCM: ARMv8 Crypto Extensions AESE/AESMC + PMULL, 128-bit NEON",
           arm::armce_supported, arm::make_armce_gcm, arm::make_armce_gcm128, arm::make_armce_block_cipher},
    // libsodium has AES-256-GCM only: no make_gcm128, so AES-128-GCM (Cobblestone-128) with this engine
    // chosen by name is refused (make_gcm_any).
    Engine{"sodium", "libsodium crypto_aead_aes256gcm (AES-NI + PCLMUL, reference; no AES-128-GCM)",
           detail::sodium_supported, detail::make_sodium_gcm, nullptr, nullptr},
    Engine{"portable", "our constant-time software AES-GCM (bitsliced AES, no tables)",
           detail::portable_supported, detail::make_portable_gcm, detail::make_portable_gcm128,
           detail::make_portable_block_cipher},
};

}  // namespace

std::span<const Engine> all_engines() {
  return kEngines;
}

const Engine* find_engine(std::string_view name) {
  for (const Engine& e : kEngines)
    if (e.name == name) return &e;
  return nullptr;
}

namespace {

std::string_view not_preferred(const Engine& e) {
  return e.not_preferred != nullptr ? e.not_preferred() : std::string_view{};
}

}  // namespace

const Engine& best_engine() {
  for (const Engine& e : kEngines)
    if (e.supported() && not_preferred(e).empty()) return e;
  throw std::runtime_error("no AES engine is supported on this CPU");
}

std::string best_engine_reason() {
  // Built by appends: GCC 12 at -O3 reports a false -Wrestrict for "literal" + std::string temporaries.
  const Engine& best = best_engine();
  std::string passed;
  for (const Engine& e : kEngines) {
    if (&e == &best) break;
    if (!passed.empty()) passed += "; ";
    passed += e.name;
    if (e.supported()) {
      passed += " not preferred: ";
      passed += not_preferred(e);
    } else {
      passed += " not supported on this CPU";
    }
  }
  std::string out(best.name);
  if (passed.empty()) {
    out += " (the fastest engine, supported here)";
  } else {
    out += " (";
    out += passed;
    out += ')';
  }
  return out;
}

std::unique_ptr<Gcm> make_gcm_any(const Engine& e, std::span<const std::uint8_t> key) {
  if (key.size() == kGcmKeyBytes) return e.make_gcm(key.first<kGcmKeyBytes>());
  if (key.size() != kGcm128KeyBytes) throw std::invalid_argument("AES-GCM key must be 16 or 32 bytes");
  if (e.make_gcm128 == nullptr)
    throw std::invalid_argument("engine '" + std::string(e.name) +
                                "' has no AES-128-GCM (libsodium implements only AES-256-GCM)");
  return e.make_gcm128(key.first<kGcm128KeyBytes>());
}

const Engine& select_engine(std::string_view requested) {
  if (requested.empty() || requested == "auto") return best_engine();
  const Engine* e = find_engine(requested);
  if (e == nullptr) {
    std::string names;
    for (const Engine& k : kEngines) names += (names.empty() ? "" : ", ") + std::string(k.name);
    throw std::invalid_argument("unknown engine '" + std::string(requested) + "' (known: " + names + ")");
  }
  if (!e->supported())
    throw std::invalid_argument("engine '" + std::string(requested) + "' is not supported on this CPU");
  return *e;
}

}  // namespace pcrypt::aes
