"""Behaviour fingerprint: every game plays the same games for the same seeds.

For every registered game, every player count and every line-up below (random bots, the
default heuristic, each named heuristic style, and heuristic against random), a few seeded
games are played with `play_game` and the whole record — actions, scores, winners, ranks,
score breakdown, metrics, decisions — is hashed.  The hashes are stored in
`tests/fingerprints.json`; a refactor that is meant to change nothing a user sees must keep
them identical.  A change of behaviour that is meant (a rules fix, a new heuristic) is
recorded by regenerating the file, in its own commit that says why:

    .venv/bin/python -m tests.test_fingerprint --update
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from engines import GAMES, get_game, play_game
from engines.bots import make_bot

FINGERPRINTS = Path(__file__).with_name("fingerprints.json")
SEEDS = range(5)


def lineups(name: str) -> dict[str, list[str]]:
    """Line-up label -> bot spec per seat pattern (repeated around the table)."""
    game = get_game(name)
    out = {"random": ["random"]}
    for style in sorted(game.heuristics):
        out[f"heuristic:{style}"] = [f"heuristic:{style}"]
    out["heuristic+random"] = ["heuristic", "random"]
    return out


def cases() -> list[tuple[str, int, str]]:
    return [(name, n, label)
            for name, game in sorted(GAMES.items())
            for n in range(game.min_players, game.max_players + 1)
            for label in lineups(name)]


def fingerprint(name: str, n: int, label: str) -> str:
    """SHA-256 over the full records of the seeded games of one (game, players, line-up)."""
    game = get_game(name)
    pattern = lineups(name)[label]
    digest = hashlib.sha256()
    for seed in SEEDS:
        bots = [make_bot(pattern[seat % len(pattern)], game) for seat in range(n)]
        record = play_game(game, bots, seed, record=True)
        fields = {
            "actions": record.actions, "scores": record.scores, "winners": record.winners,
            "ranks": record.ranks, "breakdown": record.breakdown, "metrics": record.metrics,
            "decisions": record.decisions, "truncated": record.truncated,
            "branching": record.branching,
        }
        digest.update(json.dumps(fields, sort_keys=True).encode())
    return digest.hexdigest()


def key(name: str, n: int, label: str) -> str:
    return f"{name}/{n}p/{label}"


CASES = cases()


@pytest.mark.parametrize("name,n,label", CASES, ids=[key(*c) for c in CASES])
def test_games_play_as_recorded(name: str, n: int, label: str) -> None:
    stored = json.loads(FINGERPRINTS.read_text())
    assert key(name, n, label) in stored, (
        "no stored fingerprint: regenerate with `python -m tests.test_fingerprint --update`")
    assert fingerprint(name, n, label) == stored[key(name, n, label)], (
        "this game now plays differently for the same seeds; if that is intended, "
        "regenerate with `python -m tests.test_fingerprint --update` and say why")


def test_every_stored_fingerprint_is_still_checked() -> None:
    """A game, player count or bot style that disappeared must not leave a stale entry."""
    stored = json.loads(FINGERPRINTS.read_text())
    assert set(stored) == {key(*c) for c in CASES}


def recorded() -> str:
    """The text of `tests/fingerprints.json` for the registered games (plays every case)."""
    prints = {key(*c): fingerprint(*c) for c in cases()}
    return json.dumps(prints, indent=1, sort_keys=True) + "\n"


def update() -> None:
    FINGERPRINTS.write_text(recorded())
    print(f"wrote {len(json.loads(FINGERPRINTS.read_text()))} fingerprints to {FINGERPRINTS}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python -m tests.test_fingerprint --update")
    update()
