"""Hot Potato's heuristic: take a potato that costs little, pay a chip otherwise, and offer
the highest card of the hand."""

import random

from engines.bots.options import Param
from engines.gamekit import heuristic

from .state import OFFER, PAY, TAKE, HotPotatoState, run_points

PARAMS = (Param("threshold", "int", 3, "take when the potato costs at most this many penalty "
                "points (its points less the chips on it)", 0, 20),)


def take_cheap(state: HotPotatoState, rng: random.Random, threshold: int) -> int:
    legal = state.legal_actions()
    if legal[0] >= OFFER:
        return legal[-1]  # the highest card in hand
    if PAY not in legal:
        return TAKE
    taken = state.cards("taken", state.to_move)
    card = state.cards("potato")[0]
    cost = run_points(sorted([*taken, card])) - run_points(taken) - state.values["pot"]
    return TAKE if cost <= threshold else PAY


HEURISTICS = {"default": heuristic(take_cheap, PARAMS, uses_rng=False)}
