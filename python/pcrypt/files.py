"""File objects over pcrypt files: a seekable reader by ranges and a streaming writer.

The reader is an ``io.RawIOBase`` whose ``readinto`` decrypts straight into the caller's buffer through the
core's range reader (core/range.h): only the records that hold the bytes asked for are read and
authenticated. Reads smaller than a record go through a one-record plaintext cache, so that reading a file
in small pieces (pandas, Dask's delimiter search) opens each record once. The writer seals records as data
arrives, several at a time on the core's engines, and writes them after the header.

Where the bytes come from or go to is a *source* or a *sink*: a local file (C++ pread, an atomic output
file) or any fsspec filesystem (pcrypt.filesystem).
"""

import io

from . import _pcrypt

# Records the writer seals per call: enough to keep every core busy, little enough to bound memory.
WRITE_BATCH_CHUNKS = 16


class LocalSource:
    """A local file, read with pread in C++ (the GIL released)."""

    def __init__(self, path):
        self.name = path
        self._file = _pcrypt.LocalFile(path)
        self.size = self._file.size

    def header_prefix(self, n):
        return self._file.pread(0, min(self.size, n))

    def read_into(self, decryptor, offset, out, threads):
        return decryptor.read_file_into(self._file, offset, out, threads)

    def close(self):
        self._file = None


class FsspecSource:
    """A file on any fsspec filesystem: each range read asks it for the covering records only."""

    def __init__(self, fs, path, size=None):
        self.name = path
        self._fs = fs
        self._path = path
        self.size = fs.size(path) if size is None else size

    def header_prefix(self, n):
        return self._fs.cat_file(self._path, 0, min(self.size, n))

    def read_into(self, decryptor, offset, out, threads):
        begin, end = decryptor.covering(offset, len(out), self.size)
        window = self._fs.cat_file(self._path, begin, end)
        return decryptor.read_window_into(window, begin, self.size, offset, out, threads)

    def close(self):
        pass


def unlock(source, keys=(), identities=(), passphrase=None):
    """The source's header, unlocked (pcrypt.errors.HeaderError for wrong credentials). The header is read
    in growing prefixes: most fit the first, a file for hundreds of recipients needs more."""
    n = _pcrypt.HEADER_PROBE_BYTES
    prefix = source.header_prefix(n)
    while len(prefix) == n and n < _pcrypt.HEADER_MAX_BYTES and _pcrypt.header_incomplete(prefix):
        n = min(8 * n, _pcrypt.HEADER_MAX_BYTES)
        prefix = source.header_prefix(n)
    return _pcrypt.Decryptor(prefix, keys=list(keys), identities=list(identities), passphrase=passphrase)


class EncryptedReader(io.RawIOBase):
    """The plaintext of a pcrypt file: readable, seekable, by ranges."""

    def __init__(self, source, decryptor, threads=0):
        super().__init__()
        self._source = source
        self._decryptor = decryptor
        self._threads = threads
        self._size = decryptor.plaintext_size(source.size)
        self._pos = 0
        self._chunk = decryptor.chunk_size
        self._cache = bytearray(self._chunk)
        self._cache_start = -1  # plaintext offset of the record in _cache, -1: none
        self._cache_len = 0
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
        if want >= self._chunk:  # large: straight into the caller's buffer, every core at work
            got = self._source.read_into(self._decryptor, self._pos, out[:want], self._threads)
        else:
            got = self._read_small(out[:want])
        self._pos += got
        return got

    def _read_small(self, out):
        done = 0
        while done < len(out):
            pos = self._pos + done
            start = pos - pos % self._chunk
            if start != self._cache_start:
                n = min(self._chunk, self._size - start)
                self._cache_start = -1
                self._cache_len = self._source.read_into(self._decryptor, start,
                                                         memoryview(self._cache)[:n], 1)
                self._cache_start = start
            at = pos - start
            take = min(len(out) - done, self._cache_len - at)
            out[done:done + take] = memoryview(self._cache)[at:at + take]
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


class LocalSink:
    """A local output file that appears complete at close, or not at all (io/atomic_file.h)."""

    def __init__(self, path, force=False):
        self.name = path
        self._out = _pcrypt.AtomicOutput(path, force=force)

    def write(self, data):
        self._out.write(data)

    def commit(self):
        self._out.commit()
        self._out = None

    def discard(self):
        self._out = None  # the C++ destructor removes the temporary


class FsspecSink:
    """A file on any fsspec filesystem, written in order; on failure, removed where the target allows."""

    def __init__(self, fs, path):
        self.name = path
        self._fs = fs
        self._path = path
        self._file = fs.open(path, "wb")

    def write(self, data):
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
    """Encrypts what is written to it, as it streams. close() finishes the file; leaving a ``with`` block
    with an exception, or abort(), discards it instead."""

    def __init__(self, sink, sealer):
        super().__init__()
        self._sink = sink
        self._sealer = sealer
        self._chunk = sealer.chunk_size
        self._batch = self._chunk * WRITE_BATCH_CHUNKS
        self._pending = bytearray()
        self._written = 0
        self.name = sink.name
        sink.write(sealer.header)

    def writable(self):
        return True

    def write(self, b):
        if self.closed:
            raise ValueError("I/O operation on closed file")
        data = memoryview(b).cast("B")
        self._pending += data
        # Keep at least one byte back: the final record is sealed with its own flag, so it waits for close().
        while len(self._pending) > self._batch:
            self._sink.write(self._sealer.seal(memoryview(self._pending)[:self._batch], False))
            del self._pending[:self._batch]
        self._written += len(data)
        return len(data)

    def tell(self):
        return self._written

    def abort(self):
        if not self.closed:
            self._sink.discard()
            self._pending = None
            super().close()

    def close(self):
        if self.closed:
            return
        try:
            self._sink.write(self._sealer.seal(self._pending, True))
            self._sink.commit()
        except BaseException:
            self._sink.discard()
            raise
        finally:
            self._pending = None
            super().close()

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            self.abort()
        else:
            self.close()
