#!/usr/bin/env python3
"""Writes the notebooks of this folder from the cells below (stored without
outputs; tests/test_notebooks.sh executes them). Run it after editing a cell:
    python3 notebooks/make_notebooks.py
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def notebook(name, cells):
    out = []
    for k, (kind, text) in enumerate(cells):
        cell = {"cell_type": kind, "id": "%s-%d" % (name, k), "metadata": {}, "source": text.strip("\n").splitlines(True)}
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        out.append(cell)
    return {"cells": out, "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                                       "language_info": {"name": "python"}}, "nbformat": 4, "nbformat_minor": 5}


FIRST = [
    ("markdown", r"""
# The first assignment in Python

The double spherical pendulum in $(q, \pi)$ (`docs/first_assignment.md`): derive Hamilton's
equations, code the field as a Python function, and let chartless grade it component by
component, at $m = (1, 2)$, $l = (1, 0.5)$ and again at random unequal parameters.

With $R_{ij} = M_{ij} l_i l_j S(q_i)^T S(q_j)$ ($R_{ii} = M_{ii} l_i^2$ on vectors normal to $q_i$),
$M_{ij} = \sum_{k \ge \max(i,j)} m_k$: $\pi = R(q)\,\omega$, $\dot q_i = \omega_i \times q_i$ and
$\dot\pi = \dot R\,\omega + R\,\dot\omega$, where $R\dot\omega$ is the right-hand side of the
$(q, \omega)$ equations [S2 (40)].
"""),
    ("code", r"""
import numpy as np
import chartless

E3 = np.array([0.0, 0.0, 1.0])

def hat(v):
    return np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])

def chain_pi(x, p, gravity=None):
    q, m, l, g = [x[0:3], x[3:6]], p["m"], p["l"], p["g"]
    M = np.array([[m[0] + m[1], m[1]], [m[1], m[1]]])
    S = [hat(q[0]), hat(q[1])]
    A = np.zeros((6, 6))
    for i in range(2):
        for j in range(2):
            A[3*i:3*i+3, 3*j:3*j+3] = M[i, j] * l[i] * l[j] * (np.eye(3) if i == j else S[i].T @ S[j])
    w = np.linalg.solve(A, x[6:12])
    qd = [np.cross(w[3*i:3*i+3], q[i]) for i in range(2)]
    Sd = [hat(v) for v in qd]
    b = np.zeros(6)
    for i in range(2):
        j = 1 - i
        f, wj = M[i, j] * l[i] * l[j], w[3*j:3*j+3]
        mg = gravity(m, l, g, i) if gravity else sum(m[k] for k in range(i, 2)) * g * l[i]
        b[3*i:3*i+3] = f * wj.dot(wj) * S[i] @ q[j] + mg * np.cross(E3, q[i]) + f * (Sd[i].T @ S[j] + S[i].T @ Sd[j]) @ wj
    return np.concatenate([qd[0], qd[1], b])
"""),
    ("markdown", "Grade it: every component of $\\dot x$ against the reference computed in MPFR at 256 bits."),
    ("code", r"""
chain = chartless.System("chain", n=2, m=[1, 2], l=[1, 0.5], g=9.81)
result = chartless.grade(chain, "pi", chain_pi)
print(result.report)
assert result.passed
"""),
    ("markdown", r"""
## A planted mistake

The printed (42) has the gravity coefficient $\sum_j m_j g l_j$ for both links; the derived one is
$M_{ii} g l_i$. The grader says which components are wrong, where, and that the states where
everything agrees are the equilibria (links vertical, no torque).
"""),
    ("code", r"""
printed = lambda m, l, g, i: sum(m[k] * g * l[k] for k in range(2))
wrong = chartless.grade(chain, "pi", lambda x, p: chain_pi(x, p, gravity=printed))
print("\n".join(line for line in wrong.report.splitlines() if "WRONG" in line or line.startswith(("hint", "states", "FAIL"))))
assert not wrong.passed
assert [c["name"] for c in wrong["parts"][0]["components"] if c["verdict"] == "wrong"] == ["pi1.x", "pi1.y", "pi2.x", "pi2.y"]
"""),
]

OWN = [
    ("markdown", r"""
# Check your own derivation

A model file (`models/spring.model`: two masses on spheres joined by a spring) gives chartless
the Lagrangian; you derive the field by hand, here the $(q, \omega)$ form, write it as a
Python function and compare it with the field chartless derives itself.
"""),
    ("code", r"""
import os
import numpy as np
import chartless

spring = chartless.Model(os.path.join(os.environ.get("CHARTLESS_ROOT", ".."), "models", "spring.model"))
print(spring.forms, spring.components("omega"))
"""),
    ("markdown", r"""
$U = \tfrac12 k (|q_1 - q_2| - r_0)^2 + g (m_1 q_{1,z} + m_2 q_{2,z})$, so with $d = q_1 - q_2$ and
$s = k (1 - r_0/|d|)$ the forces are $F_1 = -s d - m_1 g e_3$ and $F_2 = s d - m_2 g e_3$, and
$m_i \dot\omega_i = q_i \times F_i$.
"""),
    ("code", r"""
E3 = np.array([0.0, 0.0, 1.0])

def spring_omega(x, p, spring_sign=1.0):
    q1, q2, w1, w2 = x[0:3], x[3:6], x[6:9], x[9:12]
    d = q1 - q2
    s = p["k"] * (1 - p["r0"] / np.linalg.norm(d))
    return np.concatenate([np.cross(w1, q1), np.cross(w2, q2),
                           np.cross(q1, -s * d - p["m1"] * p["g"] * E3) / p["m1"],
                           np.cross(q2, spring_sign * s * d - p["m2"] * p["g"] * E3) / p["m2"]])

ok = chartless.grade(spring, "omega", spring_omega)
print(ok.report.splitlines()[-1])
assert ok.passed
"""),
    ("markdown", "The same derivation with the sign of the spring force on mass 2 flipped: only $\\dot\\omega_2$ is wrong."),
    ("code", r"""
bad = chartless.grade(spring, "omega", lambda x, p: spring_omega(x, p, spring_sign=-1.0))
print("\n".join(l for l in bad.report.splitlines() if "WRONG" in l or l.startswith("hint")))
assert not bad.passed
"""),
    ("markdown", "The equilibria chartless finds for the model, linearized, and the Energy-Casimir verdicts:"),
    ("code", r"""
for e in spring.stability(form="omega"):
    print(e["index"], e["name"], e["verdict"], "inertia", (e["positive"], e["negative"], e["zero"]))
"""),
]

LADDER = [
    ("markdown", r"""
# The precision ladder

chartless evaluates every field in MPFR at any precision. The same vector field of the double
pendulum at 53, 113, 256 and 1024 bits: each rung agrees with the next to about its own
precision, which is how the oracle (`chartless oracle`) tells an error of derivation from
rounding.
"""),
    ("code", r"""
import mpmath
import chartless

chain = chartless.System("chain", n=2, m=[1, 2], l=[1, "0.5"])
state = ["0.6", "0", "-0.8", "0", "0.8", "-0.6", "0", "1.5", "0", "-0.7", "0", "0"]
rungs = [53, 113, 256, 1024]
values = {b: chain.rhs(state, form="qdot", bits=b, numbers="mpmath") for b in rungs}
mpmath.mp.prec = 1100
for lo, hi in zip(rungs, rungs[1:]):
    diff = max(abs(mpmath.mpf(a) - mpmath.mpf(b)) for a, b in zip(values[lo], values[hi]))
    print("%4d vs %4d bits: max difference 2^%.1f" % (lo, hi, float(mpmath.log(diff, 2)) if diff else float("-inf")))
    assert diff == 0 or mpmath.log(diff, 2) < -lo + 8
print(mpmath.nstr(values[1024][9], 60))
"""),
    ("markdown", "A short simulation in double and in quadruple precision (the adaptive Fehlberg 7(8), its tolerance following the precision): the energy error of each, and how far the final states are apart."),
    ("code", r"""
x0 = [0.6, 0, -0.8, 0, 0.8, -0.6, 0, 1.5, 0, -0.7, 0, 0]
runs = {bits: chain.simulate(x0, t=1, form="qdot", bits=bits, numbers="str", every=100) for bits in (53, 113)}
for bits, run in runs.items():
    print("%3d bits: |E - E0|/|E0| at t = 1: %s" % (bits, mpmath.nstr(mpmath.mpf(run["|E-E0|/|E0|"][-1]), 3)))
gap = max(abs(mpmath.mpf(runs[53][c][-1]) - mpmath.mpf(runs[113][c][-1])) for c in chain.components("qdot"))
print("the final states differ by %.1e: the error of the double-precision run" % float(gap))
assert 0 < gap < 1e-6
"""),
]


SKATE = [
    ("markdown", r"""
# A stability map of the skate

The spinning equilibrium (41) of the pendulum skate (the paper's Sec. 7.2 skate: $m = 2$,
$l = 0.8$, $g = 9.8$, $I_1 = 0.35$, $I_3 = 0.004$) over its spin rate $\Omega_0$ and its
asymmetry $\mathrm{asym} = (I_2 - I_3)/I_3$. chartless decides every cell by the Energy-Casimir
test of App. A.1 and the Jacobian of (38), knowing nothing of the closed form (42),
$|\Omega_0| > \sqrt{m g l / (I_3 + m l^2 - I_2)}$, which is drawn over the map: with $I_2 = I_3 (1 + \mathrm{asym})$
it is the curve $\mathrm{asym} = (m l^2 - m g l / \Omega_0^2) / I_3$.
"""),
    ("code", r"""
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import chartless

skate = chartless.System("skate")
cells = pd.DataFrame(skate.sweep("Omega0=0.5:10:48", "asym=1:400:40"))
print(cells["verdict"].value_counts().to_string())
cells.head()
"""),
    ("code", r"""
m, l, g, I1, I3 = 2, 0.8, 9.8, 0.35, 0.004
I2 = I3 * (1 + cells["asym"])
K = (I3 + m * l**2 - I2) * cells["Omega0"]**2 - m * g * l
closed_stable = K > 0                                   # (42)
decided = cells["verdict"] != "undecided"
disagree = decided & ((cells["verdict"] == "stable") != closed_stable)
print("decided cells: %d of %d; verdicts against (42): %d disagree" % (decided.sum(), len(cells), disagree.sum()))
assert disagree.sum() == 0 and decided.sum() >= len(cells) - 2

# The margin min|eig| / max|eig| of the restricted Hessian, whose eigenvalues are
# I1 + m l^2 and K / (1 + 4 l^2 Omega0^2) in closed form.
eig = np.abs(np.column_stack([np.full(len(cells), I1 + m * l**2), K / (1 + 4 * l**2 * cells["Omega0"]**2)]))
closed_margin = eig.min(axis=1) / eig.max(axis=1)
print("largest difference of the margins: %.1e" % np.max(np.abs(cells["margin"] - closed_margin)))
assert np.max(np.abs(cells["margin"] - closed_margin)) < 4096 * 2.0**-52
"""),
    ("code", r"""
colours = {"stable": "tab:green", "unstable": "tab:red", "undecided": "black"}
fig, ax = plt.subplots(figsize=(7, 5))
for verdict, group in cells.groupby("verdict"):
    ax.scatter(group["Omega0"], group["asym"], s=9, marker="s", color=colours[verdict], label=verdict)
w = np.linspace(np.sqrt(g / l) * 1.0001, 10, 400)
ax.plot(w, (m * l**2 - m * g * l / w**2) / I3, color="black", lw=2, label="(42)")
ax.set_xlabel("spin rate $\\Omega_0$")
ax.set_ylabel("asym $= (I_2 - I_3)/I_3$")
ax.set_ylim(0, 410)
ax.legend(loc="upper left")
ax.set_title("skate: the spinning equilibrium (41)");
"""),
]

PLOTS = [
    ("markdown", r"""
# A simulation, its figures and its animation

The double spherical pendulum ($m = (1, 2)$, $l = (1, 0.5)$) in the $(q, \dot q)$ form, integrated
by the 2-stage Gauss-Legendre method: the run is a pandas DataFrame, one row per step, and
`chartless.plot` draws what `chartless simulate --plot` draws: every component by factor with the
energy error, the phase portrait, and the masses in space (placed by the library, `System.bodies`).
"""),
    ("code", r"""
import os
import tempfile
import chartless
import chartless.plot

chain = chartless.System("chain", n=2, m=[1, 2], l=[1, 0.5])
x0 = [0.6, 0, -0.8, 0, 0.8, -0.6, 0, 1.5, 0, -0.7, 0, 0]
run = chain.simulate(x0, t=3, form="qdot", integrator="gauss", h=0.01)
print(type(run).__name__, run.shape, run.attrs)
run[["t", "q1.x", "q1.y", "q1.z", "energy", "|E-E0|/|E0|"]].iloc[::60]
"""),
    ("code", r"""
assert run["|E-E0|/|E0|"].max() < 1e-5
chartless.plot.simulation(chain, run);
"""),
    ("code", r"""
chartless.plot.phase_portrait(chain, run);
"""),
    ("code", r"""
chartless.plot.trajectory_3d(chain, run);
"""),
    ("markdown", "The same motion as a film: an MP4 through ffmpeg (an animated GIF with `.gif`)."),
    ("code", r"""
import shutil, subprocess
path = chartless.plot.animate(chain, run, os.path.join(tempfile.mkdtemp(), "chain.mp4"), frames=60)
probe = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                        "stream=codec_name,width,height,nb_read_frames", "-of", "default=nw=1", path],
                       capture_output=True, text=True).stdout
print(os.path.basename(path), os.path.getsize(path), "bytes")
print(probe)
assert "nb_read_frames=60" in probe
"""),
]

NOTEBOOKS = (("first_assignment", FIRST), ("own_derivation", OWN), ("skate_map", SKATE), ("precision_ladder", LADDER),
             ("simulate_and_plot", PLOTS))
for name, cells in NOTEBOOKS:
    with open(os.path.join(HERE, name + ".ipynb"), "w") as f:
        json.dump(notebook(name, cells), f, indent=1)
        f.write("\n")
