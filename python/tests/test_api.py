"""The module's own API: whole-file operations, pcrypt.open for reading by ranges and for streaming
writes, errors, and interoperability with the CLI in both directions."""

import io
import os

import pytest

from conftest import pseudo_random

CHUNK = 4096  # small records, so that small files have many of them


def encrypt_with_cli(cli, key, data, path, chunk=CHUNK):
    src = str(path) + ".plain"
    with open(src, "wb") as f:
        f.write(data)
    cli("encrypt", "-q", "-k", key, "--chunk-size", chunk, src, "-o", path)
    return str(path)


def test_encrypt_decrypt_verify_info_round_trip(pcrypt, key, tmp_path):
    data = pseudo_random(100_000)
    (tmp_path / "a").write_bytes(data)
    pcrypt.encrypt(tmp_path / "a", tmp_path / "a.pcrypt", keys=key, chunk_size=CHUNK)
    assert os.stat(tmp_path / "a.pcrypt").st_mode & 0o777 == 0o600
    assert pcrypt.verify(tmp_path / "a.pcrypt", keys=[key]) == len(data)
    pcrypt.decrypt(tmp_path / "a.pcrypt", tmp_path / "b", keys=[key])
    assert (tmp_path / "b").read_bytes() == data
    assert "chunk size: 4096" in pcrypt.info(tmp_path / "a.pcrypt").replace("4.00 KiB", "4096")


def test_python_reads_cli_files_and_cli_reads_python_files(pcrypt, cli, key, tmp_path):
    data = pseudo_random(3 * CHUNK + 123, seed=2)
    path = encrypt_with_cli(cli, key, data, tmp_path / "cli.pcrypt")
    with pcrypt.open(path, keys=[key]) as f:
        assert f.read() == data
    with pcrypt.open(tmp_path / "py.pcrypt", "wb", keys=[key], chunk_size=CHUNK) as f:
        f.write(data)
    out = cli("decrypt", "-k", key, tmp_path / "py.pcrypt", "-o", "-").stdout
    assert out == data


@pytest.mark.parametrize("size", [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 16 * CHUNK, 16 * CHUNK + 1, 40 * CHUNK])
def test_writer_streams_every_size_in_pieces(pcrypt, cli, key, tmp_path, size):
    data = pseudo_random(size, seed=size)
    with pcrypt.open(tmp_path / "w.pcrypt", "wb", keys=[key], chunk_size=CHUNK) as f:
        for i in range(0, size, 1000):
            f.write(data[i:i + 1000])
    assert cli("decrypt", "-k", key, tmp_path / "w.pcrypt", "-o", "-").stdout == data


def test_writer_left_by_an_exception_leaves_no_file(pcrypt, key, tmp_path):
    with pytest.raises(RuntimeError):
        with pcrypt.open(tmp_path / "gone.pcrypt", "wb", keys=[key]) as f:
            f.write(b"x" * 100)
            raise RuntimeError("interrupted")
    assert not (tmp_path / "gone.pcrypt").exists()


def test_reader_seeks_and_reads_any_range(pcrypt, cli, key, tmp_path):
    data = pseudo_random(20 * CHUNK + 7, seed=3)
    path = encrypt_with_cli(cli, key, data, tmp_path / "r.pcrypt")
    with pcrypt.open(path, keys=[key]) as f:
        assert isinstance(f, io.RawIOBase) and f.seekable() and f.size == len(data)
        for offset, length in [(0, 1), (CHUNK - 1, 2), (5 * CHUNK + 3, 3 * CHUNK), (len(data) - 5, 100),
                               (len(data), 10), (len(data) + 10, 10), (17, 12 * CHUNK)]:
            f.seek(offset)
            assert f.read(length) == data[offset:offset + length]
        f.seek(-10, io.SEEK_END)
        assert f.read() == data[-10:]
        buf = bytearray(8 * CHUNK)
        f.seek(100)
        assert f.readinto(buf) == len(buf) and bytes(buf) == data[100:100 + len(buf)]
    with pcrypt.open(path, keys=[key]) as f:
        assert io.BufferedReader(f).read() == data


def test_wrong_key_is_the_clis_header_error(pcrypt, cli, key, tmp_path):
    data = b"secret"
    path = encrypt_with_cli(cli, key, data, tmp_path / "k.pcrypt")
    other = tmp_path / "other.key"
    pcrypt.keygen(other)
    with pytest.raises(pcrypt.HeaderError) as raised:
        pcrypt.open(path, keys=[other])
    assert raised.value.exit_code == 3
    assert raised.value.code == 303 and raised.value.code_name == "PCRYPT_E_WRONG_CREDENTIAL"
    cli_run = cli("decrypt", "-k", other, path, "-o", tmp_path / "x", check=False)
    assert cli_run.returncode == 3
    assert raised.value.message.split(" (")[0] in cli_run.stderr.decode()


def test_damaged_record_raises_authentication_error_and_no_plaintext(pcrypt, cli, key, tmp_path):
    data = pseudo_random(10 * CHUNK, seed=4)
    path = encrypt_with_cli(cli, key, data, tmp_path / "d.pcrypt")
    raw = bytearray(open(path, "rb").read())
    header = len(raw) - 10 * (CHUNK + 16)
    raw[header + 6 * (CHUNK + 16) + 5] ^= 1  # record 6
    open(path, "wb").write(raw)
    with pcrypt.open(path, keys=[key]) as f:
        assert f.read(5 * CHUNK) == data[:5 * CHUNK]  # records 0-4 are intact and read alone
        f.seek(6 * CHUNK + 100)
        with pytest.raises(pcrypt.AuthenticationError) as raised:
            f.read(10)
    assert raised.value.exit_code == 4 and "chunk 6" in raised.value.message
    assert raised.value.code == 500 and raised.value.code_name == "PCRYPT_E_DAMAGED_RECORD"
    with pcrypt.open(path, keys=[key]) as f:  # a large read, cut into runs for several threads
        with pytest.raises(pcrypt.AuthenticationError, match="chunk 6"):
            f.read()
    with pytest.raises(pcrypt.AuthenticationError):
        pcrypt.verify(path, keys=key)
    with pytest.raises(pcrypt.AuthenticationError):
        pcrypt.decrypt(path, tmp_path / "out", keys=key)
    assert not (tmp_path / "out").exists()


def test_identities_recipients_and_passphrases(pcrypt, cli, tmp_path):
    recipient = pcrypt.keygen(tmp_path / "id.txt", identity=True)
    assert recipient.startswith("age1") and pcrypt.recipients(tmp_path / "id.txt") == [recipient]
    (tmp_path / "p").write_bytes(b"hello")
    pcrypt.encrypt(tmp_path / "p", tmp_path / "p.pcrypt", recipients=[recipient], passphrase="pw",
                   kdf_memory=1 << 20, kdf_ops=1)
    with pcrypt.open(tmp_path / "p.pcrypt", identities=[tmp_path / "id.txt"]) as f:
        assert f.read() == b"hello"
    with pcrypt.open(tmp_path / "p.pcrypt", passphrase="pw") as f:
        assert f.read() == b"hello"
    env = dict(os.environ, PCRYPT_PASSPHRASE="pw")
    assert cli("decrypt", "-p", tmp_path / "p.pcrypt", "-o", "-", env=env).stdout == b"hello"
    with pytest.raises(pcrypt.HeaderError):
        pcrypt.open(tmp_path / "p.pcrypt", passphrase="wrong")


def test_usage_errors(pcrypt, key, tmp_path):
    (tmp_path / "a").write_bytes(b"a")
    with pytest.raises(pcrypt.UsageError) as raised:
        pcrypt.encrypt(tmp_path / "a", tmp_path / "a.pcrypt")
    assert raised.value.exit_code == 2 and "no key given" in raised.value.message
    with pytest.raises(pcrypt.UsageError):
        pcrypt.encrypt(tmp_path / "a", tmp_path / "a.pcrypt", recipients=["age1notarecipient"])
    with pytest.raises(pcrypt.UsageError):
        pcrypt.encrypt(tmp_path / "a", tmp_path / "a.pcrypt", keys=key, chunk_size=100)
    pcrypt.encrypt(tmp_path / "a", tmp_path / "a.pcrypt", keys=key)
    with pytest.raises(pcrypt.PcryptError) as exists:  # no overwrite without force
        pcrypt.encrypt(tmp_path / "a", tmp_path / "a.pcrypt", keys=key)
    assert exists.value.exit_code == 1 and "exists" in exists.value.message
    pcrypt.encrypt(tmp_path / "a", tmp_path / "a.pcrypt", keys=key, force=True)
    with pytest.raises(pcrypt.PcryptError):
        pcrypt.open(tmp_path / "missing.pcrypt", keys=key)


def test_errors_survive_pickling(pcrypt):
    import pickle
    e = pickle.loads(pickle.dumps(pcrypt.AuthenticationError("payload authentication failed", "h", None, 500,
                                                             "PCRYPT_E_DAMAGED_RECORD")))
    assert isinstance(e, pcrypt.AuthenticationError) and e.exit_code == 4 and e.hint == "h"
    assert e.code == 500 and e.code_name == "PCRYPT_E_DAMAGED_RECORD"


def test_open_reads_a_header_larger_than_the_first_probe(pcrypt, cli, tmp_path):
    # 250 X25519 recipients: a header of about 20 KiB, more than the first 16 KiB read of the file. Only the
    # last is opened, so only it is written as a file (pcrypt.keygen syncs each, 12 ms); the others are the
    # public halves of identities made in memory by the same generator.
    recipients = [pcrypt._pcrypt.generate_identity(False)[1] for _ in range(249)]
    recipients.append(pcrypt.keygen(tmp_path / "id249.txt", identity=True))
    data = pseudo_random(3 * CHUNK + 5, seed=11)
    (tmp_path / "team").write_bytes(data)
    pcrypt.encrypt(tmp_path / "team", tmp_path / "team.pcrypt", recipients=recipients, chunk_size=CHUNK)
    assert os.path.getsize(tmp_path / "team.pcrypt") - len(data) > pcrypt._pcrypt.HEADER_PROBE_BYTES
    with pcrypt.open(tmp_path / "team.pcrypt", identities=[tmp_path / "id249.txt"]) as f:
        f.seek(CHUNK + 1)
        assert f.read(10) == data[CHUNK + 1:CHUNK + 11]
    # The same for an age file with post-quantum recipients (about 1.6 KiB of header each).
    # (Eleven made in memory, the opening one by the CLI: 24 pcrypt processes were most of this test.)
    ids = [pcrypt._pcrypt.generate_identity(True)[1] for _ in range(11)]
    cli("keygen", "--pq", "-o", tmp_path / "pq11.key")
    ids.append(cli("recipient", tmp_path / "pq11.key").stdout.decode().strip())
    args = [a for r in ids for a in ("-r", r)]
    cli("encrypt", "--format", "age", *args, tmp_path / "team", "-o", tmp_path / "team.age")
    assert os.path.getsize(tmp_path / "team.age") - len(data) > pcrypt._pcrypt.HEADER_PROBE_BYTES
    with pcrypt.open(tmp_path / "team.age", identities=[tmp_path / "pq11.key"]) as f:
        assert f.read() == data


def test_no_cut_of_a_file_opens_as_a_shorter_one(pcrypt, cli, key, tmp_path):
    # Cut to its header and one tag (an empty file's length), at a record boundary, inside a record: each
    # once opened as a valid shorter file (the first as an empty one); the size is authenticated first now.
    data = pseudo_random(3 * CHUNK + 100, seed=9)
    path = encrypt_with_cli(cli, key, data, tmp_path / "whole.pcrypt")
    raw = open(path, "rb").read()
    header = len(raw) - 4 * 16 - len(data)
    for length in (header + 16, header + CHUNK + 16, header + 2 * (CHUNK + 16), header + CHUNK + 500):
        cut = tmp_path / f"cut{length}.pcrypt"
        cut.write_bytes(raw[:length])
        with pytest.raises(pcrypt.AuthenticationError):
            with pcrypt.open(cut, keys=[key]) as f:
                f.read()
    with pcrypt.open(path, keys=[key]) as f:
        assert f.read() == data
