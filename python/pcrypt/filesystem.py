"""The fsspec filesystem for the ``pcrypt`` protocol: pcrypt files on any fsspec target, by ranges.

    fsspec.open("pcrypt::file:///data/big.csv.pcrypt", pcrypt={"keys": ["me.key"]})
    dd.read_csv("pcrypt::s3://bucket/big.csv.pcrypt", storage_options={"pcrypt": {...}, "s3": {...}})

It chains over the target filesystem (fsspec passes ``target_protocol``, ``target_options`` and, for a
chained URL, the target path as ``fo``). Reading asks the target only for the records that cover each read
(``cat_file(path, start, end)``) and authenticates each one; every file's header is fetched and unlocked
once per filesystem instance (one per process and set of options: fsspec caches instances, so a Dask
worker unlocks a file once however many of its blocks it reads). ``size()`` and ``info()`` report the
plaintext size. Writing ("wb") encrypts as it streams. Credentials come from the storage options
(``keys``, ``identities``, ``passphrase`` to read; ``keys``, ``recipients``, ``recipient_files``,
``passphrase`` to write; for C2SP chunked encryption, ``format="cobblestone-128"`` or ``"cobblestone-256"``
with ``raw_key`` and ``context``, both ways), never from the URL.
"""

import threading

import fsspec
from fsspec.spec import AbstractFileSystem

from . import _pcrypt
from .errors import naming
from .files import (EncryptedReader, EncryptedWriter, FsspecSink, FsspecSource, check_format_options,
                    raw_key_arguments, reading_arguments, unlock)


def _list(value):
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


class PcryptFileSystem(AbstractFileSystem):
    protocol = "pcrypt"
    root_marker = ""

    def __init__(self, fo="", target_protocol=None, target_options=None, fs=None, keys=(), identities=(),
                 recipients=(), recipient_files=(), passphrase=None, chunk_size=1 << 20, threads=0,
                 format="pcrypt", raw_key=None, context=None, **kwargs):
        super().__init__(**kwargs)
        if fs is None:
            fs = fsspec.filesystem(target_protocol or "file", **(target_options or {}))
        self.target = fs
        self.fo = fo
        self._keys = _list(keys)
        self._identities = _list(identities)
        self._recipients = _list(recipients)
        self._recipient_files = _list(recipient_files)
        self._passphrase = passphrase
        self._chunk_size = chunk_size
        self._threads = threads
        self._format = format  # of files written ("wb"); reading detects pcrypt and age, not Cobblestone
        check_format_options(format, chunk_size, None, None, 1 << 20)
        self._raw_key = raw_key_arguments(raw_key, context)
        self._reading = reading_arguments(self._keys, self._identities, passphrase, raw_key, context, format)
        self._headers = {}  # target path -> (ciphertext size, unlocked header)
        self._unlocking = {}  # target path -> the lock held while its header is fetched and unlocked
        self._lock = threading.Lock()
        # fsspec strips a chained URL's outer part ("pcrypt::") to an empty path and, for a glob, globs only
        # what that leaves; through the instance the empty path is the target's URL (``fo``), so that
        # "pcrypt::http://host/data-*.csv.pcrypt" globs the target's files (fsspec calls the class's
        # _strip_protocol while it takes a URL apart, and the instance's on the paths it then uses).
        self._strip_protocol = self._strip_chained_protocol

    @classmethod
    def _strip_protocol(cls, path):
        path = fsspec.utils.stringify_path(path)
        for prefix in ("pcrypt://", "pcrypt::"):
            if path.startswith(prefix):
                path = path[len(prefix):]
        return path

    def _strip_chained_protocol(self, path):
        path = type(self)._strip_protocol(path)
        if path in ("", "/") and self.fo and isinstance(self.fo, str):
            path = self.fo
        return path

    def _target_path(self, path):
        """The target's path: the chained URL's own (``fo``) for the empty path fsspec hands us for
        "pcrypt::file:///x", else the path given."""
        return self.target._strip_protocol(self._strip_chained_protocol(path))

    def glob(self, path, **kwargs):
        """The target's files matching ``path`` (its glob: for HTTP, the links of the directory's page)."""
        return self.target.glob(self._target_path(path), **kwargs)

    def _parent(self, path):
        # An instance method (fsspec's is a classmethod): the parent of a chained URL's file is the target
        # file's parent, where open_files creates directories before writing.
        return self.target._parent(self._target_path(path))

    def _unlocked(self, path, size):
        """The file's header, fetched and unlocked once however many threads open the file at once (each
        unlocking costs the target two requests, and a passphrase an Argon2id run)."""
        with self._lock:
            unlocking = self._unlocking.setdefault(path, threading.Lock())
        with unlocking:
            with self._lock:
                cached = self._headers.get(path)
            if cached is not None and cached[0] == size:
                return cached[1]
            decryptor = unlock(FsspecSource(self.target, path, size), self._reading)
            with self._lock:
                self._headers[path] = (size, decryptor)
            return decryptor

    def info(self, path, **kwargs):
        p = self._target_path(path)
        entry = dict(self.target.info(p, **kwargs))
        if entry.get("type") == "file":
            entry["size"] = self._unlocked(p, entry["size"]).plaintext_size
        return entry

    def ls(self, path, detail=True, **kwargs):
        """The target's listing. File sizes are the ciphertext's (finding the plaintext's needs every
        header); info() and size() give the plaintext size."""
        return self.target.ls(self._target_path(path), detail=detail, **kwargs)

    def _open(self, path, mode="rb", block_size=None, autocommit=True, cache_options=None, **kwargs):
        p = self._target_path(path)
        if mode == "rb":
            size = self.target.size(p)
            return EncryptedReader(FsspecSource(self.target, p, size), self._unlocked(p, size), self._threads)
        if mode == "wb":
            with naming(p):
                encryptor = _pcrypt.Encryptor(keys=self._keys, recipients=self._recipients,
                                              recipient_files=self._recipient_files, passphrase=self._passphrase,
                                              chunk_size=self._chunk_size, threads=self._threads,
                                              format=self._format, **self._raw_key)
            with self._lock:
                self._headers.pop(p, None)
            return EncryptedWriter(encryptor, p, FsspecSink(self.target, p))
        raise NotImplementedError(f"pcrypt:: files open in 'rb' or 'wb', not {mode!r}")

    def cat_file(self, path, start=None, end=None, **kwargs):
        with self._open(path, "rb") as f:
            size = f.size
            start = 0 if start is None else (start if start >= 0 else max(0, size + start))
            end = size if end is None else (end if end >= 0 else max(0, size + end))
            f.seek(start)
            return f.read(max(0, end - start))

    def rm_file(self, path):
        self.target.rm_file(self._target_path(path))

    def _rm(self, path):
        self.target.rm_file(self._target_path(path))

    def rm(self, path, recursive=False, maxdepth=None):
        self.target.rm(self._target_path(path), recursive=recursive, maxdepth=maxdepth)

    def mkdir(self, path, create_parents=True, **kwargs):
        self.target.mkdir(self._target_path(path), create_parents=create_parents, **kwargs)

    def makedirs(self, path, exist_ok=False):
        self.target.makedirs(self._target_path(path), exist_ok=exist_ok)

    def modified(self, path):
        return self.target.modified(self._target_path(path))

    def created(self, path):
        return self.target.created(self._target_path(path))
