// pcrypt._pcrypt: the C++ side of the Python package (docs/PYTHON.md). Thin: the Python module is a client of
// libpcrypt (include/pcrypt/pcrypt.h) like any other program: open, unlock, decrypt, verify, encrypt (whole
// or streamed), key generation, each called with the GIL released, and every pcrypt::Error becomes a
// pcrypt.errors exception carrying the CLI's message, hint and exit code. The Python modules beside it
// (python/pcrypt/) build the file objects and the fsspec filesystem.
#include <pcrypt/encryptor.h>
#include <pcrypt/pcrypt.h>
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "python/src/credentials.h"
#include "python/src/decryptor.h"

namespace py = pybind11;

namespace pcrypt::python {
namespace {

using Paths = std::vector<std::string>;
using Passphrase = std::optional<std::string>;
using Text = std::optional<std::string>;  // bytes or a path, maybe not given

// The Cobblestone formats' arguments: raw_key_file= (a path) or raw_key= (the bytes; pcrypt.encrypt's
// raw_key= is either, told apart in Python), context=, and format= when reading.
struct RawKeyArgs {
  Text raw_key_file;
  Text raw_key;
  Text context;
};

// A contiguous Python buffer (bytes, bytearray, memoryview, mmap, numpy array), held for the call.
class Buffer {
 public:
  Buffer(const py::object& object, bool writable) {
    const int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object.ptr(), &view_, flags) != 0) throw py::error_already_set();
  }
  ~Buffer() { PyBuffer_Release(&view_); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  std::span<std::uint8_t> bytes() {
    return {static_cast<std::uint8_t*>(view_.buf), static_cast<std::size_t>(view_.len)};
  }

 private:
  Py_buffer view_{};
};

py::bytes as_bytes(const std::vector<std::uint8_t>& bytes) {
  return py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

// pcrypt.errors.from_core(kind, message, hint, code, code_name): the exception class for the kind,
// raised here.
void raise_pcrypt_error(const pcrypt::Error& e) {
  const py::object error = py::module_::import("pcrypt.errors")
                               .attr("from_core")(static_cast<int>(e.kind()), e.what(), e.hint(),
                                                  static_cast<int>(e.code()), e.code_name());
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
}

CredentialArgs decryption_args(Paths keys, Paths identities, Passphrase passphrase, RawKeyArgs raw,
                               Text format) {
  return CredentialArgs{std::move(keys),
                        std::move(identities),
                        {},
                        {},
                        std::move(passphrase),
                        std::move(raw.raw_key_file),
                        std::move(raw.raw_key),
                        std::move(raw.context),
                        std::move(format)};
}

CredentialArgs encryption_args(Paths keys, Paths recipients, Paths recipient_files, Passphrase passphrase,
                               RawKeyArgs raw, const std::string& format) {
  return CredentialArgs{std::move(keys),
                        {},
                        std::move(recipients),
                        std::move(recipient_files),
                        std::move(passphrase),
                        std::move(raw.raw_key_file),
                        std::move(raw.raw_key),
                        std::move(raw.context),
                        format};
}

// What pcrypt.encrypt and the streaming writer make: a file of `format` ("pcrypt", "age", "cobblestone-128"
// or "cobblestone-256"); age and Cobblestone fix their own chunks (and age its KDF).
pcrypt::EncryptOptions encrypt_options(const std::string& format, std::size_t chunk_size, unsigned threads,
                                       std::optional<std::uint64_t> kdf_memory,
                                       std::optional<std::uint64_t> kdf_ops) {
  pcrypt::EncryptOptions options;
  options.format = format_named(format);
  options.chunk_size = chunk_size;
  options.threads = threads;
  if (kdf_memory) {
    if (*kdf_memory == 0) throw pcrypt::Error(PCRYPT_E_BAD_ARGUMENT, "kdf_memory must be positive");
    options.argon2id_memory_bytes = *kdf_memory;
  }
  if (kdf_ops) {
    if (*kdf_ops == 0) throw pcrypt::Error(PCRYPT_E_BAD_ARGUMENT, "kdf_ops must be positive");
    options.argon2id_passes = *kdf_ops;
  }
  return options;
}

// `src`, opened (as the file says, or as a Cobblestone format named) and unlocked.
pcrypt::File open_unlocked(const std::string& src, const CredentialArgs& args) {
  pcrypt::Keys checked;
  (void)decryption_credentials(args, checked);  // the arguments' errors before the file's
  pcrypt::File file = open_file(pcrypt::Source::path(src), args);
  unlock(file, args, src);
  return file;
}

// A Python object that may be released on a thread without the GIL (a fetch function captured by a
// Decryptor that failed to open while the GIL was released): the reference is dropped under the GIL.
std::shared_ptr<py::object> held(py::object object) {
  return std::shared_ptr<py::object>(new py::object(std::move(object)), [](py::object* o) {
    const py::gil_scoped_acquire gil;
    delete o;
  });
}

// pcrypt.open(path, "wb") and the fsspec filesystem's "wb": a libpcrypt Encryptor writing to a path, or, for
// a sink in Python, into a buffer that write() and finish() hand back (so the library never calls Python).
class StreamWriter {
 public:
  StreamWriter(const std::optional<std::string>& path, bool force, const CredentialArgs& credentials,
               const pcrypt::EncryptOptions& options)
      : out_(std::make_unique<std::vector<std::uint8_t>>()),
        keys_(std::make_unique<pcrypt::Keys>()),
        encryptor_(std::make_unique<pcrypt::Encryptor>(
            path ? pcrypt::Sink::path(*path, force) : pcrypt::Sink::memory(*out_),
            encryption_recipients(credentials, options.format, *keys_), options)) {}

  // The encrypted bytes made since the last call (the header, then records); none for a path.
  std::vector<std::uint8_t> take() { return std::exchange(*out_, {}); }
  void write(std::span<const std::uint8_t> plaintext) { live().write(plaintext); }
  void finish() { live().finish(); }
  // Abandons the file: a path's never appears.
  void abandon() { encryptor_.reset(); }

 private:
  pcrypt::Encryptor& live() {
    if (!encryptor_) throw pcrypt::Error(PCRYPT_E_BAD_ARGUMENT, "the encrypted file was abandoned");
    return *encryptor_;
  }

  std::unique_ptr<std::vector<std::uint8_t>> out_;  // where a memory sink appends: a stable address
  std::unique_ptr<pcrypt::Keys> keys_;              // a raw key, held while the encryptor may use it
  std::unique_ptr<pcrypt::Encryptor> encryptor_;
};

}  // namespace
}  // namespace pcrypt::python

PYBIND11_MODULE(_pcrypt, m) {
  using namespace pcrypt::python;
  m.doc() = "pcrypt's C++ side, over libpcrypt; use the pcrypt package, not this module";

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const pcrypt::Error& e) {
      raise_pcrypt_error(e);
    }
  });

  const auto release = py::call_guard<py::gil_scoped_release>();
  const auto no_passphrase = Passphrase();
  const auto no_number = std::optional<std::uint64_t>();
  const auto no_text = Text();
  m.attr("HEADER_PROBE_BYTES") = kHeaderProbeBytes;
  m.attr("DEFAULT_CHUNK_SIZE") = pcrypt::EncryptOptions{}.chunk_size;
  m.def("version", &pcrypt::version);

  m.def(
      "encrypt",
      [](const std::string& src, const std::string& dst, Paths keys, Paths recipient_list,
         Paths recipient_files, Passphrase passphrase, std::size_t chunk_size, unsigned threads, bool force,
         std::optional<std::uint64_t> kdf_memory, std::optional<std::uint64_t> kdf_ops,
         const std::string& format, bool armor, Text raw_key_file, Text raw_key, Text context) {
        pcrypt::EncryptOptions options = encrypt_options(format, chunk_size, threads, kdf_memory, kdf_ops);
        pcrypt::Keys keys_read;
        const pcrypt::Recipients to = encryption_recipients(
            encryption_args(std::move(keys), std::move(recipient_list), std::move(recipient_files),
                            std::move(passphrase),
                            {std::move(raw_key_file), std::move(raw_key), std::move(context)}, format),
            options.format, keys_read);
        if (armor && options.format != pcrypt::Format::age)
          throw pcrypt::Error(PCRYPT_E_BAD_ARGUMENT, "armor is for age files", "add format=\"age\"");
        options.armor = armor;
        pcrypt::encrypt(pcrypt::Source::path(src), pcrypt::Sink::path(dst, force), to, options);
      },
      py::arg("src"), py::arg("dst"), py::kw_only(), py::arg("keys") = Paths(),
      py::arg("recipients") = Paths(), py::arg("recipient_files") = Paths(),
      py::arg("passphrase") = no_passphrase, py::arg("chunk_size") = pcrypt::EncryptOptions{}.chunk_size,
      py::arg("threads") = 0u, py::arg("force") = false, py::arg("kdf_memory") = no_number,
      py::arg("kdf_ops") = no_number, py::arg("format") = "pcrypt", py::arg("armor") = false,
      py::arg("raw_key_file") = no_text, py::arg("raw_key") = no_text, py::arg("context") = no_text, release);
  m.def(
      "decrypt",
      [](const std::string& src, const std::string& dst, Paths keys, Paths identities, Passphrase passphrase,
         unsigned threads, bool force, Text raw_key_file, Text raw_key, Text context, Text format) {
        pcrypt::File file = open_unlocked(
            src, decryption_args(std::move(keys), std::move(identities), std::move(passphrase),
                                 {std::move(raw_key_file), std::move(raw_key), std::move(context)},
                                 std::move(format)));
        return file.decrypt(pcrypt::Sink::path(dst, force), pcrypt::RunOptions{threads, {}, nullptr})
            .plaintext_bytes;
      },
      py::arg("src"), py::arg("dst"), py::kw_only(), py::arg("keys") = Paths(),
      py::arg("identities") = Paths(), py::arg("passphrase") = no_passphrase, py::arg("threads") = 0u,
      py::arg("force") = false, py::arg("raw_key_file") = no_text, py::arg("raw_key") = no_text,
      py::arg("context") = no_text, py::arg("format") = no_text, release);
  m.def(
      "verify",
      [](const std::string& src, Paths keys, Paths identities, Passphrase passphrase, unsigned threads,
         Text raw_key_file, Text raw_key, Text context, Text format) {
        pcrypt::File file = open_unlocked(
            src, decryption_args(std::move(keys), std::move(identities), std::move(passphrase),
                                 {std::move(raw_key_file), std::move(raw_key), std::move(context)},
                                 std::move(format)));
        return file.verify(pcrypt::RunOptions{threads, {}, nullptr}).plaintext_bytes;
      },
      py::arg("src"), py::kw_only(), py::arg("keys") = Paths(), py::arg("identities") = Paths(),
      py::arg("passphrase") = no_passphrase, py::arg("threads") = 0u, py::arg("raw_key_file") = no_text,
      py::arg("raw_key") = no_text, py::arg("context") = no_text, py::arg("format") = no_text, release);
  m.def(
      "info",
      [](const std::string& src, Text format) {
        CredentialArgs named;
        named.format = std::move(format);
        return open_file(pcrypt::Source::path(src), named).info();
      },
      py::arg("src"), py::arg("format") = no_text, release);
  m.def("generate_key_file", &pcrypt::generate_key_file, release);
  m.def(
      "generate_raw_key",
      [](std::size_t bytes) {
        const pcrypt::SecretBytes key = [&] {
          const py::gil_scoped_release no_gil;
          return pcrypt::generate_raw_key(bytes);
        }();
        return py::bytes(reinterpret_cast<const char*>(key.data()), key.size());
      },
      py::arg("bytes"));
  m.def(
      "generate_identity",
      [](bool post_quantum) {
        pcrypt::NewIdentity made = pcrypt::generate_identity(post_quantum);
        return std::make_pair(std::move(made.file_text), std::move(made.recipient));
      },
      py::arg("post_quantum") = false, release);
  m.def(
      "recipients_of", [](const std::string& text) { return pcrypt::recipients_of(text); },
      py::arg("identity_file_text"), release);

  py::class_<Decryptor>(m, "Decryptor")
      .def(py::init([](const std::string& path, Paths keys, Paths identities, Passphrase passphrase,
                       Text raw_key_file, Text raw_key, Text context, Text format) {
             const py::gil_scoped_release no_gil;  // Argon2id and scrypt run here
             return std::make_unique<Decryptor>(
                 path, decryption_args(std::move(keys), std::move(identities), std::move(passphrase),
                                       {std::move(raw_key_file), std::move(raw_key), std::move(context)},
                                       std::move(format)));
           }),
           py::arg("path"), py::kw_only(), py::arg("keys") = Paths(), py::arg("identities") = Paths(),
           py::arg("passphrase") = no_passphrase, py::arg("raw_key_file") = no_text,
           py::arg("raw_key") = no_text, py::arg("context") = no_text, py::arg("format") = no_text)
      // A file of `size` bytes elsewhere: fetch(offset, end) returns its bytes [offset, end).
      .def_static(
          "remote",
          [](std::uint64_t size, py::object fetch, Paths keys, Paths identities, Passphrase passphrase,
             Text raw_key_file, Text raw_key, Text context, Text format) {
            const std::shared_ptr<py::object> function = held(std::move(fetch));
            Decryptor::Fetch fetched = [function](std::uint64_t offset, std::span<std::uint8_t> out) {
              const py::gil_scoped_acquire gil;
              const py::bytes got = (*function)(offset, offset + out.size());
              const std::string_view bytes = got;
              const std::size_t n = std::min(bytes.size(), out.size());
              std::memcpy(out.data(), bytes.data(), n);
              return n;
            };
            const py::gil_scoped_release no_gil;
            return std::make_unique<Decryptor>(
                size, std::move(fetched),
                decryption_args(std::move(keys), std::move(identities), std::move(passphrase),
                                {std::move(raw_key_file), std::move(raw_key), std::move(context)},
                                std::move(format)));
          },
          py::arg("size"), py::arg("fetch"), py::kw_only(), py::arg("keys") = Paths(),
          py::arg("identities") = Paths(), py::arg("passphrase") = no_passphrase,
          py::arg("raw_key_file") = no_text, py::arg("raw_key") = no_text, py::arg("context") = no_text,
          py::arg("format") = no_text)
      .def_property_readonly("header_bytes", &Decryptor::header_bytes)
      .def_property_readonly("chunk_size", &Decryptor::chunk_size)
      .def_property_readonly("plaintext_size", &Decryptor::plaintext_size)
      .def("covering", &Decryptor::covering, py::arg("offset"), py::arg("length"))
      .def(
          "read_into",
          [](Decryptor& d, std::uint64_t offset, const py::object& out, unsigned threads) {
            Buffer view(out, true);
            const py::gil_scoped_release no_gil;
            return d.read_into(offset, view.bytes(), threads);
          },
          py::arg("offset"), py::arg("out"), py::arg("threads") = 0u)
      .def(
          "read_window_into",
          [](Decryptor& d, const py::object& window, std::uint64_t window_start, std::uint64_t offset,
             const py::object& out, unsigned threads) {
            Buffer source(window, false);
            Buffer view(out, true);
            const py::gil_scoped_release no_gil;
            const Window fetched{window_start, source.bytes()};
            return d.read_into(offset, view.bytes(), threads, &fetched);
          },
          py::arg("window"), py::arg("window_start"), py::arg("offset"), py::arg("out"),
          py::arg("threads") = 0u);

  py::class_<StreamWriter>(m, "Encryptor")
      .def(py::init([](std::optional<std::string> path, bool force, Paths keys, Paths recipient_list,
                       Paths recipient_files, Passphrase passphrase, std::size_t chunk_size, unsigned threads,
                       std::optional<std::uint64_t> kdf_memory, std::optional<std::uint64_t> kdf_ops,
                       const std::string& format, Text raw_key_file, Text raw_key, Text context) {
             const py::gil_scoped_release no_gil;
             return std::make_unique<StreamWriter>(
                 path, force,
                 encryption_args(std::move(keys), std::move(recipient_list), std::move(recipient_files),
                                 std::move(passphrase),
                                 {std::move(raw_key_file), std::move(raw_key), std::move(context)}, format),
                 encrypt_options(format, chunk_size, threads, kdf_memory, kdf_ops));
           }),
           py::arg("path") = std::optional<std::string>(), py::kw_only(), py::arg("force") = false,
           py::arg("keys") = Paths(), py::arg("recipients") = Paths(), py::arg("recipient_files") = Paths(),
           py::arg("passphrase") = no_passphrase, py::arg("chunk_size") = pcrypt::EncryptOptions{}.chunk_size,
           py::arg("threads") = 0u, py::arg("kdf_memory") = no_number, py::arg("kdf_ops") = no_number,
           py::arg("format") = "pcrypt", py::arg("raw_key_file") = no_text, py::arg("raw_key") = no_text,
           py::arg("context") = no_text)
      .def("take", [](StreamWriter& w) { return as_bytes(w.take()); })
      .def(
          "write",
          [](StreamWriter& w, const py::object& data) {
            Buffer in(data, false);
            {
              const py::gil_scoped_release no_gil;
              w.write(in.bytes());
            }
            return as_bytes(w.take());
          },
          py::arg("data"))
      .def("finish",
           [](StreamWriter& w) {
             {
               const py::gil_scoped_release no_gil;
               w.finish();
             }
             return as_bytes(w.take());
           })
      .def("abandon", &StreamWriter::abandon, release);
}
