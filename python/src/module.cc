// pcrypt._pcrypt: the C++ side of the Python package (docs/PYTHON.md). Thin: every operation goes through
// the door (core/door/: open, unlock, decrypt, verify, encrypt, credential files, key generation), called
// with the GIL released, and every core::Error becomes a pcrypt.errors exception carrying the CLI's message,
// hint and exit code. The Python modules beside it (python/pcrypt/) build the file objects and the fsspec
// filesystem.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/door/credential_files.h"
#include "core/door/encrypted_file.h"
#include "core/door/limits.h"
#include "core/error.h"
#include "core/keys/key_file.h"
#include "io/atomic_file.h"
#include "io/fd_stream.h"
#include "io/memory_stream.h"
#include "python/src/credentials.h"
#include "python/src/decryptor.h"
#include "python/src/sealer.h"

namespace py = pybind11;

namespace pcrypt::python {
namespace {

using Paths = std::vector<std::string>;
using Passphrase = std::optional<std::string>;

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

// pcrypt.errors.from_core(exit_code, message, hint): the exception class for the kind, raised here.
void raise_pcrypt_error(int exit_code, const std::string& message, const std::string& hint) {
  const py::object error = py::module_::import("pcrypt.errors").attr("from_core")(exit_code, message, hint);
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
}

CredentialArgs decryption_args(Paths keys, Paths identities, Passphrase passphrase) {
  return CredentialArgs{std::move(keys), std::move(identities), {}, {}, std::move(passphrase)};
}

CredentialArgs encryption_args(Paths keys, Paths recipients, Paths recipient_files, Passphrase passphrase) {
  return CredentialArgs{
      std::move(keys), {}, std::move(recipients), std::move(recipient_files), std::move(passphrase)};
}

// What pcrypt.encrypt and the Sealer make: a file of `format` ("pcrypt" or "age"); age fixes its own chunks
// and KDF.
core::door::NewFileSettings file_settings(const std::string& format, std::size_t chunk_size,
                                          std::optional<std::uint64_t> kdf_memory,
                                          std::optional<std::uint64_t> kdf_ops) {
  core::door::NewFileSettings settings;
  settings.format = core::door::parse_format(format);
  settings.chunk_size = chunk_size;
  if (kdf_memory) settings.argon2id.memlimit_bytes = *kdf_memory;
  if (kdf_ops) settings.argon2id.opslimit = *kdf_ops;
  return settings;
}

// As `pcrypt encrypt [--format age [-a]]` writes it; the output appears only once complete.
void encrypt_file(const std::string& src, const std::string& dst, const CredentialArgs& args,
                  const core::door::EncryptSettings& settings, unsigned threads, bool force) {
  const std::vector<core::Credential> credentials = encryption_credentials(args);
  const std::unique_ptr<io::FdReader> in = io::open_input(src);
  io::AtomicFileWriter out(dst, force, io::TempFile::unnamed_if_supported, io::Permissions::owner_only);
  core::door::encrypt(*in, out, credentials, settings, core::door::RunOptions{threads, nullptr});
}

// Decrypts `src` (either format, as the file says) into `out`, committed on success; returns the plaintext
// size. Without `out`, verifies: every chunk authenticated and nothing written, as `pcrypt verify` does.
std::uint64_t decrypt_into(const std::string& src, io::Writer* out, const CredentialArgs& args,
                           unsigned threads) {
  const std::vector<core::Credential> credentials = decryption_credentials(args);
  const std::unique_ptr<io::FdReader> file = io::open_input(src);
  core::door::EncryptedFile encrypted(*file);
  encrypted.unlock(credentials, core::door::UnlockLimits{});
  const core::door::RunOptions run{threads, nullptr};
  return (out ? encrypted.decrypt(*out, run) : encrypted.verify(run)).plaintext_bytes;
}

void decrypt_file(const std::string& src, const std::string& dst, const CredentialArgs& args,
                  unsigned threads, bool force) {
  io::AtomicFileWriter out(dst, force, io::TempFile::unnamed_if_supported, io::Permissions::umask);
  decrypt_into(src, &out, args, threads);
}

std::uint64_t verify_file(const std::string& src, const CredentialArgs& args, unsigned threads) {
  return decrypt_into(src, nullptr, args, threads);
}

std::string info(const std::string& src) {
  const std::unique_ptr<io::FdReader> file = io::open_input(src);
  const core::door::EncryptedFile encrypted(*file);
  return encrypted.info(file->positional() ? std::optional(file->positional()->size()) : std::nullopt);
}

std::optional<std::string> keygen(const std::string& path, bool identity, bool force) {
  if (path.empty() || path == "-")
    throw core::Error(core::ErrorKind::usage, "keygen needs a path", "secrets are written to a 0600 file");
  io::AtomicFileWriter out(path, force, io::TempFile::unnamed_if_supported, io::Permissions::owner_only);
  if (!identity) {
    const SecretBytes text = core::generate_key_file();
    out.write(text.data(), text.size());
    out.commit();
    return std::nullopt;
  }
  const core::door::NewIdentity made = core::door::generate_identity(false);
  out.write(reinterpret_cast<const std::uint8_t*>(made.text.data()), made.text.size());
  out.commit();
  return made.recipient;
}

std::vector<std::string> recipients(const Paths& identity_files) {
  std::vector<std::string> out;
  for (const core::Identity& identity : core::door::read_identity_files(identity_files, {}))
    out.push_back(core::door::recipient_text(identity));
  return out;
}

}  // namespace
}  // namespace pcrypt::python

PYBIND11_MODULE(_pcrypt, m) {
  using namespace pcrypt;
  using namespace pcrypt::python;
  m.doc() = "pcrypt's C++ core; use the pcrypt package, not this module";

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const core::Error& e) {
      raise_pcrypt_error(e.exit_code(), e.what(), e.hint());
    } catch (const io::IoError& e) {
      raise_pcrypt_error(static_cast<int>(core::ErrorKind::io), e.what(), "");
    }
  });

  const auto release = py::call_guard<py::gil_scoped_release>();
  const auto no_passphrase = Passphrase();
  m.attr("HEADER_PROBE_BYTES") = kHeaderProbeBytes;
  m.attr("HEADER_MAX_BYTES") = kHeaderMaxBytes;
  m.def(
      "header_incomplete",
      [](const py::bytes& prefix) {
        const std::string_view bytes = prefix;
        return header_incomplete({reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()});
      },
      py::arg("prefix"));

  m.def(
      "encrypt",
      [](const std::string& src, const std::string& dst, Paths keys, Paths recipient_list,
         Paths recipient_files, Passphrase passphrase, std::size_t chunk_size, unsigned threads, bool force,
         std::optional<std::uint64_t> kdf_memory, std::optional<std::uint64_t> kdf_ops,
         const std::string& format, bool armor) {
        const CredentialArgs args = encryption_args(std::move(keys), std::move(recipient_list),
                                                    std::move(recipient_files), std::move(passphrase));
        core::door::EncryptSettings settings;
        settings.file = file_settings(format, chunk_size, kdf_memory, kdf_ops);
        settings.armor = armor;
        if (armor && settings.file.format != core::door::Format::age)
          throw core::Error(core::ErrorKind::usage, "armor is for age files", "add format=\"age\"");
        encrypt_file(src, dst, args, settings, threads, force);
      },
      py::arg("src"), py::arg("dst"), py::kw_only(), py::arg("keys") = Paths(),
      py::arg("recipients") = Paths(), py::arg("recipient_files") = Paths(),
      py::arg("passphrase") = no_passphrase, py::arg("chunk_size") = core::door::kDefaultChunkSize,
      py::arg("threads") = 0u, py::arg("force") = false,
      py::arg("kdf_memory") = std::optional<std::uint64_t>(),
      py::arg("kdf_ops") = std::optional<std::uint64_t>(), py::arg("format") = "pcrypt",
      py::arg("armor") = false, release);
  m.def(
      "decrypt",
      [](const std::string& src, const std::string& dst, Paths keys, Paths identities, Passphrase passphrase,
         unsigned threads, bool force) {
        decrypt_file(src, dst, decryption_args(std::move(keys), std::move(identities), std::move(passphrase)),
                     threads, force);
      },
      py::arg("src"), py::arg("dst"), py::kw_only(), py::arg("keys") = Paths(),
      py::arg("identities") = Paths(), py::arg("passphrase") = no_passphrase, py::arg("threads") = 0u,
      py::arg("force") = false, release);
  m.def(
      "verify",
      [](const std::string& src, Paths keys, Paths identities, Passphrase passphrase, unsigned threads) {
        return verify_file(
            src, decryption_args(std::move(keys), std::move(identities), std::move(passphrase)), threads);
      },
      py::arg("src"), py::kw_only(), py::arg("keys") = Paths(), py::arg("identities") = Paths(),
      py::arg("passphrase") = no_passphrase, py::arg("threads") = 0u, release);
  m.def("info", &info, py::arg("src"), release);
  m.def("keygen", &keygen, py::arg("path"), py::kw_only(), py::arg("identity") = false,
        py::arg("force") = false, release);
  m.def("recipients", &recipients, py::arg("identity_files"), release);

  py::class_<LocalFile>(m, "LocalFile")
      .def(py::init<const std::string&>(), py::arg("path"), release)
      .def_property_readonly("size", &LocalFile::size)
      .def(
          "pread",
          [](const LocalFile& file, std::uint64_t offset, std::size_t n) {
            std::string bytes(n, '\0');
            {
              py::gil_scoped_release unlocked;
              bytes.resize(file.access().read_at(offset, reinterpret_cast<std::uint8_t*>(bytes.data()), n));
            }
            return py::bytes(bytes);
          },
          py::arg("offset"), py::arg("n"));

  py::class_<Decryptor>(m, "Decryptor")
      .def(py::init([](const py::object& prefix, Paths keys, Paths identities, Passphrase passphrase) {
             // The prefix is copied: the Argon2id run below must not hold the GIL, nor a Python buffer.
             std::vector<std::uint8_t> bytes;
             {
               Buffer view(prefix, false);
               bytes.assign(view.bytes().begin(), view.bytes().end());
             }
             py::gil_scoped_release unlocked;
             const CredentialArgs args =
                 decryption_args(std::move(keys), std::move(identities), std::move(passphrase));
             return std::make_unique<Decryptor>(bytes, decryption_credentials(args),
                                                core::door::UnlockLimits{});
           }),
           py::arg("header_prefix"), py::kw_only(), py::arg("keys") = Paths(),
           py::arg("identities") = Paths(), py::arg("passphrase") = no_passphrase)
      .def_property_readonly("header_bytes", &Decryptor::header_bytes)
      .def_property_readonly("chunk_size", &Decryptor::chunk_size)
      .def("plaintext_size", &Decryptor::plaintext_size, py::arg("file_size"))
      .def("covering", &Decryptor::covering, py::arg("offset"), py::arg("length"), py::arg("file_size"))
      .def(
          "read_file_into",
          [](Decryptor& d, const LocalFile& file, std::uint64_t offset, const py::object& out,
             unsigned threads) {
            Buffer view(out, true);
            py::gil_scoped_release unlocked;
            return d.read_into(file.access(), offset, view.bytes(), threads);
          },
          py::arg("file"), py::arg("offset"), py::arg("out"), py::arg("threads") = 0u)
      .def(
          "read_window_into",
          [](Decryptor& d, const py::object& window, std::uint64_t window_start, std::uint64_t file_size,
             std::uint64_t offset, const py::object& out, unsigned threads) {
            Buffer source(window, false);
            Buffer view(out, true);
            py::gil_scoped_release unlocked;
            const FileWindow file(source.bytes(), window_start, file_size);
            return d.read_into(file, offset, view.bytes(), threads);
          },
          py::arg("window"), py::arg("window_start"), py::arg("file_size"), py::arg("offset"), py::arg("out"),
          py::arg("threads") = 0u);

  py::class_<Sealer>(m, "Sealer")
      .def(py::init([](Paths keys, Paths recipient_list, Paths recipient_files, Passphrase passphrase,
                       std::size_t chunk_size, unsigned threads, std::optional<std::uint64_t> kdf_memory,
                       std::optional<std::uint64_t> kdf_ops, const std::string& format) {
             py::gil_scoped_release unlocked;
             const std::vector<core::Credential> credentials =
                 encryption_credentials(encryption_args(std::move(keys), std::move(recipient_list),
                                                        std::move(recipient_files), std::move(passphrase)));
             return std::make_unique<Sealer>(credentials,
                                             file_settings(format, chunk_size, kdf_memory, kdf_ops), threads);
           }),
           py::kw_only(), py::arg("keys") = Paths(), py::arg("recipients") = Paths(),
           py::arg("recipient_files") = Paths(), py::arg("passphrase") = no_passphrase,
           py::arg("chunk_size") = core::door::kDefaultChunkSize, py::arg("threads") = 0u,
           py::arg("kdf_memory") = std::optional<std::uint64_t>(),
           py::arg("kdf_ops") = std::optional<std::uint64_t>(), py::arg("format") = "pcrypt")
      .def_property_readonly("header",
                             [](const Sealer& s) {
                               return py::bytes(reinterpret_cast<const char*>(s.header().data()),
                                                s.header().size());
                             })
      .def_property_readonly("chunk_size", &Sealer::chunk_size)
      .def_property_readonly("finished", &Sealer::finished)
      .def(
          "seal",
          [](Sealer& s, const py::object& data, bool last) {
            Buffer in(data, false);
            const std::size_t size = s.sealed_size(in.bytes().size(), last);
            py::bytes out(nullptr, size);
            auto* dst = reinterpret_cast<std::uint8_t*>(PyBytes_AsString(out.ptr()));
            {
              py::gil_scoped_release unlocked;
              s.seal(in.bytes().data(), in.bytes().size(), last, dst);
            }
            return out;
          },
          py::arg("data"), py::arg("last") = false);

  py::class_<io::AtomicFileWriter>(m, "AtomicOutput")
      .def(py::init([](const std::string& path, bool force, bool owner_only) {
             return std::make_unique<io::AtomicFileWriter>(
                 path, force, io::TempFile::unnamed_if_supported,
                 owner_only ? io::Permissions::owner_only : io::Permissions::umask);
           }),
           py::arg("path"), py::kw_only(), py::arg("force") = false, py::arg("owner_only") = true, release)
      .def(
          "write",
          [](io::AtomicFileWriter& out, const py::object& data) {
            Buffer in(data, false);
            py::gil_scoped_release unlocked;
            out.write(in.bytes().data(), in.bytes().size());
            return in.bytes().size();
          },
          py::arg("data"))
      .def("commit", &io::AtomicFileWriter::commit, release);
}
