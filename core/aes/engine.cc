#include "core/aes/engine.h"

#include <array>
#include <stdexcept>

#include "core/aes/engine_registry.h"

namespace pcrypt::aes {
namespace {

// Fastest first: best_engine() takes the first supported one.
const std::array kEngines{
    Engine{"vaes512", "our AES-256-GCM: VAES + VPCLMULQDQ, 512-bit AVX-512", detail::vaes512_supported,
           detail::make_vaes512_gcm, detail::make_vaes512_block_cipher, detail::vaes512_not_preferred},
    Engine{"vaes", "our AES-256-GCM: VAES + VPCLMULQDQ, 256-bit AVX2", detail::vaes_supported,
           detail::make_vaes_gcm, detail::make_vaes_block_cipher},
    Engine{"aesni", "our AES-256-GCM: AES-NI + PCLMULQDQ, 128-bit", detail::aesni_supported,
           detail::make_aesni_gcm, detail::make_aesni_block_cipher},
    Engine{"sodium", "libsodium crypto_aead_aes256gcm (AES-NI + PCLMUL, reference)", detail::sodium_supported,
           detail::make_sodium_gcm, nullptr},
    Engine{"portable", "our constant-time software AES-256-GCM (bitsliced AES, no tables)",
           detail::portable_supported, detail::make_portable_gcm, detail::make_portable_block_cipher},
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

std::string describe_engines(const Engine* chosen) {
  std::string out;
  for (const Engine& e : kEngines) {
    out += std::string(e.name);
    out.append(e.name.size() < 10 ? 10 - e.name.size() : 1, ' ');
    out += e.supported() ? (&e == chosen ? "selected   " : "supported  ") : "unsupported";
    out += "  ";
    out += e.description;
    out += '\n';
  }
  out += "default: ";
  out += best_engine_reason();
  out += '\n';
  if (chosen != nullptr && chosen != &best_engine()) {
    out += '(';
    out += chosen->name;
    out += " selected by name: --engine or PCRYPT_ENGINE)\n";
  }
  return out;
}

}  // namespace pcrypt::aes
