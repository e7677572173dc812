#!/usr/bin/env python3
"""Runs a command on a pseudo-terminal and types PASSPHRASE at every passphrase prompt it shows.

age reads passphrases only from a terminal (/dev/tty), so the interop tests drive it through this.
Usage: age_pty.py PASSPHRASE CMD [ARG...]; exits with CMD's status. CMD's terminal output goes to stderr.
"""
import os
import pty
import sys


def main() -> int:
    passphrase = sys.argv[1].encode()
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(sys.argv[2], sys.argv[2:])
    seen = b""
    answered = 0
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        sys.stderr.buffer.write(chunk)
        seen += chunk
        # One answer per prompt: count "passphrase" prompts (age asks twice when encrypting).
        prompts = seen.lower().count(b"passphrase")
        while answered < prompts and seen.rstrip().endswith(b":"):
            os.write(fd, passphrase + b"\n")
            answered += 1
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main())
