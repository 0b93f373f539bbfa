"""The facts that determine one game, as a record: a game rebuilt from a run or played by hand
(`simulate play`) is kept as a small JSON transcript file of the same facts (`save`/`load`),
checked on reading by replaying its actions."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from analysis.results import store
from engines import get_game
from engines.user_files import read_user_file

TRANSCRIPT_FORMAT = "tabletop-sim-transcript"


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
        data = json.loads(read_user_file(path, "transcript", store.RunError))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
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


