"""Heuristic bots.  Both use only public placements (`history`, `tally`) and the own hand.

- `MarginBot` ("default"): per territory, an estimated chance of ending first, from the
  current margin over the strongest rival and the cards still able to go there; plays the
  card/spot with the largest gain in expected tile points (castle race folded into numbers).
  Races are modelled with `spread=0.5` since issue 15: MCTS reinforced colour leads twice as
  often as the old `spread=1.0` (kept as `v1`), and the sharper model does so and wins more.
- `GreedyBot` ("greedy"): the move that most improves the own provisional score minus the best
  rival's, scoring the placements as if the game ended now.
"""

from __future__ import annotations

import math
import random

from engines.tabula_rasa.actions import ACTION_TERRITORY
from engines.tabula_rasa.components import (
    COPIES,
    NUM_TERRITORIES,
    NUM_TYPES,
    NUM_VALUES,
    TERRITORY_POINTS,
)
from engines.tabula_rasa.scoring import score_tallies
from engines.tabula_rasa.state import TabulaRasaState

#: Card types that can be placed at each territory.
_TYPES_OF_TERRITORY = tuple(
    tuple(t for t in range(NUM_TYPES) if t % NUM_VALUES == k) if k < NUM_VALUES
    else tuple(t for t in range(NUM_TYPES) if t // NUM_VALUES == k - NUM_VALUES)
    for k in range(NUM_TERRITORIES)
)


def _pick_best(values: list[tuple[float, int]], rng: random.Random) -> int:
    best = max(v for v, _ in values)
    top = [a for v, a in values if v >= best - 1e-9]
    return top[0] if len(top) == 1 else top[int(rng.random() * len(top))]


class GreedyBot:
    """Maximise (own provisional score - best rival's) after this placement."""

    name = "heuristic:greedy"
    #: Values are memoised per (tally slot, card weight) within one decision: legal actions
    #: that add the same weight to the same territory score alike.  (A speed shortcut;
    #: `tests/test_fastpaths.py` plays with a memo that never remembers and compares.)
    memo_type: type = dict

    def choose(self, state: TabulaRasaState, rng: random.Random) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.side_of[state.current_player()]
        tally = list(state.tally)
        sides = state.sides
        rule = state.rules.castle_rule
        weights = state._weights
        values = []
        memo = self.memo_type()
        for action in legal:
            idx = me * NUM_TERRITORIES + ACTION_TERRITORY[action]
            w = weights[action]
            value = memo.get((idx, w))
            if value is None:
                tally[idx] += w
                totals = score_tallies(tally, sides, rule).totals
                tally[idx] -= w
                rival = max(totals[s] for s in range(sides) if s != me)
                value = memo[(idx, w)] = totals[me] - rival
            values.append((value, action))
        return _pick_best(values, rng)


class MarginBot:
    """Expected-tile-points greedy with a probabilistic model of each territory's race."""

    name = "heuristic"
    #: Gains are memoised per (territory, card weight) within one decision: every input of a
    #: gain but those two is the same for all legal actions.  (A speed shortcut;
    #: `tests/test_fastpaths.py` plays with a memo that never remembers and compares.)
    memo_type: type = dict

    def __init__(self, castle_weight: float = 4.0, spread: float = 0.5) -> None:
        self.castle_weight = float(castle_weight)
        self.spread = float(spread)

    def _win_chance(self, margin: float, future_me: float, future_opp: float) -> float:
        mu = margin + 0.5 * (future_me - future_opp)
        sigma = self.spread * math.sqrt(0.25 * (future_me + future_opp) + 0.3)
        return 1.0 / (1.0 + math.exp(-1.7 * mu / sigma))

    def choose(self, state: TabulaRasaState, rng: random.Random) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.current_player()
        me = state.side_of[seat]
        sides = state.sides
        n = state.num_players
        hand = state.hands[seat]
        seen = [0] * NUM_TYPES
        for action in state.history:
            seen[action >> 1] += 1
        mine = [0] * NUM_TYPES
        for card in hand:
            mine[card] += 1
            seen[card] += 1
        unseen_total = NUM_TYPES * COPIES - sum(seen)  # deck + removed + other hands
        plies_left = state.total_plies - state.ply
        start = state._next[0]  # the seat acting at ply 0 (the starting_player lever)
        my_plays_left = sum(
            len(range(state.ply + (s - start - state.ply) % n, state.total_plies, n))
            for s in range(n) if state.side_of[s] == me
        )
        opp_plays_left = plies_left - my_plays_left
        # Share of the unseen cards that rivals will place, and that the own side will draw.
        own_draws = max(0, my_plays_left - len(hand))
        share_opp = min(1.0, opp_plays_left / unseen_total) if unseen_total else 0.0
        share_me = min(1.0, own_draws / unseen_total) if unseen_total else 0.0
        tally = state.tally
        weights = state._weights
        unit = 1.0 if weights[0] == 1 else 3.0
        base = me * NUM_TERRITORIES
        values = []
        memo = self.memo_type()
        for action in legal:
            k = ACTION_TERRITORY[action]
            w = weights[action]
            gain = memo.get((k, w))
            if gain is None:
                types = _TYPES_OF_TERRITORY[k]
                own_hand = sum(mine[t] for t in types) - 1
                unseen_k = sum(COPIES - seen[t] for t in types)
                fut_me = unit * 0.5 * (own_hand + share_me * unseen_k)
                fut_opp = unit * 0.5 * share_opp * unseen_k
                rival = max(tally[s * NUM_TERRITORIES + k] for s in range(sides) if s != me)
                margin = tally[base + k] - rival
                worth = TERRITORY_POINTS[k] - 1.0
                if k < NUM_VALUES:
                    worth += self.castle_weight
                before = self._win_chance(margin, fut_me, fut_opp)
                after = self._win_chance(margin + w, fut_me, fut_opp)
                gain = worth * (after - before)
                if tally[base + k] == 0:
                    gain += 0.5  # first card: a treasure becomes reachable
                memo[(k, w)] = gain
            values.append((gain, action))
        return _pick_best(values, rng)


class MarginV1Bot(MarginBot):
    """The default before issue 15 (`spread=1.0`): reinforced colour leads half as often."""

    name = "heuristic:v1"

    def __init__(self, castle_weight: float = 4.0, spread: float = 1.0) -> None:
        super().__init__(castle_weight, spread)
