"""Shared fixtures for the Python package's tests (ctest: python_tests, label python).

Run with Debian's /usr/bin/python3 and PYTHONPATH pointing at the build tree's package (ctest sets both, and
PCRYPT_BINARY to the CLI built beside it). Anything missing makes tests skip with the reason shown, and a run
with skips exits 77, which ctest reports as "Skipped", never as a silent pass.
"""

import os
import shutil
import subprocess

import pytest


def pytest_sessionfinish(session, exitstatus):
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = len(reporter.stats.get("skipped", [])) if reporter else 0
    if exitstatus == 0 and skipped:
        session.exitstatus = 77


@pytest.fixture(scope="session")
def pcrypt():
    try:
        import pcrypt as module
    except ImportError as e:
        pytest.skip(f"SKIPPED: the pcrypt module is not importable ({e}); build the pcrypt_python target")
    return module


@pytest.fixture(scope="session")
def cli():
    """Runs the pcrypt CLI built beside the module: cli("decrypt", ...) -> CompletedProcess."""
    binary = os.environ.get("PCRYPT_BINARY") or shutil.which("pcrypt")
    if not binary:
        pytest.skip("SKIPPED: no pcrypt binary (set PCRYPT_BINARY)")

    def run(*args, check=True, **kwargs):
        return subprocess.run([binary, *map(str, args)], capture_output=True, check=check, **kwargs)
    return run


@pytest.fixture()
def key(pcrypt, tmp_path):
    path = tmp_path / "me.key"
    pcrypt.keygen(path)
    return str(path)


def pseudo_random(n, seed=1):
    """n reproducible bytes."""
    import random
    return random.Random(seed).randbytes(n)
