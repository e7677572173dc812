#!/usr/bin/env python3
"""Runs a command on a pseudo-terminal and answers each SSH key passphrase prompt by the key it names.

Usage: answer_pty.py KEY=ANSWER [KEY=ANSWER...] -- CMD [ARG...]; exits with CMD's status. Every prompt
"Enter passphrase for SSH key KEY:" gets KEY's answer (a prompt for a key not listed gets an empty line).
CMD's terminal output (prompts included, never the typed answers, which pcrypt does not echo) goes to stderr,
so a test can count the prompts.
"""
import re
import sys
from typing import Optional

import pty_answer

PROMPT = re.compile(rb"Enter passphrase for SSH key (\S+): ?$")


def main() -> int:
    split = sys.argv.index("--")
    answers = dict(pair.split("=", 1) for pair in sys.argv[1:split])
    pending = b""

    def answer(piece: bytes) -> Optional[bytes]:
        nonlocal pending
        pending += piece
        pending = pending[pending.rfind(b"\n") + 1:]  # the line being written, prompts have no line end
        match = PROMPT.search(pending)
        if not match:
            return None
        pending = b""
        return answers.get(match.group(1).decode(), "").encode() + b"\n"

    return pty_answer.run(sys.argv[split + 1:], answer)


if __name__ == "__main__":
    sys.exit(main())
