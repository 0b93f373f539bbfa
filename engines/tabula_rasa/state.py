"""The Tabula Rasa position: deal, play one card per turn next to a matching territory, draw.

Hidden information: the hands, the deck order and the two cards removed unseen before the
deal (ruling A8).  Everything placed beside a territory is public (`history`).
"""

from __future__ import annotations

import random
from bisect import insort

from engines.kit import copy_rng, deal_back, first_seat, seat_bonus, world_rng
from engines.tabula_rasa import render
from engines.tabula_rasa._position import TabulaRasaPosition
from engines.tabula_rasa.actions import (
    ACTION_TERRITORY,
    ACTION_VALUE,
    CARD_ACTIONS,
    PLACE_KIND,
    S_DRAW_LEVEL,
    S_OPEN,
    S_REINFORCE,
    S_TAKE_LEAD,
    S_TRAIL,
    action_name,
)
from engines.tabula_rasa.components import (
    COPIES,
    HAND_SIZE,
    NUM_TERRITORIES,
    NUM_TYPES,
    REMOVED,
)
from engines.tabula_rasa.rules import Rules
from engines.tabula_rasa.scoring import Scoring, score_tallies

#: The 50 knight cards as card types, in a canonical order.
FULL_DECK = tuple(t for t in range(NUM_TYPES) for _ in range(COPIES))
#: Weight one placement adds to its side's tally: 1 per card, or the card value (A7 variant).
_COUNT_WEIGHTS = (1,) * len(ACTION_VALUE)
#: Territory of each action (its index within one side's block of the tally).
_TERR = ACTION_TERRITORY

def _tables(num_players: int, start: int = 0) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per seat, its side's offset in the tally; per ply, the seat to act (-1 = game over),
    seat `start` acting first."""
    sides = 2 if num_players == 4 else num_players
    offset = tuple((seat % sides) * NUM_TERRITORIES for seat in range(num_players))
    plies = len(FULL_DECK) - REMOVED
    turn = tuple((p + start) % num_players if p < plies else -1 for p in range(plies + 1))
    return offset, turn


_TABLES = {(n, start): _tables(n, start) for n in (2, 3, 4) for start in range(n)}


def fold_key(seed: int, values: list[int], count: int) -> int:
    """A 32-bit key mixed from `seed` and the first `count` of `values`: a fixed draw that
    takes nothing from the game's chance stream, so the deals stay what they were."""
    h = seed
    for i in range(count):
        h = (h * 1000003 + values[i] + 1) & 0xFFFFFFFF
    h = (h ^ (h >> 15)) * 2246822519 & 0xFFFFFFFF
    h = (h ^ (h >> 13)) * 3266489917 & 0xFFFFFFFF
    return h ^ (h >> 16)


def hand_key(hand: list[int]) -> int:
    """The private, fixed per-game draw of the seat dealt this sorted hand."""
    return fold_key(0x9E3779B9, hand, len(hand))


class TabulaRasaState(TabulaRasaPosition):
    """One game.  Seats act in order 0,1,..; in 4p seats 0,2 and 1,3 are partners (A5)."""

    __slots__ = ()  # the attributes: TabulaRasaPosition (declared in position.py)

    # --- text view (render.py) ----------------------------------------------------------
    def render(self, seat: int | None = None) -> str:
        return render.render(self, seat)

    def round_label(self) -> str:
        return render.round_label(self)

    def __init__(self, num_players: int = 0, seed: int = 0, rules: Rules | None = None) -> None:
        if not num_players:  # blank, for clone(): a compiled class cannot skip __init__
            return
        self.num_players = num_players
        self.rules = rules or Rules()
        self.rng = random.Random(seed)
        self._legal_cache = None
        self.sides = 2 if num_players == 4 else num_players
        self.side_of = tuple(seat % self.sides for seat in range(num_players))
        # A uniform shuffle: sort by fresh random keys (3x faster than random.shuffle).
        draw = self.rng.random
        cards = sorted(FULL_DECK, key=lambda _card: draw())
        # Setup: two cards out face down, unseen (A8); 8 to each seat; the rest is the pile.
        self.removed = sorted(cards[:REMOVED])
        dealt = REMOVED + HAND_SIZE * num_players
        self.hands = [
            sorted(cards[REMOVED + HAND_SIZE * s: REMOVED + HAND_SIZE * (s + 1)])
            for s in range(num_players)
        ]
        self.dealt_key = tuple(hand_key(hand) for hand in self.hands)
        self.deck = cards[dealt:]  # drawn from the end
        self.tally = [0] * (self.sides * NUM_TERRITORIES)  # what decides majorities
        self.history = []
        self.ply = 0
        # A10: seat 0 is the player left of the dealer, unless the starting_player lever moves it
        start = first_seat(self.rules.starting_player, num_players, seed)
        self.to_move = start
        self.total_plies = len(FULL_DECK) - REMOVED  # A11: every card in play is played
        self._weights = ACTION_VALUE if self.rules.majority_by == "value_sum" else _COUNT_WEIGHTS
        self._result = None
        self._offset, self._next = _TABLES[num_players, start]

    # --- acting --------------------------------------------------------------------------
    def current_player(self) -> int:
        return self.to_move

    def is_terminal(self) -> bool:
        return self.to_move < 0

    def _legal_actions(self) -> list[int]:
        if self.to_move < 0:
            return []
        out: list[int] = []
        prev = -1
        for card in self.hands[self.to_move]:
            if card != prev:
                out += CARD_ACTIONS[card]
                prev = card
        return out

    def _apply(self, action: int) -> None:
        """Play one card beside its number or colour territory on the own side, then draw."""
        seat = self.to_move
        hand = self.hands[seat]
        hand.remove(action >> 1)
        self.tally[self._offset[seat] + _TERR[action]] += self._weights[action]
        self.history.append(action)
        if self.deck:
            insort(hand, self.deck.pop())
        self.ply = ply = self.ply + 1
        self.to_move = self._next[ply]

    def action_kind(self, action: int) -> int:
        """Index into `ACTION_KINDS`: the placement's situation in its territory's fight."""
        terr = _TERR[action]
        tally = self.tally
        me = self._offset[self.to_move]
        mine = me + terr
        own = tally[mine]
        rival = 0
        for i in range(terr, len(tally), NUM_TERRITORIES):
            if i != mine and tally[i] > rival:
                rival = tally[i]
        after = own + self._weights[action]
        if own > rival:
            situation = S_REINFORCE
        elif after > rival:
            situation = S_OPEN if rival == 0 else S_TAKE_LEAD
        elif after == rival:
            situation = S_DRAW_LEVEL
        else:
            situation = S_TRAIL
        return PLACE_KIND[action] + situation

    # --- outcome -------------------------------------------------------------------------
    def scoring(self) -> Scoring:
        """Score the placements as they stand (the final result once the game is over)."""
        cached = self._result
        if cached is not None and cached[0] == self.ply:
            return cached[1]
        result = score_tallies(self.tally, self.sides, self.rules.castle_rule)
        self._result = (self.ply, result)
        return result

    def _per_seat(self, per_side: list[int]) -> list[float]:
        return [float(per_side[s]) for s in self.side_of]

    def _totals(self) -> list[int]:
        """Each side's points: tile points plus its seats' `seat_bonus` (compensation)."""
        totals = self.scoring().totals
        if not self.rules.seat_bonus:
            return totals
        totals = list(totals)
        for seat, bonus in enumerate(seat_bonus(self.rules.seat_bonus, self.num_players)):
            totals[self.side_of[seat]] += bonus
        return totals

    def scores(self) -> list[float]:
        """Tile points; in 4p both partners get the team total."""
        return self._per_seat(self._totals())

    def winners(self) -> list[int]:
        """Top score; a tie is shared (A9 draw) or broken by territories, then the castle."""
        result = self.scoring()
        totals = self._totals()
        best = max(totals)
        sides = [s for s in range(self.sides) if totals[s] == best]
        if len(sides) > 1 and self.rules.final_tie == "tiebreak":
            most = max(result.territories_won[s] for s in sides)
            sides = [s for s in sides if result.territories_won[s] == most]
            if len(sides) > 1 and result.castle in sides:
                sides = [result.castle]
        return [seat for seat, side in enumerate(self.side_of) if side in sides]

    def score_breakdown(self) -> dict[str, list[float]]:
        out = {k: self._per_seat(v) for k, v in self.scoring().by_source.items()}
        if self.rules.seat_bonus:
            out["seat_bonus"] = self._per_seat(
                [a - b for a, b in zip(self._totals(), self.scoring().totals)])
        return out

    def metrics(self) -> dict[str, float]:
        result = self.scoring()
        totals = sorted(result.totals, reverse=True)
        return {
            "castle_awarded": float(result.castle >= 0),
            "ties": float(result.two_way_ties + result.multi_way_ties),
            "two_way_ties": float(result.two_way_ties),
            "three_way_ties": float(result.multi_way_ties),
            "treasures_unclaimed": float(
                sum(1 for t in range(NUM_TERRITORIES) if result.treasure[t] < 0)
            ),
            "margin": float(totals[0] - totals[1]),
        }

    # --- information -----------------------------------------------------------------------
    def clone(self) -> TabulaRasaState:
        return self.clone_with_rng(copy_rng(self.rng))

    def clone_with_rng(self, rng: random.Random) -> TabulaRasaState:
        new = TabulaRasaState()
        self._copy_position(new)
        new.rng = rng
        return new

    def determinize(self, seat: int, rng: random.Random) -> TabulaRasaState:
        """Resample the deck, the two removed cards and every other hand (partner's too), and
        the others' dealt keys (drawn from their resampled hands: as unknown as what they
        were dealt)."""
        world = self.clone_with_rng(self.rng)  # replaced below: no copy of ours
        others = [other for other in range(self.num_players) if other != seat]
        unknown = list(world.deck) + list(world.removed)
        for other in others:
            unknown += world.hands[other]
        *hands, removed, deck = deal_back(
            unknown, [len(world.hands[other]) for other in others] + [REMOVED], rng)
        keys = list(world.dealt_key)
        for other, hand in zip(others, hands):
            world.hands[other] = sorted(hand)
            keys[other] = hand_key(world.hands[other])  # what they were dealt: unknown too
        world.dealt_key = tuple(keys)
        world.removed = sorted(removed)
        world.deck = deck
        world.rng = world_rng(rng)
        return world

    def placed(self) -> list[list[list[int]]]:
        """Public: the cards beside each territory, per side (`[side][territory] -> cards`)."""
        out: list[list[list[int]]] = [[[] for _ in range(NUM_TERRITORIES)]
                                      for _ in range(self.sides)]
        for ply, action in enumerate(self.history):
            side = self.side_of[ply % self.num_players]
            out[side][_TERR[action]].append(action >> 1)
        return out

    def _view_side(self, seat: int) -> int:
        return self.side_of[seat]

    def _view_placed(self, seat: int) -> list[list[list[int]]]:
        return self.placed()

    def action_to_str(self, action: int) -> str:
        return action_name(action)
