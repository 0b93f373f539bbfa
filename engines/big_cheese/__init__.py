"""The Big Cheese (Cheapass Games, 1998): bid workers on face-up projects, roll for points."""

from __future__ import annotations

from engines.big_cheese.actions import ACTION_KINDS, NUM_ACTIONS
from engines.big_cheese.bots import HEURISTICS, PARAMS
from engines.big_cheese.components import DATASET
from engines.big_cheese.elements import ELEMENTS
from engines.big_cheese.evaluation import cutoff_value
from engines.big_cheese.rules import Rules
from engines.big_cheese.state import BigCheeseState, create_state
from engines.bots.styles import promote, with_shipped
from engines.core import Game, Starter


def _dataset(rules: Rules) -> str:
    return DATASET


#: The default heuristic is the shipped tuned style (styles/tuned.toml: share=2, +0.4 per
#: player above four, the whole budget bid at once from four players up but never more than
#: the richest rival still bidding can reach, budgets growing as expected points to the
#: power 0.9, a Veto worth 0.3 of a mean number card, reroll_share=0.15, veto_share=0.25;
#: its description says how it was tuned and screened so that no shipped style wins more
#: than its share as a lone seat against it).  The earliest default is kept as `v2`, the
#: tuned default before the jump as `v3`, the one before the bid stop, the budget curve and
#: the Veto's worth as `v4`.
HEURISTICS_ALL, DEFAULT_PARAMS = promote(
    with_shipped("big-cheese", __file__, dict(HEURISTICS), PARAMS), "tuned", "v2", PARAMS, __file__)
#: Defaults of the `mcts` bot in this game (`Game.mcts_defaults`).  Rollouts stop after 20
#: actions (a few auctions) and score the position with `evaluation.cutoff_value` (points
#: plus the projects on the table): about 60% of the work of the earlier 70 actions scored
#: by points alone, and as strong (`docs/bots.md`).
MCTS_DEFAULTS = {"rollout_depth": "20"}
#: Options of `mcts:strong` in this game (`Game.mcts_presets`): a budget that lets 2,000
#: all-strong games run in about 10 minutes on two cores (`docs/bots.md`).
MCTS_PRESETS = {"strong": {"iterations": "40"}}

GAME = Game(
    name="big-cheese",
    min_players=3,
    max_players=6,
    max_decisions=30_000,  # safety cap: play_game truncates a game after this many decisions
    num_actions=NUM_ACTIONS,
    Rules=Rules,
    create_state=create_state,
    heuristics=HEURISTICS_ALL,
    heuristic_params=DEFAULT_PARAMS,
    description="Auction chips onto projects; chips trickle back one per award; "
    "matured projects roll for points (d6 to 200 or polyhedral to 40).",
    default_players=4,
    dataset=_dataset,
    action_kinds=ACTION_KINDS,
    score_direction="highest",  # the most points wins
    score_range=(0.0, None),  # points are never negative
    mcts_defaults=MCTS_DEFAULTS,
    mcts_presets=MCTS_PRESETS,
    mcts_evaluation=cutoff_value,
    elements=ELEMENTS,
    # setup: the first leader is picked at random (the first_leader lever can fix it)
    starter=Starter("first_leader", {"random": "random", "first": "first", "last": "last"}),
)

__all__ = ["GAME", "BigCheeseState", "Rules", "create_state"]
