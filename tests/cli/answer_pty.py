#!/usr/bin/env python3
"""Runs a command on a pseudo-terminal and answers each SSH key passphrase prompt by the key it names.

Usage: answer_pty.py KEY=ANSWER [KEY=ANSWER...] -- CMD [ARG...]; exits with CMD's status. Every prompt
"Enter passphrase for SSH key KEY:" gets KEY's answer (a prompt for a key not listed gets an empty line).
CMD's terminal output (prompts included, never the typed answers, which pcrypt does not echo) goes to stderr,
so a test can count the prompts.
"""
import os
import pty
import re
import sys

PROMPT = re.compile(rb"Enter passphrase for SSH key (\S+): ?$")


def main() -> int:
    split = sys.argv.index("--")
    answers = dict(pair.split("=", 1) for pair in sys.argv[1:split])
    command = sys.argv[split + 1:]
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(command[0], command)
    pending = b""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        sys.stderr.buffer.write(chunk)
        sys.stderr.buffer.flush()
        pending += chunk
        pending = pending[pending.rfind(b"\n") + 1:]  # the line being written, prompts have no line end
        match = PROMPT.search(pending)
        if match:
            os.write(fd, answers.get(match.group(1).decode(), "").encode() + b"\n")
            pending = b""
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main())
