"""`cmake --install BUILD --component python` (docs/PYTHON.md): the package, and libpcrypt.so.1 where the
module's RPATH looks for it, installed into a scratch DESTDIR; the installed package imports from there."""

import os
import shutil
import subprocess
import sys

import pytest


def test_python_component_installs_the_module_and_the_library_it_links(pcrypt, tmp_path):
    build = os.environ.get("PCRYPT_BUILD_DIR")
    if not build or not shutil.which("cmake") or not shutil.which("readelf"):
        pytest.skip("SKIPPED: no build directory (PCRYPT_BUILD_DIR), cmake or readelf")
    dest = tmp_path / "dest"
    subprocess.run(["cmake", "--install", build, "--component", "python"], check=True, capture_output=True,
                   env=dict(os.environ, DESTDIR=str(dest)))
    modules = list(dest.rglob("_pcrypt*.so"))
    assert len(modules) == 1
    dynamic = subprocess.run(["readelf", "-d", str(modules[0])], check=True, capture_output=True,
                             text=True).stdout
    runpath = [line.split("[")[1].rstrip("]") for line in dynamic.splitlines()
               if "RUNPATH" in line or "RPATH" in line]
    assert runpath, dynamic
    libdir = runpath[0].split(":")[0]
    if "libpcrypt.so.1" in dynamic:  # else a static libpcrypt (PCRYPT_SHARED_LIBRARY=OFF), inside the module
        assert (dest / libdir.lstrip("/") / "libpcrypt.so.1").exists(), f"no libpcrypt.so.1 in {libdir}"
    # Imported from the DESTDIR copy (the RPATH names the real prefix, so the loader is pointed at the copy).
    site = modules[0].parent.parent
    run = subprocess.run([sys.executable, "-c", "import pcrypt; print(pcrypt.__file__, pcrypt.__version__)"],
                         cwd="/", capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(site), LD_LIBRARY_PATH=str(dest / libdir.lstrip("/"))))
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(str(site)) and run.stdout.split()[1] == pcrypt.__version__
