"""Every ```python example of docs/PYTHON.md runs as it is written (each in a fresh interpreter)."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "PYTHON.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


def test_the_doc_has_examples():
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("index", range(len(EXAMPLES)))
def test_example_runs(pcrypt, tmp_path, index):
    needs = [m for m in ("fsspec", "pandas", "dask", "distributed") if m in EXAMPLES[index]]
    for module in needs:
        pytest.importorskip(module, reason=f"SKIPPED: {module} is not installed")
    script = tmp_path / "example.py"
    script.write_text(EXAMPLES[index])
    # A LocalCluster's workers forked from a fork server rather than spawned (dask's default): a spawned worker
    # imports dask, pandas and distributed afresh, 2-3 s of CPU each; the example runs as written either way.
    env = dict(os.environ, DASK_DISTRIBUTED__WORKER__MULTIPROCESSING_METHOD="forkserver")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path,
                         env=env, timeout=300)
    assert run.returncode == 0, run.stderr
