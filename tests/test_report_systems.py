"""Report section "Game systems used", also rendered in headless Chromium.

The toy Showdown run is one whose coverage is known: the always-call heuristic never folds,
though folding is legal in every game it sits first (half of its games).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from analysis.cli import reporting
from analysis.present import report
from analysis.results import runs
from analysis.run import tournament
from engines import GAMES
from tests.conftest import chromium_dom, needs_chromium
from tests.toy_games import SHOWDOWN

WARNING = "heuristic never used: fold (available in 50% of games)"


@pytest.fixture(scope="module")
def systems_report(tmp_path_factory) -> Path:
    patch = pytest.MonkeyPatch()
    patch.setitem(GAMES, SHOWDOWN.name, SHOWDOWN)
    try:
        root = tmp_path_factory.mktemp("systems")
        spec = tournament.RunSpec(game=SHOWDOWN.name, players=2, games=40,
                                  bots=("heuristic", "random"), seed=5)
        tournament.run(spec, root / "run", jobs=1)
        return reporting.write_report([root / "run"], root / "report.html", bootstrap=5)
    finally:
        patch.undo()


def _section(text: str, title: str) -> str:
    match = re.search(rf"<section id='[^']*'><h2>{re.escape(title)}</h2>(.*?)</section>", text,
                      re.DOTALL)
    assert match, f"no section {title!r}"
    return match.group(1)


def test_report_shows_which_game_systems_each_bot_used(systems_report):
    text = systems_report.read_text()
    body = _section(text, "Game systems used")
    assert WARNING in body
    assert re.search(r"random used every system that was legal at its own decisions", body)
    assert body.count("data:image/png;base64,") == 1 and "<table>" in body
    # the warning box under the title: a reader meets it before any figure
    warning = text.index("class='warning'")
    assert warning < text.index("<h2>Headline findings</h2>")
    assert WARNING in text[warning:text.index("</div>", warning)]


def test_report_without_kinds_says_so(systems_report, tmp_path):
    frame, manifests = runs.load([systems_report.parent / "run"])
    frame = frame.drop(columns=[c for c in frame.columns if c.startswith(("k_", "a_"))])
    text = report.render(frame, manifests, bootstrap=5)
    assert "recorded no action kinds" in _section(text, "Game systems used")
    assert "class='warning'" not in text


@needs_chromium
def test_systems_section_renders_in_headless_chromium(systems_report, tmp_path):
    dom = chromium_dom(systems_report, tmp_path)
    section = re.search(r'<section id="game-systems-used"><h2>Game systems used</h2>(.*?)'
                        r"</section>", dom, re.DOTALL)
    assert section, "section missing from the rendered page"
    assert WARNING in section.group(1)
    assert re.search(r'<img alt="game systems used per bot" src="data:image/png;base64,',
                     section.group(1))
    assert '<a href="#game-systems-used">' in dom
