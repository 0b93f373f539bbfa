"""Heuristic Ivanhoe bots (placeholder until the real one lands)."""

from __future__ import annotations

import random

from engines.core import State


class HeuristicBot:
    name = "heuristic"

    def choose(self, state: State, rng: random.Random) -> int:
        legal = state.legal_actions()
        return legal[0]
