"""Ninjato rules: setup, placements (dojo, sensei, palace, pavilion), end of round, the
scoring phases (3.8) and the final scoring (3.9).

Raids (3.4) live in `raid.py`, a base class of this one; the scoring arithmetic lives in
`scoring.py` (pure functions this class calls).  Everything
is flat lists of ints: a hand is 5 counts (card values 1..5), a treasure holding is 5 counts
(fan, scroll, vase, jade, gold), the dojo deck and the treasure bag are counts too (a draw
picks uniformly from the remaining cards, which is what a shuffled deck does), and the
other decks are lists drawn from at a random index.
"""

from __future__ import annotations

import random
from bisect import insort
from typing import Final

from engines.kit import (
    copy_rng,
    deal_back,
    draw_count,
    draw_from,
    lead_changes,
    refill,
    refill_counts,
    seat_bonus,
    world_rng,
)
from engines.ninjato import components as comp
from engines.ninjato import render, scoring
from engines.ninjato._position import VISIBILITY
from engines.ninjato.actions import (
    A_DECK,
    A_DISCARD,
    A_DISGUISE,
    A_HONOUR,
    A_HOUSE,
    A_PALACE,
    A_PAVILION,
    A_PAY,
    A_RUMOUR,
    A_SENSEI,
    A_SKILLPAY,
    A_TAKE,
    K_DOJO,
    K_SENSEI_DISGUISE,
    K_SENSEI_SKILL,
    KIND_OF,
    KIND_TABLE,
    PH_CHOICE,
    PH_DISCARD,
    PH_DISGUISE,
    PH_DRAW,
    PH_END,
    PH_FIGHT,
    PH_KEEP,
    PH_PAY,
    PH_PLACE,
    PH_REWARD1,
    PH_REWARD2,
    PH_SKILLPAY,
    PH_TOKEN,
    action_to_str,
)
from engines.ninjato.components import E_BORYAKU, E_DISGUISE, E_REFRESH, R_SHAMEFUL
from engines.ninjato.raid import RaidRules
from engines.ninjato.rules import Rules

# (numbers and tables are `Final`: compiled, inlined or a native static, not a global look-up)
HAND_LIMIT: Final = 7
ROUNDS: Final = 7
#: The rounds after which a scoring phase runs (3.8).
SCORING_ROUNDS: Final[tuple[int, ...]] = (3, 5, 7)
DRAWS_BY_HAND: Final[tuple[int, ...]] = (4, 3)  # hand of 0 -> 4 cards, 1 -> 3, 2+ -> 2
# the face-down stacks: their order is hidden (resampled by `determinize`), their size is seen
# (the position's size-only fields; the dojo deck, a count vector, is dealt back on its own)
_FACE_DOWN_STACKS: Final = tuple(name for name, seen in VISIBILITY.items()
                                 if seen == "size" and name != "deck")
# the steps of a scoring phase's queue, entries [seat, step, clan or Disguise tiles]: a
# seat's Disguise declarations, the ranking, a first-place reward, a second-place reward
Q_DISGUISE: Final = 0
Q_RANK: Final = 1
Q_FIRST: Final = 2
Q_SECOND: Final = 3

# `row_key` of the sorted face-up row (deck not empty) -> the dojo draw actions (shared
# lists, filled as rows appear)
_DRAW_ACTS: Final[list[list[int] | None]] = [None] * 6 ** 3


def row_key(row: list[int]) -> int:
    """The face-up row (at most 3 values 1..5) as one int, base 6: an index without a tuple
    to build and hash (values are never 0, so rows of different lengths never share one)."""
    key = 0
    for v in row:
        key = key * 6 + v
    return key


def holding_key(tr: list[int]) -> int:
    """A treasure holding (5 counts) packed in one int, 8 bits a count (far more than the
    bag holds): a cache key without a tuple to build and hash."""
    return tr[0] | tr[1] << 8 | tr[2] << 16 | tr[3] << 24 | tr[4] << 32


def draw_actions(has_deck: int, row: list[int]) -> list[int]:
    """Dojo draws: one face-up card per distinct value, or the deck's top card."""
    out = sorted({A_TAKE + v - 1 for v in row})
    if has_deck:
        out.append(A_DECK)
    return out


def can_pay(opt: tuple[int, int, int, int], tr: list[int]) -> bool:
    """Whether holding `tr` pays `opt` exactly, gold standing in for any shortfall.

    Unrolled: compiled, a constant index reads a field of the typed tuple (a loop index
    would box the tuple back into a Python object at every step)."""
    short = 0
    d = opt[0] - tr[0]
    if d > 0:
        short += d
    d = opt[1] - tr[1]
    if d > 0:
        short += d
    d = opt[2] - tr[2]
    if d > 0:
        short += d
    d = opt[3] - tr[3]
    if d > 0:
        short += d
    return short <= tr[4]


# open-house placements (force, stealth) for each set of closed houses (bit h: house h)
_HOUSE_ACTS: Final[tuple[list[int], ...]] = tuple(
    [A_HOUSE + 2 * h + approach for h in range(5) if not mask >> h & 1 for approach in (0, 1)]
    for mask in range(32))


def affordable(C: comp.Components, tr: list[int]) -> tuple[int, int]:
    """Which envoys and rumours a holding can pay for, as two bit sets (cached per holding
    and data set, under `holding_key`).

    Holding more of a type than any payment asks for changes nothing, so the answer is
    computed once per holding capped at those amounts (`Components.caps`) and shared.
    """
    capped = [x if x < c else c for x, c in zip(tr, C.caps)]
    capped_key = holding_key(capped)
    out: tuple[int, int] | None = C.afford.get(capped_key)
    if out is None:
        envs = 0
        for e, opts in enumerate(C.env_opts):
            if any(can_pay(o, capped) for o in opts):
                envs |= 1 << e
        rums = 0
        for r, opts in enumerate(C.rum_opts):
            if any(can_pay(o, capped) for o in opts):
                rums |= 1 << r
        out = C.afford[capped_key] = (envs, rums)
    C.afford[holding_key(tr)] = out
    return out


def payable(C: comp.Components, pend: int, tr: list[int]) -> tuple[int, ...]:
    """Indices of the payment options of card `pend` (kind*100 + id) that `tr` covers (cached).

    As in `affordable`, holdings capped at `Components.caps` share one answer: a holding
    not seen before is usually a capped one seen before, so few answers are computed.
    """
    key = pend << 40 | holding_key(tr)  # (pend, holding) in one int
    out: tuple[int, ...] | None = C.payable.get(key)
    if out is None:
        capped = pend << 40 | holding_key([x if x < c else c for x, c in zip(tr, C.caps)])
        out = C.payable.get(capped)
        if out is None:
            kind, card = divmod(pend, 100)
            opts = C.env_opts[card] if kind == 0 else C.rum_opts[card]
            out = C.payable[capped] = tuple(i for i, o in enumerate(opts) if can_pay(o, tr))
        C.payable[key] = out
    return out


class NinjatoState(RaidRules):
    """A Ninjato position (the data layout: `position.py`, generated into `NinjatoPosition`).

    One inheritance chain, `NinjatoPosition` (the typed attributes) -> `RaidRules` (the raid
    rules) -> here: a class compiled by mypyc has a single base."""

    __slots__ = ()
    kind_table = KIND_TABLE

    # --- text view (render.py) ----------------------------------------------------------
    def render(self, seat: int | None = None) -> str:
        return render.render(self, seat)

    def round_label(self) -> str:
        return render.round_label(self)

    @property
    def num_players(self) -> int:  # type: ignore[override]
        return self.n

    # ------------------------------------------------------------------ setup
    @classmethod
    def initial(cls, num_players: int, seed: int, rules: Rules) -> NinjatoState:
        """Setup 3.1: sentries, tokens, 3 treasures per house, sensei, palace, pavilion, hands."""
        s = cls()  # not cls.__new__(cls): a compiled class always runs __init__
        s._legal_cache = None
        n = s.n = num_players
        s.rules = rules
        rng = s.rng = random.Random(seed)
        C = s.C = comp.load(rules.components, rules.treasure_mix)
        order = list(range(n))
        rng.shuffle(order)
        s.order = order
        s.round = 1
        s.turn = 0
        s.dojo_stack = []
        s.guard_deck = list(range(len(C.gval)))
        s.guard_discards = []
        s.elite_deck = list(range(len(C.ehonour)))
        s.elite_discards = []
        s.elites = [[] for _ in range(n)]
        s.house_sentry = [draw_from(s.guard_deck, rng) for _ in range(5)]
        tokens = list(C.setup_tokens)
        rng.shuffle(tokens)
        s.house_clan = [c for c, _ in tokens]
        s.house_token = [v for _, v in tokens]
        s.token_supply = [[1] * len(C.token_values) for _ in range(3)]
        for c, v in tokens:
            s.token_supply[c][v] = 0
        s.house_closed = [False] * 5
        s.bag = list(C.tcounts)
        s.treasure_discards = [0] * 5
        s.treasures = [[0] * 5 for _ in range(n)]
        s.house_plain = [[] for _ in range(5)]
        s.house_red = [[] for _ in range(5)]
        bag = s.bag
        total = sum(bag)
        for plain in s.house_plain:  # 3 each; same draws as draw_treasure while the bag lasts
            for _ in range(3):
                t = draw_count(bag, total, rng) if total > 0 else s.draw_treasure()
                total -= 1
                if t >= 0:
                    insort(plain, t)
        s.disguise_stack = [i for i, e in enumerate(C.skill_effect) if e == E_DISGUISE]
        s.skill_stack = [i for i, e in enumerate(C.skill_effect) if e != E_DISGUISE]
        s.skill_discards = []
        s.skills_unseen = []  # the big stack's tiles discarded face down after round 4
        s.sensei = [draw_from(s.skill_stack, rng) for _ in range(min(n, len(s.skill_stack)))]
        s.tiles = [[] for _ in range(n)]
        s.owned = [[0] * 10 for _ in range(n)]
        s.ready = [[0] * 10 for _ in range(n)]
        s.schools = [0] * n
        s.envoy_deck = list(range(len(C.env_clan)))
        s.palace = [draw_from(s.envoy_deck, rng) for _ in range(4)]
        s.envoys = [[] for _ in range(n)]
        s.rumour_deck = list(range(len(C.rum_type)))
        s.pavilion = [draw_from(s.rumour_deck, rng) for _ in range(4)]
        s.rumours = [[] for _ in range(n)]
        s.deck = list(C.dojo)
        s.dojo_discards = [0] * 5
        s.hands = [[0] * 5 for _ in range(n)]
        s.known = [[0] * 5 for _ in range(n)]  # cards of each hand everyone saw taken
        deck = s.deck
        if sum(deck) >= 4 * n + 3:  # the usual case: no reshuffle, draws inlined
            total = sum(deck)
            for p in order:
                hand = s.hands[p]
                for _ in range(4):
                    hand[draw_count(deck, total, rng)] += 1
                    total -= 1
            s.row = sorted(draw_count(deck, total - i, rng) + 1 for i in range(3))
        else:
            for p in order:
                for _ in range(4):
                    v = s.draw_card()
                    if v >= 0:
                        s.hands[p][v] += 1
            s.row = sorted(s.draw_card() + 1 for _ in range(3))
        s.honour = seat_bonus(rules.seat_bonus, n)  # starting honour: 0 unless compensated
        s.envoy_honour = [0] * n
        s.token_honour = [0] * n
        s.rumour_honour = [0] * n
        s.raid_house = s.raid_approach = s.guard_kind = s.guard_id = 0
        s.elite_part = s.play_modifier = s.raid_wins = 0
        s.play_base = s.play_override = -1
        s.boryaku_played = False
        s.raid_treasures = []
        s.pending = -1
        s.to_discard = 0
        s.to_draw = 0
        s.disguised = [[] for _ in range(n)]
        s.scoring_queue = []
        s.scoring_step = 0
        s.first_places = []
        s.second_places = []
        s.reward_taken = []
        s.leaders = []
        s.final = None
        s.phase = PH_PLACE
        if rules.first_round_order != "random":  # seat lever; the deal above is unchanged
            s.order = list(range(n)) if rules.first_round_order == "seats" else \
                list(range(n - 1, -1, -1))
        s.player = s.order[0]
        return s

    # ------------------------------------------------------------------ chance helpers
    def draw_card(self) -> int:
        """Top card of the dojo deck as an index 0..4 (value - 1); reshuffles the discards."""
        deck = self.deck
        total = sum(deck)
        if total == 0:
            if not refill_counts(deck, self.dojo_discards):
                return -1
            total = sum(deck)
        return draw_count(deck, total, self.rng)

    def draw_treasure(self) -> int:
        """A random treasure type from the bag; an empty bag takes back the discards."""
        bag = self.bag
        total = sum(bag)
        if total == 0:
            if not refill_counts(bag, self.treasure_discards):
                return -1
            total = sum(bag)
        return draw_count(bag, total, self.rng)

    # ------------------------------------------------------------------ contract: acting
    def current_player(self) -> int:
        return self.player

    def is_terminal(self) -> bool:
        return self.phase == PH_END


    def legal_place(self) -> list[int]:
        """Placements: the dojo (with its first draw), a payable sensei tile, an open house,
        a payable envoy/rumour.

        Hot path (a third of a game's decisions): the dojo and house parts are cached lists,
        and the palace/pavilion part is one bit test per face-up card.
        """
        p = self.player
        hand = self.hands[p]
        has_card = hand[0] or hand[1] or hand[2] or hand[3] or hand[4]  # (cheaper than a sum)
        deck = self.deck
        if deck[0] or deck[1] or deck[2] or deck[3] or deck[4]:  # legal_draw inlined
            draws = _DRAW_ACTS[row_key(self.row)]
            out = (draws if draws is not None else self.legal_draw())[:]
        else:
            out = self.legal_draw()[:] or [A_DECK]  # (no card anywhere: a visit drawing none)
        sensei = self.sensei
        if sensei:
            schools = self.schools[p]
            need = self.C.skill_need
            i = A_SENSEI
            for t in sensei:
                school_bit, card = need[t]
                if schools & school_bit or (hand[card] if card >= 0 else has_card):
                    out.append(i)
                i += 1
        if has_card or self.rules.empty_hand_raid or self.ready[p][E_BORYAKU] or (
                self.ready[p][E_REFRESH] and self.owned[p][E_BORYAKU]):  # Tenmon: Boryaku up
            closed = 0  # bit set of the closed houses (usually none: not looked at)
            if True in self.house_closed:
                bit = 1
                for c in self.house_closed:
                    if c:
                        closed |= bit
                    bit <<= 1
            out.extend(_HOUSE_ACTS[closed])
        tr = self.treasures[p]
        if tr[0] or tr[1] or tr[2] or tr[3] or tr[4]:
            C = self.C
            aff: tuple[int, int] | None = C.afford.get(holding_key(tr))
            if aff is None:
                aff = affordable(C, tr)
            envs, rums = aff
            if envs:  # (the palace is refilled at the end of a round only: a loop)
                i = A_PALACE
                for e in self.palace:
                    if envs >> e & 1:
                        out.append(i)
                    i += 1
            # (the pavilion is refilled at the end of a round and after a scoring phase):
            # unrolled for its usual four cards (half the bytecodes of the loop)
            if rums:
                pavilion = self.pavilion
                if len(pavilion) == 4:
                    r0, r1, r2, r3 = pavilion
                    if rums >> r0 & 1:
                        out.append(A_PAVILION)
                    if rums >> r1 & 1:
                        out.append(A_PAVILION + 1)
                    if rums >> r2 & 1:
                        out.append(A_PAVILION + 2)
                    if rums >> r3 & 1:
                        out.append(A_PAVILION + 3)
                else:  # the rumour deck ran out
                    i = A_PAVILION
                    for r in pavilion:
                        if rums >> r & 1:
                            out.append(i)
                        i += 1
        return out

    def legal_pay(self) -> list[int]:
        """3.6: the distinct exact payments of the chosen envoy/rumour this holding covers."""
        return [A_PAY + i for i in payable(self.C, self.pending, self.treasures[self.player])]

    def legal_card(self) -> list[int]:
        """Pay a skill (SKILLPAY) or discard to the hand limit (DISCARD): one card value."""
        base = A_SKILLPAY if self.phase == PH_SKILLPAY else A_DISCARD
        return [base + v for v, c in enumerate(self.hands[self.player]) if c]

    def legal_none(self) -> list[int]:
        return []

    def apply_none(self, a: int) -> None:
        raise AssertionError("no action is legal once the game is over")


    def apply_place(self, a: int) -> None:
        """Put a shuriken on a location (3.2)."""
        if a < A_SENSEI:
            self.visit_dojo(a)
        elif a < A_HOUSE:
            self.visit_sensei(a - A_SENSEI)
        elif a < A_PALACE:
            self.start_raid((a - A_HOUSE) >> 1, (a - A_HOUSE) & 1)
        elif a < A_PAVILION:
            self.visit_palace(a - A_PALACE)
        else:
            self.visit_pavilion(a - A_PAVILION)

    def apply_pay(self, a: int) -> None:
        kind, card = divmod(self.pending, 100)
        opts = self.C.env_opts[card] if kind == 0 else self.C.rum_opts[card]
        self.pay_and_take(kind, card, opts[a - A_PAY])

    def apply_skillpay(self, a: int) -> None:
        self.learn_skill(self.pending, a - A_SKILLPAY)

    def apply_discard(self, a: int) -> None:
        """A17: discard down to the hand limit, one card per decision; then the visit's
        draws go on."""
        v = a - A_DISCARD
        self.hands[self.player][v] -= 1
        self.dojo_discards[v] += 1
        if self.known[self.player][v]:
            self.known[self.player][v] -= 1
        self.to_discard -= 1
        if self.to_discard == 0:
            self.next_draw()

    # ------------------------------------------------------------------ locations
    def visit_dojo(self, a: int) -> None:
        """3.3: stack the shuriken, then draw 4/3/2 cards (by hand size) one at a time, the
        first one (`a`) chosen with the placement."""
        p = self.player
        self.dojo_stack.append(p)
        hand = self.hands[p]
        hn = hand[0] + hand[1] + hand[2] + hand[3] + hand[4]
        self.to_draw = DRAWS_BY_HAND[hn] if hn < 2 else 2
        self.apply_draw(a, hn >= HAND_LIMIT)

    def legal_draw(self) -> list[int]:
        """A face-up card (any mix with deck cards, in any order) or the deck."""
        deck = self.deck
        if deck[0] or deck[1] or deck[2] or deck[3] or deck[4]:  # the usual case
            key = row_key(self.row)
            out = _DRAW_ACTS[key]
            if out is None:
                out = _DRAW_ACTS[key] = draw_actions(1, self.row)
            return out
        return draw_actions(1 if any(self.dojo_discards) else 0, self.row)

    def apply_draw(self, a: int, full: bool = False) -> None:
        """One dojo draw: the deck's top card (seen by the drawer only) or a face-up card
        (seen by all); then the next draw, made at once when it has one option (row empty).

        A17: a hand over the limit discards right after the draw.  Only a hand `full` at the
        visit's start (7 cards: it draws 2; `visit_dojo` says so) can pass the limit before
        the visit's last draw, which `end_dojo` checks; so the hand is counted here only
        then."""
        p = self.player
        hand = self.hands[p]
        row = self.row
        while True:
            if a == A_DECK:
                deck = self.deck
                total = deck[0] + deck[1] + deck[2] + deck[3] + deck[4]
                v = draw_count(deck, total, self.rng) if total else self.draw_card()
                if v < 0:  # no card left anywhere
                    self.to_draw = 0
                    self.end_dojo()
                    return
            else:
                v = a - A_TAKE
                row.remove(v + 1)
                self.known[p][v] += 1
            hand[v] += 1
            self.to_draw -= 1
            if self.to_draw and full and hand[0] + hand[1] + hand[2] + hand[3] + hand[4] \
                    > HAND_LIMIT and not self.discard_to_limit():
                return  # the seat discards (PH_DISCARD); `apply_discard` draws on
            a = self.draw_on()
            if a < 0:
                return

    def next_draw(self) -> None:
        """The visit's next draw after a discard (as after a draw, `draw_on`)."""
        a = self.draw_on()
        if a >= 0:
            self.apply_draw(a)

    def draw_on(self) -> int:
        """After a draw or a discard: the visit's next draw when it has one option (made at
        once by the caller); else -1, the seat being asked (PH_DRAW, its legal list left in
        the cache: the last step of an action) or the visit over (the row is refilled)."""
        if self.to_draw:
            opts = self.legal_draw()
            if len(opts) > 1:
                self.phase = PH_DRAW
                self._legal_cache = opts
                return -1
            if opts:
                return opts[0]
        self.to_draw = 0
        self.end_dojo()
        return -1

    def discard_to_limit(self) -> bool:
        """A17: over the hand limit right after a draw, discard down to it at once (before
        the visit's next draw).  True when done here (one card value in hand: no choice);
        False when the seat must choose (phase PH_DISCARD)."""
        hand = self.hands[self.player]
        over = hand[0] + hand[1] + hand[2] + hand[3] + hand[4] - HAND_LIMIT
        if sum(1 for c in hand if c) == 1:  # forced: only one value to discard
            v = next(i for i, c in enumerate(hand) if c)
            hand[v] -= over
            self.dojo_discards[v] += over
            known = self.known[self.player]
            known[v] = known[v] - over if known[v] > over else 0
            return True
        self.to_discard = over
        self.phase = PH_DISCARD
        return False

    def end_dojo(self) -> None:
        """After all the draws: the hand limit (A17, right after the last draw), then refill
        the face-up row to 3."""
        hand = self.hands[self.player]
        if hand[0] + hand[1] + hand[2] + hand[3] + hand[4] > HAND_LIMIT \
                and not self.discard_to_limit():
            return  # the seat discards (PH_DISCARD); `apply_discard` ends the visit
        row = self.row
        need = 3 - len(row)
        if need > 0:  # draws inlined with a running deck total, as in `draw_card`
            deck = self.deck
            total = deck[0] + deck[1] + deck[2] + deck[3] + deck[4]
            rng = self.rng
            while need:
                if not total:
                    self.deck, self.dojo_discards = self.dojo_discards, deck
                    deck = self.deck
                    total = deck[0] + deck[1] + deck[2] + deck[3] + deck[4]
                    if not total:
                        break
                row.append(draw_count(deck, total, rng) + 1)
                total -= 1
                need -= 1
        row.sort()
        self.next_turn()

    def visit_sensei(self, slot: int) -> None:
        """3.5: take a face-up tile, paying its card unless the school is already known."""
        p = self.player
        C = self.C
        t = self.sensei.pop(slot)
        sc = C.skill_school[t]
        if sc and self.schools[p] >> sc & 1:
            self.learn_skill(t, -1)
            return
        cost = C.skill_cost[t]
        if cost:
            self.learn_skill(t, cost - 1)
            return
        hand = self.hands[p]
        values = [v for v in range(5) if hand[v]]
        if len(values) == 1:
            self.learn_skill(t, values[0])
        else:
            self.pending = t
            self.phase = PH_SKILLPAY

    def learn_skill(self, t: int, paid: int) -> None:
        """Discard the paid card (-1 = free) and add the tile, ready for use this round."""
        p = self.player
        if paid >= 0:
            self.hands[p][paid] -= 1
            self.dojo_discards[paid] += 1
            if self.known[p][paid]:
                self.known[p][paid] -= 1
        e = self.C.skill_effect[t]
        self.tiles[p].append(t)
        self.owned[p][e] += 1
        self.ready[p][e] += 1
        self.schools[p] |= 1 << self.C.skill_school[t]
        self.pending = -1
        self.next_turn()

    def visit_palace(self, slot: int) -> None:
        """3.6: buy a face-up envoy with exactly the treasures it asks for."""
        self._buy(0, self.palace[slot], self.C.env_opts[self.palace[slot]])

    def visit_pavilion(self, slot: int) -> None:
        """3.6: buy a face-up rumour with the 1-2 treasures shown on it."""
        self._buy(1, self.pavilion[slot], self.C.rum_opts[self.pavilion[slot]])

    def _buy(self, kind: int, card: int, opts: tuple) -> None:
        ok = payable(self.C, kind * 100 + card, self.treasures[self.player])
        if len(ok) == 1:  # a single exact payment is not a choice
            self.pay_and_take(kind, card, opts[ok[0]])
        else:
            self.pending = kind * 100 + card
            self.phase = PH_PAY
            self._legal_cache = [A_PAY + i for i in ok]  # `legal_pay`, at hand here

    def pay_and_take(self, kind: int, card: int, need: tuple[int, ...]) -> None:
        """Pay `need` (real treasures first, gold for the rest), score it, take the card.

        Gold is a joker that scores as the type it replaces, so spending real treasures
        first is never worse than spending gold: that choice is not offered.
        """
        p = self.player
        tr = self.treasures[p]
        tdisc = self.treasure_discards
        tval = self.C.tval
        points = 0
        for t in range(4):
            k = need[t]
            if k:
                points += k * tval[t]
                real = k if tr[t] >= k else tr[t]
                tr[t] -= real
                tdisc[t] += real
                if k > real:
                    tr[4] -= k - real
                    tdisc[4] += k - real
        self.honour[p] += points
        if kind == 0:
            self.envoy_honour[p] += points
            self.palace.remove(card)
            self.envoys[p].append(card)
        else:
            self.rumour_honour[p] += points
            self.pavilion.remove(card)
            self.rumours[p].append(card)
        self.pending = -1
        self.next_turn()

    # ------------------------------------------------------------------ turn / round
    def next_turn(self) -> None:
        """The next shuriken in turn order, or the end of the round after 3 each."""
        self.turn += 1
        if self.turn >= 3 * self.n:
            self.end_round()
        else:
            self.phase = PH_PLACE
            self.player = self.order[self.turn % self.n]

    def end_round(self) -> None:
        """3.7: turn order, skills face up, sensei, cleared houses, palace/pavilion, scoring."""
        seen: list[int] = []
        for p in reversed(self.dojo_stack):
            if p not in seen:
                seen.append(p)
        self.order = seen + [p for p in self.order if p not in seen]
        self.dojo_stack = []
        self.ready = [list(o) for o in self.owned]
        rng = self.rng
        self.skill_discards.extend(self.sensei)
        self.sensei = []
        if self.round <= 3:
            k = min(self.n, len(self.skill_stack))
            self.sensei = [draw_from(self.skill_stack, rng) for _ in range(k)]
        elif self.round == 4:
            self.skills_unseen.extend(self.skill_stack)
            self.skill_stack = []
        if 4 <= self.round <= 6 and self.disguise_stack:
            self.sensei = [draw_from(self.disguise_stack, rng)]
        for h in range(5):
            if self.house_closed[h]:
                self.reset_house(h)
        while len(self.palace) < 4 and self.envoy_deck:
            self.palace.append(draw_from(self.envoy_deck, rng))
        self.refill_pavilion()
        if self.round in SCORING_ROUNDS:
            self.start_scoring()
        else:
            self.next_round()

    def reset_house(self, h: int) -> None:
        """A cleared house: 3 plain treasures and a new sentry (its alarm is ignored)."""
        plain = self.house_plain[h]
        for _ in range(3):
            t = self.draw_treasure()
            if t >= 0:
                insort(plain, t)
        self.house_sentry[h] = self.draw_guard()
        self.house_closed[h] = not (plain or self.house_red[h])

    def draw_guard(self) -> int:
        """A regular guard (A5/A20: reshuffle the discards; -1 when none is left)."""
        if not self.guard_deck and not refill(self.guard_deck, self.guard_discards):
            return -1
        return draw_from(self.guard_deck, self.rng)

    def refill_pavilion(self) -> None:
        while len(self.pavilion) < 4 and self.rumour_deck:
            self.pavilion.append(draw_from(self.rumour_deck, self.rng))

    def next_round(self) -> None:
        self.round += 1
        if self.round > ROUNDS:
            self.finish()
            return
        self.turn = 0
        self.phase = PH_PLACE
        self.player = self.order[0]

    # ------------------------------------------------------------------ scoring phase (3.8)
    def start_scoring(self) -> None:
        """A11: disguise declarations in turn order first, then rank, then rewards."""
        self.disguised = [[] for _ in range(self.n)]
        q = [[p, Q_DISGUISE, self.owned[p][E_DISGUISE]] for p in self.order
             if self.owned[p][E_DISGUISE]]
        q.append([-1, Q_RANK, -1])
        self.scoring_queue = q
        self.scoring_step = 0
        self.reward_taken = [-1, -1, -1]
        self.run_scoring()

    def masks_left(self, p: int) -> list[int]:
        """Seat `p`'s masked envoys not yet disguised (A11)."""
        return scoring.masks_left(self.envoys[p], self.disguised[p], self.C.env_mask)

    def clan_honour(self, clan: int) -> int:
        """The first-place reward of `clan` now (3.8): its tokens on houses."""
        return scoring.clan_honour(self.house_clan, self.house_token, clan, self.C.token_values)

    def give_honour(self, p: int, clan: int) -> None:
        pts = self.clan_honour(clan)
        self.honour[p] += pts
        self.token_honour[p] += pts

    def rumour_slots(self) -> list[int]:
        """Face-up rumours as reward choices, one per rumour type (a free rumour's cost is moot)."""
        seen = 0  # bit set of rumour types
        out = []
        rt = self.C.rum_type
        a = A_RUMOUR
        for r in self.pavilion:
            bit = 1 << rt[r]
            if not seen & bit:
                seen |= bit
                out.append(a)
            a += 1
        return out

    def run_scoring(self) -> None:
        """Advance through the queue until a decision is needed or the phase is over."""
        q = self.scoring_queue
        while self.scoring_step < len(q):
            p, kind, arg = q[self.scoring_step]
            if kind == Q_DISGUISE:
                masks = self.masks_left(p)
                left = arg - len(self.disguised[p])
                if left > 0 and masks:
                    if len(masks) <= left:
                        self.disguised[p].extend(masks)
                    else:
                        self.player = p
                        self.phase = PH_DISGUISE
                        return
            elif kind == Q_RANK:
                C = self.C
                order = C.round_orders[self.round]
                firsts, seconds = [], []
                for c in order:
                    f, s = scoring.rank_clan(self.envoys, self.disguised, c, C.env_clan, C.env_age)
                    firsts.append(f)
                    seconds.append(s)
                self.first_places = firsts
                self.second_places = seconds
                for c, f in zip(order, firsts):  # every first place, then every second
                    if f >= 0:
                        q.append([f, Q_FIRST, c])
                for c, s in zip(order, seconds):
                    if s >= 0:
                        q.append([s, Q_SECOND, c])
            elif kind == Q_FIRST:
                if not self.pavilion:  # A14: no rumour left: the honour
                    self.give_honour(p, arg)
                    self.reward_taken[arg] = 0
                else:
                    self.player = p
                    self.phase = PH_REWARD1
                    return
            else:
                if self.reward_taken[arg] == 1:
                    self.give_honour(p, arg)
                elif self.pavilion:
                    slots = self.rumour_slots()
                    if len(slots) == 1:
                        self.rumours[p].append(self.pavilion.pop(slots[0] - A_RUMOUR))
                    else:
                        self.player = p
                        self.phase = PH_REWARD2
                        return
            self.scoring_step += 1
        self.refill_pavilion()
        self.leaders.append(scoring.leader(self.honour, self.envoys, self.C.env_age))
        self.next_round()

    def legal_disguise(self) -> list[int]:
        """A11: a masked envoy of one's own not yet disguised."""
        return [A_DISGUISE + e for e in self.masks_left(self.player)]

    def legal_reward1(self) -> list[int]:
        """3.8 first place: the clan's honour or a face-up rumour."""
        return [A_HONOUR] + self.rumour_slots()

    def legal_reward2(self) -> list[int]:
        """3.8 second place after a first place took the honour: a face-up rumour."""
        return self.rumour_slots()

    def apply_scoring(self, a: int) -> None:
        ph = self.phase
        p = self.player
        if ph == PH_DISGUISE:
            self.disguised[p].append(a - A_DISGUISE)
        else:
            clan = self.scoring_queue[self.scoring_step][2]
            if a == A_HONOUR:
                self.give_honour(p, clan)
                self.reward_taken[clan] = 0
            else:
                self.rumours[p].append(self.pavilion.pop(a - A_RUMOUR))
                if ph == PH_REWARD1:
                    self.reward_taken[clan] = 1
            self.scoring_step += 1
        self.run_scoring()

    # ------------------------------------------------------------------ final scoring (3.9)
    def finish(self) -> None:
        """3.9: rumour sets, shameful enemy, unused treasure, elite honour."""
        C = self.C
        n = self.n
        counts = [scoring.rumour_counts(self.rumours[p], C.rum_type) for p in range(n)]
        holders = sum(1 for p in range(n) if counts[p][R_SHAMEFUL])
        rum, elite, unused = [], [], []
        for p in range(n):
            items = [len(self.elites[p]), len(self.rumours[p]), len(self.envoys[p]),
                     len(self.tiles[p])]  # what Swordsman, Kindness, Friends, Master count
            rum.append(self.rumour_honour[p] + scoring.rumour_points(
                counts[p], items, holders, C.rum_points, C.set_mult, C.shameful))
            elite.append(scoring.elite_honour(self.elites[p], C.ehonour))
            unused.append(sum(self.treasures[p]))
        self.final = {
            "envoys": list(self.envoy_honour),
            "honour_tokens": list(self.token_honour),
            "rumours": rum,
            "elite_guards": elite,
            "unused_treasure": unused,
        }
        if self.rules.seat_bonus:  # the compensation variant: starting honour
            self.final["seat_bonus"] = seat_bonus(self.rules.seat_bonus, n)
        self.phase = PH_END
        self.player = -1

    def scores(self) -> list[float]:
        """Honour so far (track) during play; the final total once the game is over."""
        if self.final is None:
            return [float(h) for h in self.honour]
        return [float(sum(column)) for column in zip(*self.final.values())]

    def score_breakdown(self) -> dict[str, list[float]]:
        if self.final is None:
            return {"envoys": [float(x) for x in self.envoy_honour],
                    "honour_tokens": [float(x) for x in self.token_honour],
                    "rumours": [float(x) for x in self.rumour_honour]}
        return {k: [float(x) for x in v] for k, v in self.final.items()}

    def winners(self) -> list[int]:
        """Most honour; ties: most envoys, then the oldest envoy (3.9)."""
        return scoring.winners(self.scores(), self.envoys, self.C.env_age)

    def ranks(self) -> list[int]:
        """The contract's ranking (1 = winners, then competition ranking by score), one pass."""
        return scoring.ranks(self.scores(), self.winners())

    def metrics(self) -> dict[str, float]:
        changes = lead_changes(self.leaders)
        return {"rounds": float(min(self.round, 7)), "lead_changes": float(changes),
                "envoys": float(sum(len(e) for e in self.envoys)),
                "elites": float(sum(len(e) for e in self.elites))}

    # ------------------------------------------------------------------ information
    def clone(self) -> NinjatoState:
        return self.clone_with_rng(copy_rng(self.rng))

    def clone_with_rng(self, rng: random.Random) -> NinjatoState:
        new = NinjatoState()
        self._copy_position(new)
        new.rng = rng
        return new

    def determinize(self, seat: int, rng: random.Random) -> NinjatoState:
        """Resample what `seat` cannot know: the cards of opponents' hands that nobody saw
        them take (dealt or drawn blind), with the deck; face-up takes stay in the hands.

        Rumours are all taken face up, so everyone knows them: they are kept.
        The unseen stacks are sorted (their order is drawn at random anyway).
        """
        w = self.clone_with_rng(self.rng)  # replaced below: no copy of ours
        others = [q for q in range(self.n) if q != seat]
        pool = []
        for v in range(5):
            pool.extend([v] * (self.deck[v] + sum(self.hands[q][v] - self.known[q][v]
                                                  for q in others)))
        *hidden, rest = deal_back(
            pool, [sum(self.hands[q]) - sum(self.known[q]) for q in others], rng)
        for q, cards in zip(others, hidden):
            hand = list(self.known[q])
            for v in cards:
                hand[v] += 1
            w.hands[q] = hand
        deck = [0] * 5
        for v in rest:
            deck[v] += 1
        w.deck = deck
        for name in _FACE_DOWN_STACKS:
            getattr(w, name).sort()
        w.rng = world_rng(rng)
        return w

    # --- the observation's computed keys (the rest: NinjatoPosition.observation) --------
    def _view_deck_size(self, seat: int) -> int:
        return sum(self.deck)

    def _view_rumours(self, seat: int) -> list[list[int]]:
        return [sorted(r) for r in self.rumours]

    def _view_hand_sizes(self, seat: int) -> list[int]:
        return [sum(h) for h in self.hands]

    def _view_dataset(self, seat: int) -> str:
        return self.C.label

    def action_to_str(self, action: int) -> str:
        return action_to_str(action)

    def action_kind(self, action: int) -> int:
        """Index into `ACTION_KINDS` of a legal action (before it is applied): a table
        look-up, plus which tile a Sensei slot holds (skill or Disguise) and whether a dojo
        draw is a placement (the visit) or a later draw of the visit."""
        if action < A_SENSEI:
            return K_DOJO if self.phase == PH_PLACE else KIND_OF[action]
        k = KIND_OF[action]
        if k == K_SENSEI_SKILL and \
                self.C.skill_effect[self.sensei[action - A_SENSEI]] == E_DISGUISE:
            return K_SENSEI_DISGUISE
        return k

    # --- core's phase-dispatch hook: an if-chain, commonest phase first (compiled, each
    # branch is a direct call; a table of methods was a module look-up and a Python call)
    def _legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == PH_PLACE:
            return self.legal_place()
        if phase == PH_FIGHT:
            return self.legal_fight()
        if phase == PH_CHOICE:
            return self.legal_choice()
        if phase == PH_DRAW:
            return self.legal_draw()
        if phase == PH_PAY:
            return self.legal_pay()
        if phase == PH_SKILLPAY or phase == PH_DISCARD:
            return self.legal_card()
        if phase == PH_KEEP:
            return self.legal_keep()
        if phase == PH_TOKEN:
            return self.token_actions()
        if phase == PH_DISGUISE:
            return self.legal_disguise()
        if phase == PH_REWARD1:
            return self.legal_reward1()
        if phase == PH_REWARD2:
            return self.legal_reward2()
        return self.legal_none()

    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == PH_PLACE:
            self.apply_place(action)
        elif phase == PH_FIGHT:
            self.apply_fight(action)
        elif phase == PH_CHOICE:
            self.apply_choice(action)
        elif phase == PH_DRAW:
            self.apply_draw(action)
        elif phase == PH_PAY:
            self.apply_pay(action)
        elif phase == PH_SKILLPAY:
            self.apply_skillpay(action)
        elif phase == PH_DISCARD:
            self.apply_discard(action)
        elif phase == PH_KEEP:
            self.apply_keep(action)
        elif phase == PH_TOKEN:
            self.apply_token(action)
        elif phase == PH_DISGUISE or phase == PH_REWARD1 or phase == PH_REWARD2:
            self.apply_scoring(action)
        else:
            self.apply_none(action)
