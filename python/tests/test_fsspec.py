"""The pcrypt:: fsspec filesystem: chained over file:// and memory://, range reads that ask the target only
for covering records, the header fetched once per file, plaintext sizes, streaming writes, credentials from
storage options only."""

import os
import subprocess
import sys

import pytest

from conftest import pseudo_random

fsspec = pytest.importorskip("fsspec", reason="SKIPPED: python3-fsspec is not installed")
from fsspec.implementations.memory import MemoryFileSystem  # noqa: E402

CHUNK = 64 << 10


class CountingMemoryFileSystem(MemoryFileSystem):
    """memory://, counting what is asked of it: (start, end) of every cat_file."""

    protocol = "countingmemory"
    requests = []

    def cat_file(self, path, start=None, end=None, **kwargs):
        self.requests.append((start, end))
        return super().cat_file(path, start=start, end=end, **kwargs)


def counting_target(key, path, contents, target=CountingMemoryFileSystem):
    """`contents` at `path` of a counting memory target, and the pcrypt filesystem over it. The count starts
    empty: fsspec hands out one cached instance per class, so its list outlives each test."""
    mem = target()
    mem.pipe(path, contents)
    mem.requests.clear()
    return mem, fsspec.filesystem("pcrypt", fs=mem, keys=[key])


@pytest.fixture()
def encrypted(pcrypt, key, tmp_path):
    data = pseudo_random(50 * CHUNK + 321, seed=7)
    (tmp_path / "d.bin").write_bytes(data)
    pcrypt.encrypt(tmp_path / "d.bin", tmp_path / "d.bin.pcrypt", keys=key, chunk_size=CHUNK)
    return data, str(tmp_path / "d.bin.pcrypt")


def test_chained_file_url_reads_and_reports_plaintext_size(pcrypt, key, encrypted):
    data, path = encrypted
    url = "pcrypt::file://" + path
    with fsspec.open(url, "rb", pcrypt={"keys": [key]}) as f:
        f.seek(7 * CHUNK - 10)
        assert f.read(3 * CHUNK) == data[7 * CHUNK - 10:10 * CHUNK - 10]
    fs, _, paths = fsspec.get_fs_token_paths(url, storage_options={"pcrypt": {"keys": [key]}})
    assert fs.size(paths[0]) == len(data) and fs.info(paths[0])["size"] == len(data)
    assert fs.cat_file(paths[0], 5, 105) == data[5:105]


def test_credentials_come_from_storage_options_only(pcrypt, encrypted):
    _, path = encrypted
    with pytest.raises(pcrypt.UsageError):
        fsspec.open("pcrypt::file://" + path, "rb").open()


def test_random_4k_read_asks_the_target_for_one_record(pcrypt, key, encrypted):
    data, path = encrypted
    mem, fs = counting_target(key, "/c/d.pcrypt", open(path, "rb").read())
    with fs.open("/c/d.pcrypt", "rb") as f:
        header_requests = list(mem.requests)
        # The header, once, and the final record, which authenticates the size reported.
        assert len(header_requests) == 2 and header_requests[1][1] == len(mem.cat_file("/c/d.pcrypt"))
        mem.requests.clear()
        f.seek(23 * CHUNK + 1000)
        assert f.read(4096) == data[23 * CHUNK + 1000:23 * CHUNK + 5096]
    (start, end), = mem.requests
    assert end - start == CHUNK + 16  # one record, its tag included
    mem.requests.clear()
    with fs.open("/c/d.pcrypt", "rb") as f:  # the header is cached per file
        f.seek(40 * CHUNK)
        f.read(10)
    assert len(mem.requests) == 1 and mem.requests[0][1] - mem.requests[0][0] == CHUNK + 16


def test_write_through_memory_target_then_cli_decrypts(pcrypt, cli, key, tmp_path):
    data = pseudo_random(5 * CHUNK + 9, seed=8)
    with fsspec.open("pcrypt::memory://out/x.pcrypt", "wb", pcrypt={"keys": [key], "chunk_size": CHUNK}) as f:
        f.write(data[:1000])
        f.write(data[1000:])
    raw = fsspec.filesystem("memory").cat_file("/out/x.pcrypt")
    (tmp_path / "x.pcrypt").write_bytes(raw)
    assert cli("decrypt", "-k", key, tmp_path / "x.pcrypt", "-o", "-").stdout == data
    with fsspec.open("pcrypt::memory://out/x.pcrypt", "rb", pcrypt={"keys": [key]}) as f:
        assert f.read() == data


def test_pandas_reads_a_csv_through_fsspec(pcrypt, key, tmp_path):
    pd = pytest.importorskip("pandas", reason="SKIPPED: python3-pandas is not installed")
    frame = pd.DataFrame({"a": range(5000), "b": [f"row {i}" for i in range(5000)]})
    frame.to_csv(tmp_path / "t.csv", index=False)
    pcrypt.encrypt(tmp_path / "t.csv", tmp_path / "t.csv.pcrypt", keys=key, chunk_size=4096)
    with fsspec.open("pcrypt::file://" + str(tmp_path / "t.csv.pcrypt"), pcrypt={"keys": [key]}) as f:
        back = pd.read_csv(f)
    pd.testing.assert_frame_equal(back, frame)


def test_protocol_is_found_through_the_entry_point(pcrypt):
    """Without importing pcrypt first: fsspec reads the package's entry point (the build tree has the same
    .dist-info the install puts beside the package)."""
    code = ("import fsspec, sys; from fsspec.registry import known_implementations; "
            "assert 'pcrypt' not in sys.modules; "
            "assert 'pcrypt' in known_implementations; "
            "print(fsspec.get_filesystem_class('pcrypt').__module__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "pcrypt.filesystem"


def test_threads_read_ranges_of_one_file_at_once(pcrypt, key, encrypted):
    # One filesystem instance, one unlocked header, shared by 8 threads: each read is served from the records
    # its own thread fetched (small reads, and large ones cut into runs for several threads).
    import concurrent.futures
    import random
    data, path = encrypted
    fs = fsspec.filesystem("pcrypt", target_protocol="file", keys=[key], threads=3)

    def reads(seed):
        rng = random.Random(seed)
        for _ in range(30):
            start = rng.randrange(len(data))
            length = rng.choice([1, 100, CHUNK, 5 * CHUNK + 7])
            assert fs.cat_file(path, start, start + length) == data[start:start + length]
        return seed

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        assert sorted(pool.map(reads, range(8))) == list(range(8))
    assert len(fs._headers) == 1


def test_a_cut_file_has_no_size_and_no_bytes(pcrypt, key, encrypted):
    # Cut to its header and one tag (an empty file's length): once size 0 and b"" here.
    data, path = encrypted
    raw = open(path, "rb").read()
    header = len(raw) - 51 * 16 - len(data)
    _, fs = counting_target(key, "/c/cut.pcrypt", raw[:header + 16])
    with pytest.raises(pcrypt.AuthenticationError):
        fs.size("/c/cut.pcrypt")
    with pytest.raises(pcrypt.AuthenticationError):
        fs.cat_file("/c/cut.pcrypt")


def test_a_chained_glob_names_the_targets_files(pcrypt, key, tmp_path):
    # "pcrypt::file:///d/*.pcrypt" (as dd.read_csv takes it): fsspec hands pcrypt's filesystem an empty path
    # and the glob as the target's; the glob is the target's, its matches read as plaintext.
    for i in range(3):
        (tmp_path / f"p{i}.bin").write_bytes(pseudo_random(1000 + i, seed=i))
        pcrypt.encrypt(tmp_path / f"p{i}.bin", tmp_path / f"p{i}.bin.pcrypt", keys=key, chunk_size=4096)
    fs, _, paths = fsspec.get_fs_token_paths(f"pcrypt::file://{tmp_path}/p*.bin.pcrypt",
                                             storage_options={"pcrypt": {"keys": [key]}})
    assert paths == [str(tmp_path / f"p{i}.bin.pcrypt") for i in range(3)]
    assert [fs.cat_file(p) for p in paths] == [pseudo_random(1000 + i, seed=i) for i in range(3)]
    assert [fs.size(p) for p in paths] == [1000, 1001, 1002]


def test_threads_opening_one_file_at_once_unlock_it_once(pcrypt, key, encrypted):
    # 8 threads open the same file of a fresh filesystem together, over a slow target: its header is fetched
    # and unlocked once (2 requests: the header and the final record), not once per thread.
    import concurrent.futures
    import time
    data, path = encrypted

    class SlowCountingMemoryFileSystem(CountingMemoryFileSystem):
        protocol = "slowcountingmemory"

        def cat_file(self, path, start=None, end=None, **kwargs):
            time.sleep(0.05)
            return super().cat_file(path, start=start, end=end, **kwargs)

    mem = SlowCountingMemoryFileSystem()
    mem.pipe("/c/once.pcrypt", open(path, "rb").read())
    mem.requests.clear()
    fs = fsspec.filesystem("pcrypt", fs=mem, keys=[key], skip_instance_cache=True)

    def first_bytes(_):
        with fs.open("/c/once.pcrypt", "rb") as f:
            return f.read(10)

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        assert list(pool.map(first_bytes, range(8))) == [data[:10]] * 8
    # One header read-ahead (from byte 0), one final record, and each thread's first record.
    assert sum(start == 0 for start, _ in mem.requests) == 1 and len(mem.requests) == 2 + 8, mem.requests


def test_a_dask_block_read_takes_both_ends_from_the_cache(pcrypt, key, encrypted):
    # How Dask reads a block of a CSV (fsspec.utils.read_block): a small read at its start (the search for a
    # line's end), one at its end, then the block whole. The whole read takes its first and last records from
    # the two the small reads opened, and asks the target only for those between.
    data, path = encrypted
    mem, fs = counting_target(key, "/c/block.pcrypt", open(path, "rb").read())
    with fs.open("/c/block.pcrypt", "rb") as f:
        mem.requests.clear()
        start, end = 10 * CHUNK + 500, 20 * CHUNK + 700
        f.seek(start)
        assert f.read(100) == data[start:start + 100]
        f.seek(end)
        assert f.read(100) == data[end:end + 100]
        assert len(mem.requests) == 2
        f.seek(start)
        assert f.read(end + 100 - start) == data[start:end + 100]
    assert len(mem.requests) == 3
    begin, stop = mem.requests[2]
    assert stop - begin == 9 * (CHUNK + 16)  # records 11 to 19


def test_one_reader_serves_any_mix_of_small_and_large_reads(pcrypt, key, encrypted):
    import random
    data, path = encrypted
    fs = fsspec.filesystem("pcrypt", target_protocol="file", keys=[key])
    rng = random.Random(46)
    with fs.open(path, "rb") as f:
        for _ in range(400):
            pos = rng.choice([rng.randrange(len(data) + 10), rng.randrange(50) * CHUNK + rng.choice([0, -1, 1])])
            pos = max(0, pos)
            length = rng.choice([1, 100, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 17, 12 * CHUNK])
            f.seek(pos)
            assert f.read(length) == data[pos:pos + length], (pos, length)
