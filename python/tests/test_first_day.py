"""A new user's first day (issue 27, Python): errors name their file and speak Python, keygen returns the
public key and prints nothing, pcrypt.__version__."""

import pickle
import re

import pytest

from conftest import pseudo_random

CHUNK = 4096

# A CLI flag in a message or hint: "-k", "-i", "--format" (not "-----BEGIN", not "X25519-only").
CLI_FLAG = re.compile(r"(?<![\w-])(-[a-zA-Z]|--[a-z][a-z-]+)(?![\w-])")


def damaged_copy(pcrypt, key, tmp_path, name):
    data = pseudo_random(6 * CHUNK, seed=5)
    (tmp_path / "plain").write_bytes(data)
    path = tmp_path / name
    pcrypt.encrypt(tmp_path / "plain", path, keys=key, chunk_size=CHUNK, force=True)
    raw = bytearray(path.read_bytes())
    raw[-CHUNK] ^= 1
    path.write_bytes(raw)
    return str(path)


def test_errors_name_the_file_they_concern(pcrypt, key, tmp_path):
    good = []
    for i in range(5):
        (tmp_path / f"p{i}").write_bytes(b"x" * i)
        pcrypt.encrypt(tmp_path / f"p{i}", tmp_path / f"p{i}.pcrypt", keys=key)
        good.append(str(tmp_path / f"p{i}.pcrypt"))
    bad = damaged_copy(pcrypt, key, tmp_path, "bad.pcrypt")
    failures = []
    for path in good[:2] + [bad] + good[2:]:
        try:
            pcrypt.verify(path, keys=key)
        except pcrypt.AuthenticationError as e:
            failures.append(e)
    assert [e.path for e in failures] == [bad]
    assert bad in failures[0].message and bad in str(failures[0])
    # Through pickling (a Dask worker's error reaching the client).
    assert pickle.loads(pickle.dumps(failures[0])).path == bad

    with pytest.raises(pcrypt.AuthenticationError) as raised:
        with pcrypt.open(bad, keys=key) as f:
            f.read()
    assert raised.value.path == bad and bad in raised.value.message
    other = tmp_path / "other.key"
    pcrypt.keygen(other)
    with pytest.raises(pcrypt.HeaderError) as raised:
        pcrypt.open(good[0], keys=other)
    assert raised.value.path == good[0] and good[0] in raised.value.message
    with pytest.raises(pcrypt.HeaderError) as raised:
        pcrypt.decrypt(good[1], tmp_path / "out", keys=other)
    assert raised.value.path == good[1]
    with pytest.raises(pcrypt.PcryptError) as raised:
        pcrypt.info(tmp_path / "missing.pcrypt")
    assert raised.value.path == str(tmp_path / "missing.pcrypt")


def test_fsspec_errors_name_the_target_file(pcrypt, key, tmp_path):
    fsspec = pytest.importorskip("fsspec", reason="SKIPPED: fsspec is not installed")
    bad = damaged_copy(pcrypt, key, tmp_path, "bad.pcrypt")
    with pytest.raises(pcrypt.AuthenticationError) as raised:
        with fsspec.open("pcrypt::file://" + bad, pcrypt={"keys": [key]}) as f:
            f.read()
    assert raised.value.path is not None and raised.value.path.endswith("bad.pcrypt")
    assert "bad.pcrypt" in raised.value.message


def test_messages_and_hints_use_python_argument_names(pcrypt, key, tmp_path):
    (tmp_path / "a").write_bytes(b"a")
    recipient = pcrypt.keygen(tmp_path / "id.txt", identity=True)
    cases = [
        lambda: pcrypt.encrypt(tmp_path / "a", tmp_path / "a.age", keys=key, format="age"),
        lambda: pcrypt.encrypt(tmp_path / "a", tmp_path / "a.age", recipients=[recipient], passphrase="pw",
                               format="age"),
        lambda: pcrypt.encrypt(tmp_path / "a", tmp_path / "a.pcrypt", recipients=["age1notarecipient"]),
    ]
    pcrypt.encrypt(tmp_path / "a", tmp_path / "exists.pcrypt", keys=key)
    cases.append(lambda: pcrypt.encrypt(tmp_path / "a", tmp_path / "exists.pcrypt", keys=key))
    cases.append(lambda: pcrypt.open(tmp_path / "exists.pcrypt", passphrase="pw"))
    seen = []
    for call in cases:
        with pytest.raises(pcrypt.PcryptError) as raised:
            call()
        e = raised.value
        assert not CLI_FLAG.search(e.message + " " + e.hint), (e.message, e.hint)
        seen.append(e.message + " " + e.hint)
    assert 'keys= cannot be used with format="age"' in seen[0]
    assert "passphrase=" in seen[1]
    assert "force=True" in seen[3]
    assert "keys=" in seen[4]


def test_keygen_returns_the_public_key_and_prints_nothing(pcrypt, cli, tmp_path, capfd):
    recipient = pcrypt.keygen(tmp_path / "id.txt", identity=True)
    pq = pcrypt.keygen(tmp_path / "pq.txt", post_quantum=True)
    assert pcrypt.keygen(tmp_path / "k.key") is None  # a key file is symmetric: no public key
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    assert recipient.startswith("age1") and pq.startswith("age1pq1")
    assert cli("recipient", tmp_path / "id.txt").stdout.decode().strip() == recipient
    assert cli("recipient", tmp_path / "pq.txt").stdout.decode().strip() == pq
    assert (tmp_path / "id.txt").stat().st_mode & 0o777 == 0o600
    with pytest.raises(pcrypt.PcryptError) as raised:
        pcrypt.keygen(tmp_path / "id.txt", identity=True)
    assert "exists" in raised.value.message and "force=True" in raised.value.hint
    assert pcrypt.keygen(tmp_path / "id.txt", identity=True, force=True) != recipient


def test_version(pcrypt, cli):
    assert pcrypt.__version__ == cli("--version").stdout.decode().split()[1]
    assert "__version__" in pcrypt.__all__
