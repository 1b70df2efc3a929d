"""The command's allocator settings (pybcv/_malloc.py): set by the command,
not by an import, and never over the user's own."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CODE = ("import os, sys, pybcv._malloc as m\n"
        "print(m.tune(), os.environ.get('MALLOC_MMAP_THRESHOLD_'), "
        "os.environ.get('MALLOC_TRIM_THRESHOLD_'))")


def _run(code, **env):
    e = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    e.update(PYTHONPATH=ROOT, **env)
    r = subprocess.run([sys.executable, "-c", code], env=e, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout.split()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_tune_sets_the_thresholds_and_passes_them_to_workers():
    assert _run(CODE) == ["True", str(8 << 20), str(64 << 20)]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_the_users_setting_wins():
    assert _run(CODE, MALLOC_MMAP_THRESHOLD_="131072") == ["True", "131072", str(64 << 20)]


def test_importing_pybcv_sets_nothing():
    out = _run("import os, pybcv, pybcv.cli\n"
               "print([k for k in os.environ if k.startswith('MALLOC_')])")
    assert out == ["[]"]


def test_the_command_sets_them_for_its_workers(tmp_path):
    """``python -m pybcv`` (main without argv) tunes; the environment a
    worker would inherit carries the values."""
    code = ("import os, sys, runpy\n"
            "sys.argv = ['pybcv', '--version']\n"
            "try:\n    runpy.run_module('pybcv', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            "print(os.environ.get('MALLOC_TRIM_THRESHOLD_'))")
    out = _run(code)
    assert out[-1] == (str(64 << 20) if sys.platform.startswith("linux") else "None")
