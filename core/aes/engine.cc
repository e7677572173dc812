#include "core/aes/engine.h"

#include <array>
#include <stdexcept>

#include "core/aes/engine_registry.h"

namespace pcrypt::aes {
namespace {

// Fastest first: best_engine() takes the first supported one.
const std::array kEngines{
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

const Engine& best_engine() {
  for (const Engine& e : kEngines)
    if (e.supported()) return e;
  throw std::runtime_error("no AES engine is supported on this CPU");
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
  return out;
}

}  // namespace pcrypt::aes
