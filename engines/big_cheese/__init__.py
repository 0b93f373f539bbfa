"""The Big Cheese (Cheapass Games, 1998): bid workers on face-up projects, roll for points."""

from __future__ import annotations

from engines.big_cheese.actions import ACTION_KINDS, NUM_ACTIONS
from engines.big_cheese.bots import HEURISTICS, PARAMS
from engines.big_cheese.components import DATASET
from engines.big_cheese.rules import Rules
from engines.big_cheese.state import BigCheeseState, create_state
from engines.bots.styles import with_shipped
from engines.core import Game


def _dataset(rules: Rules) -> str:
    return DATASET


GAME = Game(
    name="big-cheese",
    min_players=3,
    max_players=6,
    max_decisions=30_000,  # safety cap: play_game truncates a game after this many decisions
    num_actions=NUM_ACTIONS,
    Rules=Rules,
    create_state=create_state,
    heuristics=with_shipped("big-cheese", __file__, dict(HEURISTICS)),
    heuristic_params=PARAMS,
    description="Auction chips onto projects; chips trickle back one per award; "
    "matured projects roll for points (d6 to 200 or polyhedral to 40).",
    default_players=4,
    dataset=_dataset,
    action_kinds=ACTION_KINDS,
)

__all__ = ["GAME", "BigCheeseState", "Rules", "create_state"]
