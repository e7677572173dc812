"""File objects over pcrypt, age and Cobblestone files: a seekable reader by ranges and a streaming writer.

The reader is an ``io.RawIOBase`` whose ``readinto`` decrypts straight into the caller's buffer through
libpcrypt's range reads (``pcrypt::File::read_at``): only the records that hold the bytes asked for are read
and authenticated. Reads smaller than a record go through a cache of the last two records they opened, so that reading
a file in small pieces (pandas, Dask's delimiter search) opens each record once, and a large read takes its
first and last records from that cache when they are there. The writer hands what it is given
to libpcrypt's streaming encryptor (``pcrypt::Encryptor``), which seals records several at a time on every
core and writes them after the header.

Where the bytes come from or go to is a *source* or a *sink*: a local file (read with pread, written as an
atomic output file, both in C++) or any fsspec filesystem (pcrypt.filesystem).
"""

import io
import os

from . import _pcrypt
from .errors import PcryptError, UsageError, naming

COBBLESTONE_FORMATS = ("cobblestone-128", "cobblestone-256")
CACHED_RECORDS = 2  # a reader's cache of records opened by small reads (EncryptedReader)


def paths(value):
    """One path or several: "a.key" and ["a.key", "b.key"] alike."""
    if value is None:
        return []
    if isinstance(value, (str, bytes)) or hasattr(value, "__fspath__"):
        value = [value]
    return [v if isinstance(v, str) else os.fsdecode(os.fspath(v)) for v in value]


def raw_key_arguments(raw_key=None, context=None):
    """The Cobblestone formats' key as _pcrypt takes it: ``raw_key`` is a path (str or os.PathLike) of a file
    holding exactly the key, or the key's bytes (bytes, bytearray, memoryview); ``context`` is bytes, or
    text taken as its UTF-8 bytes."""
    out = {}
    if raw_key is not None:
        if isinstance(raw_key, (bytes, bytearray, memoryview)):
            out["raw_key"] = bytes(raw_key)
        else:
            out["raw_key_file"] = os.fsdecode(os.fspath(raw_key))
    if context is not None:
        if isinstance(context, str):
            out["context"] = context.encode("utf-8")
        elif isinstance(context, (bytes, bytearray, memoryview)):
            out["context"] = bytes(context)
        else:
            raise UsageError(f"context= is bytes or text, not {type(context).__name__}",
                             "give the application's context as bytes (or text, taken as UTF-8)")
    return out


def reading_arguments(keys=(), identities=(), passphrase=None, raw_key=None, context=None, format=None):
    """What opens a file for reading, as _pcrypt's readers take it: key files, identity files, a passphrase,
    or for the Cobblestone formats (whose files cannot say what they are: ``format`` names one) a raw key
    and its context. pcrypt and age files are told by their first bytes."""
    out = {"keys": paths(keys), "identities": paths(identities), "passphrase": passphrase,
           **raw_key_arguments(raw_key, context)}
    if format is not None:
        out["format"] = format
    return out


def check_format_options(format, chunk_size, kdf_memory, kdf_ops, default_chunk_size):
    """What the age and Cobblestone formats fix themselves (their chunks; age's scrypt) cannot be chosen."""
    if format in ("age", *COBBLESTONE_FORMATS) and (
            chunk_size != default_chunk_size or kdf_memory is not None or kdf_ops is not None):
        fixed = "64 KiB chunks and scrypt passphrases" if format == "age" else "16 KiB chunks and no passphrases"
        raise UsageError("chunk_size, kdf_memory and kdf_ops are pcrypt-format options",
                         f"{format} files have {fixed}")


class LocalSource:
    """A local file, read with pread in C++ (the GIL released)."""

    def __init__(self, path):
        self.name = path

    def unlock(self, credentials):
        """The file's header, unlocked with ``credentials`` (reading_arguments'): pcrypt.errors.HeaderError
        for wrong ones."""
        return _pcrypt.Decryptor(self.name, **credentials)

    def read_into(self, decryptor, offset, out, threads):
        return decryptor.read_into(offset, out, threads)

    def close(self):
        pass


class FsspecSource:
    """A file on any fsspec filesystem: each range read asks it for the covering records only."""

    def __init__(self, fs, path, size=None):
        self.name = path
        self._fs = fs
        self._path = path
        self.size = fs.size(path) if size is None else size

    def _fetch(self, start, end):
        """Bytes [start, end) of the file, all of them: a target that returns fewer or more (a short range; a
        server that ignores the range and sends the whole file) is an I/O error, never bytes taken as
        others."""
        got = self._fs.cat_file(self._path, start, end)
        if len(got) != end - start:
            raise PcryptError(f"asked {self.name} for bytes {start}-{end - 1} ({end - start} bytes) and got "
                              f"{len(got)} bytes",
                              "the file changed while it was read, or its server does not serve byte ranges",
                              path=self.name, code=100, code_name="PCRYPT_E_IO")
        return got

    def unlock(self, credentials):
        """The header, fetched (its first 16 KiB, more only for a large one) and unlocked."""
        return _pcrypt.Decryptor.remote(self.size, self._fetch, **credentials)

    def read_into(self, decryptor, offset, out, threads):
        begin, end = decryptor.covering(offset, len(out))
        window = self._fetch(begin, end)
        return decryptor.read_window_into(window, begin, offset, out, threads)

    def close(self):
        pass


def unlock(source, credentials):
    """The source's header, unlocked with ``credentials`` (reading_arguments'); errors name the file."""
    with naming(source.name):
        return source.unlock(credentials)


class EncryptedReader(io.RawIOBase):
    """The plaintext of a pcrypt file: readable, seekable, by ranges."""

    def __init__(self, source, decryptor, threads=0):
        super().__init__()
        self._source = source
        self._decryptor = decryptor
        self._threads = threads
        self._size = decryptor.plaintext_size
        self._pos = 0
        self._chunk = decryptor.chunk_size
        # The last records small reads opened: plaintext offset -> (its plaintext, its length), at most
        # CACHED_RECORDS, oldest first. Two, because a Dask block is read as a small read at its start (the
        # search for a line's end), one at its end, then the block whole: the whole read takes both ends
        # from here and fetches only the records between.
        self._cache = {}
        self.name = source.name

    @property
    def size(self):
        """The plaintext size."""
        return self._size

    def readable(self):
        return True

    def seekable(self):
        return True

    def tell(self):
        return self._pos

    def seek(self, offset, whence=io.SEEK_SET):
        if self.closed:
            raise ValueError("I/O operation on closed file")
        if whence == io.SEEK_SET:
            pos = offset
        elif whence == io.SEEK_CUR:
            pos = self._pos + offset
        elif whence == io.SEEK_END:
            pos = self._size + offset
        else:
            raise ValueError(f"invalid whence ({whence})")
        if pos < 0:
            raise ValueError(f"negative seek position {pos}")
        self._pos = pos
        return pos

    def readinto(self, b):
        if self.closed:
            raise ValueError("I/O operation on closed file")
        out = memoryview(b).cast("B")
        want = min(len(out), max(0, self._size - self._pos))
        if want == 0:
            return 0
        with naming(self.name):
            if want >= self._chunk:  # large: straight into the caller's buffer, every core at work
                got = self._read_large(out[:want])
            else:
                got = self._read_small(out[:want])
        self._pos += got
        return got

    def _cached(self, pos, out):
        """Copies what the cached record holding ``pos`` has of [pos, pos + len(out)) into ``out``; how many
        bytes (0 when that record is not cached)."""
        start = pos - pos % self._chunk
        cached = self._cache.get(start)
        if cached is None:
            return 0
        record, length = cached
        take = max(0, min(len(out), length - (pos - start)))
        out[:take] = memoryview(record)[pos - start:pos - start + take]
        return take

    def _read_large(self, out):
        pos, end = self._pos, self._pos + len(out)
        head = self._cached(pos, out)
        if head == len(out):
            return head
        # The records after the head, but the last one if it is cached (then the read reaches its start).
        last = end - 1 - (end - 1) % self._chunk
        middle_end = last if last > pos + head and last in self._cache else end
        got = 0
        if middle_end > pos + head:
            got = self._source.read_into(self._decryptor, pos + head, out[head:middle_end - pos], self._threads)
            if got < middle_end - pos - head:  # the plaintext ended
                return head + got
        return head + got + self._cached(middle_end, out[middle_end - pos:])

    def _read_small(self, out):
        done = 0
        while done < len(out):
            pos = self._pos + done
            take = self._cached(pos, out[done:])
            if take == 0:
                start = pos - pos % self._chunk
                record = bytearray(self._chunk)
                if len(self._cache) >= CACHED_RECORDS:
                    record = self._cache.pop(next(iter(self._cache)))[0]  # the oldest's buffer, reused
                length = self._source.read_into(self._decryptor, start,
                                                memoryview(record)[:min(self._chunk, self._size - start)], 1)
                self._cache[start] = (record, length)
                take = self._cached(pos, out[done:])
                if take == 0:
                    break
            done += take
        return done

    def readall(self):
        out = bytearray(max(0, self._size - self._pos))
        n = self.readinto(out)
        del out[n:]
        return bytes(out)

    def close(self):
        if not self.closed:
            self._source.close()
        super().close()


class FsspecSink:
    """A file on any fsspec filesystem, written in order; on failure, removed where the target allows."""

    def __init__(self, fs, path):
        self.name = path
        self._fs = fs
        self._path = path
        self._file = fs.open(path, "wb")

    def write(self, data):
        if data:
            self._file.write(data)

    def commit(self):
        self._file.close()

    def discard(self):
        if hasattr(self._file, "discard"):
            self._file.discard()  # an unfinished multipart upload
        else:
            self._file.close()
            try:
                self._fs.rm(self._path)
            except OSError:
                pass


class EncryptedWriter(io.RawIOBase):
    """Encrypts what is written to it, as it streams (a ``_pcrypt.Encryptor``). close() finishes the file;
    leaving a ``with`` block with an exception, or abort(), discards it instead. Without a ``sink`` the
    encryptor writes a local path itself (appearing complete at close, or never); with one, the encrypted
    bytes each call makes are handed to ``sink.write``."""

    def __init__(self, encryptor, name, sink=None):
        super().__init__()
        self._encryptor = encryptor
        self._sink = sink
        self._written = 0
        self.name = name
        if sink is not None:
            self._pass_on(encryptor.take)  # the header

    def _pass_on(self, step, *args):
        """Runs an encryptor call and hands the encrypted bytes it made to the sink; errors name the file."""
        try:
            with naming(self.name):
                out = step(*args)
            if self._sink is not None:
                self._sink.write(out)
        except BaseException:
            self._discard()
            raise

    def writable(self):
        return True

    def write(self, b):
        if self.closed:
            raise ValueError("I/O operation on closed file")
        data = memoryview(b).cast("B")
        self._pass_on(self._encryptor.write, data)
        self._written += len(data)
        return len(data)

    def tell(self):
        return self._written

    def _discard(self):
        if not self.closed:
            self._encryptor.abandon()  # a local file never appears
            if self._sink is not None:
                self._sink.discard()
            super().close()

    def abort(self):
        self._discard()

    def close(self):
        if self.closed:
            return
        self._pass_on(self._encryptor.finish)
        if self._sink is not None:
            try:
                self._sink.commit()
            except BaseException:
                self._discard()
                raise
        super().close()

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            self.abort()
        else:
            self.close()
