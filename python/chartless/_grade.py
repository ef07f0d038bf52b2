"""chartless.grade: a vector field written as a Python function, graded by chartless's grader."""
import json
import os
import tempfile

from . import _lib, _sandbox
from ._system import System

try:
    import numpy as _np
except ImportError:  # numpy is optional
    _np = None


class GradeResult(dict):
    """The grader's report (docs/grade.schema.json, or a platform's document).

    Attributes
    ----------
    passed : bool
        Every component agrees to rounding at both parameter sets.
    report : str
        The text report, as ``chartless grade`` prints it.
    """

    @property
    def passed(self):
        if "passed" in self:
            return bool(self["passed"])
        if "gradable" in self:
            return bool(self.get("gradable")) and self.get("score") == 1
        return all(t.get("status") == "passed" for t in self.get("tests", []))

    @property
    def report(self):
        if "parts" in self:
            text = "\n".join(p["report"] for p in self["parts"])
            return text + ("\n%s\n" % self["skipped"] if self.get("skipped") else "")
        return self.get("output", "")

    def __str__(self):
        return self.report

    def _repr_pretty_(self, p, cycle):
        p.text(self.report)


def _as_array(x):
    return _np.array(x, dtype=float) if _np is not None else list(x)


def _params(p):
    """An instance's parameters for the student: lists as numpy arrays when numpy is present."""
    if _np is None:
        return dict(p)
    return {k: (_np.array(v, dtype=float) if isinstance(v, list) else v) for k, v in p.items()}


def grade(model_or_system, form, my_field, states=20, seed=1, timeout=10, bits=256, format="json"):
    """Grade a vector field written in Python against chartless's reference.

    The grader (``chartless grade``) chooses the states: seeded random ones
    and the equilibria, at the given parameters and at random unequal ones
    drawn from them. ``my_field(x, params)`` is called at each of them in a
    sandboxed child process (the limits of the C grader: CPU time and a
    wall deadline of `timeout` seconds per parameter set, 512 MiB more
    memory, no new processes), so a function that crashes, loops or
    allocates without end is a verdict, not a dead kernel. Its values go
    back to the same grader as a shared object's: the same per-component
    verdicts and hints.

    Parameters
    ----------
    model_or_system : System or Model
        The reference, with its parameters.
    form : str
        The form `my_field` implements (``System.forms``).
    my_field : callable
        ``my_field(x, params) -> dx``: `x` the state (a numpy array of
        doubles), `params` a dict of the instance's parameters by name
        (``n``, ``m``, ``l``, ``g`` ... as numbers or numpy arrays); it
        returns the ``len(x)`` numbers of dx/dt.
    states, seed, timeout, bits
        As ``chartless grade --states --seed --timeout --bits``.
    format : {'json', 'gradescope', 'prairielearn'}
        The document returned (``chartless grade --format``).

    Returns
    -------
    GradeResult
        A dict in that format; ``.passed`` and ``.report`` (the text report).

    Raises
    ------
    ChartlessError
        Bad options or parameters, with the command line's message.
    """
    if not isinstance(model_or_system, System):
        raise TypeError("grade() takes a chartless.System or chartless.Model")
    words = ["grade"] + model_or_system._words() + ["--form", form, "--states", str(int(states)), "--seed", str(int(seed)),
                                                    "--timeout", repr(float(timeout)), "--bits", str(int(bits))]
    instances = json.loads(_lib.run(words + ["--emit-states", "json"]))["instances"]
    name = getattr(my_field, "__qualname__", getattr(my_field, "__name__", "field"))
    lines = ["chartless-values 1", "name the Python function %s" % name]
    for i, inst in enumerate(instances):
        got = _sandbox.evaluate(my_field, inst["states"], _params(inst["params"]), float(timeout), _as_array)
        lines += ["instance %d" % i] + got
        if any(l.startswith("end timeout") for l in got):
            break  # the grader spends the time limit once
    with tempfile.NamedTemporaryFile("w", suffix=".values", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        path = f.name
    try:
        out = _lib.run(words + ["--values", path, "--format", format], ok=(0, 1))
    finally:
        os.unlink(path)
    return GradeResult(json.loads(out))
