"""Encrypted datasets over real HTTP, as object stores serve them (issue 46).

nginx (started here on 127.0.0.1, from a directory of its own: python/tests/nginx_server.py) serves CSVs
in pcrypt's format, age's and C2SP chunked encryption (Cobblestone), and their plaintext. Dask reads them by
ranges through fsspec's HTTP filesystem chained under pcrypt's (``pcrypt::http://host/data-*.csv.pcrypt``)
and must get the frame the same job gets from the plaintext over HTTP. nginx's access log counts what was
asked and sent: pcrypt fetched no more than the records that hold the ranges the same job read from the
plaintext, plus each file's header and final record, once. A server that sends a short range,
ignores the range or sends other bytes, and nginx serving a tampered or truncated copy, give an error (I/O,
damaged), never plaintext.

Skipped, saying why, where nginx or fsspec's HTTP filesystem (Debian: python3-aiohttp, python3-requests)
is missing; scripts/install-deps.sh installs both for the test suite.
"""

import http.server
import os
import threading

import pytest

from conftest import pseudo_random
from nginx_server import Nginx, nginx_binary


def _missing(what):
    """Skips this file, saying why; where PCRYPT_REQUIRE_HTTP is set (.ci/run's host stage), fails instead."""
    if os.environ.get("PCRYPT_REQUIRE_HTTP"):
        pytest.fail(f"PCRYPT_REQUIRE_HTTP is set and {what}", pytrace=False)
    pytest.skip(f"SKIPPED: {what}", allow_module_level=True)


try:
    import dask.dataframe as dd
    import fsspec
    import fsspec.implementations.http  # noqa: F401
    import pandas as pd
except ImportError as e:
    _missing(f"{e.name} is not installed (Debian: python3-fsspec, python3-dask, python3-pandas; fsspec's HTTP "
             "filesystem needs python3-aiohttp and python3-requests)")
if nginx_binary() is None:
    _missing("nginx is not installed (Debian: nginx)")

FILES = 3
ROWS = 20_000  # about 780 KB of CSV per file: 3 Dask partitions of BLOCK each
BLOCK = 260_000
PCRYPT_CHUNK = 16 << 10  # 48 records a file; age's chunks are 64 KiB (12), Cobblestone's 16 KiB
TAG = 16  # every record of the three formats ends in a 16-byte tag (docs/FORMAT.md)
HEADER_READ_AHEAD = 64 << 10  # the library's first read of a callback source (docs/LIBRARY.md)


def formats(d):
    """name: (suffix, storage options that unlock it)."""
    return {
        "pcrypt": (".pcrypt", {"keys": [str(d / "me.key")]}),
        "age": (".age", {"identities": [str(d / "id.txt")]}),
        "cobblestone": (".cob", {"format": "cobblestone-256", "raw_key": str(d / "raw.key"),
                                 "context": "issue 46"}),
    }


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """nginx serving www/: data-{0,1,2}.csv and each encrypted in the three formats."""
    import random

    import pcrypt
    d = tmp_path_factory.mktemp("http")
    www = d / "www"
    www.mkdir()
    pcrypt.keygen(d / "me.key")
    recipient = pcrypt.keygen(d / "id.txt", identity=True)
    pcrypt.keygen(d / "raw.key", raw=32)
    rng = random.Random(46)
    for i in range(FILES):
        ids = range(i * ROWS, (i + 1) * ROWS)
        pd.DataFrame({"id": ids, "value": [rng.random() for _ in ids],
                      "name": [f"name-{rng.randrange(10 ** 9)}" for _ in ids]}).to_csv(www / f"data-{i}.csv",
                                                                                        index=False)
        plain = www / f"data-{i}.csv"
        pcrypt.encrypt(plain, f"{plain}.pcrypt", keys=d / "me.key", chunk_size=PCRYPT_CHUNK)
        pcrypt.encrypt(plain, f"{plain}.age", recipients=[recipient], format="age")
        pcrypt.encrypt(plain, f"{plain}.cob", format="cobblestone-256", raw_key=d / "raw.key", context="issue 46")
    with Nginx(d / "nginx", www) as server:
        yield d, www, server


def read_csv(url, **storage_options):
    return dd.read_csv(url, blocksize=BLOCK, storage_options=storage_options)


def compute(frame):
    return frame.compute(scheduler="threads", num_workers=2)


def layout(www, name, options):
    """(header bytes, chunk size, plaintext size, file size, records) of an encrypted file, from the file unlocked
    locally, checked against the formats' rule that the file is its header, then one record per chunk
    (the plaintext's bytes and a 16-byte tag): ceil(plaintext / chunk) records for pcrypt and age,
    plaintext // chunk + 1 for Cobblestone, whose final chunk is always short (docs/FORMAT.md)."""
    import pcrypt
    from pcrypt.files import reading_arguments
    path = str(www / name)
    opened = pcrypt._pcrypt.Decryptor(path, **reading_arguments(**options))
    header, chunk, plaintext = opened.header_bytes, opened.chunk_size, opened.plaintext_size
    size = (www / name).stat().st_size
    records = plaintext // chunk + 1 if name.endswith(".cob") else -(-plaintext // chunk)
    assert size == header + plaintext + TAG * records
    return header, chunk, plaintext, size, records


def covering_bytes(first, end, header, chunk, plaintext, size):
    """The bytes of the records holding plaintext bytes [first, end): records first // chunk to
    (end - 1) // chunk, each chunk + 16 bytes; a range reaching the plaintext's end takes the rest of the file
    (the final record, which authenticates the end)."""
    record = chunk + TAG
    begin = header + first // chunk * record
    if end >= plaintext:
        return size - begin
    return min(size, header + ((end - 1) // chunk + 1) * record) - begin


@pytest.mark.parametrize("fmt", ["pcrypt", "age", "cobblestone"])
def test_dask_over_http_equals_the_plaintext_and_fetches_only_the_covering_records(pcrypt, site, fmt):
    d, www, server = site
    suffix, options = formats(d)[fmt]

    # The plaintext over HTTP, with fsspec's HTTP files reading exactly what Dask asks (no read-ahead):
    # each range in the log is one read of the job.
    mark = server.mark()
    plain_frame = read_csv(server.url("data-*.csv"), cache_type="none")
    plain = compute(plain_frame)
    plain_log = server.requests_since(mark)

    mark = server.mark()
    encrypted_frame = read_csv("pcrypt::" + server.url(f"data-*.csv{suffix}"), pcrypt=options)
    encrypted = compute(encrypted_frame)
    log = server.requests_since(mark)

    assert encrypted_frame.npartitions == plain_frame.npartitions >= 3 * FILES
    pd.testing.assert_frame_equal(encrypted, plain)
    assert len(plain) == FILES * ROWS

    ranged = [r for r in log if r.span]
    plain_ranged = [r for r in plain_log if r.span]
    # Every ranged request got exactly its range (206), and nothing else was fetched but the directory's
    # listing for the glob (nginx's autoindex page) and HEADs.
    assert ranged and all(r.method == "GET" and r.status == 206 and r.body_bytes == r.span[1] - r.span[0] + 1
                          for r in ranged)
    assert all(r.span or r.method == "HEAD" or r.path == "/" for r in log)
    assert all(r.status == 200 for r in log if not r.span)
    for i in range(FILES):
        name = f"data-{i}.csv{suffix}"
        header, chunk, plaintext, size, records = layout(www, name, options)
        record = chunk + TAG
        mine = [r for r in ranged if r.path == f"/{name}"]
        reads = [r.span for r in plain_ranged if r.path == f"/data-{i}.csv"]
        # The header and the final record, once per file (fsspec's one filesystem instance unlocks a file
        # once, however many tasks open it): the library's first read of a file is 64 KiB, its second the
        # final record, which authenticates the plaintext's size.
        final = size - header - (records - 1) * record
        assert [r.span for r in mine[:2]] == [(0, min(size, HEADER_READ_AHEAD) - 1), (size - final, size - 1)]
        # Every other request begins at a record (header + k * (chunk + 16)) and ends at one or at the end.
        assert all(r.span[0] != 0 for r in mine[2:])
        for r in mine[2:]:
            first, last = r.span
            assert (first - header) % record == 0, r
            assert last + 1 == size or (last + 1 - header) % record == 0, r
        # The bound: what pcrypt fetched is at most the records covering each range the plaintext job read,
        # plus the header's read-ahead and the final record, for this file (each read of the job is one
        # request of exactly its covering records, so the two are equal today).
        bound = (sum(covering_bytes(first, last + 1, header, chunk, plaintext, size) for first, last in reads)
                 + min(size, HEADER_READ_AHEAD) + final)
        fetched = sum(r.body_bytes for r in mine)
        assert fetched <= bound, (name, fetched, bound)
        # No more requests than the plaintext job's plus those two.
        assert len(mine) <= len(reads) + 2, (name, len(mine), len(reads))
    # HEADs (the size, at each open): at most three more per file than the plaintext job's (glob, info).
    heads = sum(r.method == "HEAD" for r in log)
    assert heads <= sum(r.method == "HEAD" for r in plain_log) + 3 * FILES


@pytest.fixture(scope="module")
def big(pcrypt, site):
    """5 MiB of random bytes, as a pcrypt file with 4 KiB chunks (1,280 records) and as an age file."""
    d, www, server = site
    data = pseudo_random(5 << 20, seed=46)
    (d / "big.bin").write_bytes(data)
    pcrypt.encrypt(d / "big.bin", www / "big.pcrypt", keys=d / "me.key", chunk_size=4096)
    pcrypt.encrypt(d / "big.bin", www / "big.age", recipients=pcrypt.recipients([d / "id.txt"]), format="age")
    return data


@pytest.mark.parametrize("opener", ["pcrypt.open", "fsspec.open"])
@pytest.mark.parametrize("fmt", ["pcrypt", "age"])
def test_a_4_mib_range_over_http_is_one_request(pcrypt, site, big, fmt, opener):
    d, www, server = site
    suffix, options = formats(d)[fmt]
    name = f"big{suffix}"
    header, chunk, plaintext, size, records = layout(www, name, options)
    offset, length = 1_000_003, 4 << 20
    mark = server.mark()
    if opener == "pcrypt.open":
        opened_file = pcrypt.open(server.url(name), **options)
    else:
        opened_file = fsspec.open("pcrypt::" + server.url(name), "rb", pcrypt=options).open()
    with opened_file as f:
        opened = server.requests_since(mark)
        mark = server.mark()
        f.seek(offset)
        assert f.read(length) == big[offset:offset + length]
    # Opening: the size (HEAD), the header's read-ahead, the final record.
    assert [r.method for r in opened] == ["HEAD", "GET", "GET"]
    (read,) = server.requests_since(mark)
    assert read.status == 206
    assert read.body_bytes == covering_bytes(offset, offset + length, header, chunk, plaintext, size)
    assert read.body_bytes <= length / chunk * (chunk + TAG) + 2 * (chunk + TAG)


@pytest.mark.parametrize("fmt", ["pcrypt", "age"])
def test_the_librarys_callback_source_over_http_asks_for_480_records_at_a_time(pcrypt, site, big, fmt):
    """libpcrypt's own range reader over a read-at callback that is an HTTP client (docs/LIBRARY.md, "Object
    stores"): a 4 MiB range is 1 request of an age file (65 records of 64 KiB) and 3 of a pcrypt file with
    4 KiB chunks (1,025 records, 480 at most a request)."""
    from pcrypt.files import reading_arguments
    d, www, server = site
    suffix, options = formats(d)[fmt]
    name = f"big{suffix}"
    header, chunk, plaintext, size, records = layout(www, name, options)
    http = fsspec.filesystem("http")
    url = server.url(name)
    mark = server.mark()
    opened = pcrypt._pcrypt.Decryptor.remote(size, lambda start, end: http.cat_file(url, start, end),
                                             **reading_arguments(**options))
    assert len(server.requests_since(mark)) == 2  # the header's read-ahead and the final record
    offset, length = 1_000_003, 4 << 20
    out = bytearray(length)
    mark = server.mark()
    assert opened.read_into(offset, out, threads=1) == length and out == big[offset:offset + length]
    reads = server.requests_since(mark)
    touched = (offset + length - 1) // chunk - offset // chunk + 1
    assert len(reads) == -(-touched // 480) == (1 if fmt == "age" else 3)
    assert sum(r.body_bytes for r in reads) == touched * (chunk + TAG)


# Bad input: never plaintext from a server that lies or a file that was damaged.

class LyingServer(http.server.ThreadingHTTPServer):
    """Serves ``files`` (name -> bytes) with HEAD and ranged GETs, honestly for the first ``honest`` ranged
    GETs, then lying the way ``lie`` says: "short" (206, one byte less than asked), "whole" (200, the whole
    file: the range ignored), "shifted" (206, the right length, the bytes one record further on)."""

    def __init__(self, files, lie, honest, record):
        self.files, self.lie, self.honest, self.record = files, lie, honest, record
        self.ranged = 0
        super().__init__(("127.0.0.1", 0), LyingHandler)


class LyingHandler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def _send(self, status, body, head=False, size=None):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body) if size is None else size))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def do_HEAD(self):
        data = self.server.files.get(self.path.lstrip("/"))
        if data is None:
            return self._send(404, b"", head=True)
        self._send(200, b"", head=True, size=len(data))

    def do_GET(self):
        data = self.server.files.get(self.path.lstrip("/"))
        rng = self.headers.get("Range")
        if data is None or not rng:
            return self._send(404 if data is None else 200, data or b"")
        first, last = (int(x) for x in rng[len("bytes="):].split("-"))
        end = min(last + 1, len(data))
        self.server.ranged += 1
        if self.server.ranged <= self.server.honest:
            return self._send(206, data[first:end])
        if self.server.lie == "short":
            return self._send(206, data[first:end - 1])
        if self.server.lie == "whole":
            return self._send(200, data)
        shifted = data[first + self.server.record:end + self.server.record]
        self._send(206, shifted + bytes(end - first - len(shifted)))


@pytest.fixture()
def lying(pcrypt, site, big):
    servers = []

    def serve(name, lie, honest):
        d, www, _ = site
        header, chunk, *_ = layout(www, name, formats(d)["age" if name.endswith(".age") else "pcrypt"][1])
        server = LyingServer({name: (www / name).read_bytes()}, lie, honest, chunk + TAG)
        threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/{name}"
    yield serve
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("lie", ["short", "whole", "shifted"])
@pytest.mark.parametrize("fmt", ["pcrypt", "age"])
@pytest.mark.parametrize("honest", [0, 1, 2], ids=["header", "final-record", "after-opening"])
def test_a_server_that_lies_about_a_range_is_an_error_never_plaintext(pcrypt, site, lying, fmt, lie, honest):
    """honest=0: lies from the header's first request; 2: from the first read after the header and the final
    record. A short or whole answer is an I/O error (its length is not the range's); other bytes fail
    authentication (damaged header or record)."""
    d, www, _ = site
    suffix, options = formats(d)[fmt]
    url = lying(f"big{suffix}", lie, honest)
    fs = fsspec.filesystem("pcrypt", target_protocol="http", **options)
    # Any http:// filesystem is one fsspec instance: the header a test before this one unlocked is not
    # reused for this server (another URL), and each test has its own port.
    with pytest.raises(pcrypt.PcryptError) as caught:
        with fs.open(url, "rb") as f:
            f.seek(100_000)
            f.read(1 << 20)
    error = caught.value
    if lie in ("short", "whole"):
        assert error.code_name == "PCRYPT_E_IO" and error.exit_code == 1, error
    else:
        assert isinstance(error, (pcrypt.AuthenticationError, pcrypt.HeaderError)), error
    assert url in str(error), error


@pytest.mark.parametrize("fmt", ["pcrypt", "age", "cobblestone"])
def test_nginx_serving_a_tampered_copy_fails_the_dask_job(pcrypt, site, fmt):
    d, www, server = site
    suffix, options = formats(d)[fmt]
    header, chunk, plaintext, size, records = layout(www, f"data-1.csv{suffix}", options)
    raw = bytearray((www / f"data-1.csv{suffix}").read_bytes())
    # A byte of a record past what read_csv reads for its sample (256 kB at the start of the first file), so
    # that the job's graph is made and one of its tasks fails.
    bad = records * 3 // 4
    damaged = header + bad * (chunk + TAG) + 100
    raw[damaged] ^= 1
    name = f"tampered-{fmt}.csv{suffix}"
    (www / name).write_bytes(raw)
    url = "pcrypt::" + server.url(name)
    frame = read_csv(url, pcrypt=options)
    with pytest.raises(pcrypt.AuthenticationError) as caught:
        compute(frame)
    assert caught.value.code_name == "PCRYPT_E_DAMAGED_RECORD" and server.url(name) in str(caught.value)
    # The records before it are intact, and read.
    fs = fsspec.filesystem("pcrypt", target_protocol="http", **options)
    before = bad * chunk
    assert fs.cat_file(server.url(name), 0, before) == (www / "data-1.csv").read_bytes()[:before]
    with pytest.raises(pcrypt.AuthenticationError):
        fs.cat_file(server.url(name), before, before + 10)


@pytest.mark.parametrize("cut", ["final-record", "mid-record"])
@pytest.mark.parametrize("fmt", ["pcrypt", "age"])
def test_nginx_serving_a_truncated_copy_has_no_size_and_no_bytes(pcrypt, site, fmt, cut):
    d, www, server = site
    suffix, options = formats(d)[fmt]
    header, chunk, plaintext, size, records = layout(www, f"data-2.csv{suffix}", options)
    raw = (www / f"data-2.csv{suffix}").read_bytes()
    keep = header + (records - 1) * (chunk + TAG) if cut == "final-record" else size - 1000
    name = f"truncated-{cut}.csv{suffix}"
    (www / name).write_bytes(raw[:keep])
    fs = fsspec.filesystem("pcrypt", target_protocol="http", **options)
    with pytest.raises(pcrypt.AuthenticationError) as caught:
        fs.size(server.url(name))
    expected = "PCRYPT_E_TRUNCATED" if cut == "final-record" else "PCRYPT_E_DAMAGED_RECORD"
    assert caught.value.code_name == expected and server.url(name) in str(caught.value)
    with pytest.raises(pcrypt.AuthenticationError):  # Dask asks the size while it makes the graph
        compute(read_csv("pcrypt::" + server.url(name), pcrypt=options))


def test_pcrypt_open_of_a_url_reads_only_and_names_the_url(pcrypt, site):
    d, www, server = site
    suffix, options = formats(d)["pcrypt"]
    with pytest.raises(pcrypt.UsageError):
        pcrypt.open(server.url("new.pcrypt"), "wb", keys=options["keys"])
    bad = bytearray((www / "data-0.csv.pcrypt").read_bytes())
    bad[-5] ^= 1  # the final record's tag: unlocking the file (which reads it) fails
    (www / "bad-tag.csv.pcrypt").write_bytes(bad)
    with pytest.raises(pcrypt.AuthenticationError) as caught:
        pcrypt.open(server.url("bad-tag.csv.pcrypt"), **options)
    assert caught.value.path == server.url("bad-tag.csv.pcrypt")
    with pcrypt.open(server.url("data-0.csv" + suffix), **options) as f:
        assert f.read() == (www / "data-0.csv").read_bytes()
