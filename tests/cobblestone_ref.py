#!/usr/bin/env python3
"""An independent implementation of C2SP chunked encryption (https://c2sp.org/chunked-encryption), written
from the spec alone on Debian's python3-cryptography, for interop tests of pcrypt's cobblestone formats
(tests/cli/test_cobblestone.sh). Not for real use: it holds whole messages in memory.

  cobblestone_ref.py encrypt 128|256 KEYFILE CONTEXTFILE IN OUT
  cobblestone_ref.py decrypt 128|256 KEYFILE CONTEXTFILE IN OUT     (exit 1 on any failure)
  cobblestone_ref.py vectors JSONFILE DIR [LIST]   (writes each test's key, context and decompressed
                                                    ciphertext, and one line per test to LIST, else to
                                                    standard output: id result length sha512 flags)
  cobblestone_ref.py batch < COMMANDS    (one command above per line, in one process: python3 and its
                                          cryptography take a good part of a second to start; exit 1 at
                                          the first that fails, naming its line)
"""
import json
import os
import sys
import zlib

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDFExpand

CHUNK = 16 * 1024
TAG = 16
SALT = 24
COMMITMENT = 32
NONCE = 12
MAX_CHUNKS = 1 << 38


def derive(bits, input_key, salt, context):
    """key || base nonce || commitment = HKDF-Expand(SHA-512, prk = input key, info)."""
    key_len = bits // 8
    if len(input_key) != key_len:
        raise ValueError("input key must be %d bytes" % key_len)
    aead = ("AEAD_AES_%d_GCM" % bits).encode()
    info = b"c2sp.org/chunked-encryption@v1+" + aead + b"\x00" + salt + context
    okm = HKDFExpand(hashes.SHA512(), key_len + NONCE + COMMITMENT, info).derive(input_key)
    return okm[:key_len], okm[key_len:key_len + NONCE], okm[key_len + NONCE:]


def chunk_nonce(base, index):
    if index >= MAX_CHUNKS:
        raise ValueError("too many chunks")
    counter = index.to_bytes(NONCE, "big")
    return bytes(a ^ b for a, b in zip(base, counter))


def encrypt(bits, input_key, context, message, salt=None):
    salt = os.urandom(SALT) if salt is None else salt
    key, base, commitment = derive(bits, input_key, salt, context)
    aes = AESGCM(key)
    out = [salt, commitment]
    # Full chunks, then the final one, always shorter than CHUNK (empty after a whole number of chunks).
    full = len(message) // CHUNK
    for i in range(full):
        out.append(aes.encrypt(chunk_nonce(base, i), message[i * CHUNK:(i + 1) * CHUNK], b""))
    out.append(aes.encrypt(chunk_nonce(base, full), message[full * CHUNK:], b""))
    return b"".join(out)


def decrypt(bits, input_key, context, ciphertext):
    if len(ciphertext) < SALT + COMMITMENT:
        raise ValueError("shorter than the header")
    salt, commitment = ciphertext[:SALT], ciphertext[SALT:SALT + COMMITMENT]
    key, base, expected = derive(bits, input_key, salt, context)
    if expected != commitment:  # the commitment before any chunk
        raise ValueError("commitment mismatch")
    aes = AESGCM(key)
    body = ciphertext[SALT + COMMITMENT:]
    record = CHUNK + TAG
    full, final = divmod(len(body), record)
    if final < TAG:  # includes 0: a whole number of records was cut short
        raise ValueError("truncated")
    plain = []
    for i in range(full):
        plain.append(aes.decrypt(chunk_nonce(base, i), body[i * record:(i + 1) * record], b""))
    plain.append(aes.decrypt(chunk_nonce(base, full), body[full * record:], b""))
    return b"".join(plain)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def run(args):
    """One command (args as on the command line, without the program's name); its exit status."""
    if args and args[0] in ("encrypt", "decrypt") and len(args) == 6:
        bits = int(args[1])
        key, context, data = read(args[2]), read(args[3]), read(args[4])
        try:
            result = (encrypt if args[0] == "encrypt" else decrypt)(bits, key, context, data)
        except Exception as e:  # any failure: nothing written
            print("cobblestone_ref: %s" % e, file=sys.stderr)
            return 1
        with open(args[5], "wb") as f:
            f.write(result)
        return 0
    if args and args[0] == "vectors" and len(args) in (3, 4):
        doc = json.loads(read(args[1]))
        lines = []
        for group in doc["testGroups"]:
            for t in group["tests"]:
                base = os.path.join(args[2], "tc%d" % t["tcId"])
                for suffix, data in (("key", bytes.fromhex(t["key"])), ("ctx", bytes.fromhex(t["ctx"])),
                                     ("ct", zlib.decompress(bytes.fromhex(t["ct"])))):
                    with open(base + "." + suffix, "wb") as f:
                        f.write(data)
                lines.append("%s %s %s %s %s\n" % (t["tcId"], t["result"], t.get("msgLength", "-"),
                                                   t.get("msgSha512", "-"), ",".join(t["flags"]) or "-"))
        if len(args) == 4:
            with open(args[3], "w") as f:
                f.writelines(lines)
        else:
            sys.stdout.writelines(lines)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


def main(argv):
    if argv[1:] == ["batch"]:
        for number, line in enumerate(sys.stdin, 1):
            if line.strip() and run(line.split()) != 0:
                print("cobblestone_ref: batch line %d failed: %s" % (number, line.strip()), file=sys.stderr)
                return 1
        return 0
    return run(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
