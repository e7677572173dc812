"""age files from Python: pcrypt.decrypt, verify, info and pcrypt.open read files written by the real age
(and by the CLI's --format age), binary ones by ranges, only the 64 KiB chunks a read needs."""

import io
import shutil
import subprocess

import pytest

from conftest import pseudo_random

AGE_CHUNK = 64 * 1024


@pytest.fixture()
def age_identity(pcrypt, tmp_path):
    recipient = pcrypt.keygen(tmp_path / "age.key", identity=True)
    return str(tmp_path / "age.key"), recipient


def age_encrypt(cli, recipient, data, path, armor=False):
    """With the real age where it is installed, else with the CLI's --format age."""
    src = str(path) + ".plain"
    with open(src, "wb") as f:
        f.write(data)
    age = shutil.which("age")
    if age:
        subprocess.run([age, "-r", recipient, *(["-a"] if armor else []), "-o", str(path), src], check=True)
    else:
        cli("encrypt", "--format", "age", "-r", recipient, *(["-a"] if armor else []), src, "-o", path)
    return str(path)


def test_decrypt_verify_info_of_age_files(pcrypt, cli, age_identity, tmp_path):
    identity, recipient = age_identity
    data = pseudo_random(3 * AGE_CHUNK + 17, seed=7)
    for armor in (False, True):
        path = age_encrypt(cli, recipient, data, tmp_path / f"a{armor}.age", armor=armor)
        assert pcrypt.verify(path, identities=[identity]) == len(data)
        pcrypt.decrypt(path, tmp_path / f"out{armor}", identities=[identity])
        assert (tmp_path / f"out{armor}").read_bytes() == data
        assert "format: age v1" in pcrypt.info(path)


def test_open_reads_ranges_of_a_binary_age_file(pcrypt, cli, age_identity, tmp_path):
    identity, recipient = age_identity
    data = pseudo_random(5 * AGE_CHUNK + 123, seed=8)
    path = age_encrypt(cli, recipient, data, tmp_path / "r.age")
    with pcrypt.open(path, identities=[identity]) as f:
        assert f.size == len(data)
        for offset, length in [(0, 1), (AGE_CHUNK - 1, 2), (2 * AGE_CHUNK + 5, 2 * AGE_CHUNK), (len(data) - 3, 10),
                               (len(data), 5)]:
            f.seek(offset)
            assert f.read(length) == data[offset:offset + length]
        f.seek(0)
        assert io.BufferedReader(f).read() == data


def test_damaged_age_chunk_raises_and_armor_cannot_be_read_by_ranges(pcrypt, cli, age_identity, tmp_path):
    identity, recipient = age_identity
    data = pseudo_random(3 * AGE_CHUNK, seed=9)
    path = age_encrypt(cli, recipient, data, tmp_path / "d.age")
    raw = bytearray(open(path, "rb").read())
    raw[-100] ^= 1  # inside the final chunk
    open(path, "wb").write(raw)
    with pcrypt.open(path, identities=[identity]) as f:
        assert f.read(10) == data[:10]  # chunk 0 is whole
        f.seek(len(data) - 10)
        with pytest.raises(pcrypt.AuthenticationError):
            f.read(10)
    armored = age_encrypt(cli, recipient, data, tmp_path / "a.age", armor=True)
    with pytest.raises(pcrypt.UsageError) as raised:
        pcrypt.open(armored, identities=[identity])
    assert "armored" in raised.value.message
