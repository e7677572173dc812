"""pcrypt's errors as Python exceptions.

Every failure of the C++ core arrives as one of these, carrying the message the CLI prints after
``pcrypt: error:``, its hint (``pcrypt: hint:``), and the exit code the CLI would return for it (the
table in ``pcrypt --help``), so scripts can tell a wrong key from a damaged file as the shell can.
"""


class PcryptError(Exception):
    """Any pcrypt failure. ``exit_code`` is the CLI's exit status for it; 1: I/O or other error."""

    exit_code = 1

    def __init__(self, message, hint=""):
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self):
        return self.message + (f" (hint: {self.hint})" if self.hint else "")

    def __reduce__(self):  # the exception crosses process boundaries (Dask workers)
        return (type(self), (self.message, self.hint))


class UsageError(PcryptError, ValueError):
    """A bad argument: no credential, a malformed recipient, a chunk size out of range (exit 2)."""

    exit_code = 2


class HeaderError(PcryptError):
    """Wrong key or passphrase, or a corrupt, truncated or foreign header; nothing was decrypted (exit 3)."""

    exit_code = 3


class AuthenticationError(PcryptError):
    """A damaged, truncated, reordered or extended payload: a record failed authentication (exit 4)."""

    exit_code = 4


_BY_EXIT_CODE = {1: PcryptError, 2: UsageError, 3: HeaderError, 4: AuthenticationError}


def from_core(exit_code, message, hint):
    """The exception for a core error (called by the C++ module)."""
    return _BY_EXIT_CODE.get(exit_code, PcryptError)(message, hint)
