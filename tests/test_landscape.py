"""`simulate landscape`: every style as one seat against a table of every other, read as a
meta-game — α-Rank and Nash on hand-made matrices with known answers, the verdicts' rules
(dominance needs both directions, a cycle needs every link after the family correction),
and the toy throw game whose landscape is known in closed form (a rock-paper-scissors
cycle; a dominant throw)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

import engines
from analysis.cli import main
from analysis.run import experiments, landscape
from analysis.stats import metagame, verdicts
from tests.toy_games import THROW, THROW_EDGE

RPS = np.array([[1.0, 0.4, 1.6],   # rock: loses to paper, beats scissors
                [1.6, 1.0, 0.4],   # paper
                [0.4, 1.6, 1.0]])  # scissors


@pytest.fixture
def throw(monkeypatch):
    """The toy throw game registered for the runner (played in this process, jobs=1)."""
    monkeypatch.setitem(engines.GAMES, THROW.name, THROW)
    return THROW


def styles(*names: str) -> tuple[str, ...]:
    return tuple(f"heuristic:{n}" for n in names)


# --- α-Rank and Nash on hand-made matrices ------------------------------------------------------


def test_alpharank_and_nash_of_rock_paper_scissors_are_uniform():
    assert np.allclose(metagame.alpharank(RPS), 1 / 3)
    assert np.allclose(metagame.nash(RPS), 1 / 3, atol=1e-9)


def test_a_dominant_row_takes_all_the_mass():
    payoffs = np.array([[1.0, 1.5, 1.3],
                        [0.5, 1.0, 1.2],
                        [0.7, 0.8, 1.0]])
    assert metagame.alpharank(payoffs)[0] > 1 - 1e-9
    assert np.allclose(metagame.nash(payoffs), [1, 0, 0], atol=1e-9)


def test_alpharank_of_two_styles_is_the_ratio_of_fixation_probabilities():
    # two states: π0 / π1 = ρ(0 invades 1) / ρ(1 invades 0), with the Moran fixation
    # probability ρ(u) = (1 − e^−u) / (1 − e^−mu) of the local selection model
    payoffs = np.array([[1.0, 1.02], [0.98, 1.0]])
    alpha, m = 2.0, 10
    u = alpha * (payoffs[0, 1] - payoffs[1, 0])

    def rho(x):
        return (1 - np.exp(-x)) / (1 - np.exp(-m * x))

    pi = metagame.alpharank(payoffs, alpha, m)
    assert pi[0] / pi[1] == pytest.approx(rho(u) / rho(-u), rel=1e-9)


def test_fixation_probability_stays_finite_at_large_selection():
    rho = metagame._fixation(np.array([-1e4, -50.0, 0.0, 50.0, 1e4]), 50)
    assert np.isfinite(rho).all() and (rho >= 0).all()
    assert rho[2] == pytest.approx(1 / 50) and rho[-1] == pytest.approx(1.0)


def test_nash_of_an_unequal_cycle_is_an_equilibrium():
    # rock beats scissors by a lot, the other two links by a little: no pure strategy may
    # do better than the mixture against it (the zero-sum game's value is 0)
    payoffs = np.array([[1.0, 0.9, 1.8],
                        [1.1, 1.0, 0.9],
                        [0.2, 1.1, 1.0]])
    x = metagame.nash(payoffs)
    game = metagame.zero_sum(payoffs)
    assert (x @ game >= -1e-9).all()
    assert (x > 0).all() and not np.allclose(x, 1 / 3)


def test_simple_cycles_finds_each_ring_once_shortest_first():
    edges = np.zeros((4, 4), dtype=bool)
    for a, b in [(0, 1), (1, 2), (2, 0), (2, 3), (3, 2)]:
        edges[a, b] = True
    assert metagame.simple_cycles(edges) == [(2, 3), (0, 1, 2)]


# --- verdicts on hand-made cells -------------------------------------------------------------


def cells_of(ratios: dict[tuple[str, str], tuple[float, float]], players: int = 2
             ) -> pd.DataFrame:
    """Cells with given (ratio, raw p): intervals ±0.1 around the ratio."""
    fair = 1 / players
    rows = [{"style": s, "table": t, "win_share": r * fair, "fair": fair, "ratio": r,
             "ratio_low": r - 0.1, "ratio_high": r + 0.1, "p_value": p}
            for (s, t), (r, p) in ratios.items()]
    return metagame.adjusted(pd.DataFrame(rows))


def nash_table(names, weights):
    return metagame.mixture_table(names, np.asarray(weights, dtype=float), np.empty((0, 3)),
                                  "nash")


def test_dominance_needs_every_other_style_below_fair_at_its_table():
    names = ["a", "b", "c"]
    strong = {("a", "b"): (1.5, 1e-6), ("a", "c"): (1.5, 1e-6), ("b", "a"): (0.6, 1e-6),
              ("c", "a"): (0.6, 1e-6), ("b", "c"): (1.0, 0.9), ("c", "b"): (1.0, 0.9)}
    verdict = verdicts.dominance(cells_of(strong), names, nash_table(names, [1, 0, 0]), 0)
    assert verdict.claim.startswith("dominant strategy: a — ")
    weak = {**strong, ("c", "a"): (0.9, 0.3)}  # c is not shown to lose at a's table
    verdict = verdicts.dominance(cells_of(weak), names, nash_table(names, [1, 0, 0]), 0)
    assert "dominant strategy:" not in verdict.claim
    assert verdict.claim.startswith("no dominant strategy shown; 1 style in the equilibrium "
                                    "support (a)")
    assert "cannot tell for a" in verdict.claim


def test_a_cycle_is_said_only_when_every_link_survives_the_family_correction():
    names = ["r", "p", "s"]
    ring = {("r", "s"): (1.6, 1e-6), ("s", "p"): (1.6, 1e-6), ("p", "r"): (1.6, 1e-6),
            ("s", "r"): (0.4, 1e-6), ("p", "s"): (0.4, 1e-6), ("r", "p"): (0.4, 1e-6)}
    [cycle] = verdicts.strategy_cycles(cells_of(ring), names)
    assert cycle.claim.startswith("cycle r > s > p > r (r at s's table 1.60x fair [1.50, 1.70]")
    assert cycle.claim.endswith("each significant after Holm over the 6 cells")
    # links at raw p = 0.02 are significant alone, not after Holm over the six cells
    # (the three largest p-values of the family: 3 x 0.02 > 0.05)
    weak = {**ring, **{key: (1.2, 0.02) for key in [("r", "s"), ("s", "p"), ("p", "r")]}}
    assert verdicts.strategy_cycles(cells_of(weak), names) == []


def test_alpharank_names_as_tied_only_intervals_that_reach_past_the_leaders_low_end():
    boot = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]] * 20)
    table = metagame.mixture_table(["a", "b", "c"], np.array([1.0, 0.0, 0.0]), boot, "mass")
    verdict = verdicts.alpharank_top(table, 100, 50, len(boot))
    assert "puts the most mass on a: 1.00 [0.00, 1.00]" in verdict.claim
    assert verdict.items == ("a", "b")  # c's [0, 0] only touches a's interval at 0
    even = metagame.mixture_table(["a", "b"], np.array([0.5, 0.5]), np.full((5, 2), 0.5),
                                  "mass")
    assert verdicts.alpharank_top(even, 100, 50, 5).items == ("a", "b")


# --- the toy throw game: a known landscape ------------------------------------------------------


def run(spec: landscape.LandscapeSpec, tmp_path, name: str = "l") -> landscape.Analysis:
    return landscape.analyse(landscape.run_landscape(spec, tmp_path / name, jobs=1))


def spec_of(names: tuple[str, ...], **kw) -> landscape.LandscapeSpec:
    return landscape.LandscapeSpec(game="toy-throw", players=2, games=kw.pop("games", 80),
                                   seed=kw.pop("seed", 3), styles=names,
                                   bootstrap=kw.pop("bootstrap", 50), **kw)


def test_rock_paper_scissors_landscape_reports_the_cycle_and_a_uniform_mixture(throw,
                                                                              tmp_path):
    analysis = run(spec_of(styles("rock", "paper", "scissors")), tmp_path)
    matrix = analysis.matrix()
    wins = matrix.loc["heuristic:rock", "heuristic:scissors"]
    assert 2 * THROW_EDGE - 0.3 < wins < 2 * THROW_EDGE + 0.3  # 1.6x fair in closed form
    assert matrix.loc["heuristic:scissors", "heuristic:rock"] == pytest.approx(2 - wins)
    lines = analysis.lines()
    assert lines[0].startswith("no dominant strategy; 3 styles in the equilibrium support")
    assert ("cycle heuristic:rock > heuristic:scissors > heuristic:paper > heuristic:rock"
            in lines[1])
    nash = analysis.nash.set_index("style")["nash"]
    assert np.allclose(nash, 1 / 3, atol=0.05)
    assert (analysis.nash["support"] == 1.0).all()  # in every bootstrap replicate
    assert np.allclose(analysis.alpharank["mass"], 1 / 3, atol=0.05)


def test_a_dominant_throw_is_reported_as_the_dominant_strategy(throw, tmp_path):
    analysis = run(spec_of(styles("rock", "paper", "dynamite")), tmp_path)
    lines = analysis.lines()
    assert lines[0].startswith("dominant strategy: heuristic:dynamite — ")
    assert not any(line.startswith("cycle") for line in lines)  # rock < paper: no ring
    top = analysis.nash.iloc[0]
    assert top["style"] == "heuristic:dynamite" and top["nash"] == pytest.approx(1.0)
    assert analysis.alpharank.iloc[0]["style"] == "heuristic:dynamite"


def test_every_cell_plays_the_same_deals(throw, tmp_path):
    result = landscape.run_landscape(spec_of(styles("rock", "paper", "scissors"), games=20),
                                     tmp_path / "l", jobs=1)
    seeds = {key: frozenset(frame["seed"]) for key, frame in result.frames.items()}
    assert len(seeds) == 6 and len(set(seeds.values())) == 1


def test_bootstrap_is_reproducible_from_the_seed(throw, tmp_path):
    spec = spec_of(styles("rock", "paper", "dynamite"), games=20, bootstrap=30)
    first = run(spec, tmp_path)
    again = landscape.analyse(landscape.load_landscape(tmp_path / "l"))
    assert np.array_equal(first.solutions.nash_boot, again.solutions.nash_boot)
    assert first.lines() == again.lines()


# --- the command -------------------------------------------------------------------------------


def test_landscape_cli_prints_verdicts_writes_a_report_and_resumes(throw, tmp_path, capsys):
    out, report = tmp_path / "land", tmp_path / "land.html"
    argv = ["landscape", "toy-throw", "--styles", "heuristic:rock,heuristic:paper,"
            "heuristic:scissors", "--games", "80", "--seed", "3", "--bootstrap", "20",
            "--jobs", "1", "--out", str(out), "--report", str(report), "-q"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "no dominant strategy; 3 styles in the equilibrium support" in text
    assert "cycle heuristic:rock > heuristic:scissors" in text
    page = report.read_text()
    assert "Strategy landscape: toy-throw 2p" in page and "data:image/png;base64" in page
    assert "α-Rank stationary distribution" in page and "Nash mixture" in page
    parts = sorted(out.rglob("*.parquet"))
    stamps = [p.stat().st_mtime_ns for p in parts]
    assert main(["landscape", "toy-throw", "--resume", str(out), "-q"]) == 0
    assert "cycle heuristic:rock > heuristic:scissors" in capsys.readouterr().out
    assert [p.stat().st_mtime_ns for p in parts] == stamps  # nothing replayed
    assert main(["landscape", "toy-throw", "--resume", str(out), "--seed", "4"]) == 2
    assert "--seed 4 differs" in capsys.readouterr().err
    elsewhere = tmp_path / "elsewhere"
    assert main(["landscape", "toy-throw", "--resume", str(out), "--out", str(elsewhere)]) == 2
    assert "finishes the landscape in place; drop --out" in capsys.readouterr().err
    assert not elsewhere.exists()
    other = [a if a != "3" else "9" for a in argv]
    assert main(other) == 2
    assert "holds a different landscape" in capsys.readouterr().err


def test_an_interrupted_landscape_is_finished_where_it_stopped(throw, tmp_path):
    spec = spec_of(styles("rock", "paper", "scissors"), games=20)
    full = run(spec, tmp_path, "full")
    partial = tmp_path / "partial"
    landscape.run_landscape(dataclasses.replace(spec), partial, jobs=1)
    victim = partial / "heuristic_scissors"  # one table's check lost entirely
    for path in sorted(victim.rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    victim.rmdir()
    finished = landscape.analyse(landscape.run_landscape(spec, partial, jobs=1))
    assert finished.matrix().equals(full.matrix())


# --- experiment files --------------------------------------------------------------------------


def test_a_landscape_table_in_an_experiment_file_plays_and_joins_the_report(throw, tmp_path,
                                                                            capsys):
    path = tmp_path / "exp.toml"
    path.write_text("""
name = "land"
seed = 4
[[landscape]]
game = "toy-throw"
styles = ["heuristic:rock", "heuristic:paper", "heuristic:scissors"]
games = 40
bootstrap = 20
""")
    experiment = experiments.load(path, out_root=tmp_path)
    [(where, spec)] = experiment.landscapes
    assert spec.players == 2 and spec.seed == 4 and experiments.total_games(experiment) == 240
    assert main(["run", str(path), "--out", str(tmp_path), "--jobs", "1", "-q"]) == 0
    page = (tmp_path / "land" / "report.html").read_text()
    assert "Strategy landscape: toy-throw 2p" in page
    assert "Holm over the report&#x27;s 6 tests" in page
    assert (where / landscape.LANDSCAPE_FILE).is_file()


@pytest.mark.parametrize("table, message", [
    ("game = 'toy-throw'\nstyles = ['heuristic:rock']", "at least two styles"),
    ("game = 'toy-throw'\nstyle = ['heuristic:rock']", "unknown key 'style'"),
    ("game = 'toy-throw'\nstyles = 'heuristic:rock'", "styles must be a list"),
    ("game = 'toy-throw'\nstyles = ['heuristic:rock', 'nosuch']", "unknown bot"),
])
def test_bad_landscape_tables_are_refused_before_any_game(throw, tmp_path, table, message):
    path = tmp_path / "exp.toml"
    path.write_text(f"[[landscape]]\n{table}\n")
    with pytest.raises(engines.errors.BadInput, match=message):
        experiments.load(path, out_root=tmp_path)
