"""Each seat's chance to win the game from an unfinished position, for `mcts` rollouts cut at
the end of a tournament (`Game.mcts_evaluation`).

Why: a rollout to the end of the game lasts about ten tournaments of luck, so two moves of
one tournament are told apart only after many rollouts; cut at the end of the tournament,
the rollout shows what the move changed (who took which token, what each hand kept), and
this table says what that is worth.

The chances are a softmax over the seats of a linear score: the tokens still needed, which
colours are held (purple counts most: a purple tournament pays any colour the winner lacks),
and the hand (cards, action cards, Ivanhoe, supporters, printed values) plus starting the
next tournament.  The weights are a conditional-logit fit, per player count, of who won
all-heuristic games from every tournament boundary of them (8,000-12,000 games per count,
seeds from 0; `tools/fit_ivanhoe_evaluation.py` refits them).  It reads the hands of the
world it is given, which in a search is a sampled world of what the seat can see.
"""

from __future__ import annotations

import math

from engines.ivanhoe.components import FIRST_ACTION, IVANHOE, SQUIRE2, VALUE
from engines.ivanhoe.state import IvanhoeState

#: Per player count: weights of (tokens needed 1, 2, 3, 4, 5), (purple, red, blue, yellow,
#: green token held), then cards in hand, action cards, Ivanhoe, supporters, printed values
#: of display cards in hand, and starting the next tournament.
WEIGHTS: dict[int, tuple[float, ...]] = {
    2: (0.365, -0.047, -0.251, -0.224, 0.157, 0.933, -0.130, -0.158, -0.095, 0.044,
        0.019, 0.163, 0.137, 0.098, 0.053, 0.184),
    3: (0.423, -0.055, -0.171, -0.223, 0.025, 0.777, -0.031, -0.025, 0.071, 0.171,
        0.009, 0.139, 0.062, 0.074, 0.047, 0.139),
    4: (0.485, 0.008, -0.239, -0.254, 0.000, 0.700, 0.038, 0.063, 0.102, 0.330,
        0.057, 0.145, 0.022, 0.058, 0.055, 0.112),
    5: (0.570, 0.001, -0.280, -0.291, 0.000, 0.693, 0.079, 0.151, 0.167, 0.342,
        0.049, 0.149, 0.016, 0.055, 0.049, 0.116),
}


def seat_score(state: IvanhoeState, seat: int, w: tuple[float, ...]) -> float:
    """The linear score of one seat (see `WEIGHTS`)."""
    owned = state.tokens[seat]
    need = state.target - owned.bit_count()
    score = w[need - 1] if 1 <= need <= 5 else 0.0
    for c in range(5):
        if (owned >> c) & 1:
            score += w[5 + c]
    hand = state.hands[seat]
    actions = supporters = value = 0
    for t in hand:
        if t >= FIRST_ACTION:
            actions += 1
        else:
            value += VALUE[t]
            if t >= SQUIRE2:
                supporters += 1
    score += (w[10] * len(hand) + w[11] * actions + w[12] * (IVANHOE in hand)
              + w[13] * supporters + w[14] * value + w[15] * (state.starter == seat))
    return score


def win_chances(state: IvanhoeState) -> list[float]:
    """Each seat's estimated chance to win the game (they sum to 1)."""
    w = WEIGHTS[state.num_players]
    scores = [seat_score(state, s, w) for s in range(state.num_players)]
    top = max(scores)
    exps = [math.exp(x - top) for x in scores]
    total = sum(exps)
    return [e / total for e in exps]
