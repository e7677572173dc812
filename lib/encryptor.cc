// pcrypt::Encryptor (include/pcrypt/encryptor.h) over the door's start_file: the header and keyed payload of
// a new file, whose records this file seals itself as plaintext arrives -- the same records, in the same
// order, that core::door::encrypt's pipeline writes.
#define PCRYPT_BUILDING_LIBRARY
#include "pcrypt/encryptor.h"

#include <algorithm>
#include <exception>
#include <thread>
#include <utility>
#include <vector>

#include "core/door/encrypted_file.h"
#include "core/error.h"
#include "core/pipeline.h"
#include "core/records.h"
#include "lib/internal.h"

namespace pcrypt {
inline namespace v1 {
namespace {

// Plaintext gathered before sealing: enough records to give every worker several per write(), and at least
// 8 MiB so that age's 64 KiB chunks are not sealed a handful at a time, but never more than 64 MiB.
std::size_t batch_records(std::size_t chunk_size, unsigned workers) {
  const std::size_t wanted = std::max<std::size_t>({16, 4 * std::size_t{workers}, (8u << 20) / chunk_size});
  return std::max<std::size_t>(1, std::min(wanted, (64u << 20) / chunk_size));
}

// The encryptor's state and work, in this file's anonymous namespace: nothing of it (nor the threads'
// lambdas) is exported, as detail::EncryptorImpl's own members would be.
struct Stream {
  std::unique_ptr<io::Writer> sink;
  std::vector<std::uint8_t> header;
  core::ChunkCipher cipher;
  core::PayloadRecords records;
  unsigned workers;
  std::size_t chunk;
  std::size_t batch_bytes;
  std::vector<std::uint8_t> pending;  // plaintext not sealed yet: never more than batch_bytes
  std::vector<std::uint8_t> sealed;   // the records of one batch, reused
  std::uint64_t next_record = 0;
  std::uint64_t plaintext_bytes = 0;
  std::uint64_t encrypted_bytes = 0;
  bool finished = false;
  bool failed = false;

  Stream(std::unique_ptr<io::Writer> out, core::NewFile start, unsigned threads)
      : sink(std::move(out)),
        header(std::move(start.header)),
        cipher(std::move(start.payload.cipher)),
        records(cipher, start.payload.layout),
        workers(core::pipeline_workers(threads)),
        chunk(start.payload.layout.chunk_size),
        batch_bytes(chunk * batch_records(chunk, workers)) {
    pending.reserve(batch_bytes);
  }
  Stream(const Stream&) = delete;  // records refers to cipher
  Stream& operator=(const Stream&) = delete;

  // Seals `len` plaintext bytes as the next records (whole chunks unless `last`) on the workers, then writes
  // them to the sink in order.
  void seal(const std::uint8_t* plain, std::size_t len, bool last) {
    const std::size_t count = last ? std::max<std::size_t>(1, (len + chunk - 1) / chunk) : len / chunk;
    const std::size_t record_bytes = records.layout().record_bytes();
    // C2SP chunked encryption: after a full last chunk, seal_record adds the empty final chunk.
    const std::size_t empty_final =
        last && records.layout().final_chunk == core::FinalChunk::always_short && len > 0 && len % chunk == 0
            ? 1
            : 0;
    sealed.resize(len + (count + empty_final) * core::kChunkTagBytes);
    auto seal_range = [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) {
        const std::size_t n = std::min(chunk, len - i * chunk);
        std::uint8_t* record = sealed.data() + i * record_bytes;
        std::copy_n(plain + i * chunk, n, record);
        records.seal_record(next_record + i, last && i + 1 == count, record, n);
      }
    };
    const std::size_t threads = std::min<std::size_t>(workers, count);
    if (threads <= 1) {
      seal_range(0, count);
    } else {
      std::vector<std::exception_ptr> errors(threads);
      std::vector<std::thread> pool;
      pool.reserve(threads - 1);
      for (std::size_t t = 1; t < threads; ++t)
        pool.emplace_back([&, t] {
          try {
            seal_range(count * t / threads, count * (t + 1) / threads);
          } catch (...) {
            errors[t] = std::current_exception();
          }
        });
      try {
        seal_range(0, count / threads);
      } catch (...) {
        errors[0] = std::current_exception();
      }
      for (std::thread& t : pool) t.join();
      for (const std::exception_ptr& e : errors)
        if (e) std::rethrow_exception(e);
    }
    sink->write(sealed.data(), sealed.size());
    next_record += count + empty_final;
    encrypted_bytes += sealed.size();
  }

  void write(const std::uint8_t* data, std::size_t len) {
    // The last byte written so far always stays in `pending`: the final record is sealed with its own flag,
    // and only finish() knows which record that is.
    if (!pending.empty()) {
      const std::size_t take = std::min(len, batch_bytes - pending.size());
      pending.insert(pending.end(), data, data + take);
      data += take;
      len -= take;
      if (len == 0) return;
      seal(pending.data(), pending.size(), false);  // full, and more follows
      pending.clear();
    }
    while (len > batch_bytes) {  // straight from the caller's bytes, without a copy into pending
      seal(data, batch_bytes, false);
      data += batch_bytes;
      len -= batch_bytes;
    }
    pending.assign(data, data + len);
  }
};

}  // namespace

struct detail::EncryptorImpl final : Stream {
  using Stream::Stream;
};

Encryptor::Encryptor(Sink sink, const Recipients& to, const EncryptOptions& options) {
  try {
    if (options.armor)
      throw core::Error(PCRYPT_E_FORMAT_OPTION, "the streaming encryptor writes binary files only",
                        "encrypt with pcrypt::encrypt for an armored file");
    const core::door::EncryptSettings settings = detail::encrypt_settings(options);
    const std::vector<core::Credential> credentials = detail::encryption_credentials(to, options);
    std::unique_ptr<io::Writer> out = detail::take_writer(sink);
    impl_ = std::make_unique<Impl>(std::move(out), core::door::start_file(credentials, settings.file),
                                   detail::checked_threads(options.threads));
    impl_->sink->write(impl_->header.data(), impl_->header.size());
    impl_->encrypted_bytes = impl_->header.size();
  } catch (...) {
    detail::rethrow_as_public();
  }
}

Encryptor::Encryptor(Encryptor&&) noexcept = default;
Encryptor& Encryptor::operator=(Encryptor&&) noexcept = default;
Encryptor::~Encryptor() = default;  // an uncommitted path sink removes its temporary

namespace {

// The one moved-from rule (lib/errors.cc), as a pcrypt::Error.
void require_not_moved_from(const std::unique_ptr<detail::EncryptorImpl>& impl) {
  detail::guarded(detail::Phase::other, [&] {
    detail::require_not_moved_from(impl.get(), "Encryptor");
    return 0;
  });
}

}  // namespace

void Encryptor::write(std::span<const std::uint8_t> plaintext) {
  require_not_moved_from(impl_);
  if (impl_->finished)
    throw Error(PCRYPT_E_WRONG_ORDER, "write after finish: the encrypted file is complete");
  if (impl_->failed)
    throw Error(PCRYPT_E_WRONG_ORDER, "write after a failed call: the encrypted file is abandoned");
  try {
    impl_->write(plaintext.data(), plaintext.size());
    impl_->plaintext_bytes += plaintext.size();
  } catch (...) {
    impl_->failed = true;
    detail::rethrow_as_public();
  }
}

Transfer Encryptor::finish() {
  require_not_moved_from(impl_);
  if (impl_->finished) throw Error(PCRYPT_E_WRONG_ORDER, "finish called twice");
  if (impl_->failed)
    throw Error(PCRYPT_E_WRONG_ORDER, "finish after a failed call: the encrypted file is abandoned");
  try {
    impl_->seal(impl_->pending.data(), impl_->pending.size(), true);
    impl_->pending.clear();
    impl_->sink->commit();
    impl_->finished = true;
    return Transfer{impl_->plaintext_bytes, impl_->encrypted_bytes, impl_->header.size(), impl_->next_record};
  } catch (...) {
    impl_->failed = true;
    detail::rethrow_as_public();
  }
}

std::uint64_t Encryptor::plaintext_bytes() const noexcept {
  return impl_ ? impl_->plaintext_bytes : 0;  // noexcept: a moved-from encryptor has written nothing
}

}  // namespace v1
}  // namespace pcrypt
