"""pcrypt for Python: the pcrypt file format over the same C++ core as the ``pcrypt`` command.

    import pcrypt
    pcrypt.keygen("me.key")
    pcrypt.encrypt("big.csv", "big.csv.pcrypt", keys=["me.key"])
    with pcrypt.open("big.csv.pcrypt", keys=["me.key"]) as f:
        f.seek(3 << 20)
        part = f.read(1 << 20)

Credentials are keyword arguments named after the CLI's options: ``keys`` (key files, -k), ``identities``
(identity files, -i: decryption), ``recipients`` / ``recipient_files`` (-r / -R: encryption) and
``passphrase`` (the passphrase itself); C2SP chunked encryption (format="cobblestone-128" or
"cobblestone-256", named when reading too: such files carry no magic) takes one ``raw_key`` (a key file's
path, or the key's 16 or 32 bytes; ``keygen(path, raw=16)`` makes one) and the application's ``context``. Failures raise pcrypt.errors exceptions with the CLI's message, hint
(in these argument names) and exit code, and the file they concern (``e.path``). The GIL is released while
libpcrypt encrypts, decrypts or does I/O. docs/PYTHON.md has the rest, including the fsspec protocol
``pcrypt::`` (pcrypt.filesystem) and Dask helpers (pcrypt.dask).
"""

import fcntl as _fcntl
import os as _os
import re as _re
import secrets as _secrets

from . import _pcrypt
from .errors import AuthenticationError, HeaderError, PcryptError, UsageError, naming
from .files import (EncryptedReader, EncryptedWriter, FsspecSource, LocalSource, check_format_options, paths,
                    raw_key_arguments, reading_arguments, unlock)

__all__ = ["encrypt", "decrypt", "verify", "info", "open", "keygen", "recipients", "PcryptError",
           "UsageError", "HeaderError", "AuthenticationError", "DEFAULT_CHUNK_SIZE", "__version__"]

__version__ = _pcrypt.version()  # libpcrypt's, which is the pcrypt command's

DEFAULT_CHUNK_SIZE = _pcrypt.DEFAULT_CHUNK_SIZE


_builtin_open = open  # pcrypt.open below shadows it
_URL = _re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")  # "http://", "s3://": opened through fsspec


def encrypt(src, dst, *, keys=(), recipients=(), recipient_files=(), passphrase=None,
            chunk_size=DEFAULT_CHUNK_SIZE, threads=0, force=False, kdf_memory=None, kdf_ops=None,
            format="pcrypt", armor=False, raw_key=None, context=None):
    """Encrypts the file ``src`` into ``dst`` (created 0600, complete or not at all; an existing ``dst``
    only with force=True), as ``pcrypt encrypt`` does: same engines, records sealed on ``threads`` cores
    (0: all). format="age" writes an age file (``pcrypt encrypt --format age``; armor=True for ASCII
    armor), with age's rules on recipients and passphrases; format="cobblestone-128" or "cobblestone-256"
    a C2SP chunked encryption file under ``raw_key`` and ``context`` alone."""
    check_format_options(format, chunk_size, kdf_memory, kdf_ops, DEFAULT_CHUNK_SIZE)
    with naming(src, dst):
        _pcrypt.encrypt(_os.fspath(src), _os.fspath(dst), keys=paths(keys), recipients=paths(recipients),
                        recipient_files=paths(recipient_files), passphrase=passphrase, chunk_size=chunk_size,
                        threads=threads, force=force, kdf_memory=kdf_memory, kdf_ops=kdf_ops, format=format,
                        armor=armor, **raw_key_arguments(raw_key, context))


def _umask():
    """The process's umask, read without changing it (os.umask would, for a moment, for every thread)."""
    try:
        with _builtin_open("/proc/self/status") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except OSError:
        pass
    return 0o022


def decrypt(src, dst, *, keys=(), identities=(), passphrase=None, threads=0, force=False, raw_key=None,
            context=None, format=None):
    """Decrypts the pcrypt or age file ``src`` (or, with ``format`` named, a Cobblestone file) into ``dst``,
    all or nothing, as ``pcrypt decrypt`` does (the plaintext gets the usual mode, 0666 less the umask, as
    the CLI's does); returns its size."""
    dst = _os.fspath(dst)
    with naming(src, dst):
        size = _pcrypt.decrypt(_os.fspath(src), dst, threads=threads, force=force,
                               **reading_arguments(keys, identities, passphrase, raw_key, context, format))
    _os.chmod(dst, 0o666 & ~_umask())  # libpcrypt writes it 0600; widened only once complete
    return size


def verify(src, *, keys=(), identities=(), passphrase=None, threads=0, raw_key=None, context=None, format=None):
    """Authenticates the whole file, as ``pcrypt verify`` does; returns its plaintext size."""
    with naming(src):
        return _pcrypt.verify(_os.fspath(src), threads=threads,
                              **reading_arguments(keys, identities, passphrase, raw_key, context, format))


def info(src, *, format=None):
    """``pcrypt info``: the header's fields as "name: value" lines; no key needed (a Cobblestone file's
    ``format`` named)."""
    with naming(src):
        return _pcrypt.info(_os.fspath(src), format=format)


_TEMP_TAG = ".pcrypt-tmp-"
_TEMP_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def _remove_abandoned(directory, base):
    """Removes the temporaries a power cut or SIGKILL left for this target (named as libpcrypt names them,
    ".<base>.pcrypt-tmp-XXXXXX"): those no live writer holds an flock on."""
    prefix = "." + base + _TEMP_TAG
    try:
        names = _os.listdir(directory)
    except OSError:
        return
    for name in names:
        if not (name.startswith(prefix) and len(name) == len(prefix) + 6):
            continue
        path = _os.path.join(directory, name)
        try:
            fd = _os.open(path, _os.O_RDONLY | _os.O_NOFOLLOW | _os.O_NONBLOCK)
        except OSError:
            continue
        try:
            _fcntl.flock(fd, _fcntl.LOCK_EX | _fcntl.LOCK_NB)
            _os.unlink(path)
        except OSError:
            pass
        finally:
            _os.close(fd)


def _write_secret(path, text, force):
    """``text`` (str, or bytes for a raw key) into a new file at ``path``, mode 0600, complete or not at all, even after a power cut: written
    to a temporary beside it (".<name>.pcrypt-tmp-XXXXXX", locked while written) and synced, then linked in
    (refusing an existing file) or, with force, renamed over it, and the folder synced."""
    directory = _os.path.dirname(_os.path.abspath(path))
    if not force and _os.path.lexists(path):
        raise PcryptError(f"output file exists ({path})", "use force=True to overwrite it, or choose another path",
                          path)
    base = _os.path.basename(path)[:200]
    _remove_abandoned(directory, base)
    temporary = None
    try:
        while temporary is None:
            name = "." + base + _TEMP_TAG + "".join(_secrets.choice(_TEMP_CHARS) for _ in range(6))
            try:
                fd = _os.open(_os.path.join(directory, name), _os.O_WRONLY | _os.O_CREAT | _os.O_EXCL, 0o600)
                temporary = _os.path.join(directory, name)
            except FileExistsError:
                continue
        _fcntl.flock(fd, _fcntl.LOCK_EX | _fcntl.LOCK_NB)
        with _os.fdopen(fd, "wb" if isinstance(text, bytes) else "w") as out:
            out.write(text)
            out.flush()
            _os.fsync(out.fileno())
        folder = _os.open(directory, _os.O_RDONLY | _os.O_DIRECTORY)
        try:
            _os.fsync(folder)
            if force:
                _os.replace(temporary, path)
            else:
                _os.link(temporary, path)
                _os.unlink(temporary)
            temporary = None
            try:
                _os.fsync(folder)
            except OSError:
                if not force:
                    _os.unlink(path)
                raise
        finally:
            _os.close(folder)
    except FileExistsError:
        raise PcryptError(f"output file exists ({path})", "use force=True to overwrite it, or choose another path",
                          path) from None
    except OSError as e:
        raise PcryptError(f"cannot write {path}: {e.strerror}", "", path) from None
    finally:
        if temporary is not None and _os.path.lexists(temporary):
            _os.unlink(temporary)


def keygen(path, *, identity=False, post_quantum=False, raw=None, force=False):
    """Writes a new secret to ``path``, mode 0600, as ``pcrypt keygen [--identity] -o path`` does: a pcrypt
    key file, or with identity=True an age X25519 identity (post_quantum=True: ML-KEM-768 + X25519, age
    1.3's "age1pq1..."), or with raw=16 or raw=32 the random bytes alone of a raw key for cobblestone-128 or
    cobblestone-256 (``pcrypt keygen --raw``). Returns its public key, the recipient others encrypt to
    ("age1..."), for an identity; a key file or raw key is symmetric (it has no public key): None. Prints
    nothing."""
    path = _os.fspath(path)
    if path in ("", "-"):
        raise UsageError("keygen needs a path", "secrets are written to a 0600 file")
    if raw is not None:
        if identity or post_quantum:
            raise UsageError("raw= makes a raw key, not an identity", "leave out identity= and post_quantum=")
        if raw not in (16, 32):
            raise UsageError(f"raw={raw!r}: a raw key is 16 or 32 bytes",
                             "raw=16 for cobblestone-128, raw=32 for cobblestone-256")
        _write_secret(path, _pcrypt.generate_raw_key(raw), force)
        return None
    if identity or post_quantum:
        text, recipient = _pcrypt.generate_identity(post_quantum)
    else:
        text, recipient = _pcrypt.generate_key_file(), None
    _write_secret(path, text, force)
    return recipient


def recipients(identity_files):
    """The recipients (public keys) of the identities in these files, as ``pcrypt recipient`` prints them."""
    out = []
    for path in paths(identity_files):
        with naming(path):
            try:
                with _builtin_open(path) as f:
                    text = f.read()
            except OSError as e:
                raise PcryptError(f"cannot read {path}: {e.strerror}") from None
            out += _pcrypt.recipients_of(text)
    return out


def open(path, mode="rb", *, keys=(), identities=(), recipients=(), recipient_files=(), passphrase=None,
         chunk_size=DEFAULT_CHUNK_SIZE, threads=0, force=False, kdf_memory=None, kdf_ops=None, format=None,
         raw_key=None, context=None, storage_options=None):
    """Opens an encrypted file: a local path, or to read, a URL fsspec knows ("http://...", "s3://...").

    "rb": a seekable ``io.RawIOBase`` over the plaintext that reads only the records holding what is asked
    (``keys``/``identities``/``passphrase``; a Cobblestone file's ``format``, ``raw_key`` and ``context``);
    the header is unlocked here, once. pcrypt and age files are told by their first bytes. A URL's file is
    read through fsspec (``storage_options``: its filesystem's options), one request for the records under
    each read, as the ``pcrypt::`` filesystem reads it.
    "wb": a writer that encrypts as it streams (``keys``/``recipients``/``recipient_files``/``passphrase``)
    into a file that appears at close, complete, or never (leaving a ``with`` block by an exception);
    format="age" writes a binary age file, "cobblestone-128"/"cobblestone-256" a C2SP chunked encryption
    file under ``raw_key`` and ``context``; None or "pcrypt": a pcrypt file.
    """
    path = _os.fspath(path)
    if isinstance(path, str) and _URL.match(path):
        if mode != "rb":
            raise UsageError(f"pcrypt.open writes local files, not {path}",
                             'write through fsspec: fsspec.open("pcrypt::" + url, "wb", pcrypt={...})')
        import fsspec
        fs, target = fsspec.core.url_to_fs(path, **(storage_options or {}))
        with naming(path):
            source = FsspecSource(fs, target)
        source.name = path  # errors name the URL given
        decryptor = unlock(source, reading_arguments(keys, identities, passphrase, raw_key, context, format))
        return EncryptedReader(source, decryptor, threads)
    if mode == "rb":
        source = LocalSource(path)
        decryptor = unlock(source, reading_arguments(keys, identities, passphrase, raw_key, context, format))
        return EncryptedReader(source, decryptor, threads)
    if mode == "wb":
        format = format or "pcrypt"
        check_format_options(format, chunk_size, kdf_memory, kdf_ops, DEFAULT_CHUNK_SIZE)
        with naming(path):
            encryptor = _pcrypt.Encryptor(path, force=force, keys=paths(keys), recipients=paths(recipients),
                                          recipient_files=paths(recipient_files), passphrase=passphrase,
                                          chunk_size=chunk_size, threads=threads, kdf_memory=kdf_memory,
                                          kdf_ops=kdf_ops, format=format, **raw_key_arguments(raw_key, context))
        return EncryptedWriter(encryptor, path)
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
