"""Terminal rewards of the `mcts` bot (`reward=`): one value in [0, 1] per seat, partners
alike (both are in `winners()`), so the searches back up each player's own reward.

- `win`: win share, 1/k for a k-way shared win (`engines.adapters.win_shares`).
- `score`: normalized score (s - min) / (max - min), the best score 1 in the game's direction;
  also what a cut-off rollout returns.
- `mix` (default): their average.
- `margin`: win share plus the squashed score lead over the best other seat.
"""

from __future__ import annotations

from collections.abc import Callable

from engines.adapters import win_shares
from engines.core import State

REWARDS = ("win", "score", "mix", "margin")


def oriented_scores(state: State) -> list[float]:
    """The scores with the better one larger: negated where the fewest points win (a game
    built with the kit declares `lowest_wins` on its state)."""
    if getattr(state, "lowest_wins", False):
        return [-s for s in state.scores()]
    return list(state.scores())


def normalized_scores(state: State) -> list[float]:
    return normalized(oriented_scores(state))


def normalized(scores: list[float]) -> list[float]:
    """(s - min) / (max - min) per seat, 0.5 each when all are equal."""
    lo = min(scores)
    span = max(scores) - lo
    if span <= 0:
        return [0.5] * len(scores)
    return [(s - lo) / span for s in scores]


def wins(state: State) -> list[float]:
    return win_shares(state.winners(), state.num_players)  # type: ignore[attr-defined]


def mixed(state: State) -> list[float]:
    return [0.5 * (w + s) for w, s in zip(wins(state), normalized_scores(state))]


def margins(state: State) -> list[float]:
    """Win share plus the score lead over the best other seat, squashed into (-0.5, 0.5)."""
    scores = oriented_scores(state)
    shares = wins(state)
    out = []
    for seat, own in enumerate(scores):
        best = max(x for i, x in enumerate(scores) if i != seat)
        lead = (own - best) / (abs(own) + abs(best) + 1.0)
        out.append(0.5 * (shares[seat] + 0.5 + 0.5 * lead))
    return out


REWARD_FUNCS: dict[str, Callable[[State], list[float]]] = {
    "win": wins,
    "score": normalized_scores,
    "mix": mixed,
    "margin": margins,
}
