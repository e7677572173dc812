#!/usr/bin/env python3
"""Runs a command with a pseudo-terminal as its controlling terminal, everything to be typed on it typed
ahead, before the command even starts (as a script feeding a terminal does, and a user typing fast).

Usage: tty_typeahead.py [--stdin] [--stdout] TYPED TTYOUT CMD [ARG...]
  TYPED   a file whose bytes are typed on the terminal at once ("-" for nothing)
  TTYOUT  a file that receives everything the command showed on the terminal (prompts, echo)
  --stdin   standard input is the terminal too (else the caller's standard input is kept)
  --stdout  standard output is the terminal too (else the caller's standard output is kept)
Standard error is always the caller's. Exits with CMD's status, or 124 when it has not ended after 60 s
(a command waiting for input that was discarded hangs; this makes that a failure, not a hang).
"""
import fcntl
import os
import select
import signal
import sys
import termios
import time


def main() -> int:
    args = sys.argv[1:]
    stdin_too = stdout_too = False
    while args and args[0] in ("--stdin", "--stdout"):
        if args[0] == "--stdin":
            stdin_too = True
        else:
            stdout_too = True
        args = args[1:]
    typed_path, ttyout_path, command = args[0], args[1], args[2:]
    typed = b"" if typed_path == "-" else open(typed_path, "rb").read()

    master, slave = os.openpty()
    # Typed before the command runs: it waits in the terminal's input queue.
    if typed:
        os.write(master, typed)
    pid = os.fork()
    if pid == 0:
        os.close(master)
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
        if stdin_too:
            os.dup2(slave, 0)
        if stdout_too:
            os.dup2(slave, 1)
        if slave > 2:
            os.close(slave)
        os.execvp(command[0], command)
    os.close(slave)
    # Never block on the terminal: a flush by the command can empty what select() just saw.
    fcntl.fcntl(master, fcntl.F_SETFL, fcntl.fcntl(master, fcntl.F_GETFL) | os.O_NONBLOCK)
    shown = b""
    deadline = time.monotonic() + 60
    status = None
    while True:
        ready, _, _ = select.select([master], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except BlockingIOError:
                ready = []
                chunk = None
            except OSError:  # EIO: no process has the terminal open any more
                chunk = b""
            if chunk:
                shown += chunk
                continue
        if status is None:
            done, st = os.waitpid(pid, os.WNOHANG)
            if done:
                status = st
        if status is not None and not ready:
            break
        if status is not None and ready and not chunk:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            open(ttyout_path, "wb").write(shown)
            print("tty_typeahead.py: the command did not end within 60 s", file=sys.stderr)
            return 124
    open(ttyout_path, "wb").write(shown)
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main())
