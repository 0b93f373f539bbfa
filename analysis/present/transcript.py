"""Readable transcripts of single games: any game of a stored run, or a game played by hand.

A game is a pure function of (game, players, seed, rules, line-up): `run.rebuild.from_run`
rebuilds game N of a run with the runner's own seeds, rotation and bots and records its
actions; a game played with `simulate play` is saved as a small JSON file of the same facts
(`results.transcripts`: `save` / `load`).  `walk` replays the actions on a fresh state and
notes after each decision who acted, the action in words, which lines of the full view
changed (marked as chance when the state's random generator was used: a draw, a roll), and
score changes; `to_text` and `to_html` lay that out round by round.
"""

from __future__ import annotations

import html
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from analysis.results.transcripts import GameSource, load, save  # noqa: F401 (transcript.load)
from analysis.stats.picks import PICKS, pick_game, typical_game  # noqa: F401 (public names)
from engines import get_game
from engines.core import State, rules_to_str
from engines.errors import BadInput

LEGEND = ("| = a line of the view that changed; * = the same, after a move that used the "
          "game's random generator (dice, a draw)")


@dataclass
class Step:
    """One decision: who took which action, and what it changed."""

    round: str
    seat: int
    actor: str
    action: str
    changes: list[str]
    chance: bool
    score_changes: dict[int, float] = field(default_factory=dict)
    view: str = ""


# --------------------------------------------------------------------------------------------
# Replaying and laying out
# --------------------------------------------------------------------------------------------


def walk(source: GameSource, seat: int | None = None) -> tuple[State, list[Step], State]:
    """Replay the game: (initial state, one Step per decision, final state).

    `seat` chooses whose view the changes and views are taken from (None = the full view).
    """
    game = get_game(source.game)
    state = game.new_state(source.players, source.seed, **dict(source.rules))
    first = state.clone()
    steps = []
    view = state.render(seat)
    for action in source.actions:
        step = apply(state, action, seat, source.lineup, view)
        steps.append(step)
        view = step.view
    return first, steps, state


def apply(state: State, action: int, seat: int | None, lineup: Sequence[str], view: str
          ) -> Step:
    """Play `action` on `state` and describe it: the lines of `seat`'s view (`view` before the
    move) that changed, whether the move drew on chance, and the score changes."""
    actor = state.current_player()
    step = Step(round=state.round_label(), seat=actor, actor=lineup[actor],
                action=state.action_to_str(action), changes=[], chance=False)
    scores = state.scores()
    rng_before = state.rng.getstate()
    state.apply_action(action)
    step.chance = state.rng.getstate() != rng_before
    step.view = state.render(seat)
    seen = set(view.splitlines()[1:])
    step.changes = [line for line in step.view.splitlines()[1:] if line not in seen]
    new_scores = state.scores()
    step.score_changes = {s: new - old for s, (old, new) in enumerate(zip(scores, new_scores))
                          if new != old}
    return step


def _title(source: GameSource) -> list[str]:
    game = get_game(source.game)
    rules = game.make_rules(**dict(source.rules))
    lines = [f"{source.game} · {source.players} players · seed {source.seed} · rules: "
             f"{rules_to_str(rules) or 'official'} · data set {game.dataset(rules)}",
             "line-up: " + ", ".join(f"seat {s + 1} {b}" for s, b in enumerate(source.lineup))]
    if source.label:
        lines.append(f"game: {source.label}")
    return lines


def step_lines(step: Step) -> list[str]:
    """A decision as text: `seat 2 (heuristic): action`, then what changed, indented."""
    out = [f"seat {step.seat + 1} ({step.actor}): {step.action}"]
    mark = "*" if step.chance else "|"
    out += [f"    {mark} {line.strip()}" for line in step.changes]
    if step.score_changes:
        out.append("    score: " + ", ".join(f"seat {s + 1} {d:+g}"
                                             for s, d in step.score_changes.items()))
    return out


def outcome_lines(final: State, source: GameSource) -> list[str]:
    """Final scores, winners and the score breakdown by source, one row per source."""
    n = source.players
    scores = final.scores()
    lines = []
    if not final.is_terminal():
        lines.append(f"not finished after {len(source.actions)} decisions")
    else:
        winners = final.winners()
        lines.append("winner: " + ", ".join(f"seat {w + 1} ({source.lineup[w]})" for w in winners)
                     + (" (shared)" if len(winners) > 1 else ""))
    breakdown = final.score_breakdown()
    width = max([len("total"), *map(len, breakdown)])
    lines.append(f"{'':<{width}}  " + " ".join(f"{'seat ' + str(s + 1):>8}" for s in range(n)))
    for source_name, points in breakdown.items():
        lines.append(f"{source_name:<{width}}  " + " ".join(f"{p:>8g}" for p in points))
    lines.append(f"{'total':<{width}}  " + " ".join(f"{p:>8g}" for p in scores))
    if source.scores is not None and [float(s) for s in scores] != list(source.scores):
        lines.append(f"WARNING: the recorded scores were {source.scores}")
    return lines


def to_text(source: GameSource, seat: int | None = None) -> str:
    """The whole game as text, round by round, with the full view at each round's start."""
    initial, steps, final = walk(source, seat)
    current = initial.round_label()
    view = initial.render(seat)
    lines = _title(source) + [LEGEND, "", f"== {current or 'start'} ==", view]
    for step in steps:
        if step.round != current:
            current = step.round
            lines += ["", f"== {current} ==", view]
        lines += step_lines(step)
        view = step.view
    lines += ["", "== end ==", final.render(seat), ""] + outcome_lines(final, source)
    return "\n".join(lines)


STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em;max-width:70em;color:#222}
pre{background:#f6f6f6;padding:.5em;overflow-x:auto;font-size:12px}
details{margin:.2em 0} summary{cursor:pointer} .step{margin:.15em 0 .15em 1em}
.view{margin-left:2em;font-size:12px;color:#777}
.chg{color:#555;font-family:monospace;font-size:12px;margin-left:2em;white-space:pre-wrap}
.chance{color:#a25a00}
"""


def to_html_fragment(source: GameSource, per_step_views: bool = True) -> str:
    """The game as HTML: one <details> per round; inside, every decision with its changes and
    (with `per_step_views`) the full view after it, folded; the outcome at the end."""
    initial, steps, final = walk(source)
    esc = html.escape
    parts = ["<p>" + "<br>".join(esc(line) for line in _title(source)) + "</p>",
             f"<details><summary>start</summary><pre>{esc(initial.render())}</pre></details>"]
    rounds: list[tuple[str, list[Step]]] = []
    for step in steps:
        if not rounds or rounds[-1][0] != step.round:
            rounds.append((step.round, []))
        rounds[-1][1].append(step)
    for label, group in rounds:
        body = []
        for step in group:
            cls = "chg chance" if step.chance else "chg"
            mark = "*" if step.chance else "|"
            changes = "".join(f"<div class='{cls}'>{mark} {esc(line.strip())}</div>"
                              for line in step.changes)
            if step.score_changes:
                changes += ("<div class='chg'>score: " + esc(", ".join(
                    f"seat {s + 1} {d:+g}" for s, d in step.score_changes.items())) + "</div>")
            head = f"<b>seat {step.seat + 1}</b> ({esc(step.actor)}): {esc(step.action)}"
            view = (f"<details class='view'><summary>view</summary><pre>{esc(step.view)}</pre>"
                    "</details>" if per_step_views else "")
            body.append(f"<div class='step'>{head}{changes}{view}</div>")
        if not per_step_views:
            body.append(f"<pre>{esc(group[-1].view)}</pre>")
        parts.append(f"<details><summary>{esc(label)} ({len(group)} decisions)</summary>"
                     + "".join(body) + "</details>")
    parts.append(f"<h3>End</h3><pre>{esc(final.render())}</pre>"
                 f"<pre>{esc(chr(10).join(outcome_lines(final, source)))}</pre>")
    return "".join(parts)


def to_html(source: GameSource) -> str:
    """A self-contained page (no scripts, no network) with the full view after each decision."""
    title = f"{source.game}: {source.label or f'seed {source.seed}'}"
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>"
            f"{html.escape(title)}</title><style>{STYLE}</style></head><body>"
            f"<h1>{html.escape(title)}</h1><p class='note'>{html.escape(LEGEND)}</p>"
            + to_html_fragment(source) + "</body></html>")


def check_html_path(out: str | os.PathLike) -> Path:
    """Refuse a path the page cannot be written to, before any work is done."""
    out = Path(out)
    if out.is_dir() or not out.parent.is_dir() or not os.access(out.parent, os.W_OK):
        raise BadInput(f"cannot write {out}: give a new file in a writable directory")
    return out


def write_html(source: GameSource, out: str | os.PathLike) -> Path:
    out = check_html_path(out)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(to_html(source), encoding="utf-8")
    os.replace(tmp, out)
    return out


def report_section(examples: Sequence[tuple[dict[str, Any], list[tuple[str, GameSource]] | str]],
                   runs: int, limit: int) -> str:
    """The report's "Example games": a typical and an extreme game of each run, folded.

    `examples`: per run its rebuilt games, or why there are none (`run.rebuild
    .report_examples`); `runs`: how many runs the report covers, of which the first `limit`
    have examples.
    """
    esc = html.escape
    parts = [f"<style>{STYLE.replace('body{', '.examples{')}</style>",
             "<p class='note'>Replayed from each run's seed and line-up (`simulate show RUN "
             "--game N` prints the same). " + esc(LEGEND) + ". The view at the end of each "
             "round is under its decisions; every seat's cards are shown.</p>"]
    for manifest, games in examples:
        head = (f"{manifest.get('game')} {manifest.get('players')}p, bots "
                f"{', '.join(manifest.get('bots', []))}, rules "
                f"{manifest.get('rules_str') or 'official'} ({manifest.get('path', '')})")
        if isinstance(games, str):
            parts.append(f"<p>{esc(head)}: no example ({esc(games)})</p>")
            continue
        parts.append(f"<h3>{esc(head)}</h3>")
        for title, source in games:
            parts.append(f"<details><summary>{esc(title)}</summary>"
                         f"{to_html_fragment(source, per_step_views=False)}</details>")
    if runs > limit:
        parts.append(f"<p class='note'>Examples of the first {limit} of "
                     f"{runs} runs only.</p>")
    return "<div class='examples'>" + "".join(parts) + "</div>"
