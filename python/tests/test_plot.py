"""simulate() as a pandas DataFrame, the bodies placed by the library, and
the matplotlib figures and animations of chartless.plot."""
import shutil
import subprocess

import numpy as np
import pytest

import chartless
import chartless.plot as plot

STATE = [0.6, 0, -0.8, 0, 0.8, -0.6, 0, 1.5, 0, -0.7, 0, 0]
L = (1.0, 0.5)
EPS = 2.0 ** -52


@pytest.fixture(scope="module")
def chain():
    return chartless.System("chain", n=2, m=[1, 2], l=list(L))


@pytest.fixture(scope="module")
def run(chain):
    return chain.simulate(STATE, t=0.5, form="qdot", integrator="gauss", h=0.01)


def test_simulate_is_a_dataframe_with_the_arrays_numbers(chain, run):
    pandas = pytest.importorskip("pandas")
    table = chain.simulate(STATE, t=0.5, form="qdot", integrator="gauss", h=0.01, frame=False)
    assert isinstance(run, pandas.DataFrame) and run.attrs == {"form": "qdot", "bits": 53}
    assert list(run.columns) == list(table.dtype.names)
    for c in table.dtype.names:
        assert np.array_equal(run[c].to_numpy(), table[c])


def test_bodies_of_a_chain_are_its_masses(chain, run):
    pts = chain.bodies(run)
    q1 = np.column_stack([run["q1." + a] for a in "xyz"])
    q2 = np.column_stack([run["q2." + a] for a in "xyz"])
    assert pts.shape == (len(run), 2, 3)
    assert np.max(np.abs(pts[:, 0] - L[0] * q1)) <= 4 * EPS
    assert np.max(np.abs(pts[:, 1] - (L[0] * q1 + L[1] * q2))) <= 8 * EPS


def test_bodies_refused_where_the_system_does_not_place_them():
    with pytest.raises(chartless.ChartlessError, match="bodies"):
        chartless.System("skate").bodies([0, 5, 0, 0, 1])


def test_simulation_figure_draws_every_component_and_the_energy_error(chain, run):
    fig = plot.simulation(chain, run)
    axes = fig.get_axes()
    drawn = [line.get_label() for ax in axes[:-1] for line in ax.get_lines()]
    assert drawn == chain.components("qdot")
    assert [ax.get_ylabel() for ax in axes] == ["q1", "q2", "qdot1", "qdot2", "|E - E0|/|E0|"]
    assert axes[-1].get_yscale() == "log"


def test_simulation_figure_groups_by_factor_without_dots():
    skate = chartless.System("skate")
    run = skate.simulate([0, 5, 0, 0, 1], t=0.2, h=0.01, integrator="rk4")
    labels = [ax.get_ylabel() for ax in plot.simulation(skate, run).get_axes()]
    assert labels[:2] == ["v", "Gamma"]


def test_phase_portrait_pairs_configuration_and_velocity(chain, run):
    axes = plot.phase_portrait(chain, run).get_axes()
    pairs = [line.get_label() for ax in axes if ax.get_visible() for line in ax.get_lines()]
    assert pairs[0] == "q1.x, qdot1.x" and len(pairs) == 6
    with pytest.raises(chartless.ChartlessError, match="phase portrait"):
        skate = chartless.System("skate")
        plot.phase_portrait(skate, skate.simulate([0, 5, 0, 0, 1], t=0.05, h=0.01, integrator="rk4"))


def test_trajectory_3d_draws_each_body_and_the_links(chain, run):
    ax = plot.trajectory_3d(chain, run).get_axes()[0]
    lines = ax.get_lines()
    assert [l.get_label() for l in lines[:2]] == ["body 1", "body 2"]
    assert np.allclose(lines[-1].get_data_3d()[2], [0, chain.bodies(run)[-1, 0, 2], chain.bodies(run)[-1, 1, 2]])


@pytest.mark.skipif(not shutil.which("ffprobe"), reason="ffmpeg is not installed (Debian: ffmpeg)")
def test_animation_as_mp4_has_its_frames(chain, run, tmp_path):
    path = plot.animate(chain, run, str(tmp_path / "chain.mp4"), frames=12, dpi=40)
    probe = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                            "stream=codec_name,nb_read_frames", "-of", "csv=p=0", path], capture_output=True, text=True)
    assert probe.stdout.strip() == "h264,12", probe.stderr


def test_animation_as_gif_and_a_wrong_extension(chain, run, tmp_path):
    image = pytest.importorskip("PIL.Image")
    path = plot.animate(chain, run, str(tmp_path / "chain.gif"), frames=8, dpi=40)
    assert image.open(path).n_frames == 8
    with pytest.raises(chartless.ChartlessError, match="mp4 or .gif"):
        plot.animate(chain, run, str(tmp_path / "chain.avi"))
