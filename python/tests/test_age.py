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
    raw[-100 - (AGE_CHUNK + 16)] ^= 1  # inside chunk 1, of 3
    open(path, "wb").write(raw)
    with pcrypt.open(path, identities=[identity]) as f:
        assert f.read(10) == data[:10]  # chunk 0 is whole
        f.seek(2 * AGE_CHUNK - 10)
        with pytest.raises(pcrypt.AuthenticationError):
            f.read(10)
    raw[-100] ^= 1  # inside the final chunk, which authenticates the size: nothing can be read by ranges
    open(path, "wb").write(raw)
    with pytest.raises(pcrypt.AuthenticationError):
        pcrypt.open(path, identities=[identity])
    armored = age_encrypt(cli, recipient, data, tmp_path / "a.age", armor=True)
    with pytest.raises(pcrypt.UsageError) as raised:
        pcrypt.open(armored, identities=[identity])
    assert "armored" in raised.value.message


def age_decrypt(cli, identity, path):
    """The real age where it is installed (the peer that matters), else the CLI."""
    age = shutil.which("age")
    if age:
        return subprocess.run([age, "-d", "-i", identity, str(path)], check=True, capture_output=True).stdout
    out = str(path) + ".out"
    cli("decrypt", "-f", "-i", identity, "-o", out, path)
    with open(out, "rb") as f:
        return f.read()


def test_encrypt_writes_age_files_that_age_opens(pcrypt, cli, age_identity, tmp_path):
    identity, recipient = age_identity
    data = pseudo_random(3 * AGE_CHUNK + 5, seed=21)
    (tmp_path / "plain").write_bytes(data)
    for armor in (False, True):
        out = tmp_path / f"w{armor}.age"
        pcrypt.encrypt(tmp_path / "plain", out, recipients=[recipient], format="age", armor=armor)
        assert out.read_bytes().startswith(b"-----BEGIN AGE ENCRYPTED FILE-----" if armor else b"age-encryption.org/v1\n")
        assert age_decrypt(cli, identity, out) == data
        assert pcrypt.verify(out, identities=[identity]) == len(data)


def test_open_wb_streams_an_age_file(pcrypt, cli, age_identity, tmp_path):
    identity, recipient = age_identity
    for size in (0, 1, AGE_CHUNK - 1, AGE_CHUNK, AGE_CHUNK + 1, 4 * AGE_CHUNK + 99):
        data = pseudo_random(size, seed=size)
        out = tmp_path / f"s{size}.age"
        with pcrypt.open(out, "wb", recipients=[recipient], format="age") as f:
            # Uneven writes: the writer keeps the last chunk back until it knows it is the last.
            for start in range(0, size, 10000):
                f.write(data[start:start + 10000])
        assert age_decrypt(cli, identity, out) == data, size


def test_fsspec_writes_age_files(pcrypt, cli, age_identity, tmp_path):
    fsspec = pytest.importorskip("fsspec")
    identity, recipient = age_identity
    data = pseudo_random(2 * AGE_CHUNK + 3, seed=22)
    url = "pcrypt::file://" + str(tmp_path / "fs.age")
    with fsspec.open(url, "wb", pcrypt={"recipients": [recipient], "format": "age"}) as f:
        f.write(data)
    assert age_decrypt(cli, identity, tmp_path / "fs.age") == data
    with fsspec.open(url, "rb", pcrypt={"identities": [identity]}) as f:
        assert f.read() == data


def test_age_rules_from_python(pcrypt, age_identity, tmp_path):
    _, recipient = age_identity
    (tmp_path / "plain").write_bytes(b"x")
    with pytest.raises(pcrypt.UsageError, match="scrypt stanza must be the only stanza"):
        pcrypt.encrypt(tmp_path / "plain", tmp_path / "o.age", recipients=[recipient], passphrase="pw",
                       format="age")
    with pytest.raises(pcrypt.UsageError, match="pcrypt-format options"):
        pcrypt.encrypt(tmp_path / "plain", tmp_path / "o.age", recipients=[recipient], chunk_size=1 << 16,
                       format="age")
    with pytest.raises(pcrypt.UsageError, match="armor is for age files"):
        pcrypt.encrypt(tmp_path / "plain", tmp_path / "o.pcrypt", recipients=[recipient], armor=True)
    with pytest.raises(pcrypt.UsageError, match="unknown format"):
        pcrypt.encrypt(tmp_path / "plain", tmp_path / "o.x", recipients=[recipient], format="gpg")
    assert not (tmp_path / "o.age").exists()


def test_no_cut_of_an_age_file_opens_as_a_shorter_one(pcrypt, cli, age_identity, tmp_path):
    identity, recipient = age_identity
    data = pseudo_random(2 * AGE_CHUNK + 100, seed=11)
    path = age_encrypt(cli, recipient, data, tmp_path / "whole.age")
    raw = open(path, "rb").read()
    header = len(raw) - 3 * 16 - len(data)  # the payload nonce included
    for length in (header + 16, header + 2 * (AGE_CHUNK + 16), header + AGE_CHUNK + 500):
        cut = tmp_path / f"cut{length}.age"
        cut.write_bytes(raw[:length])
        with pytest.raises(pcrypt.AuthenticationError):
            with pcrypt.open(cut, identities=[identity]) as f:
                f.read()
