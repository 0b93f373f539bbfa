"""Time Pirates (Moon & Weissblum, 2000): collect artifacts across seven epochs, buy deeds.

Rules and rulings: /work/shared/rules/time_pirates.md (Rio Grande rules by default).
3-6 players; the board is the INFERRED `time-pirates-inferred-v1` data set unless
`--rule components=PATH` replaces it.
"""

from __future__ import annotations

from engines.bots.styles import with_shipped
from engines.core import Game, Starter
from engines.time_pirates.actions import ACTION_KINDS, NUM_ACTIONS
from engines.time_pirates.bots import PARAMS, CautiousBot, PirateBot, PirateBotV1
from engines.time_pirates.components import dataset_label
from engines.time_pirates.data_set import DATA_SET
from engines.time_pirates.elements import ELEMENTS
from engines.time_pirates.rules import Rules
from engines.time_pirates.state import TimePiratesState


def _create_state(num_players: int, seed: int, rules: Rules) -> TimePiratesState:
    return TimePiratesState(num_players, seed, rules)


def _dataset(rules: Rules) -> str:
    return dataset_label(rules.components)


#: Defaults of the `mcts` bot in this game (`Game.mcts_defaults`).  Rollouts stop after 40
#: actions and score the position by normalized scores: about a fifth of the work of
#: rollouts to the end, and still well above the heuristic (`docs/bots.md`).
MCTS_DEFAULTS = {"rollout_depth": "40"}
#: Options of `mcts:strong` in this game (`Game.mcts_presets`): a budget that lets 2,000
#: all-strong games run in about 10 minutes on two cores (`docs/bots.md`).
MCTS_PRESETS = {"strong": {"iterations": "22"}}

GAME = Game(
    name="time-pirates",
    min_players=3,
    max_players=6,
    max_decisions=5_000,  # safety cap (random play needs < 800 decisions)
    num_actions=NUM_ACTIONS,
    Rules=Rules,
    create_state=_create_state,
    heuristics=with_shipped(
        "time-pirates", __file__,
        {"default": PirateBot, "v1": PirateBotV1, "cautious": CautiousBot}, PARAMS),
    heuristic_params=PARAMS,
    description="Moon & Weissblum's artifact collecting across time (3-6 players)",
    default_players=4,
    dataset=_dataset,
    action_kinds=ACTION_KINDS,
    score_direction="highest",  # the most points wins
    score_range=(0.0, None),  # points are never negative
    replaceable_data=DATA_SET,
    mcts_defaults=MCTS_DEFAULTS,
    mcts_presets=MCTS_PRESETS,
    elements=ELEMENTS,
    # setup 5-6: seat 1 is the start player and takes the first turn (with the printed
    # placement_order the pawns are placed before that, the last seat first)
    starter=Starter(fixed="first"),
)

__all__ = ["GAME", "Rules", "TimePiratesState"]
