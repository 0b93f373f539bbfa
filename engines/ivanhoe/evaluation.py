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
all-heuristic games from every tournament boundary of them (12,000 games per count, seeds
from 0; `tools/fit_ivanhoe_evaluation.py` refits them).  It reads the hands of the
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
    2: (0.364, -0.046, -0.222, -0.217, 0.120, 0.937, -0.121, -0.137, -0.066, 0.046,
        0.021, 0.170, 0.150, 0.096, 0.055, 0.158),
    3: (0.421, -0.048, -0.176, -0.213, 0.015, 0.761, -0.012, -0.013, 0.079, 0.162,
        0.007, 0.143, 0.066, 0.081, 0.048, 0.131),
    4: (0.485, 0.009, -0.239, -0.254, 0.000, 0.699, 0.038, 0.063, 0.102, 0.330,
        0.057, 0.145, 0.022, 0.058, 0.055, 0.112),
    5: (0.564, 0.003, -0.282, -0.285, 0.000, 0.698, 0.089, 0.127, 0.164, 0.338,
        0.046, 0.143, -0.022, 0.050, 0.049, 0.119),
}


def features(state: IvanhoeState, seat: int) -> list[float]:
    """One seat's features, in the order of `WEIGHTS`."""
    owned = state.tokens[seat]
    need = state.target - owned.bit_count()
    out = [float(need == k) for k in range(1, 6)]
    out += [float((owned >> c) & 1) for c in range(5)]
    hand = state.hands[seat]
    actions = supporters = value = 0
    for t in hand:
        if t >= FIRST_ACTION:
            actions += 1
        else:
            value += VALUE[t]
            if t >= SQUIRE2:
                supporters += 1
    out += [float(len(hand)), float(actions), float(IVANHOE in hand), float(supporters),
            float(value), float(state.starter == seat)]
    return out


def win_chances(state: IvanhoeState) -> list[float]:
    """Each seat's estimated chance to win the game (they sum to 1)."""
    w = WEIGHTS[state.num_players]
    scores = [sum([a * b for a, b in zip(w, features(state, s))])
              for s in range(state.num_players)]
    top = max(scores)
    exps = [math.exp(x - top) for x in scores]
    total = sum(exps)
    return [e / total for e in exps]
