#!/usr/bin/env python3
"""Writes an age file (C2SP age: one scrypt stanza, STREAM ChaCha20-Poly1305 payload) of standard input,
encrypted with PASSPHRASE at scrypt work factor LOG2N, to standard output: a cheap passphrase-encrypted file
for tests (age and pcrypt use 2^18, which takes a second; tests use 2^10). Test-only; needs
python3-cryptography. Debian's age opening its output (test_age_encrypted_identity.sh) shows it follows the
spec.

Usage: age_scrypt_file.py PASSPHRASE LOG2N < PLAINTEXT > FILE.age
"""
import base64
import hashlib
import hmac
import os
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF


def b64(data):
    return base64.b64encode(data).decode().rstrip("=")


def hkdf(key, salt, info):
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=info).derive(key)


def main():
    passphrase, log2n = sys.argv[1].encode(), int(sys.argv[2])
    plaintext = sys.stdin.buffer.read()
    file_key = os.urandom(16)
    salt = os.urandom(16)
    wrap_key = hashlib.scrypt(passphrase, salt=b"age-encryption.org/v1/scrypt" + salt, n=1 << log2n, r=8, p=1,
                              dklen=32)
    body = ChaCha20Poly1305(wrap_key).encrypt(bytes(12), file_key, None)
    header = "age-encryption.org/v1\n-> scrypt %s %d\n%s\n---" % (b64(salt), log2n, b64(body))
    mac = hmac.new(hkdf(file_key, b"", b"header"), header.encode(), hashlib.sha256).digest()
    out = (header + " " + b64(mac) + "\n").encode()
    nonce = os.urandom(16)
    payload = ChaCha20Poly1305(hkdf(file_key, nonce, b"payload"))
    chunks = [plaintext[i:i + 65536] for i in range(0, len(plaintext), 65536)] or [b""]
    out += nonce
    for i, chunk in enumerate(chunks):
        last = 1 if i == len(chunks) - 1 else 0
        out += payload.encrypt(i.to_bytes(11, "big") + bytes([last]), chunk, None)
    sys.stdout.buffer.write(out)


if __name__ == "__main__":
    main()
