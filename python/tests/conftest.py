"""Shared helpers of the Python package's tests: the command of this build, run as the user would."""
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_chartless(args, stdin=""):
    """The command line's stdout, stderr and exit status."""
    p = subprocess.run([os.environ.get("CHARTLESS", os.path.join(ROOT, "build", "chartless"))] + args,
                       input=stdin, capture_output=True, text=True)
    return p.stdout, p.stderr, p.returncode


@pytest.fixture
def root():
    return ROOT
