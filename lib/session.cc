// What runs a call and what the library says of itself: pcrypt::Session (the engine, the Argon2id cache of a
// run), the worker count, the engines table, sizes in pcrypt's grammar, the limits and the version.
#define PCRYPT_BUILDING_LIBRARY
#include "core/aes/engine.h"
#include "core/byte_size.h"
#include "core/chacha/chacha20poly1305.h"
#include "core/door/limits.h"
#include "core/engine_choice.h"
#include "core/pipeline.h"
#include "lib/internal.h"

namespace pcrypt {
inline namespace v1 {

Session::Impl& Access::of(const Session& s) {
  detail::require_not_moved_from(s.impl_.get(), "Session");
  return *s.impl_;
}

Session::Session(const std::string& engine) : impl_(std::make_unique<Impl>()) {
  detail::guarded(detail::Phase::other, [&] {
    impl_->engine = &core::choose_engine(engine);
    return 0;
  });
}
Session::Session(Session&&) noexcept = default;
Session& Session::operator=(Session&&) noexcept = default;
Session::~Session() = default;

std::string Session::engine() const {
  return detail::guarded(detail::Phase::other, [&] { return std::string(Access::of(*this).engine->name); });
}

std::size_t Session::argon2id_runs() const {
  return detail::guarded(detail::Phase::other, [&] { return Access::of(*this).cache.argon2id_runs(); });
}

unsigned worker_threads(unsigned threads) {
  return core::pipeline_workers(threads);
}

static_assert(limits::min_chunk_size == core::door::kMinChunkSize &&
              limits::max_chunk_size == core::door::kMaxChunkSize);
static_assert(limits::min_argon2id_passes == core::door::kMinKdfOps &&
              limits::max_argon2id_passes == core::door::kMaxKdfOps);
static_assert(limits::min_argon2id_memory_kib == core::door::kMinKdfMemoryKib &&
              limits::max_argon2id_memory_kib == core::door::kMaxKdfMemoryKib);
static_assert(limits::max_slots == core::door::kMaxSlots &&
              limits::max_scrypt_log2 == core::door::kMaxScryptLog2);

std::uint64_t parse_size(std::string_view text, std::string_view option) {
  return detail::guarded(detail::Phase::other, [&] { return core::parse_size(text, option); });
}

std::string format_bytes(std::uint64_t bytes) {
  return detail::guarded(detail::Phase::other, [&] { return core::format_bytes(bytes); });
}

std::string describe_engines(const std::optional<std::string>& chosen) {
  return detail::guarded(detail::Phase::other, [&] {
    std::string table = aes::describe_engines(chosen ? &core::choose_engine(*chosen) : nullptr);
    table += "age payloads, ChaCha20-Poly1305:";
    for (const chacha::ChaChaBackend backend : chacha::available_chacha_backends()) {
      table += ' ';
      table += chacha::backend_name(backend);
    }
    table += " (the first is used)\n";
    return table;
  });
}

std::string version() {
  return PCRYPT_VERSION_STRING;
}

}  // namespace v1
}  // namespace pcrypt
