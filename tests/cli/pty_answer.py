"""What tests/cli/age_pty.py and answer_pty.py share: a command run on a pseudo-terminal, whose terminal output
is copied to standard error (prompts included; typed answers are not echoed by the programs under test), and
a caller's function that sees each piece of that output and says what to type back."""
import os
import pty
import sys
from typing import Callable, List, Optional


def run(command: List[str], answer: Callable[[bytes], Optional[bytes]]) -> int:
    """Runs COMMAND on a new pseudo-terminal; after each read of its output, types answer(piece) if that is
    not empty. Returns the command's exit status."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(command[0], command)
    while True:
        try:
            piece = os.read(fd, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not piece:
            break
        sys.stderr.buffer.write(piece)
        sys.stderr.buffer.flush()
        reply = answer(piece)
        if reply:
            os.write(fd, reply)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)
