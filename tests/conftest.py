"""Shared helpers for the test suite."""

from __future__ import annotations

import random

from engines.core import Game, State


def random_midgame(game: Game, num_players: int, seed: int, fraction: float = 0.4) -> State:
    """A position reached by random play, roughly `fraction` of the way through a game."""
    rng = random.Random(seed)
    probe = game.new_state(num_players, seed)
    length = 0
    while not probe.is_terminal() and length < 5000:
        legal = probe.legal_actions()
        probe.apply_action(legal[rng.randrange(len(legal))])
        length += 1
    rng = random.Random(seed)
    state = game.new_state(num_players, seed)
    for _ in range(int(length * fraction)):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return state
