"""No two sentences of one output contradict each other.

Every surface that words a balance finding — the `simulate GAME` terminal summary, the HTML
report, the designer summary — is rendered for a battery of hand-made result frames whose
truth is known (a fair game, a small real edge at 2 players, an unbalanced 4-player game, a
6-player game with too few games, a bot that skips a system), and each output is read
sentence by sentence.  `contradictions` names the pairs that cannot both be true: balanced
beside a named edge, "used every system" beside a system never played, shares that "agree"
beside shares said to differ, "too few games to tell" beside a significant finding about the
same bot, a share of all points above 100%.  The checker is itself tested on contradicting
sentences, so a broken output fails it.
"""

from __future__ import annotations

import html
import re
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from rich.console import Console

from analysis.present import designer, report, summary
from analysis.stats import findings

SOURCES = ("pts_castle", "pts_territories_colour", "pts_territories_number")
KINDS = ("k_open_colour", "k_open_number", "k_take_the_lead_colour")


# --------------------------------------------------------------------------------------------
# Hand-made frames
# --------------------------------------------------------------------------------------------


def make_frame(players: int, wins: list[int], game: str = "tabula-rasa",
               skipped_kind: str | None = None) -> pd.DataFrame:
    """A results frame of `sum(wins)` games in which seat k wins exactly `wins[k]` games (no
    shared wins), every bot the default heuristic.  Each source scores a fixed share of the
    points; `skipped_kind` is a system the bot never plays (every other kind is played)."""
    winners = np.repeat(np.arange(players), wins)
    rows = []
    for index, winner in enumerate(winners):
        for seat in range(players):
            won = seat == winner
            row = {"run_id": "r", "game": game, "rules": "", "dataset": "official",
                   "players": players, "game_index": index, "seed": 1000 + index, "seat": seat,
                   "bot": "heuristic", "score": 30.0 if won else 20.0, "rank": 1 if won else 2,
                   "win_share": 1.0 if won else 0.0, "truncated": False, "decisions": 40,
                   "branching": 10.0}
            for share, column in zip((0.2, 0.5, 0.3), SOURCES):
                row[column] = share * row["score"]
            for kind in KINDS:
                row[kind] = 0 if kind == skipped_kind else 2
                row["a" + kind[1:]] = 4.0
            rows.append(row)
    frame = pd.DataFrame(rows)
    for column in ("players", "seat", "rank"):
        frame[column] = frame[column].astype("int16")
    return frame


def manifest(frame: pd.DataFrame) -> dict:
    players = int(frame["players"].iloc[0])
    return {"run_id": "r", "game": str(frame["game"].iloc[0]), "players": players,
            "games": int(frame["game_index"].nunique()), "bots": ["heuristic"] * players,
            "seed": 1, "rules": {}, "rules_str": "", "dataset": "official"}


#: name -> (game, players, wins per seat): the battery.
BATTERY = {
    "fair-3p": ("tabula-rasa", 3, [4000, 4000, 4000]),
    "small-real-edge-2p": ("tabula-rasa", 2, [5650, 5350]),  # -1.4 points, z = -2.9
    "tabula-rasa-2p-shortfall": ("tabula-rasa", 2, [5830, 5170]),  # -3.0: inside x1.2
    "unbalanced-5p": ("ivanhoe", 5, [1000, 500, 500, 500, 500]),
    "too-few-6p": ("time-pirates", 6, [3, 2, 2, 1, 1, 1]),
}


# --------------------------------------------------------------------------------------------
# The outputs, as sentences
# --------------------------------------------------------------------------------------------


def sentences(text: str) -> list[str]:
    """Lines and table cells of a terminal or HTML output, split at sentence ends and at
    `;` (every clause of a verdict is a claim of its own)."""
    text = html.unescape(re.sub(r"<[^>]+>", "\n", text))
    parts = []
    for line in text.splitlines():
        for part in re.split(r"(?<=[.;])\s+|│|┃|\|", line):
            part = part.strip(" ─━┏┓┗┛┡┩└┘┌┐├┤╇╈")
            if part:
                parts.append(part)
    return parts


def terminal_summary(frame: pd.DataFrame) -> str:
    console = Console(record=True, width=200, color_system=None)
    result = SimpleNamespace(frame=frame, manifest=manifest(frame), games_played_now=0,
                             seconds=1.0, games_per_second=1.0, run_dir="results/r")
    summary.print_summary(console, result)
    return console.export_text()


def html_report(frame: pd.DataFrame) -> str:
    """The report without its style sheet and its how-to-read notes (which quote every
    wording as an example, not as a claim)."""
    text = report.render(frame, [manifest(frame)], bootstrap=0)
    text = re.sub(r"<style>.*?</style>|<script.*?</script>", "", text, flags=re.S)
    return re.sub(r"<p class='note'>.*?</p>", "", text, flags=re.S)


def designer_table(frame: pd.DataFrame) -> str:
    table = designer.summary_table(frame, findings.family(frame))
    return "\n".join(str(v) for row in table.to_dict("records") for v in row.values())


OUTPUTS = {"terminal": terminal_summary, "report": html_report, "designer": designer_table}


# --------------------------------------------------------------------------------------------
# What cannot be said together
# --------------------------------------------------------------------------------------------

BALANCED = re.compile(r"^(balanced within|yes, within|still balanced)|: balanced within")
EDGE_NAMED = re.compile(r"small real edge|unbalanced|a real edge|^no: seat|'s (edge|shortfall) "
                        r"[+-]\d")
EVERY_SYSTEM = re.compile(r"used every system")
NEVER_PLAYED = re.compile(r"never used|never played|almost never")
AGREE = re.compile(r"shares agree|agree across")
DIFFER = re.compile(r"shares differ|differs? (by|across)")
TOO_FEW = re.compile(r"too few games with (\S+) to tell")
PERCENT = re.compile(r"(\d+(?:\.\d+)?)%")


def contradictions(parts: list[str]) -> list[str]:
    """Every pair of sentences in `parts` that cannot both be true (one context per output)."""
    found = []

    def pair(a: re.Pattern, b: re.Pattern, why: str) -> None:
        first = next((s for s in parts if a.search(s)), None)
        second = next((s for s in parts if b.search(s) and s is not first), None)
        if first is not None and second is not None:
            found.append(f"{why}: {first!r} vs {second!r}")

    pair(BALANCED, EDGE_NAMED, "balanced beside a named edge")
    pair(EVERY_SYSTEM, NEVER_PLAYED, "used every system beside a system not played")
    pair(AGREE, DIFFER, "agree beside differ")
    for sentence in parts:
        for match in TOO_FEW.finditer(sentence):
            bot = re.escape(match.group(1))
            clash = next((s for s in parts if re.search(bot + r".*significant", s)
                          and "not significant" not in s), None)
            if clash is not None:
                found.append(f"too few games beside significant: {sentence!r} vs {clash!r}")
        if "source" in sentence:
            for value in PERCENT.findall(sentence):
                if float(value) > 100:
                    found.append(f"a share above 100%: {sentence!r}")
    return found


def test_the_checker_catches_each_kind_of_contradiction():
    """A check that cannot fail is no check: each rule flags a contradicting pair."""
    cases = [
        ["balanced within ×1.2 of the fair 50.0%", "seat 2's shortfall -3.0 points [-3.9, -2.1]"],
        ["yes, within ×1.2 of fair", "unbalanced: seat 1's edge +12.0 points"],
        ["heuristic used every system that was available to it",
         "heuristic never used: hand limit discard (available in 42% of games)"],
        ["seat 1 holds under every line-up (shares agree, p = 0.4)",
         "seat 1's shares differ by 5.5 points across line-ups"],
        ["seat 1: too few games with mcts:strong to tell",
         "bot mcts:strong wins 40% [35, 45], significant"],
        ["largest source pts_castle 130.6% [120.0, 140.0]"],
    ]
    for case in cases:
        assert contradictions(case), case
    assert not contradictions(["balanced within ×1.2 of the fair 33.3%",
                               "heuristic used every system that was available to it"])


@pytest.mark.parametrize("output", sorted(OUTPUTS))
@pytest.mark.parametrize("case", sorted(BATTERY))
def test_no_two_sentences_of_one_output_contradict(case, output):
    game, players, wins = BATTERY[case]
    frame = make_frame(players, wins, game, skipped_kind="k_take_the_lead_colour"
                       if case == "fair-3p" else None)
    text = OUTPUTS[output](frame)
    parts = sentences(text)
    assert parts
    assert not contradictions(parts)


@pytest.mark.parametrize("case, expected", [
    ("fair-3p", "balanced within ×1.2 of the fair 33.3%"),
    ("small-real-edge-2p", "a small real edge, inside the tolerance"),
    ("tabula-rasa-2p-shortfall", "a small real edge, inside the tolerance: seat 1's edge +3.0"),
    ("unbalanced-5p", "unbalanced: seat 1's edge +13.3 points"),
    ("too-few-6p", "cannot tell"),
])
def test_each_output_words_the_known_truth_of_its_frame(case, expected):
    """The battery's frames are what they say they are: every output words them so."""
    game, players, wins = BATTERY[case]
    frame = make_frame(players, wins, game)
    for name, render in OUTPUTS.items():
        if name == "designer":
            continue  # the compact column, checked by its own tests
        assert expected in html.unescape(render(frame)), name
