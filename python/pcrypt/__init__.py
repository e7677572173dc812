"""pcrypt for Python: the pcrypt file format over the same C++ core as the ``pcrypt`` command.

    import pcrypt
    pcrypt.keygen("me.key")
    pcrypt.encrypt("big.csv", "big.csv.pcrypt", keys=["me.key"])
    with pcrypt.open("big.csv.pcrypt", keys=["me.key"]) as f:
        f.seek(3 << 20)
        part = f.read(1 << 20)

Credentials are keyword arguments named after the CLI's options: ``keys`` (key files, -k), ``identities``
(identity files, -i: decryption), ``recipients`` / ``recipient_files`` (-r / -R: encryption) and
``passphrase`` (the passphrase itself). Failures raise pcrypt.errors exceptions with the CLI's message and
exit code. The GIL is released while the core encrypts, decrypts or does I/O. docs/PYTHON.md has the rest,
including the fsspec protocol ``pcrypt::`` (pcrypt.filesystem) and Dask helpers (pcrypt.dask).
"""

from . import _pcrypt
from .errors import AuthenticationError, HeaderError, PcryptError, UsageError
from .files import (EncryptedReader, EncryptedWriter, LocalSink, LocalSource, unlock)

__all__ = ["encrypt", "decrypt", "verify", "info", "open", "keygen", "recipients", "PcryptError",
           "UsageError", "HeaderError", "AuthenticationError", "DEFAULT_CHUNK_SIZE"]

DEFAULT_CHUNK_SIZE = 1 << 20


def _paths(value):
    """One path or several: "a.key" and ["a.key", "b.key"] alike."""
    if value is None:
        return []
    if isinstance(value, (str, bytes)) or hasattr(value, "__fspath__"):
        value = [value]
    return [str(v) if not isinstance(v, str) else v for v in value]


def _check_age_options(format, chunk_size, kdf_memory, kdf_ops):
    """What the age format fixes itself (64 KiB chunks, scrypt for passphrases) cannot be chosen."""
    if format == "age" and (chunk_size != DEFAULT_CHUNK_SIZE or kdf_memory is not None or kdf_ops is not None):
        raise UsageError("chunk_size, kdf_memory and kdf_ops are pcrypt-format options",
                         "age files have 64 KiB chunks and scrypt passphrases")


def encrypt(src, dst, *, keys=(), recipients=(), recipient_files=(), passphrase=None,
            chunk_size=DEFAULT_CHUNK_SIZE, threads=0, force=False, kdf_memory=None, kdf_ops=None,
            format="pcrypt", armor=False):
    """Encrypts the file ``src`` into ``dst`` (created 0600, complete or not at all; an existing ``dst``
    only with force=True), as ``pcrypt encrypt`` does: same engines, records sealed on ``threads`` cores
    (0: all). format="age" writes an age file (``pcrypt encrypt --format age``; armor=True for ASCII
    armor), with age's rules on recipients and passphrases."""
    _check_age_options(format, chunk_size, kdf_memory, kdf_ops)
    _pcrypt.encrypt(str(src), str(dst), keys=_paths(keys), recipients=_paths(recipients),
                    recipient_files=_paths(recipient_files), passphrase=passphrase, chunk_size=chunk_size,
                    threads=threads, force=force, kdf_memory=kdf_memory, kdf_ops=kdf_ops, format=format,
                    armor=armor)


def decrypt(src, dst, *, keys=(), identities=(), passphrase=None, threads=0, force=False):
    """Decrypts the pcrypt file ``src`` into ``dst``, all or nothing, as ``pcrypt decrypt`` does."""
    _pcrypt.decrypt(str(src), str(dst), keys=_paths(keys), identities=_paths(identities),
                    passphrase=passphrase, threads=threads, force=force)


def verify(src, *, keys=(), identities=(), passphrase=None, threads=0):
    """Authenticates the whole file, as ``pcrypt verify`` does; returns its plaintext size."""
    return _pcrypt.verify(str(src), keys=_paths(keys), identities=_paths(identities), passphrase=passphrase,
                          threads=threads)


def info(src):
    """``pcrypt info``: the header's fields as "name: value" lines; no key needed."""
    return _pcrypt.info(str(src))


def keygen(path, *, identity=False, force=False):
    """Writes a new key file (or, with identity=True, an X25519 identity) to ``path``, mode 0600, as
    ``pcrypt keygen [--identity] -o path`` does. Returns the identity's recipient ("age1..."), else None."""
    return _pcrypt.keygen(str(path), identity=identity, force=force)


def recipients(identity_files):
    """The recipients (public keys) of the identities in these files, as ``pcrypt recipient`` prints them."""
    return _pcrypt.recipients(_paths(identity_files))


def open(path, mode="rb", *, keys=(), identities=(), recipients=(), recipient_files=(), passphrase=None,
         chunk_size=DEFAULT_CHUNK_SIZE, threads=0, force=False, kdf_memory=None, kdf_ops=None, format="pcrypt"):
    """Opens a local pcrypt file.

    "rb": a seekable ``io.RawIOBase`` over the plaintext that reads only the records holding what is asked
    (``keys``/``identities``/``passphrase``); the header is unlocked here, once.
    "wb": a writer that encrypts as it streams (``keys``/``recipients``/``recipient_files``/``passphrase``)
    into a file that appears at close, complete, or never (leaving a ``with`` block by an exception);
    format="age" writes a binary age file (reading detects the format by itself).
    """
    path = str(path)
    if mode == "rb":
        source = LocalSource(path)
        decryptor = unlock(source, _paths(keys), _paths(identities), passphrase)
        return EncryptedReader(source, decryptor, threads)
    if mode == "wb":
        _check_age_options(format, chunk_size, kdf_memory, kdf_ops)
        sealer = _pcrypt.Sealer(keys=_paths(keys), recipients=_paths(recipients),
                                recipient_files=_paths(recipient_files), passphrase=passphrase,
                                chunk_size=chunk_size, threads=threads, kdf_memory=kdf_memory, kdf_ops=kdf_ops,
                                format=format)
        return EncryptedWriter(LocalSink(path, force), sealer)
    raise UsageError(f"mode {mode!r} is not supported", "use 'rb' or 'wb'")


def _register_fsspec():
    """The pcrypt:: protocol, also where the package's entry point metadata is not installed (a build
    tree). Lazy: fsspec imports pcrypt.filesystem the first time the protocol is used."""
    try:
        import fsspec
    except ImportError:
        return
    fsspec.register_implementation("pcrypt", "pcrypt.filesystem.PcryptFileSystem", clobber=True)


_register_fsspec()
