"""Readable transcripts of single games: any game of a stored run, or a game played by hand.

A game is a pure function of (game, players, seed, rules, line-up): `from_run` rebuilds
game N of a run with the runner's own seeds, rotation and bots and records its actions;
a game played with `simulate play` is saved as a small JSON file of the same facts
(`save` / `load`).  `walk` replays the actions on a fresh state and notes after each
decision who acted, the action in words, which lines of the full view changed (marked as
chance when the state's random generator was used: a draw, a roll), and score changes;
`to_text` and `to_html` lay that out round by round.
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.results import store
from analysis.run import tournament
from analysis.stats import balance
from engines import get_game, play_game
from engines.bots import make_bot
from engines.core import State, rules_to_str
from engines.errors import BadInput

TRANSCRIPT_FORMAT = "tabletop-sim-transcript"
PICKS = ("largest-margin", "closest", "shared-win", "longest", "shortest", "seat-K-wins")
LEGEND = ("| = a line of the view that changed; * = the same, after a move that used the "
          "game's random generator (dice, a draw)")


@dataclass
class GameSource:
    """Everything that determines one game, plus the outcome recorded when it was played."""

    game: str
    players: int
    seed: int
    rules: dict[str, Any]
    lineup: list[str]
    actions: list[int]
    label: str = ""
    scores: list[float] | None = None
    finished: bool = True


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
# Where a game comes from
# --------------------------------------------------------------------------------------------


def pick_game(frame: pd.DataFrame, criterion: str) -> int:
    """Index of the game of a run that best fits `criterion` (one of `PICKS`; K from 1).

    Truncated games (no winner) are never picked.  Ties go to the lowest game index.
    """
    outcomes = balance.game_outcomes(frame)
    outcomes = outcomes[~outcomes["truncated"].astype(bool)].sort_values("game_index")
    if outcomes.empty:
        raise BadInput("the run has no finished game to pick from")
    if criterion.startswith("seat-") and criterion.endswith("-wins"):
        try:
            seat = int(criterion[5:-5]) - 1
        except ValueError:
            raise BadInput(f"--pick {criterion!r}: K in seat-K-wins must be a number") from None
        players = int(frame["players"].iloc[0])
        if not 0 <= seat < players:
            raise BadInput(f"--pick {criterion!r}: seats are 1-{players}")
        won = frame[(frame["seat"] == seat) & (frame["win_share"] == 1.0)]
        if won.empty:
            raise BadInput(f"seat {seat + 1} never won alone in this run")
        return int(won["game_index"].min())
    if criterion == "largest-margin":
        return int(outcomes.loc[outcomes["margin"].idxmax(), "game_index"])
    if criterion == "closest":
        return int(outcomes.loc[outcomes["margin"].idxmin(), "game_index"])
    if criterion == "shared-win":
        shared = outcomes[outcomes["tie"]]
        if shared.empty:
            raise BadInput("no game of this run ended in a shared win")
        return int(shared["game_index"].iloc[0])
    if criterion == "longest":
        return int(outcomes.loc[outcomes["decisions"].idxmax(), "game_index"])
    if criterion == "shortest":
        return int(outcomes.loc[outcomes["decisions"].idxmin(), "game_index"])
    raise BadInput(f"unknown --pick {criterion!r}; choose from {', '.join(PICKS)}")


def typical_game(frame: pd.DataFrame) -> int:
    """The finished game closest to the run's median margin, then to its median length."""
    outcomes = balance.game_outcomes(frame)
    outcomes = outcomes[~outcomes["truncated"].astype(bool)].sort_values("game_index")
    if outcomes.empty:
        raise BadInput("the run has no finished game to pick from")
    distance = ((outcomes["margin"] - outcomes["margin"].median()).abs(),
                (outcomes["decisions"] - outcomes["decisions"].median()).abs())
    ranked = outcomes.assign(d_margin=distance[0], d_length=distance[1])
    ranked = ranked.sort_values(["d_margin", "d_length", "game_index"], kind="stable")
    return int(ranked["game_index"].iloc[0])


def from_run(run_dir: str | os.PathLike, index: int) -> GameSource:
    """Game `index` of the run in `run_dir`, replayed with the runner's seeds, line-up and bots.

    The replay's final scores must equal the run's row; they differ only if the engines or
    bots changed since the run was made, which is reported as a RunError.
    """
    manifest = store.read_manifest(run_dir)
    spec = tournament.spec_from_manifest(manifest)
    if not 0 <= index < spec.games:
        raise BadInput(f"--game must be 0-{spec.games - 1} for this run, got {index}")
    frame = store.load_run(run_dir)
    rows = frame[frame["game_index"] == index].sort_values("seat")
    if rows.empty:
        raise store.RunError(f"game {index} is not in the finished chunks of {run_dir}")
    game = get_game(spec.game)
    seed = int(tournament.seeds_between(spec.seed, index, index + 1, spec.seed_branch)[0])
    lineup = tournament.lineup_for(spec, index)
    bots = [make_bot(bot_spec, game) for bot_spec in lineup]
    record = play_game(game, bots, seed, spec.players, spec.rules, record=True)
    stored = [float(s) for s in rows["score"]]
    if [float(s) for s in record.scores] != stored:
        raise store.RunError(
            f"replaying game {index} gives scores {record.scores}, the run stored {stored}: "
            f"the engines or bots changed since the run (made by version "
            f"{manifest.get('package_version')})")
    return GameSource(
        game=spec.game, players=spec.players, seed=seed, rules=dict(spec.rules),
        lineup=list(lineup), actions=list(record.actions or []),
        label=f"run {manifest.get('run_id', '?')} ({Path(run_dir)}), game {index}",
        scores=stored, finished=not record.truncated)


def save(source: GameSource, path: str | os.PathLike) -> Path:
    """Write a transcript file (JSON) that `load` and `simulate show` read; atomic."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps({"format": TRANSCRIPT_FORMAT, "version": 1, **asdict(source)},
                              indent=1), encoding="utf-8")
    os.replace(tmp, path)
    return path


def load(path: str | os.PathLike) -> GameSource:
    """Read a transcript file written by `save` (a game played with `simulate play`)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise store.RunError(f"cannot read transcript {path}: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != TRANSCRIPT_FORMAT:
        raise store.RunError(f"{path} is not a transcript file (format {TRANSCRIPT_FORMAT})")
    fields = GameSource.__dataclass_fields__
    try:
        source = GameSource(**{k: v for k, v in data.items() if k in fields})
    except TypeError as exc:
        raise store.RunError(f"transcript {path} lacks a field: {exc}") from None
    check(source, str(path))
    return source


def check(source: GameSource, where: str) -> None:
    """Refuse a transcript that does not describe a playable game: wrong types, an unknown
    game or rule, a player count out of range, or an action that is not legal where it
    stands (found by replaying it)."""
    def wrong(message: str) -> None:
        raise store.RunError(f"transcript {where}: {message}")

    def is_int(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    if not isinstance(source.game, str):
        wrong(f"game must be a game's name, got {source.game!r}")
    game = get_game(source.game)
    if not is_int(source.players):
        wrong(f"players must be an integer, got {source.players!r}")
    game.check_players(source.players)
    if not is_int(source.seed) or source.seed < 0:
        wrong(f"seed must be an integer >= 0, got {source.seed!r}")
    if not isinstance(source.rules, dict):
        wrong(f"rules must be a table of rule options, got {source.rules!r}")
    if not isinstance(source.lineup, list) or len(source.lineup) != source.players or not all(
            isinstance(name, str) for name in source.lineup):
        wrong(f"lineup must name one player per seat ({source.players}), got {source.lineup!r}")
    if not isinstance(source.actions, list) or not all(is_int(a) for a in source.actions):
        wrong("actions must be a list of integer action ids")
    game.checked_rules(**source.rules)
    state = game.new_state(source.players, source.seed, **dict(source.rules))
    for number, action in enumerate(source.actions, 1):
        if state.is_terminal():
            wrong(f"action {number} of {len(source.actions)} comes after the game ended")
        if action not in state.legal_actions():
            wrong(f"action {number} ({action}) is not legal at that point of the game")
        state.apply_action(action)


def open_source(path: str | os.PathLike, index: int | None, pick: str | None) -> GameSource:
    """A run directory with `--game`/`--pick`, or a transcript file (then neither)."""
    path = Path(path)
    if path.is_file():
        if index is not None or pick is not None:
            raise BadInput(f"{path} is a transcript file: --game and --pick need a run dir")
        return load(path)
    if not (path / store.MANIFEST).is_file():
        below = sorted(str(p.parent) for p in path.rglob(store.MANIFEST)) if path.is_dir() else []
        if below:
            raise store.RunError(f"{path} holds {len(below)} runs; show one of them: "
                                   + ", ".join(below[:5]) + (" ..." if len(below) > 5 else ""))
        raise store.RunError(f"{path} is neither a run directory nor a transcript file")
    if (index is None) == (pick is None):
        raise BadInput("give exactly one of --game N and --pick CRITERION")
    if pick is not None:
        index = pick_game(store.load_run(path), pick)
    return from_run(path, int(index))


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


def examples(frame: pd.DataFrame, run_dir: str | os.PathLike,
             extreme: str = "largest-margin") -> list[tuple[str, GameSource]]:
    """A typical and an extreme game of one run, for the report and the notebooks."""
    out = []
    for title, index in (("typical game (median margin and length)", typical_game(frame)),
                         (f"extreme game ({extreme})", pick_game(frame, extreme))):
        out.append((f"{title}: game {index}", from_run(run_dir, index)))
    return out


MAX_EXAMPLE_RUNS = 6


def report_section(manifests: Sequence[dict[str, Any]]) -> str:
    """The report's "Example games": a typical and an extreme game of each run, folded.

    Only the first `MAX_EXAMPLE_RUNS` runs: each example is replayed with its bots (seconds
    for MCTS line-ups) and adds about 50 kB.  A game that no longer replays is named, not shown.
    """
    esc = html.escape
    parts = [f"<style>{STYLE.replace('body{', '.examples{')}</style>",
             "<p class='note'>Replayed from each run's seed and line-up (`simulate show RUN "
             "--game N` prints the same). " + esc(LEGEND) + ". The view at the end of each "
             "round is under its decisions; every seat's cards are shown.</p>"]
    for manifest in list(manifests)[:MAX_EXAMPLE_RUNS]:
        run_dir = manifest.get("path", "")
        if not run_dir:  # a frame rendered without its run directories: nothing to replay
            continue
        head = (f"{manifest.get('game')} {manifest.get('players')}p, bots "
                f"{', '.join(manifest.get('bots', []))}, rules "
                f"{manifest.get('rules_str') or 'official'} ({run_dir})")
        try:
            games = examples(store.load_run(run_dir), run_dir)
        except (ValueError, OSError) as exc:  # RunError is a ValueError
            parts.append(f"<p>{esc(head)}: no example ({esc(str(exc))})</p>")
            continue
        parts.append(f"<h3>{esc(head)}</h3>")
        for title, source in games:
            parts.append(f"<details><summary>{esc(title)}</summary>"
                         f"{to_html_fragment(source, per_step_views=False)}</details>")
    if len(manifests) > MAX_EXAMPLE_RUNS:
        parts.append(f"<p class='note'>Examples of the first {MAX_EXAMPLE_RUNS} of "
                     f"{len(manifests)} runs only.</p>")
    return "<div class='examples'>" + "".join(parts) + "</div>"


def most_extreme(run_dirs: Sequence[str | os.PathLike]) -> GameSource:
    """The game with the largest winning margin over the runs (for the notebooks)."""
    best: tuple[float, str | os.PathLike, int] | None = None
    for run_dir in run_dirs:
        frame = store.load_run(run_dir)
        index = pick_game(frame, "largest-margin")
        outcomes = balance.game_outcomes(frame)
        margin = float(outcomes.loc[outcomes["game_index"] == index, "margin"].iloc[0])
        if best is None or margin > best[0]:
            best = (margin, run_dir, index)
    if best is None:
        raise BadInput("no runs given")
    return from_run(best[1], best[2])
