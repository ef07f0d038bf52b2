"""Figures of a simulation with matplotlib: the pictures of ``chartless
simulate --plot`` from Python.

- :func:`simulation`: every component of the state, a panel per factor
  (``q1``, ``qdot2``, ``Gamma``), and the energy error on a panel of its own
  when the run has one;
- :func:`phase_portrait`: each configuration component against its
  velocity, when the state is a configuration and a velocity of one shape;
- :func:`trajectory_3d`: the bodies in space (the masses of a chain, the
  centre of mass of a top on its axis), placed by the library;
- :func:`animate`: that trajectory as an MP4 (ffmpeg, Debian's package) or
  an animated GIF (Pillow).

Each takes the system and a table that ``System.simulate`` returned (a
pandas DataFrame or a numpy structured array, at 53 bits) and returns a
matplotlib Figure (``animate``: the file written).

Examples
--------
>>> import chartless, chartless.plot
>>> chain = chartless.System("chain", n=2)
>>> run = chain.simulate([0.6, 0, -0.8, 0, 0.8, -0.6, 0, 1.5, 0, -0.7, 0, 0], t=2, form="qdot")  # doctest: +SKIP
>>> chartless.plot.simulation(chain, run).savefig("chain.png")  # doctest: +SKIP
"""
import os
import re
import shutil

import numpy as np

from ._lib import ChartlessError

ENERGY_ERROR = "|E-E0|/|E0|"
PANEL_LINES = 9


def _pyplot():
    import matplotlib
    if not matplotlib.get_backend().lower().startswith(("module://", "qt", "tk", "gtk", "wx", "macosx", "nbagg")):
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _column(run, name):
    return np.asarray(run[name], dtype=float)


def _form(run, form):
    return form or getattr(run, "attrs", {}).get("form")


def factor_of(component):
    """The factor a component belongs to, by its name, as ``--plot`` groups
    them: ``"q1.x"`` -> ``"q1"``, ``"R23"`` -> ``"R"``, ``"theta"`` -> ``"theta"``."""
    if "." in component[1:]:
        return component[:component.rindex(".")]
    return re.sub(r"(?<=.)[0-9]+$", "", component)


def panels(names):
    """Runs of components of one factor, at most PANEL_LINES each: a list of (factor, [names])."""
    out = []
    for name in names:
        factor = factor_of(name)
        if out and out[-1][0] == factor and len(out[-1][1]) < PANEL_LINES:
            out[-1][1].append(name)
        else:
            out.append((factor, [name]))
    return out


def simulation(system, run, form=None, title=None):
    """Every component of the state against time, a panel per factor, and
    the relative energy error |E - E0|/|E0| on a panel of its own (log
    scale) when the run has that column.

    Parameters
    ----------
    system : chartless.System or chartless.Model
        The system that was simulated.
    run : pandas.DataFrame or numpy structured array
        What ``system.simulate(...)`` returned.
    form : str, optional
        The form of the run (default: the DataFrame's own, else the system's first).
    title : str, optional
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
    """
    plt = _pyplot()
    groups = panels(system.components(_form(run, form)))
    half = len(groups) // 2 if len(groups) % 2 == 0 and len(groups) > 1 else 0
    cols = 2 if half or len(groups) > 4 else 1
    rows = -(-len(groups) // cols)
    energy = ENERGY_ERROR in _names(run) and np.any(_column(run, ENERGY_ERROR)[1:] > 0)
    fig = plt.figure(figsize=(5 * cols + 1, 1.9 * (rows + energy) + 0.8), constrained_layout=True)
    grid = fig.add_gridspec(rows + energy, cols)
    t = _column(run, "t")
    for k, (factor, names) in enumerate(groups):
        col, row = (k // half, k % half) if half else (k % cols, k // cols)
        ax = fig.add_subplot(grid[row, col])
        for name in names:
            ax.plot(t, _column(run, name), label=name, lw=1)
        ax.set_ylabel(factor)
        ax.legend(fontsize="x-small", loc="upper right", ncol=min(3, len(names)))
    if energy:
        ax = fig.add_subplot(grid[rows, :])
        ax.semilogy(t[1:], np.maximum(_column(run, ENERGY_ERROR)[1:], 1e-300), color="black", lw=1)
        ax.set_ylabel("|E - E0|/|E0|")
        ax.set_xlabel("t")
    fig.suptitle(title or "%s: every component" % _label(system))
    return fig


def phase_portrait(system, run, form=None, title=None):
    """Each configuration component against its velocity (component i
    against i + dim/2), a panel per factor.

    Raises
    ------
    ChartlessError
        When the state is not a configuration and a velocity of one shape
        (the factors of its two halves differ in size).
    """
    plt = _pyplot()
    names = system.components(_form(run, form))
    half = len(names) // 2
    first, second = panels(names[:half]), panels(names[half:])
    if len(names) % 2 or [len(n) for _, n in first] != [len(n) for _, n in second]:
        raise ChartlessError("no phase portrait: the state is not a configuration and a velocity of one shape")
    cols = min(len(first), 3)
    fig, axes = plt.subplots(-(-len(first) // cols), cols, figsize=(4 * cols, 3.6 * -(-len(first) // cols)),
                             squeeze=False, constrained_layout=True)
    for ax, (fq, nq), (fv, nv) in zip(axes.flat, first, second):
        for a, b in zip(nq, nv):
            ax.plot(_column(run, a), _column(run, b), lw=0.8, label="%s, %s" % (a, b))
        ax.set_xlabel(fq)
        ax.set_ylabel(fv)
        ax.legend(fontsize="x-small")
    for ax in list(axes.flat)[len(first):]:
        ax.set_visible(False)
    fig.suptitle(title or "%s: phase portrait" % _label(system))
    return fig


def _scene(ax, points):
    """Equal scales on the three axes around the bodies and the origin."""
    lo = np.minimum(points.reshape(-1, 3).min(axis=0), 0)
    hi = np.maximum(points.reshape(-1, 3).max(axis=0), 0)
    mid, r = (lo + hi) / 2, max((hi - lo).max() / 2, 1e-9)
    for set_lim, m in zip((ax.set_xlim, ax.set_ylim, ax.set_zlim), mid):
        set_lim(m - r, m + r)
    ax.set_box_aspect((1, 1, 1))
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.set_zlabel("z")


def _links(p):
    """The polyline origin - p1 - ... - pk of one state's bodies."""
    return np.vstack([np.zeros(3), p])


def trajectory_3d(system, run, form=None, title=None):
    """The path of every body in space over the run, and the links from
    the origin at the first and the last state (placed by the library,
    ``System.bodies``).

    Raises
    ------
    ChartlessError
        When the system does not say where its bodies are in that form.
    """
    plt = _pyplot()
    pts = system.bodies(run, form=_form(run, form))
    fig = plt.figure(figsize=(6, 6), constrained_layout=True)
    ax = fig.add_subplot(projection="3d")
    for k in range(pts.shape[1]):
        ax.plot(pts[:, k, 0], pts[:, k, 1], pts[:, k, 2], lw=0.8, label="body %d" % (k + 1))
    t = _column(run, "t")
    for row, style in ((0, ":"), (-1, "-")):
        line = _links(pts[row])
        ax.plot(line[:, 0], line[:, 1], line[:, 2], style, color="black", marker="o", ms=4,
                label="t = %.3g" % t[row])
    _scene(ax, pts)
    ax.legend(fontsize="x-small")
    ax.set_title(title or "%s: the bodies in space" % _label(system))
    return fig


def animate(system, run, path, form=None, frames=100, fps=20, dpi=80):
    """The bodies moving, written to `path`: an MP4 through ffmpeg
    (``.mp4``; Debian: ffmpeg) or an animated GIF through Pillow (``.gif``).

    Parameters
    ----------
    frames : int
        Frames drawn, evenly spaced rows of the run.
    fps : int
        Frames per second of the file.

    Returns
    -------
    str
        `path`.

    Raises
    ------
    ChartlessError
        An unknown extension, or ``.mp4`` without ffmpeg on PATH.
    """
    plt = _pyplot()
    from matplotlib import animation
    if path.endswith(".mp4"):
        if not shutil.which("ffmpeg"):
            raise ChartlessError("an MP4 needs ffmpeg (Debian: apt-get install ffmpeg); or write a .gif", 2)
        writer = animation.FFMpegWriter(fps=fps, codec="libx264", extra_args=["-pix_fmt", "yuv420p"])
    elif path.endswith(".gif"):
        writer = animation.PillowWriter(fps=fps)
    else:
        raise ChartlessError("an animation is written as .mp4 or .gif (%s)" % path, 2)
    pts = system.bodies(run, form=_form(run, form))
    t = _column(run, "t")
    rows = np.unique(np.linspace(0, len(pts) - 1, max(2, frames)).round().astype(int))
    fig = plt.figure(figsize=(5, 5))
    ax = fig.add_subplot(projection="3d")
    _scene(ax, pts)
    trails = [ax.plot([], [], [], lw=0.8)[0] for _ in range(pts.shape[1])]
    links, = ax.plot([], [], [], "-o", color="black", ms=4)
    stamp = ax.set_title("")

    def draw(i):
        r = rows[i]
        for k, trail in enumerate(trails):
            trail.set_data_3d(pts[:r + 1, k, 0], pts[:r + 1, k, 1], pts[:r + 1, k, 2])
        line = _links(pts[r])
        links.set_data_3d(line[:, 0], line[:, 1], line[:, 2])
        stamp.set_text("%s, t = %.3f" % (_label(system), t[r]))
        return trails + [links, stamp]
    animation.FuncAnimation(fig, draw, frames=len(rows), blit=False).save(path, writer=writer, dpi=dpi)
    plt.close(fig)
    return path


def _names(run):
    return list(run.columns) if hasattr(run, "columns") else list(run.dtype.names)


def _label(system):
    return os.path.basename(system._source[1])
