// The C API's pull-style reader (include/pcrypt/pcrypt_c.h): pcrypt::Reader behind a handle, reading into
// the caller's buffer with no copy of its own.
#include "lib/c_api_internal.h"

using pcrypt::c_api::guarded;
using pcrypt::c_api::require;

int pcrypt_reader_new(pcrypt_reader** reader, pcrypt_file* file, const pcrypt_options* options) {
  return pcrypt::c_api::with_callback_errno(
      guarded([&] {
        require(reader, "the reader pointer");
        pcrypt::File taken = std::move(pcrypt::c_api::opened(file));
        file->file.reset();  // used up, as a source is, whether the reader is made or not
        const unsigned threads = options != nullptr ? options->encrypt.threads : 0;
        *reader =
            new pcrypt_reader(pcrypt::Reader(std::move(taken), pcrypt::RunOptions{threads, {}, nullptr}),
                              file->source.callback_errno);
      }),
      file != nullptr ? &file->source : nullptr, nullptr);
}

int pcrypt_reader_read(pcrypt_reader* reader, void* buffer, size_t capacity, size_t* bytes_read) {
  return pcrypt::c_api::with_callback_errno(
      guarded([&] {
        require(reader, "the reader");
        require(bytes_read, "the bytes_read pointer");
        if (capacity > 0) require(buffer, "the buffer");
        *bytes_read = reader->reader.read({static_cast<std::uint8_t*>(buffer), capacity});
      }),
      reader != nullptr ? &reader->source : nullptr, nullptr);
}

uint64_t pcrypt_reader_position(const pcrypt_reader* reader) {
  return reader != nullptr ? reader->reader.position() : 0;
}

int pcrypt_reader_transfer(const pcrypt_reader* reader, pcrypt_transfer* transfer) {
  return guarded([&] {
    require(reader, "the reader");
    require(transfer, "the transfer pointer");
    pcrypt::c_api::put_transfer(reader->reader.transfer(), transfer);
  });
}

void pcrypt_reader_free(pcrypt_reader* reader) {
  delete reader;
}
