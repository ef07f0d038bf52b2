"""chartless.grade: a Python vector field graded by the C grader, the student's code sandboxed."""
import ast
import json
import os
import time

import numpy as np
import pytest

import chartless
from conftest import ROOT, run_chartless

SPRING = os.path.join(ROOT, "models", "spring.model")
E3 = np.array([0.0, 0.0, 1.0])


def notebook_function(notebook, name):
    """Function NAME of the code cells of notebooks/NOTEBOOK.ipynb, with the
    module-level names those cells assign before it: the tutorial's own code
    is what the test grades."""
    with open(os.path.join(ROOT, "notebooks", notebook + ".ipynb")) as f:
        cells = [c for c in json.load(f)["cells"] if c["cell_type"] == "code"]
    space = {"np": np}
    for cell in cells:
        for node in ast.parse("".join(cell["source"])).body:
            if isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) and t.id.isupper() for t in node.targets) \
                    or isinstance(node, ast.FunctionDef) and node.name == name:
                exec(compile(ast.Module(body=[node], type_ignores=[]), notebook, "exec"), space)
        if name in space:
            return space[name]
    raise LookupError(name)


# The (q, omega) field of models/spring.model as notebooks/own_derivation
# writes it; spring_sign=-1 plants the mistake of docs/examples/spring_omega_sign.field.
spring_omega = notebook_function("own_derivation", "spring_omega")


def pendulum(x, p):
    q, v = x[:3], x[3:]
    return np.concatenate([v, -(p["g"] / p["l"][0]) * (E3 - q[2] * q) - v.dot(v) * q])


def lines(text, prefix):
    return [l for l in text.splitlines() if l.startswith(prefix)]


def test_a_correct_field_passes_at_both_parameter_sets():
    r = chartless.grade(chartless.Model(SPRING), "omega", spring_omega, timeout=20)
    assert r.passed and r["exit_status"] == 0 and len(r["parts"]) == 2
    assert all(c["verdict"] == "rounding" for part in r["parts"] for c in part["components"])


def test_a_planted_sign_error_fails_with_the_hint_of_the_field_file_route():
    r = chartless.grade(chartless.Model(SPRING), "omega", lambda x, p: spring_omega(x, p, spring_sign=-1.0), timeout=20)
    out, _, st = run_chartless(["grade", "--model", SPRING, "--field", os.path.join(ROOT, "docs", "examples", "spring_omega_sign.field")])
    assert st == 1 and not r.passed
    assert lines(r.report, "hint: w2'") == lines(out, "hint: w2'") and len(lines(out, "hint: w2'")) == 2
    verdicts = [(c["name"], c["verdict"]) for c in r["parts"][0]["components"]]
    assert [v for n, v in verdicts if n.startswith("w2")] == ["wrong"] * 3
    assert all(v == "rounding" for n, v in verdicts if not n.startswith("w2"))


def test_a_loop_without_end_is_a_timeout_within_the_limit():
    def endless(x, p):
        while True:
            pass
    t0 = time.monotonic()
    r = chartless.grade(chartless.System("chain", n=1), "qdot", endless, timeout=1.5)
    took = time.monotonic() - t0
    assert not r.passed and r["parts"][0]["ended"] == "timed out" and r["skipped"]
    assert took < 1.5 + 2.0, took  # the limit once, plus the grader's own work
    assert "TIMEOUT" in r.report and "at state 1" in r.report


def test_an_allocation_without_end_is_a_memory_verdict():
    def hungry(x, p):
        blocks, n = [], 1 << 20
        while True:  # ever larger arrays, kept
            blocks.append(np.empty(n))
            n *= 2
    t0 = time.monotonic()
    r = chartless.grade(chartless.System("chain", n=1), "qdot", hungry, timeout=5)
    assert not r.passed and r["parts"][0]["ended"] == "ran out of memory"
    assert time.monotonic() - t0 < 5
    assert "MEMORY: the student's function ran out of its memory" in r.report


def test_a_crash_an_exception_and_a_fork_are_verdicts_named_by_state():
    def crash(x, p):
        import ctypes
        return ctypes.string_at(0)
    r = chartless.grade(chartless.System("chain", n=1), "qdot", crash, timeout=5)
    assert r["parts"][0]["ended"] == "crashed" and "CRASH" in r.report

    def raises(x, p):
        if x[2] > 0:
            raise ZeroDivisionError("planted")
        return pendulum(x, p)
    r = chartless.grade(chartless.System("chain", n=1, l=1.5), "qdot", raises, timeout=5)
    assert r["parts"][0]["ended"] == "raised an exception"
    assert "EXCEPTION: the student's function raised ZeroDivisionError: planted at state" in r.report

    def forks(x, p):
        os.fork()
        return pendulum(x, p)
    r = chartless.grade(chartless.System("chain", n=1, l=1.5), "qdot", forks, timeout=5)
    assert not r.passed and r["parts"][0]["ended"] in ("forbidden system call", "raised an exception")


def test_what_the_function_prints_is_shown_and_the_caller_lives_on():
    def chatty(x, p):
        print("hello from the student")
        return pendulum(x, p)
    r = chartless.grade(chartless.System("chain", n=1, l=1.5), "qdot", chatty)
    assert r.passed and "| hello from the student" in r.report


def test_platform_formats():
    s = chartless.System("chain", n=1, l=1.5)
    gs = chartless.grade(s, "qdot", pendulum, format="gradescope")
    assert gs["score"] == len(gs["tests"]) == 14 and gs.passed
    pl = chartless.grade(s, "qdot", lambda x, p: -pendulum(x, p), format="prairielearn")
    assert pl["gradable"] and 0 <= pl["score"] < 1 and not pl.passed
