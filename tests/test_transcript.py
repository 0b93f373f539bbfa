"""`simulate show` replays any stored game exactly; `simulate play` plays
a whole game from scripted input, re-asks on bad input, and saves a transcript `show` reads."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from analysis.cli import main
from analysis.present import transcript
from analysis.present.play import play
from analysis.results import store
from analysis.run import rebuild, tournament
from analysis.stats import balance
from engines import GAMES, get_game, replay


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A small run of every game (heuristic against random, seats rotating)."""
    out = {}
    for name in sorted(GAMES):
        spec = tournament.RunSpec(game=name, players=3, games=4, bots=("heuristic", "random",
                                  "random"), seed=11)
        run_dir = tmp_path_factory.mktemp(name)
        tournament.run(spec, run_dir, jobs=1)
        out[name] = run_dir
    return out


def _stored_scores(run_dir, index: int) -> list[float]:
    frame = store.load_run(run_dir)
    return [float(s) for s in frame[frame["game_index"] == index].sort_values("seat")["score"]]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_show_reproduces_every_stored_game_exactly(runs, name):
    for index in range(4):
        source = rebuild.from_run(runs[name], index)
        final = replay(get_game(name), source.players, source.seed, source.actions,
                       source.rules)
        assert [float(s) for s in final.scores()] == _stored_scores(runs[name], index)
        text = transcript.to_text(source)
        total = next(line for line in text.splitlines()[::-1] if line.startswith("total"))
        assert [float(x) for x in total.split()[1:]] == _stored_scores(runs[name], index)


def test_show_refuses_a_game_that_no_longer_replays(runs, tmp_path):
    """A changed engine (here: a stored score edited) is reported, not shown as if it matched."""
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    for path in runs["big-cheese"].iterdir():
        (run_dir / path.name).write_bytes(path.read_bytes())
    part = sorted(run_dir.glob("part-*.parquet"))[0]
    table = pq.read_table(part)  # edited and stamped anew, as if the engine had played it
    first = pc.equal(table.column("game_index"), 0)
    score = pc.if_else(first, pc.add(table.column("score"), 1.0), table.column("score"))
    store.write_part(run_dir, 0, table.set_column(table.column_names.index("score"), "score",
                                                  score))
    with pytest.raises(store.RunError, match="engines or bots changed"):
        rebuild.from_run(run_dir, 0)


def test_show_cli_prints_rounds_and_writes_html(runs, tmp_path, capsys):
    page = tmp_path / "game.html"
    code = main(["show", str(runs["ninjato"]), "--game", "2", "--html", str(page)])
    out = capsys.readouterr().out
    assert code == 0
    assert "== round 1 ==" in out and "== round 7 ==" in out and "winner: seat" in out
    source = rebuild.from_run(runs["ninjato"], 2)
    decisions = [line for line in out.splitlines() if line.startswith("seat ") and
                 ("(heuristic):" in line or "(random):" in line)]
    assert len(decisions) == len(source.actions)
    text = page.read_text()
    assert "<script" not in text and "http" not in text
    assert text.count("<div class='step'>") == len(source.actions)
    assert text.count("<details class='view'>") == len(source.actions)
    assert text.count("<summary>round ") == 7


@pytest.mark.parametrize("criterion", ["largest-margin", "closest", "longest", "shortest",
                                       "seat-1-wins"])
def test_pick_chooses_the_game_that_fits(runs, criterion):
    frame = store.load_run(runs["time-pirates"])
    index = transcript.pick_game(frame, criterion)
    games = balance.game_outcomes(frame).set_index("game_index")
    if criterion == "largest-margin":
        assert games.loc[index, "margin"] == games["margin"].max()
    elif criterion == "closest":
        assert games.loc[index, "margin"] == games["margin"].min()
    elif criterion == "longest":
        assert games.loc[index, "decisions"] == games["decisions"].max()
    elif criterion == "shortest":
        assert games.loc[index, "decisions"] == games["decisions"].min()
    else:
        row = frame[(frame["game_index"] == index) & (frame["seat"] == 0)]
        assert row["win_share"].iloc[0] == 1.0


@pytest.mark.parametrize("argv, message", [
    (["--pick", "oddest"], "unknown --pick"),
    (["--pick", "seat-9-wins"], "seats are 1-3"),
    (["--game", "99"], "--game must be 0-3"),
    ([], "exactly one of --game N and --pick"),
    (["--game", "0", "--html", "/nonexistent/dir/g.html"], "cannot write /nonexistent"),
])
def test_show_bad_input_is_one_line_error(runs, capsys, argv, message):
    code = main(["show", str(runs["ivanhoe"]), *argv])
    captured = capsys.readouterr()
    err = captured.err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert "== " not in captured.out  # nothing printed before the error


SCRIPT_BAD = "hello\n0\n999\n?\nv\n"


def test_play_completes_a_game_from_scripted_input_and_reasks(tmp_path):
    out = tmp_path / "game.json"
    keys = SCRIPT_BAD + "1\n" * 400
    stdout = io.StringIO()
    source, path = play("tabula-rasa", seat=1, bots=["heuristic"], players=3, seed=5, out=out,
                        stdin=io.StringIO(keys), stdout=stdout)
    text = stdout.getvalue()
    assert path == out and source.finished
    assert "not a move: 'hello'" in text and "not a move: '0'" in text
    assert "not a move: '999'" in text and "Enter the number of a move" in text
    assert "== game over ==" in text and "== transcript" in text
    saved = transcript.load(out)
    final = replay(get_game("tabula-rasa"), 3, 5, saved.actions)
    assert final.is_terminal() and [float(s) for s in final.scores()] == saved.scores
    assert saved.lineup == ["heuristic", "you", "heuristic"]
    # before each of its moves the player saw only its own hand
    views = text.split("== game over ==")[0]
    assert "hand seat 1: 8 cards" in views and "hand seat 3: 8 cards" in views


def test_play_end_of_input_stops_cleanly_and_show_reads_the_file(tmp_path, capsys):
    out = tmp_path / "stopped.json"
    stdout = io.StringIO()
    source, _ = play("ninjato", seat=0, bots=["random"], players=2, seed=3, out=out,
                     stdin=io.StringIO("1\n"), stdout=stdout)
    assert not source.finished and "game stopped after" in stdout.getvalue()
    assert json.loads(out.read_text())["actions"] == source.actions
    code = main(["show", str(out)])
    shown = capsys.readouterr().out
    assert code == 0 and f"not finished after {len(source.actions)} decisions" in shown


def test_play_console_script_end_to_end(tmp_path):
    out = tmp_path / "cli.json"
    proc = subprocess.run(
        [sys.executable, "-m", "analysis.cli", "play", "big-cheese", "--seat", "2", "--players",
         "3", "--bots", "heuristic,random", "--seed", "2", "--pause", "0", "--out", str(out)],
        input="x\n" + "1\n" * 2000, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "not a move: 'x'" in proc.stdout and "winner: seat" in proc.stdout
    assert transcript.load(out).finished


def test_report_embeds_a_typical_and_an_extreme_game_per_run(runs, tmp_path):
    from analysis.cli.reporting import write_report

    page = write_report([runs["ivanhoe"], runs["tabula-rasa"]], tmp_path / "r.html",
                        bootstrap=10).read_text()
    section = page[page.index("Example games"):page.index("Runs (manifests)")]
    for name in ("ivanhoe", "tabula-rasa"):
        frame = store.load_run(runs[name])
        typical = transcript.typical_game(frame)
        extreme = transcript.pick_game(frame, "largest-margin")
        assert f"typical game (median margin and length): game {typical}" in section
        assert f"extreme game (largest-margin): game {extreme}" in section
    assert section.count("winner: seat") == 4


@pytest.mark.parametrize("argv, message", [
    (["chess"], "unknown game"),
    (["ivanhoe", "--seat", "9", "--players", "3"], "--seat must be 1-3"),
    (["ivanhoe", "--bots", "nonsense"], "unknown bot"),
    (["ivanhoe", "--bots", "random,random,random,random,random"], "5 bots given"),
    (["ivanhoe", "--rule", "nope=1"], "unknown rule option"),
    (["ivanhoe", "--out", "/proc/no/game.json"], "cannot create /proc/no"),
])
def test_play_bad_arguments_are_one_line_errors(capsys, argv, message):
    code = main(["play", *argv, "--pause", "0"])
    captured = capsys.readouterr()
    assert code == 2 and message in captured.err and len(captured.err.strip().splitlines()) == 1
    assert "your move" not in captured.out


def test_show_seat_view_hides_the_other_hands(runs, capsys):
    code = main(["show", str(runs["tabula-rasa"]), "--game", "0", "--seat", "1"])
    out = capsys.readouterr().out
    assert code == 0
    assert "hand seat 2: 8 cards" in out and "hand seat 3: 8 cards" in out
    assert "removed unseen: 2 cards" in out
    source = rebuild.from_run(runs["tabula-rasa"], 0)
    assert transcript.to_text(source) != out.rstrip("\n")


def test_play_replaces_an_existing_transcript_only_with_force(tmp_path, capsys, monkeypatch):
    """A game played by hand is the only copy of itself: a new game refuses its file before
    it starts, and takes it with --force."""
    out = tmp_path / "game.json"
    out.write_text("{}")
    argv = ["play", "big-cheese", "--players", "3", "--seed", "2", "--pause", "0",
            "--out", str(out)]
    assert main(argv) == 2
    assert capsys.readouterr().err == f"error: --out {out} exists; add --force to overwrite it\n"
    assert out.read_text() == "{}"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 2000))
    assert main(argv + ["--force"]) == 0
    assert transcript.load(out).finished
