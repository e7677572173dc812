// What runs a call and what the library says of itself: pcrypt::Session (the engine, the Argon2id cache of a
// run), the worker count, the engines, the limits and the version.
#define PCRYPT_BUILDING_LIBRARY
#include "core/aes/engine.h"
#include "core/chacha/chacha20poly1305.h"
#include "core/door/limits.h"
#include "core/engine_choice.h"
#include "core/pipeline.h"
#include "lib/internal.h"

namespace pcrypt {
inline namespace v1 {

detail::SessionImpl& Access::of(const Session& s) {
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

namespace detail {

unsigned checked_threads(unsigned threads) {
  if (threads > limits::max_threads)
    throw core::Error(PCRYPT_E_BAD_ARGUMENT, "threads " + std::to_string(threads) + " is out of range (0.." +
                                                 std::to_string(limits::max_threads) + ")");
  return threads;
}

}  // namespace detail

static_assert(limits::min_chunk_size == core::door::kMinChunkSize &&
              limits::max_chunk_size == core::door::kMaxChunkSize);
static_assert(limits::min_argon2id_passes == core::door::kMinKdfOps &&
              limits::max_argon2id_passes == core::door::kMaxKdfOps);
static_assert(limits::min_argon2id_memory_kib == core::door::kMinKdfMemoryKib &&
              limits::max_argon2id_memory_kib == core::door::kMaxKdfMemoryKib);
static_assert(limits::max_slots == core::door::kMaxSlots &&
              limits::max_scrypt_log2 == core::door::kMaxScryptLog2);

std::vector<AesEngine> aes_engines() {
  std::vector<AesEngine> engines;
  for (const aes::Engine& e : aes::all_engines())
    engines.push_back(AesEngine{std::string(e.name), std::string(e.description), e.supported()});
  return engines;
}

std::string default_engine_reason() {
  return aes::best_engine_reason();
}

std::vector<std::string> chacha20poly1305_backends() {
  std::vector<std::string> names;
  for (const chacha::ChaChaBackend backend : chacha::available_chacha_backends())
    names.emplace_back(chacha::backend_name(backend));
  return names;
}

std::string version() {
  return PCRYPT_VERSION_STRING;
}

}  // namespace v1
}  // namespace pcrypt
