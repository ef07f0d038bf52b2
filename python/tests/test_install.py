"""pip install ./python, offline: the package installs without a compiler or a download."""
import os
import subprocess
import sys

import pytest

from conftest import ROOT


def test_pip_installs_the_package_offline(tmp_path):
    if subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode:
        pytest.skip("pip is not installed for %s (Debian: python3-pip)" % sys.executable)
    target, build = tmp_path / "site", tmp_path / "src"
    subprocess.run(["cp", "-r", os.path.join(ROOT, "python"), str(build)], check=True)
    p = subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-index", "--no-deps",
                        "--break-system-packages", "--target", str(target), str(build)], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    code = ("import chartless, sys; assert chartless.__file__.startswith(sys.argv[1]), chartless.__file__; "
            "print(chartless.System('chain', n=2).rhs([0, 0, -1, 0, 0, -1, 1, 0, 0, 0, 1, 0])[0])")
    env = dict(os.environ, PYTHONPATH=str(target))
    r = subprocess.run([sys.executable, "-c", code, str(target)], capture_output=True, text=True, env=env, cwd=str(tmp_path))
    assert r.returncode == 0 and float(r.stdout) == 1.0, r.stderr
