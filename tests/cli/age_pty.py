#!/usr/bin/env python3
"""Runs a command on a pseudo-terminal and types PASSPHRASE at every passphrase prompt it shows.

age reads passphrases only from a terminal (/dev/tty), so the interop tests drive it through this.
Usage: age_pty.py PASSPHRASE CMD [ARG...]; exits with CMD's status. CMD's terminal output goes to stderr.
"""
import sys

import pty_answer


def main() -> int:
    passphrase = sys.argv[1].encode()
    seen = b""
    answered = 0

    def answer(piece: bytes) -> bytes:
        nonlocal seen, answered
        seen += piece
        # One answer per prompt: count "passphrase" prompts (age asks twice when encrypting).
        prompts = seen.lower().count(b"passphrase")
        reply = b""
        while answered < prompts and seen.rstrip().endswith(b":"):
            reply += passphrase + b"\n"
            answered += 1
        return reply

    return pty_answer.run(sys.argv[2:], answer)


if __name__ == "__main__":
    sys.exit(main())
