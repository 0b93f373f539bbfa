"""The uniform random bot: the baseline every other bot must beat."""

from __future__ import annotations

import random

from engines.core import State


class RandomBot:
    """Picks uniformly among the legal actions; uses nothing but `legal_actions()`."""

    name = "random"

    def choose(self, state: State, rng: random.Random) -> int:
        legal = state.legal_actions()
        return legal[int(rng.random() * len(legal))]
