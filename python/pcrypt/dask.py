"""Dask helpers: encrypting and verifying many files in parallel across a cluster's workers.

Reading needs nothing here: ``dd.read_csv("pcrypt::file:///data/x.csv.pcrypt", storage_options=...)`` cuts
the plaintext into blocks through the pcrypt:: filesystem (pcrypt.filesystem), and each task decrypts the
records of its own block on the worker that runs it.

Paths are local paths (every worker must see them: a shared file system) or fsspec URLs, which are
streamed through fsspec (``s3://bucket/x`` read, ``pcrypt::s3://bucket/x.pcrypt`` written).
"""

import fsspec

import pcrypt


def _is_url(path):
    return "://" in str(path) or "::" in str(path)


def encrypt_one(src, dst, **options):
    """Encrypts one file (on whichever worker runs it); returns ``dst``."""
    if not _is_url(src) and not _is_url(dst):
        pcrypt.encrypt(src, dst, **options)
        return dst
    writer_options = {k: v for k, v in options.items() if k in ("keys", "recipients", "recipient_files",
                                                                   "passphrase", "chunk_size", "threads", "format",
                                                                   "raw_key", "context")}
    with fsspec.open(src, "rb") as fin, fsspec.open("pcrypt::" + dst if not dst.startswith("pcrypt::") else dst,
                                                     "wb", pcrypt=writer_options) as fout:
        while True:
            block = fin.read(16 << 20)
            if not block:
                break
            fout.write(block)
    return dst


def verify_one(path, **options):
    """Authenticates one local pcrypt file; returns its plaintext size (raises pcrypt's errors)."""
    return pcrypt.verify(path, **options)


def encrypt_files(client, sources, targets=None, **options):
    """Encrypts every file of ``sources`` into ``targets`` (default: each source + ".pcrypt"), one task per
    file spread over the cluster's workers; returns the targets once all are written. ``options``:
    pcrypt.encrypt's keyword arguments (credentials, chunk_size, threads, force)."""
    sources = [str(s) for s in sources]
    targets = [s + ".pcrypt" for s in sources] if targets is None else [str(t) for t in targets]
    futures = client.map(encrypt_one, sources, targets, pure=False, **options)
    return client.gather(futures)


def verify_files(client, paths, **options):
    """Verifies every pcrypt file of ``paths`` in parallel; returns their plaintext sizes. The first
    failure is raised (pcrypt.AuthenticationError for a damaged record)."""
    futures = client.map(verify_one, [str(p) for p in paths], pure=False, **options)
    return client.gather(futures)
