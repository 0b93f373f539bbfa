"""What a Big Cheese position is worth to each seat where an `mcts` rollout is cut off
(`Game.mcts_evaluation`).

Why not the points alone: a project pays only when it matures, a few awards after it was
won, so at a cut-off the points lag behind what each seat has secured, and a search scoring
by points favours whatever matures soonest (cut after 20 actions, it played worse than the
heuristic it starts from).  Every number project on the table will be rolled unless the game
ends first (chips come back one per award), so it counts at its expected points, discounted
by `DISCOUNT` per award it still has to wait: the race to the goal favours points that come
soon.  Under exact-N a project may overshoot and score nothing, so there the points alone
count.  The figures behind the choices are in `docs/bots.md`.
"""

from __future__ import annotations

from typing import Final

from engines.big_cheese.components import DECK, expected_points
from engines.big_cheese.state import BigCheeseState
from engines.bots.mcts.rewards import normalized

#: A project's expected points count this much less per award before it matures (0.8, 0.85
#: and 0.9 played alike; 1.0, no discount, clearly worse).
DISCOUNT: Final = 0.9

#: `EXPECTED[d6][card]`: expected points of number card `card` (0 for other codes ≥ 0).
EXPECTED: tuple[tuple[float, ...], ...] = tuple(
    tuple(expected_points(card, dice) for card in range(max(DECK) + 1))
    for dice in ("polyhedral", "d6")
)


def estimated_points(state: BigCheeseState) -> list[float]:
    """Each seat's points plus the discounted expected points of its number projects on the
    table (the points alone under exact-N)."""
    if state.exact:
        return [float(p) for p in state.points]
    table = EXPECTED[state.rules.dice == "d6"]
    now = state.awards
    out: list[float] = []
    for points, cards, dues in zip(state.points, state.proj_cards, state.proj_due):
        total = float(points)
        for card, due in zip(cards, dues):
            if card > 0:
                total += table[card] * DISCOUNT ** (due - now)
        out.append(total)
    return out


def cutoff_value(state: BigCheeseState) -> list[float]:
    """`estimated_points`, normalized to [0, 1] like `scores()` at a cut-off."""
    return normalized(estimated_points(state))
