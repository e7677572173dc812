"""C2SP chunked encryption (format="cobblestone-128" / "cobblestone-256") through the Python package: every
Wycheproof vector through decrypt, verify and range reads; both directions with tests/cobblestone_ref.py (an
independent implementation on python3-cryptography, written from the spec) at sizes around the 16 KiB
chunks; the CLI's files and keys; the streaming writer; fsspec's ranges over remote windows; bad arguments."""

import hashlib
import json
import os
import stat
import sys
import zlib

import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
VECTORS = os.path.join(ROOT, "tests", "vectors", "cobblestone")
CHUNK = 16 << 10


def wycheproof_cases():
    cases = []
    for bits in (128, 256):
        name = f"wycheproof_c2sp_chunked_encryption_aes_{bits}_gcm_test.json"
        with open(os.path.join(VECTORS, name)) as f:
            doc = json.load(f)
        for group in doc["testGroups"]:
            cases += [(bits, t) for t in group["tests"]]
    return cases


CASES = wycheproof_cases()


@pytest.fixture(scope="module")
def reference():
    """tests/cobblestone_ref.py as a module (it needs Debian's python3-cryptography)."""
    pytest.importorskip("cryptography", reason="SKIPPED: python3-cryptography is not installed")
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    try:
        import cobblestone_ref
    finally:
        sys.path.pop(0)
    return cobblestone_ref


def test_all_seventy_vectors_are_here():
    assert len(CASES) == 70
    assert {t["result"] for _, t in CASES} == {"valid", "invalid"}


@pytest.mark.parametrize("bits,case", CASES, ids=[f"aes{b}-tc{t['tcId']}" for b, t in CASES])
def test_wycheproof_vector(pcrypt, tmp_path, bits, case):
    src = tmp_path / "file"
    src.write_bytes(zlib.decompress(bytes.fromhex(case["ct"])))
    given = {"raw_key": bytes.fromhex(case["key"]), "context": bytes.fromhex(case["ctx"]),
             "format": f"cobblestone-{bits}"}
    out = tmp_path / "plain"
    if case["result"] == "valid":
        assert pcrypt.decrypt(src, out, **given) == case["msgLength"]
        plain = out.read_bytes()
        assert hashlib.sha512(plain).hexdigest() == case["msgSha512"]
        assert pcrypt.verify(src, **given) == len(plain)
        with pcrypt.open(src, **given) as f:
            assert f.size == len(plain)
            assert f.read() == plain
            middle = len(plain) // 3
            f.seek(middle)
            assert f.read(CHUNK + 100) == plain[middle:middle + CHUNK + 100]
        return
    with pytest.raises(pcrypt.PcryptError) as failed:
        pcrypt.decrypt(src, out, **given)
    # A key of the wrong length is a bad argument (exit 2); anything else, the file's fault (3 or 4).
    wrong_length = len(given["raw_key"]) != bits // 8
    assert failed.value.exit_code == 2 if wrong_length else failed.value.exit_code in (3, 4), failed.value
    assert not out.exists()
    with pytest.raises(pcrypt.PcryptError):
        pcrypt.verify(src, **given)
    # By ranges: either the header is refused or reading it all fails; never the invalid file's bytes.
    with pytest.raises(pcrypt.PcryptError):
        with pcrypt.open(src, **given) as f:
            f.read()


SIZES = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, 3 * CHUNK + 5, (1 << 20) + 7]


@pytest.mark.parametrize("bits", [128, 256])
def test_both_ways_with_the_reference(pcrypt, reference, tmp_path, bits):
    key = os.urandom(bits // 8)
    context = b"app \x00 context \xff"
    for size in SIZES:
        plain = os.urandom(size)
        theirs = tmp_path / f"theirs.{size}"
        theirs.write_bytes(reference.encrypt(bits, key, context, plain))
        assert theirs.stat().st_size == 56 + size + 16 * (size // CHUNK + 1)
        back = tmp_path / f"back.{size}"
        assert pcrypt.decrypt(theirs, back, raw_key=key, context=context, format=f"cobblestone-{bits}") == size
        assert back.read_bytes() == plain
        src, ours = tmp_path / f"plain.{size}", tmp_path / f"ours.{size}"
        src.write_bytes(plain)
        pcrypt.encrypt(src, ours, raw_key=key, context=context, format=f"cobblestone-{bits}", threads=2)
        assert reference.decrypt(bits, key, context, ours.read_bytes()) == plain


def test_key_files_and_text_context_with_the_cli(pcrypt, cli, tmp_path):
    key = tmp_path / "raw.key"
    assert pcrypt.keygen(key, raw=32) is None
    assert key.stat().st_size == 32
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    plain = os.urandom(3 * CHUNK + 11)
    (tmp_path / "plain").write_bytes(plain)
    pcrypt.encrypt(tmp_path / "plain", tmp_path / "py.cob", raw_key=key, context="réseau",
                   format="cobblestone-256")
    cli("decrypt", "--format", "cobblestone-256", "--raw-key", key, "--context", "réseau", "-o",
        tmp_path / "by-cli", tmp_path / "py.cob")
    assert (tmp_path / "by-cli").read_bytes() == plain
    cli("encrypt", "--format", "cobblestone-256", "--raw-key", key, "--context", "réseau", "-o",
        tmp_path / "cli.cob", tmp_path / "plain")
    # The key as a path (str or PathLike) or as its bytes; the context as text or its UTF-8 bytes.
    for raw_key, context in ((str(key), "réseau"), (key.read_bytes(), "réseau".encode())):
        assert pcrypt.verify(tmp_path / "cli.cob", raw_key=raw_key, context=context,
                             format="cobblestone-256") == len(plain)
    assert "cobblestone-256" in pcrypt.info(tmp_path / "cli.cob", format="cobblestone-256")
    with pytest.raises(pcrypt.HeaderError) as wrong:
        pcrypt.verify(tmp_path / "cli.cob", raw_key=key, context="reseau", format="cobblestone-256")
    assert wrong.value.code_name == "PCRYPT_E_COMMITMENT_MISMATCH"
    assert "--" not in str(wrong.value)  # worded for Python (raw_key=, context=), not with the CLI's flags


def test_streaming_writer(pcrypt, reference, tmp_path):
    key = os.urandom(16)
    plain = os.urandom(5 * CHUNK + 3)
    path = tmp_path / "stream.cob"
    with pcrypt.open(path, "wb", raw_key=key, context=b"ctx", format="cobblestone-128") as f:
        for at in range(0, len(plain), 10000):
            f.write(plain[at:at + 10000])
    assert reference.decrypt(128, key, b"ctx", path.read_bytes()) == plain


@pytest.mark.parametrize("size", [4 * CHUNK, 4 * CHUNK + 77])
def test_fsspec_ranges(pcrypt, tmp_path, size):
    fsspec = pytest.importorskip("fsspec", reason="SKIPPED: fsspec is not installed")
    key = os.urandom(32)
    plain = os.urandom(size)
    options = {"pcrypt": {"format": "cobblestone-256", "raw_key": key, "context": b"dask"}}
    url = f"pcrypt::file://{tmp_path}/data.cob"
    with fsspec.open(url, "wb", **options) as f:
        f.write(plain)
    assert pcrypt.verify(tmp_path / "data.cob", raw_key=key, context=b"dask", format="cobblestone-256") == size
    fs = fsspec.filesystem("pcrypt", target_protocol="file", **options["pcrypt"])
    assert fs.size(str(tmp_path / "data.cob")) == size
    for start, length in ((0, 10), (CHUNK - 3, 6), (CHUNK, CHUNK), (size - 5, 5), (size - CHUNK - 1, CHUNK + 1)):
        with fsspec.open(url, "rb", **options) as f:
            f.seek(start)
            assert f.read(length) == plain[start:start + length], (start, length)
    with pytest.raises(pcrypt.HeaderError):
        with fsspec.open(url, "rb", pcrypt={**options["pcrypt"], "context": b"other"}) as f:
            f.read(1)


def test_bad_arguments(pcrypt, key, tmp_path):
    (tmp_path / "plain").write_bytes(b"x" * 100)
    src, dst = tmp_path / "plain", tmp_path / "out"
    raw = os.urandom(16)

    def refused(call, code_name, cls=pcrypt.UsageError):
        with pytest.raises(cls) as e:
            call()
        assert e.value.code_name == code_name, e.value
        assert not dst.exists()
        return e.value

    refused(lambda: pcrypt.encrypt(src, dst, format="cobblestone-128"), "PCRYPT_E_NO_CREDENTIAL")
    mixed = refused(lambda: pcrypt.encrypt(src, dst, raw_key=raw, keys=[key], format="cobblestone-128"),
                    "PCRYPT_E_CREDENTIAL_MIX")
    assert "raw_key=" in mixed.hint
    refused(lambda: pcrypt.encrypt(src, dst, raw_key=raw, format="pcrypt"), "PCRYPT_E_BAD_ARGUMENT")
    refused(lambda: pcrypt.encrypt(src, dst, keys=[key], context=b"c"), "PCRYPT_E_BAD_ARGUMENT")
    refused(lambda: pcrypt.encrypt(src, dst, raw_key=os.urandom(15), format="cobblestone-128"),
            "PCRYPT_E_BAD_ARGUMENT")
    refused(lambda: pcrypt.encrypt(src, dst, raw_key=raw, format="cobblestone-128", chunk_size=1 << 16), "")
    refused(lambda: pcrypt.encrypt(src, dst, raw_key=raw, format="cobblestone-512"), "PCRYPT_E_BAD_ARGUMENT")
    with pytest.raises(pcrypt.UsageError):
        pcrypt.encrypt(src, dst, raw_key=raw, format="cobblestone-128", context=12)
    # Decrypting, the format is named: a Cobblestone file has no magic to tell it by.
    pcrypt.encrypt(src, tmp_path / "good.cob", raw_key=raw, format="cobblestone-128")
    refused(lambda: pcrypt.decrypt(tmp_path / "good.cob", dst, raw_key=raw), "PCRYPT_E_BAD_ARGUMENT")
    # A key of the other format's length is refused before any chunk is read.
    refused(lambda: pcrypt.decrypt(tmp_path / "good.cob", dst, raw_key=os.urandom(32), format="cobblestone-128"),
            "PCRYPT_E_BAD_ARGUMENT")
    # Cut to the shortest file (56-byte header and an empty final chunk's tag) less one byte: damaged.
    (tmp_path / "cut.cob").write_bytes((tmp_path / "good.cob").read_bytes()[:71])
    refused(lambda: pcrypt.decrypt(tmp_path / "cut.cob", dst, raw_key=raw, format="cobblestone-128"),
            "PCRYPT_E_TRUNCATED", pcrypt.PcryptError)
    with pytest.raises(pcrypt.UsageError):
        pcrypt.keygen(tmp_path / "k", raw=24)
    with pytest.raises(pcrypt.UsageError):
        pcrypt.keygen(tmp_path / "k", raw=16, identity=True)
    assert not (tmp_path / "k").exists()
