"""pcrypt's errors as Python exceptions.

Every failure of libpcrypt arrives as one of these, carrying the message the CLI prints after
``pcrypt: error:``, its hint (``pcrypt: hint:``), both worded for Python (``keys=`` where the library
says ``key_files`` and the CLI ``-k``), the file it concerns (``path``, also named in the message: one bad file among thousands in a Dask
job is findable), and the exit code the CLI would return for it (the table in ``pcrypt --help``), so
scripts can tell a wrong key from a damaged file as the shell can.
"""

import contextlib
import os
import re


class PcryptError(Exception):
    """Any pcrypt failure. ``exit_code`` is the CLI's exit status for it; 1: I/O or other error. ``path``:
    the file it concerns, or None. ``code``: libpcrypt's error code (include/pcrypt/errors.h, e.g. 300) and
    ``code_name`` its stable name ("PCRYPT_E_WRONG_PASSPHRASE"); 0 and "" for a failure of the Python layer
    itself (a file it could not write, say). Decide by ``code``, never by the message."""

    exit_code = 1

    def __init__(self, message, hint="", path=None, code=0, code_name=""):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.path = path
        self.code = code
        self.code_name = code_name

    def __str__(self):
        return self.message + (f" (hint: {self.hint})" if self.hint else "")

    def __reduce__(self):  # the exception crosses process boundaries (Dask workers)
        return (type(self), (self.message, self.hint, self.path, self.code, self.code_name))


class UsageError(PcryptError, ValueError):
    """A bad argument: no credential, a malformed recipient, a chunk size out of range (exit 2)."""

    exit_code = 2


class HeaderError(PcryptError):
    """Wrong key or passphrase, or a corrupt, truncated or foreign header; nothing was decrypted (exit 3)."""

    exit_code = 3


class AuthenticationError(PcryptError):
    """A damaged, truncated, reordered or extended payload: a record failed authentication (exit 4)."""

    exit_code = 4


# The library's words (docs/LIBRARY.md, "Words": its C++ API's fields and concepts) for what a Python caller
# passes as an argument, replaced first; the longer phrases before the field names they contain.
_LIBRARY_PHRASES = [
    ("key files cannot be used in the age format", 'keys= cannot be used with format="age"'),
    ("encrypt to a recipient (age1..., an identity's recipient) or with a passphrase",
     'encrypt to a recipient (recipients=["age1..."], made by pcrypt.keygen(path, identity=True)) or with '
     "passphrase="),
    ("use a passphrase alone, or recipients alone, in the age format",
     'use passphrase= alone, or recipients= alone, with format="age"'),
    ("in the age format", 'with format="age"'),
    ("create a new key file at ", "create one with pcrypt.keygen(path) at "),
    ("create a new identity at ", "create one with pcrypt.keygen(path, identity=True) at "),
    ("create a new key file", "create one with pcrypt.keygen(path)"),
    ("give it as a key file (key_files)", "give it as keys="),
    ("a key file (key_files)", "keys="),
    ("the passphrase (passphrase)", "passphrase="),
    ("(recipients, recipient_files)", "(recipients=, recipient_files=)"),
    ("key_files", "keys="),
    ("identity_files", "identities="),
]

# The CLI's words for what a Python caller passes as an argument (a flag not followed by a letter, digit or
# dash: "-k" but not "-key" or "-----BEGIN").
_PYTHON_WORDS = [
    (r"pcrypt keygen --raw 16( -o [A-Z]+)?", "pcrypt.keygen(path, raw=16)"),
    (r"pcrypt keygen --raw 32( -o [A-Z]+)?", "pcrypt.keygen(path, raw=32)"),
    (r"pcrypt keygen --identity( -o [A-Z]+)?", "pcrypt.keygen(path, identity=True)"),
    (r"pcrypt keygen( -o [A-Z]+)?", "pcrypt.keygen(path)"),
    (r"-r age1\.\.\.", 'recipients=["age1..."]'),
    (r"-k KEYFILE|-k", "keys="),
    (r"-i IDENTITY(-FILE)?|-i", "identities="),
    (r"-r RECIPIENT|-r", "recipients="),
    (r"-R FILE|-R", "recipient_files="),
    (r"-p", "passphrase="),
    (r"-f", "force=True"),
    (r"or -o to choose another name", "or choose another dst"),
    (r"-a|--armor", "armor=True"),
    (r"--raw-key FILE|--raw-key", "raw_key="),
    (r"--context TEXT|--context", "context="),
    (r"--format cobblestone-128", 'format="cobblestone-128"'),
    (r"--format cobblestone-256", 'format="cobblestone-256"'),
    (r"--format age", 'format="age"'),
    (r"--format pcrypt", 'format="pcrypt"'),
    (r"--format", "format="),
    (r"--chunk-size", "chunk_size="),
    (r"--kdf-memory", "kdf_memory="),
    (r"--kdf-ops", "kdf_ops="),
    (r"-j", "threads="),
]
_FLAG = re.compile("|".join(f"(?:{p})" for p, _ in _PYTHON_WORDS).join([r"(?<![\w-])(", r")(?![\w-])"]))


def _python_word(match):
    text = match.group(0)
    for pattern, replacement in _PYTHON_WORDS:
        if re.fullmatch(pattern, text):
            return replacement
    return text


def python_words(text):
    """``text`` with the library's words and the CLI's options replaced by the Python arguments that do the
    same."""
    if not text:
        return text
    for phrase, words in _LIBRARY_PHRASES:
        text = text.replace(phrase, words)
    return _FLAG.sub(_python_word, text)


# pcrypt::ErrorKind's order (io, usage, wrong_credential, damaged_header, damaged_payload): the class for each.
_BY_KIND = [PcryptError, UsageError, HeaderError, HeaderError, AuthenticationError]


def from_core(kind, message, hint, code=0, code_name=""):
    """The exception for a libpcrypt error of pcrypt::ErrorKind ``kind`` (called by the C++ module)."""
    if code_name == "PCRYPT_E_OUTPUT_EXISTS" and not hint:  # the CLI's hint for it, in Python's words
        hint = "use force=True to overwrite it, or choose another dst"
    cls = _BY_KIND[kind] if 0 <= kind < len(_BY_KIND) else PcryptError
    return cls(python_words(message), python_words(hint), code=code, code_name=code_name)


@contextlib.contextmanager
def naming(*paths):
    """A pcrypt error raised inside names the file it concerns: of ``paths`` (an operation's input, then its
    output), the one its message names already, else the first, which the message then names too."""
    try:
        yield
    except PcryptError as e:
        if e.path is None:
            given = [os.fspath(p) for p in paths if p is not None]
            named = [p for p in given if p and p in e.message]
            if named:
                e.path = named[0]
            elif given:
                e.path = given[0]
                e.message = f"{e.message} ({e.path})"
                e.args = (e.message,)
        raise
