#!/usr/bin/env python3
"""What an age file's bytes say, computed here from the format (C2SP age) and not by pcrypt, for the age-inspect
and info --json tests: prints one JSON object with age-inspect's sizes and the stanza types.

Usage: inspect_expect.py FILE [PLAINTEXT_BYTES]. Armored files are decoded here (RFC 7468 base64 lines).
"""
import base64
import json
import sys


def main() -> int:
    raw = open(sys.argv[1], "rb").read()
    armored = raw.lstrip().startswith(b"-----BEGIN AGE ENCRYPTED FILE-----")
    data = raw
    if armored:
        lines = raw.strip().split(b"\n")
        body = b"".join(line.strip() for line in lines[1:-1])
        data = base64.b64decode(body)
    end = data.index(b"\n---") + 1
    end = data.index(b"\n", end) + 1  # the MAC line ends the header
    header = data[:end]
    types = [line.split(b" ")[1].decode() for line in header.split(b"\n") if line.startswith(b"-> ")]
    rest = len(data) - end - 16  # the payload nonce
    chunks = max(1, -(-rest // (65536 + 16)))
    payload = rest - 16 * chunks
    print(json.dumps({
        "header": end,
        "armor": len(raw) - len(data),
        "overhead": 16 + 16 * chunks,
        "payload": payload,
        "chunks": chunks,
        "file": len(raw),
        "types": types,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
