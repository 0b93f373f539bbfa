"""Heuristic bots.  Both use only public placements (`history`, `tally`) and the own hand.

- `MarginBot` ("default"): per territory, an estimated chance of ending first, from the
  current margin over the strongest rival and the cards still able to go there; plays the
  card/spot with the largest gain in expected tile points (castle race folded into numbers).
  Races are modelled with `spread=0.5` because MCTS reinforced colour leads twice as
  often as the old `spread=1.0` (kept as `v1`), and the sharper model does so and wins more.
  The castle race weighs in separately when two sides contest it (2 players, or 4 in
  teams: `castle_weight_two_sides`), where every number territory won is half of it.
- `GreedyBot` ("greedy"): the move that most improves the own provisional score minus the best
  rival's, scoring the placements as if the game ended now.
"""

from __future__ import annotations

import math
import random
from typing import Final

from engines.bots.options import Param, parse_choice
from engines.tabula_rasa.actions import ACTION_TERRITORY
from engines.tabula_rasa.components import (
    CASTLE_POINTS,
    COPIES,
    NUM_TERRITORIES,
    NUM_TYPES,
    NUM_VALUES,
    TERRITORY_POINTS,
)
from engines.tabula_rasa.scoring import score_tallies
from engines.tabula_rasa.state import TabulaRasaState, fold_key

#: Card types that can be placed at each territory.
_TYPES_OF_TERRITORY = tuple(
    tuple(t for t in range(NUM_TYPES) if t % NUM_VALUES == k) if k < NUM_VALUES
    else tuple(t for t in range(NUM_TYPES) if t // NUM_VALUES == k - NUM_VALUES)
    for k in range(NUM_TERRITORIES)
)
#: Where the castle mix draws from (`MarginBot.castle_weight_of_game`).
CASTLE_DRAWS: Final = ("private", "public")
#: Memo keys are territory * stride + card weight (weights are card values, at most 5).
_MEMO_STRIDE: Final = 8


def _pick_best(values: list[tuple[float, int]], rng: random.Random) -> int:
    best = values[0][0]
    for v, _ in values:
        if v > best:
            best = v
    top = [a for v, a in values if v >= best - 1e-9]
    return top[0] if len(top) == 1 else top[int(rng.random() * len(top))]


def _pick_best_of(gains: list[float], actions: list[int], best: float,
                  rng: random.Random) -> int:
    """`_pick_best` over parallel lists whose largest gain `best` is known: no tuple per
    action (the `mcts` rollouts call this at every step)."""
    floor = best - 1e-9
    top: list[int] = []
    for i in range(len(gains)):
        if gains[i] >= floor:
            top.append(actions[i])
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

    def __init__(self, castle_weight: float = 4.0, spread: float = 0.5,
                 castle_weight_two_sides: float = 4.0, castle_race: bool = False,
                 castle_ignore_share: float = 0.0, castle_draw: str = "private") -> None:
        self.castle_weight = float(castle_weight)
        self.castle_draw = parse_choice("tabula-rasa heuristic", "castle_draw", castle_draw,
                                        CASTLE_DRAWS)
        self.spread = float(spread)
        self.castle_weight_two_sides = float(castle_weight_two_sides)
        self.castle_race = bool(castle_race)
        self.castle_ignore_share = float(castle_ignore_share)

    def castle_weight_of_game(self, state: TabulaRasaState, seat: int) -> float:
        """The castle weight this seat plays in this game when three or more sides race.

        The race is a cycle (a table that ignores the castle loses it to a lone chaser, a
        table that chases it loses to a lone ignorer), so no fixed weight is unexploitable;
        a mixed strategy is.  Each seat ignores the castle (weight 0) in a share
        `castle_ignore_share` of games and chases it with `castle_weight` in the rest.  The
        draw holds for the whole game and is private: it comes from the seat's dealt key
        (mixed from the hand it was dealt), so no rival can read it from the table, and a
        search that samples the rivals' hands samples their draws too.  With
        `castle_draw="public"` the draw is a hash of the seat and the first round's
        placements instead, which every rival can read (a chaser's weight until then)."""
        share = self.castle_ignore_share
        if share <= 0.0:
            return self.castle_weight
        if self.castle_draw == "private":
            key = state.dealt_key[seat]
        else:
            if len(state.history) < state.num_players:
                return self.castle_weight
            key = fold_key((seat + 1) * 40503, state.history, state.num_players)
        return 0.0 if key < share * 4294967296.0 else self.castle_weight

    def castle_stakes(self, chances: list[float], rivals: list[int], me: int, sides: int,
                      consecutive: bool) -> list[float]:
        """Per number territory, how much winning it rather than losing it raises the own
        chance of the castle (A3: the first side to win two of 1..5, walked in order).

        Each other number territory is won by this side with its modelled chance, else by
        the rival leading there; the 16 outcomes of the other four are walked in order.  A
        fixed castle weight is exploitable both ways (a table that ignores the castle hands
        it to a lone chaser, a table that always chases it is beaten by a lone ignorer);
        this stake follows the race as it stands."""
        out: list[float] = []
        wins: list[int] = [0] * sides
        for k in range(NUM_VALUES):
            stake = 0.0
            for mask in range(16):
                prob = 1.0
                bit = 0
                for j in range(NUM_VALUES):
                    if j != k:
                        prob *= chances[j] if mask >> bit & 1 else 1.0 - chances[j]
                        bit += 1
                for won_k in range(2):
                    for side in range(sides):
                        wins[side] = 0
                    last = -1
                    taker = -1
                    bit = 0
                    for j in range(NUM_VALUES):
                        if j == k:
                            winner = me if won_k else rivals[j]
                        else:
                            winner = me if mask >> bit & 1 else rivals[j]
                            bit += 1
                        wins[winner] = wins[winner] + 1
                        if (last == winner) if consecutive else (wins[winner] == 2):
                            taker = winner
                            break
                        last = winner
                    if taker == me:
                        stake += prob if won_k else -prob
            out.append(stake)
        return out

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
        # Explicit loops, not generator expressions: this runs at every step of an `mcts`
        # rollout, and a compiled generator costs more than the loop it replaces.
        # `x[i] = x[i] + 1`, not `x[i] += 1`: compiled, the augmented form goes through
        # Python's generic in-place add.
        seen: list[int] = [0] * NUM_TYPES
        for action in state.history:
            t = action >> 1
            seen[t] = seen[t] + 1
        mine: list[int] = [0] * NUM_TYPES
        for card in hand:
            mine[card] = mine[card] + 1
            seen[card] = seen[card] + 1
        seen_total = len(state.history) + len(hand)
        unseen_total = NUM_TYPES * COPIES - seen_total  # deck + removed + other hands
        ply = state.ply
        total_plies = state.total_plies
        plies_left = total_plies - ply
        side_of = state.side_of
        start = state._next[0]  # the seat acting at ply 0 (the starting_player lever)
        my_plays_left = 0
        for s in range(n):
            if side_of[s] == me:
                first = ply + (s - start - ply) % n
                if first < total_plies:
                    my_plays_left += (total_plies - first + n - 1) // n
        opp_plays_left = plies_left - my_plays_left
        # Share of the unseen cards that rivals will place, and that the own side will draw.
        own_draws = max(0, my_plays_left - len(hand))
        share_opp = min(1.0, opp_plays_left / unseen_total) if unseen_total else 0.0
        share_me = min(1.0, own_draws / unseen_total) if unseen_total else 0.0
        tally = state.tally
        weights = state._weights
        unit = 1.0 if weights[0] == 1 else 3.0
        base = me * NUM_TERRITORIES
        gains: list[float] = []
        best = -math.inf
        memo: dict[int, float] = self.memo_type()
        # Two sides (2 players, or 4 in teams) race for the castle alone: every number
        # territory won is half of it.
        castle = (self.castle_weight_of_game(state, seat) if sides > 2
                  else self.castle_weight_two_sides)
        stakes: list[float] = []
        if self.castle_race:
            stakes = self._stakes(state, seen, mine, share_me, share_opp, unit, me, sides)
        # Module constants bound once: a compiled loop would look each imported name up in
        # the module's dict every time.
        territory_of: tuple[int, ...] = ACTION_TERRITORY
        types_of: tuple[tuple[int, ...], ...] = _TYPES_OF_TERRITORY
        points: tuple[int, ...] = TERRITORY_POINTS
        copies: int = COPIES
        num_territories: int = NUM_TERRITORIES
        num_values: int = NUM_VALUES
        for action in legal:
            k = territory_of[action]
            w = weights[action]
            key = k * _MEMO_STRIDE + w  # (territory, weight) as one int: no tuple to build
            cached = memo.get(key)
            gain: float
            if cached is not None:
                gain = cached
            else:
                own_hand = -1
                unseen_k = 0
                for t in types_of[k]:
                    own_hand += mine[t]
                    unseen_k += copies - seen[t]
                fut_me = unit * 0.5 * (own_hand + share_me * unseen_k)
                fut_opp = unit * 0.5 * share_opp * unseen_k
                rival = -1
                for s in range(sides):
                    if s != me and tally[s * num_territories + k] > rival:
                        rival = tally[s * num_territories + k]
                margin = tally[base + k] - rival
                worth = points[k] - 1.0
                if k < num_values:
                    worth += stakes[k] if stakes else castle
                before = self._win_chance(margin, fut_me, fut_opp)
                after = self._win_chance(margin + w, fut_me, fut_opp)
                gain = worth * (after - before)
                if tally[base + k] == 0:
                    gain += 0.5  # first card: a treasure becomes reachable
                memo[key] = gain
            gains.append(gain)
            if gain > best:
                best = gain
        return _pick_best_of(gains, legal, best, rng)

    def _stakes(self, state: TabulaRasaState, seen: list[int], mine: list[int],
                share_me: float, share_opp: float, unit: float, me: int,
                sides: int) -> list[float]:
        """The castle's points times `castle_stakes`, from each number territory's chance
        as the race model gives it now (the same model as every territory's gain)."""
        tally = state.tally
        chances: list[float] = []
        rivals: list[int] = []
        base = me * NUM_TERRITORIES
        for k in range(NUM_VALUES):
            own_hand = 0
            unseen_k = 0
            for t in _TYPES_OF_TERRITORY[k]:
                own_hand += mine[t]
                unseen_k += COPIES - seen[t]
            rival = -1
            lead = -1
            for s in range(sides):
                if s != me and tally[s * NUM_TERRITORIES + k] > lead:
                    lead = tally[s * NUM_TERRITORIES + k]
                    rival = s
            fut_me = unit * 0.5 * (own_hand + share_me * unseen_k)
            fut_opp = unit * 0.5 * share_opp * unseen_k
            chances.append(self._win_chance(tally[base + k] - lead, fut_me, fut_opp))
            rivals.append(rival)
        consecutive = state.rules.castle_rule == "two_consecutive"
        return [CASTLE_POINTS * x
                for x in self.castle_stakes(chances, rivals, me, sides, consecutive)]


#: The default's weights (`simulate list`, `simulate tune`).
PARAMS: tuple[Param, ...] = (
    Param("castle_weight", "float", 4.0, "tile points a castle territory is worth on top of "
          "its own when three sides race for the castle", 0.0, 8.0),
    Param("spread", "float", 0.5, "uncertainty of a territory race (smaller: sharper, "
          "reinforces leads more)", 0.1, 2.0),
    Param("castle_weight_two_sides", "float", 4.0, "castle_weight when two sides race for "
          "the castle (2 players, or 4 in teams)", 0.0, 8.0),
    Param("castle_race", "bool", False, "weigh a number territory by how much winning it "
          "raises the own chance of the castle (A3, first to two) instead of castle_weight"),
    Param("castle_ignore_share", "float", 0.0, "share of games in which the seat ignores "
          "the castle race (weight 0) when three or more sides race for it; castle_weight "
          "in the rest (drawn per seat and game from the hand it was dealt, which only it sees)",
          0.0, 1.0),
    Param("castle_draw", "choice", "private", "where the castle mix draws from: private (the "
          "seat's dealt hand) or public (the first round's placements: every rival can read "
          "it)", choices=CASTLE_DRAWS),
)


class MarginV1Bot(MarginBot):
    """The earlier default (`spread=1.0`): reinforced colour leads half as often."""

    name = "heuristic:v1"

    def __init__(self, castle_weight: float = 4.0, spread: float = 1.0,
                 castle_weight_two_sides: float = 4.0, castle_race: bool = False,
                 castle_ignore_share: float = 0.0) -> None:
        super().__init__(castle_weight, spread, castle_weight_two_sides, castle_race,
                         castle_ignore_share)
