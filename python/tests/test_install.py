"""Installing the package: pip install ./python offline (no compiler, no download), and make install."""
import glob
import os
import subprocess
import sys

import pytest

from conftest import ROOT, run_chartless


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


def test_make_install_then_import_finds_the_library_and_command(tmp_path):
    """README's route: make install, then python3 -c "import chartless; ..." with
    nothing but the install's site folder on the path (no CHARTLESS_LIBRARY)."""
    prefix = tmp_path / "prefix"
    build = os.environ.get("BUILD", "build")  # one make install at a time: tests/test_install.sh takes this lock too
    p = subprocess.run(["flock", os.path.join(build, ".install.lock"), "make", "-s", "install", "B=%s" % build,
                        "PREFIX=%s" % prefix, "PYTHON=%s" % sys.executable],
                       cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    site = glob.glob(str(prefix / "lib" / "python3*" / "dist-packages"))
    assert len(site) == 1, os.listdir(prefix / "lib")
    env = {k: v for k, v in os.environ.items() if k not in ("CHARTLESS_LIBRARY", "CHARTLESS")}
    env["PYTHONPATH"] = site[0]
    code = ("import chartless; dx = chartless.System('chain', n=2).rhs([0, 0, -1, 0, 0, -1, 1, 0, 0, 0, 1, 0]); "
            "print(' '.join(repr(float(v)) for v in dx)); "
            "print(chartless._lib.library()._name); print(chartless._lib.command())")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    field, library, command = r.stdout.strip().splitlines()[-3:]
    assert library == str(prefix / "lib" / "libchartless_python.so") and command == str(prefix / "bin" / "chartless")
    out, _, st = run_chartless(["rhs", "--system", "chain", "--n", "2"], "0 0 -1 0 0 -1 1 0 0 0 1 0")
    assert st == 0 and [float(v) for v in field.split()] == [float(v) for v in out.split()]
