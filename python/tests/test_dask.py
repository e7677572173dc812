"""Dask on a real distributed.LocalCluster (2 worker processes): an encrypted CSV (pcrypt's format, and an age
file written by the real age) read in >= 8 blocks equals the plaintext's frame, many files encrypted across the workers and verified, and a damaged record failing
its task with pcrypt's authentication error, never wrong data."""

import os

import pytest

from conftest import pseudo_random

dd = pytest.importorskip("dask.dataframe", reason="SKIPPED: python3-dask (dataframe) is not installed")
distributed = pytest.importorskip("distributed", reason="SKIPPED: python3-distributed is not installed")
pd = pytest.importorskip("pandas", reason="SKIPPED: python3-pandas is not installed")
import dask  # noqa: E402 (present if dask.dataframe is)

CHUNK = 16 << 10
BLOCK = 128 << 10


@pytest.fixture(scope="module")
def client():
    # Workers forked from a fork server instead of spawned: each spawned worker imported dask, pandas and
    # distributed afresh (2-3 s of CPU each); they are still separate processes that unpickle every task.
    with dask.config.set({"distributed.worker.multiprocessing-method": "forkserver"}):
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           memory_limit="512MiB", dashboard_address=":0")
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


@pytest.fixture(scope="module")
def csv_files(tmp_path_factory):
    import pcrypt
    d = tmp_path_factory.mktemp("csv")
    key = str(d / "k.key")
    pcrypt.keygen(key)
    frame = pd.DataFrame({"id": range(60_000), "value": [i * 0.5 for i in range(60_000)],
                          "name": [f"name-{i % 977}" for i in range(60_000)]})
    plain = str(d / "t.csv")
    frame.to_csv(plain, index=False)
    pcrypt.encrypt(plain, plain + ".pcrypt", keys=key, chunk_size=CHUNK)
    return key, plain, plain + ".pcrypt"


def read(path, key):
    return dd.read_csv("pcrypt::file://" + path, blocksize=BLOCK, storage_options={"pcrypt": {"keys": [key]}})


def test_read_csv_in_blocks_equals_plaintext(client, csv_files):
    key, plain, encrypted = csv_files
    ddf = read(encrypted, key)
    assert ddf.npartitions >= 8
    got = ddf.compute().reset_index(drop=True)
    pd.testing.assert_frame_equal(got, pd.read_csv(plain))
    assert ddf["value"].sum().compute() == pd.read_csv(plain)["value"].sum()
    # Both workers decrypted blocks themselves: each unlocked the file's header in its own process.
    assert sorted(client.run(unlocked_headers).values()) == [1, 1]


def test_read_csv_of_an_age_file_in_blocks_equals_plaintext(client, csv_files, tmp_path):
    import shutil
    import subprocess
    import pcrypt
    plain = csv_files[1]
    recipient = pcrypt.keygen(tmp_path / "age.key", identity=True)
    encrypted = str(tmp_path / "t.csv.age")
    binary = shutil.which("age") or os.environ.get("PCRYPT_BINARY")
    if binary is None:
        pytest.skip("SKIPPED: neither age nor the pcrypt CLI to write an age file")
    command = [binary, "-r", recipient, "-o", encrypted, plain]
    if not binary.endswith("/age"):
        command = [binary, "encrypt", "--format", "age", "-r", recipient, plain, "-o", encrypted]
    subprocess.run(command, check=True)
    ddf = dd.read_csv("pcrypt::file://" + encrypted, blocksize=BLOCK,
                      storage_options={"pcrypt": {"identities": [str(tmp_path / "age.key")]}})
    assert ddf.npartitions >= 8
    pd.testing.assert_frame_equal(ddf.compute().reset_index(drop=True), pd.read_csv(plain))


def unlocked_headers():
    from pcrypt.filesystem import PcryptFileSystem
    return sum(len(fs._headers) for fs in PcryptFileSystem._cache.values())


def test_many_files_encrypted_across_workers_then_verified(client, csv_files, tmp_path):
    import pcrypt
    import pcrypt.dask
    key = csv_files[0]
    sources = []
    for i in range(12):
        p = tmp_path / f"f{i}.bin"
        p.write_bytes(pseudo_random(10_000 * (i + 1), seed=i))
        sources.append(str(p))
    targets = pcrypt.dask.encrypt_files(client, sources, keys=[key], chunk_size=CHUNK)
    assert targets == [s + ".pcrypt" for s in sources]
    sizes = pcrypt.dask.verify_files(client, targets, keys=[key])
    assert sizes == [os.path.getsize(s) for s in sources]
    for s, t in zip(sources, targets):
        with pcrypt.open(t, keys=key) as f:
            assert f.read() == open(s, "rb").read()


def test_damaged_record_fails_its_task_with_the_authentication_error(client, csv_files, tmp_path):
    import pcrypt
    key, plain, encrypted = csv_files
    raw = bytearray(open(encrypted, "rb").read())
    records = (os.path.getsize(plain) + CHUNK - 1) // CHUNK
    header = len(raw) - os.path.getsize(plain) - records * 16
    damaged = str(tmp_path / "damaged.csv.pcrypt")
    raw[header + 20 * (CHUNK + 16) + 100] ^= 0x40  # record 20, inside the third block
    open(damaged, "wb").write(raw)
    with pytest.raises(pcrypt.AuthenticationError) as raised:
        read(damaged, key).compute()
    assert "chunk 20" in str(raised.value)
