#!/usr/bin/env python3
"""Writes the crafted RSA test keys of this folder: OpenSSH private keys (unencrypted, openssh-key-v1) and
their ssh-rsa public lines, one per public exponent at the edges of docs/FORMAT.md §10.7's rule.

ssh-keygen makes only e = 65537, so the keys are assembled here from primes found with Python's own
Miller-Rabin test (no third-party module). Run once; the output is committed (the primes are random, so a
rerun writes different keys of the same shape). Usage: make_keys.py [DIR]
"""
import base64
import math
import os
import secrets
import struct
import sys

# The exponents below must be invertible modulo p - 1 and q - 1 (where a private key has a valid d).
SMALL_FACTORS = (3, 5, 7, 13, 17, 97, 241, 257, 673, 65537)


def is_probable_prime(n: int, rounds: int = 40) -> bool:
    if n < 2:
        return False
    for p in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for _ in range(rounds):
        x = pow(secrets.randbelow(n - 3) + 2, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = pow(x, 2, n)
            if x == n - 1:
                break
        else:
            return False
    return True


def prime(bits: int) -> int:
    while True:
        c = secrets.randbits(bits) | (3 << (bits - 2)) | 1  # top two bits set: p·q has exactly 2·bits bits
        if any(c % f == 1 for f in SMALL_FACTORS):
            continue
        if is_probable_prime(c):
            return c


def mpint(v: int) -> bytes:
    body = v.to_bytes((v.bit_length() + 7) // 8, "big") if v else b""
    if body and body[0] & 0x80:
        body = b"\0" + body
    return string(body)


def string(b: bytes) -> bytes:
    return struct.pack(">I", len(b)) + b


def key_files(n: int, e: int, d: int, p: int, q: int, comment: str) -> tuple[str, str]:
    blob = string(b"ssh-rsa") + mpint(e) + mpint(n)
    check = secrets.randbits(32)
    private = struct.pack(">II", check, check) + string(b"ssh-rsa")
    private += mpint(n) + mpint(e) + mpint(d) + mpint(pow(q, -1, p)) + mpint(p) + mpint(q) + string(comment.encode())
    private += bytes(range(1, 1 + (-len(private)) % 8))
    body = b"openssh-key-v1\0" + string(b"none") + string(b"none") + string(b"") + struct.pack(">I", 1)
    body += string(blob) + string(private)
    text = base64.b64encode(body).decode()
    lines = [text[i:i + 70] for i in range(0, len(text), 70)]
    pem = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + "\n".join(lines) + "\n-----END OPENSSH PRIVATE KEY-----\n"
    return pem, "ssh-rsa " + base64.b64encode(blob).decode() + " " + comment + "\n"


def inverse_or_stand_in(e: int, lam: int) -> int:
    """d for e, or (for an e with no inverse, e.g. an even one) 65537's: such a key is refused for e first."""
    return pow(e, -1, lam) if math.gcd(e, lam) == 1 else pow(65537, -1, lam)


def odd_coprime_from(start: int, step: int, lam: int) -> int:
    e = start
    while e % 2 == 0 or math.gcd(e, lam) != 1:
        e += step
    return e


def main() -> None:
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    for bits in (2048, 4096):
        p, q = prime(bits // 2), prime(bits // 2)
        n, lam = p * q, math.lcm(p - 1, q - 1)
        assert n.bit_length() == bits
        exponents = {
            2048: {"e1": 1, "e3": 3, "e65536": 65536, "e65537": 65537, "e16777215": 2**24 - 1,
                   "e16777217": 2**24 + 1, "e_above_n": odd_coprime_from(n + 2, 2, lam),
                   "e_n_minus": odd_coprime_from(n - 2, -2, lam)},
            4096: {"e16777215": 2**24 - 1, "e65bits": odd_coprime_from(2**64 + 1, 2, lam)},
        }[bits]
        for name, e in exponents.items():
            stem = f"rsa{bits}_{name}"
            pem, pub = key_files(n, e, inverse_or_stand_in(e, lam), p, q, stem)
            with open(os.path.join(out, stem), "w") as f:
                f.write(pem)
            with open(os.path.join(out, stem + ".pub"), "w") as f:
                f.write(pub)


if __name__ == "__main__":
    main()
