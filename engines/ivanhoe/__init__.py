"""Ivanhoe (Reiner Knizia, GMT 2000): jousting tournaments for coloured tokens, 2-5 players."""

from __future__ import annotations

from engines.bots.styles import with_shipped
from engines.core import Game, Starter
from engines.ivanhoe.actions import ACTION_KINDS, NUM_ACTIONS
from engines.ivanhoe.bots import PARAMS, HeuristicBot, HeuristicV1Bot
from engines.ivanhoe.elements import ELEMENTS
from engines.ivanhoe.evaluation import win_chances
from engines.ivanhoe.rules import Rules
from engines.ivanhoe.state import IvanhoeState


def create_state(num_players: int, seed: int, rules: Rules) -> IvanhoeState:
    return IvanhoeState(num_players, seed, rules)


#: Defaults of the `mcts` bot in this game (`Game.mcts_defaults`).  The heuristic is close
#: to the best reply to itself here, and a rollout to the end of the game is about ten
#: tournaments of luck: moves were told apart only by noise.  So rollouts stop when the
#: tournament ends and are scored by the seats' win chances (`evaluation.py`), about a tenth
#: of the work each, and the search takes up to 120 of them; the win share is then the
#: reward at the end of the game too.  It must beat the heuristic's move by 2 standard errors.
MCTS_DEFAULTS = {"iterations": "120", "confidence": "2", "rollout_rounds": "1", "reward": "win"}
#: Options of `mcts:strong` in this game (`Game.mcts_presets`), on top of the defaults: a
#: budget that lets 2,000 all-strong games run in about 10 minutes on two cores
#: (`docs/bots.md`).
MCTS_PRESETS = {"strong": {"iterations": "32", "reward": "win"}}

GAME = Game(
    name="ivanhoe",
    min_players=2,
    max_players=5,
    max_decisions=20_000,  # safety cap on decisions per game
    num_actions=NUM_ACTIONS,
    Rules=Rules,
    create_state=create_state,
    heuristics=with_shipped("ivanhoe", __file__,
                            {"default": HeuristicBot, "v1": HeuristicV1Bot}, PARAMS),
    heuristic_params=PARAMS,
    description="Ivanhoe: win tournaments in five colours (all 5 with 2-3 players, 4 with 4-5)",
    default_players=4,
    mcts_defaults=MCTS_DEFAULTS,
    mcts_presets=MCTS_PRESETS,
    mcts_evaluation=win_chances,
    action_kinds=ACTION_KINDS,
    elements=ELEMENTS,
    score_direction="highest",  # the most tokens wins
    score_range=(0.0, 5.0),  # a score is the tokens held, one per colour
    # setup: the dealer is whoever draws purple, the player to their left starts
    starter=Starter("first_starter", {"random": "random", "first": "first", "last": "last"}),
)
