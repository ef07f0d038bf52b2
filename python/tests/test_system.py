"""chartless.System and chartless.Model against the command line."""
import decimal
import os

import numpy as np
import pytest

import chartless
from conftest import ROOT, run_chartless

CHAIN = ["--system", "chain", "--n", "2", "--m", "1,2", "--l", "1,0.5", "--form", "qdot"]
STATE = [0.6, 0, -0.8, 0, 0.8, -0.6, 0, 1.5, 0, -0.7, 0, 0]


def chain():
    return chartless.System("chain", n=2, m=[1, 2], l=[1, 0.5])


def test_rhs_in_double_is_the_command_lines():
    out, err, st = run_chartless(["rhs"] + CHAIN, " ".join(map(repr, STATE)))
    assert st == 0, err
    want = np.array([float(w) for w in out.split()])
    got = chain().rhs(STATE, form="qdot")
    assert isinstance(got, np.ndarray) and got.dtype == np.float64
    assert np.array_equal(got, want)


def test_rhs_at_256_bits_carries_every_digit_of_the_command_line():
    state = ["0.6", "0", "-0.8", "0", "0.8", "-0.6", "0", "1.5", "0", "-0.7", "0", "0"]
    out, err, st = run_chartless(["rhs"] + CHAIN + ["--bits", "256"], " ".join(state))
    assert st == 0, err
    assert chain().rhs(state, form="qdot", bits=256, numbers="str") == out.split()


def test_rhs_reads_decimals_and_mpmath_numbers_without_a_double():
    mpmath = pytest.importorskip("mpmath")
    dec = [decimal.Decimal(s) for s in ["0.6", "0", "-0.8", "0", "0.8", "-0.6", "0", "1.5", "0", "-0.7", "0", "0"]]
    by_text = chain().rhs([str(d) for d in dec], form="qdot", bits=256, numbers="str")
    assert chain().rhs(dec, form="qdot", bits=256, numbers="str") == by_text
    with mpmath.workprec(256):
        third = mpmath.mpf(1) / 3  # not a double: read through one, the field would differ at 256 bits
        exact = chartless.System("chain", n=1).rhs([0, 0, -1, third, 0, 0], form="qdot", bits=256)
        rounded = chartless.System("chain", n=1).rhs([0, 0, -1, float(third), 0, 0], form="qdot", bits=256)
        assert exact[5] == third ** 2  # |qdot|^2 with every bit: -|v|^2 q along e3
    assert all(isinstance(v, mpmath.mpf) for v in exact)
    assert exact != rounded


def test_errors_carry_the_command_lines_message():
    _, err, st = run_chartless(["rhs"] + CHAIN, "1 2 3")
    assert st == 2
    with pytest.raises(chartless.ChartlessError) as e:
        chain().rhs([1, 2, 3], form="qdot")
    assert "error: " + e.value.message == err.strip()
    _, err, st = run_chartless(["rhs", "--system", "chain", "--mass", "2"], " ".join(map(repr, STATE)))
    with pytest.raises(chartless.ChartlessError) as e:
        chartless.System("chain", mass=2).rhs(STATE)
    assert st == 2 and "--mass" in err and "error: " + e.value.message == err.strip()
    with pytest.raises(chartless.ChartlessError, match="form"):
        chain().rhs(STATE, form="velocity")


def test_forms_and_components():
    c = chain()
    assert c.forms == ["qdot", "omega", "mu", "pi"]
    assert c.components("pi")[-3:] == ["pi2.x", "pi2.y", "pi2.z"]
    assert c.dim("qdot") == 12


def test_equilibria_as_the_command_line_names_them():
    out, err, st = run_chartless(["equilibria"] + CHAIN)
    assert st == 0, err
    eqs = chain().equilibria(form="qdot")
    names = [line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("equilibrium ")]
    assert [e["name"] for e in eqs] == names
    for e in eqs:
        assert len(e["eigenvalues"]) == e["dimension"] == 8
        assert len(e["state"]) == 12
    # the hanging chain: every eigenvalue on the imaginary axis (to rounding)
    assert max(abs(re) for re, im in eqs[0]["eigenvalues"]) < 2 ** -40


def test_stability_verdicts_as_the_command_line_gives_them():
    out, err, st = run_chartless(["stability"] + CHAIN)
    assert st == 0, err
    want = ["stable" if "verdict: stable" in line else "inconclusive" for line in out.splitlines() if "verdict:" in line]
    got = chain().stability(form="qdot")
    assert [e["verdict"] for e in got] == want and want[0] == "stable"
    assert got[0]["definite"] == 1 and got[0]["positive"] == got[0]["dimension"]


def test_simulate_returns_named_columns():
    table = chain().simulate(STATE, t=0.1, form="qdot", integrator="gauss", h=0.01, frame=False)
    assert table.dtype.names[:3] == ("t", "q1.x", "q1.y") and "energy" in table.dtype.names
    assert table["t"][-1] == pytest.approx(0.1) and len(table) == 11
    drift = np.max(np.abs(table["energy"] - table["energy"][0]))
    assert drift < 1e-6


def test_model_from_a_path_and_from_its_text_agree():
    path = os.path.join(ROOT, "models", "spring.model")
    state = [0, 0, -1, 0.6, 0, -0.8, 1, 0, 0, 0, 1, 0]
    a = chartless.Model(path).rhs(state)
    b = chartless.Model(open(path).read()).rhs(state)
    assert np.array_equal(a, b)
    with pytest.raises(chartless.ChartlessError):
        chartless.Model("manifold nonsense\n").rhs(state)


def test_oracle_of_a_model():
    rows = chartless.Model(os.path.join(ROOT, "models", "spring.model")).oracle(bits=[53])
    assert rows and all("name" in r for r in rows)


def test_sweep_is_the_command_lines_map():
    out, err, st = run_chartless(["sweep", "--system", "chain", "--n", "1", "--x", "g=1:10:3"])
    assert st == 0, err
    rows = [l.split(",") for l in out.splitlines() if not l.startswith("#")]
    cells = chartless.System("chain", n=1).sweep("g=1:10:3")
    assert [c["hanging.verdict"] for c in cells] == [r[rows[0].index("hanging.verdict")] for r in rows[1:]] == ["stable"] * 3
    assert [c["g"] for c in cells] == [1.0, 5.5, 10.0] and cells[2]["cell"] == 2
