"""The report of a five-game experiment, rendered in headless Chromium: each run's systems
and scoring sources are its own game's, one chart per game, seats numbered from 1 and the
partnership game (Tabula Rasa at four) drawn and tabled by team."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from analysis.cli import main
from analysis.results import store
from analysis.results.runs import find_runs
from engines import GAMES
from tests.conftest import chromium_dom, needs_chromium

EXPERIMENT = """
name = "five"
seed = 3
[[study]]
game = "all"
players = "min"
bots = ["heuristic"]
ladder = false
[[study]]
game = "tabula-rasa"
players = 4
bots = ["heuristic"]
ladder = false
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("five")
    (root / "five.toml").write_text(EXPERIMENT)
    assert main(["run", str(root / "five.toml"), "--games", "4", "--out", str(root / "res"),
                 "--jobs", "1", "--quiet", "--no-confirm"]) == 0
    return root / "res" / "five"


@pytest.fixture(scope="module")
def dom(runs, tmp_path_factory) -> str:
    return chromium_dom(runs / "report.html", tmp_path_factory.mktemp("chromium"))


def _section(dom: str, anchor: str) -> str:
    match = re.search(rf'<section id="{anchor}">(.*?)</section>', dom, re.DOTALL)
    assert match, f"no section {anchor}"
    return match.group(1)


def _tables(body: str) -> dict[str, list[list[str]]]:
    """Caption -> rows of cell texts (header first)."""
    out = {}
    for caption, table in re.findall(r"<table><caption>(.*?)</caption>(.*?)</table>", body,
                                     re.DOTALL):
        rows = [[html.unescape(re.sub(r"<[^>]+>", "", cell)) for cell in
                 re.findall(r"<t[hd]>(.*?)</t[hd]>", row, re.DOTALL)]
                for row in re.findall(r"<tr>(.*?)</tr>", table, re.DOTALL)]
        out[html.unescape(caption)] = rows
    return out


@needs_chromium
def test_systems_section_lists_only_each_run_s_own_kinds(dom):
    body = _section(dom, "game-systems-used")
    tables = _tables(body)
    assert sorted(caption.split(":")[0] for caption in tables) == sorted(GAMES)
    for caption, rows in tables.items():
        game = GAMES[caption.split(":")[0]]
        kinds = [row[0] for row in rows[1:]]
        assert kinds and set(kinds) <= set(game.action_kinds), caption
        assert len(kinds) <= len(game.action_kinds)
    assert len(re.findall(r'<img alt="game systems used per bot: ', body)) == len(GAMES)


@needs_chromium
def test_scoring_tables_list_only_each_game_s_sources(dom, runs):
    own = {}  # game -> the sources its runs recorded
    for run in find_runs([runs]):
        frame = store.load_run(run)
        own.setdefault(frame["game"].iloc[0], set()).update(
            c.removeprefix("pts_") for c in frame.columns if c.startswith("pts_"))
    tables = _tables(_section(dom, "scoring-balance"))
    means = {c.split(":")[0]: rows[0] for c, rows in tables.items() if "mean points" in c}
    assert sorted(means) == sorted(GAMES)
    for game, header in means.items():
        assert set(header) - {"rules", "players", "seat", "total"} == own[game]
    for caption, rows in tables.items():
        if "separates winners" in caption:
            game = caption.split(":")[0]
            source = rows[0].index("source")
            assert {row[source] for row in rows[1:]} == own[game] | {"score"}


@needs_chromium
def test_seats_are_numbered_from_1_and_partners_as_teams(dom):
    body = _section(dom, "seat-advantage")
    tables = _tables(body)
    seats = {c.split(":")[0]: rows for c, rows in tables.items()
             if c.endswith(": win share by seat")}
    assert sorted(seats) == sorted(GAMES)  # one table per game
    by_run: dict[tuple[str, str], list[int]] = {}
    for game, (header, *rows) in seats.items():
        players, seat = header.index("players"), header.index("seat")
        for row in rows:
            by_run.setdefault((game, row[players]), []).append(int(row[seat]))
    assert len(by_run) == len(GAMES) + 1
    for (_, n), numbers in by_run.items():
        assert numbers == list(range(1, int(n) + 1))
    assert "team of seats 1+3" in body and "team of seats 2+4" in body
    assert len(re.findall(r'<img alt="win share by seat: ', body)) == len(GAMES)


@needs_chromium
def test_report_opens_with_the_designer_summary_one_row_per_game_and_player_count(dom):
    """The answer comes first: the summary table precedes every section, one row per run."""
    match = re.search(r"<table id=['\"]designer-summary['\"]>(.*?)</table>", dom, re.DOTALL)
    assert match, "no designer summary in the rendered report"
    assert dom.index("designer-summary") < dom.index('<section id="game-systems-used">')
    rows = [[html.unescape(re.sub(r"<[^>]+>", "", cell)) for cell in
             re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.DOTALL)]
            for row in re.findall(r"<tr>(.*?)</tr>", match.group(1), re.DOTALL)]
    header, body = rows[0], rows[1:]
    labels = sorted(f"{row[header.index('game')]} {row[header.index('players')]}p"
                    for row in body)
    expected = sorted([f"{name} {GAMES[name].min_players}p" for name in GAMES]
                      + ["tabula-rasa 4p"])
    assert labels == expected
