"""Heuristic Time Pirates bots: buy early (deeds score every year), collect one colour deep,
keep away from the Patrol, and always restock a nearby epoch so the years keep moving.

They read only public state (pawns, epochs, hands, deeds, bazaar) and their own secret
white-deed placements; never the rng or the others' placements.
"""

from __future__ import annotations

import random
from itertools import compress

from engines.time_pirates import components as C
from engines.time_pirates.actions import (
    ARROW,
    ATOMIC,
    BUY,
    END,
    EPOCH,
    MAX_SEATS,
    MOVE,
    NO_RESTOCK,
    PH_ACT,
    PH_JUMP,
    PH_LAND,
    PH_PAY,
    PH_PENALTY,
    PH_RESTOCK,
    PH_START,
    PH_SWAP,
    PH_WHITE,
    PICK,
    RESTOCK,
    TAKE,
    WHITE,
)
from engines.time_pirates.state import TimePiratesState

WK = C.WHITE_KIND


def _colour_value_row(count: int, open_: bool) -> tuple[float, float, float]:
    """Values of a colour's plain, atomic and arrow artifact (see `PirateBot.kind_values`)."""
    row = []
    for symbol in range(3):
        value = 1.0 + 0.25 * count + (0.0, 0.3, 0.2)[symbol]
        if not open_:
            value -= 0.8  # that colour's deeds are sold out: only good for white deeds
        row.append(value)
    return (row[0], row[1], row[2])


#: _COLOUR_VALUES[min(held, 6)][on offer] = (plain, atomic, arrow) values.
_COLOUR_VALUES = tuple((_colour_value_row(m, False), _colour_value_row(m, True))
                       for m in range(7))


def colour_totals(hand: list[int]) -> list[int]:
    return [hand[3 * c] + hand[3 * c + 1] + hand[3 * c + 2] for c in range(C.NUM_COLOURS)]


class PirateBot:
    """Greedy collector.  `restock` = 'near' restocks the epoch best placed for itself
    (and never declines when one is eligible); `arrows` toggles arrow swaps."""

    name = "heuristic"

    def __init__(self, arrows: bool | str = True, caution: float | str = 2.0) -> None:
        self.arrows = str(arrows).lower() not in ("0", "false", "no")
        self.caution = float(caution)

    # --- valuations (public information only) -------------------------------------------
    def kind_values(self, state: TimePiratesState, me: int) -> list[float]:
        """How much one more artifact of each kind is worth to `me` right now: more of a
        colour already collected is better (up to 6), symbols are a bonus, and a colour whose
        deeds are all sold is only good for white deeds.  Read from a per-(count, sold-out)
        table of the same sums."""
        t0, t1, t2, t3, t4 = state.ctot[me]
        s0, s1, s2, s3, s4, _ = state.shop  # public: s[-1] = that colour's deeds on offer
        v = _COLOUR_VALUES
        return [*v[t0 if t0 < 6 else 6][1 if s0[-1] else 0],
                *v[t1 if t1 < 6 else 6][1 if s1[-1] else 0],
                *v[t2 if t2 < 6 else 6][1 if s2[-1] else 0],
                *v[t3 if t3 < 6 else 6][1 if s3[-1] else 0],
                *v[t4 if t4 < 6 else 6][1 if s4[-1] else 0],
                1.6]  # white

    def epoch_value(self, state: TimePiratesState, values: list[float], e: int) -> float:
        """Artifacts there (best two count most), minus the risk of meeting the Patrol."""
        vals = sorted((values[k] for k in state.epochs[e]), reverse=True)
        value = sum(vals[:2]) + 0.2 * sum(vals[2:])
        if e == state.patrol:
            value -= self.caution * 1.5
        elif e in state.comp.lines[state.patrol]:
            value -= self.caution * 0.3
        return value

    # --- decisions ------------------------------------------------------------------------
    def choose(self, state: TimePiratesState, rng: random.Random) -> int:
        legal = state.legal_actions()
        me = state.cur
        phase = state.phase
        if phase == PH_ACT:
            return self._act(state, me, legal)
        if phase == PH_RESTOCK:
            return self._restock(state, me, legal)
        if phase == PH_PAY:
            return self._pay(state, me, legal)
        if phase in (PH_LAND, PH_JUMP, PH_START):
            values = self.kind_values(state, me)
            return max(legal, key=lambda a: (self.epoch_value(state, values, a - EPOCH), -a))
        if phase == PH_SWAP:
            values = self.kind_values(state, me)
            return max(legal, key=lambda a: (values[a - PICK], -a))
        if phase == PH_PENALTY:
            return min(legal, key=lambda a: (self._keep_value(state, me, a - PICK), a))
        if phase == PH_WHITE:
            return self._white(state, me, legal)
        return legal[0]

    def _keep_value(self, state: TimePiratesState, me: int, kind: int) -> float:
        symbol = kind % 3
        return (0.0, 0.5, 0.3)[symbol] if kind != WK else 1.0

    def _restock(self, state: TimePiratesState, me: int, legal: list[int]) -> int:
        here = state.pos[me]
        near = state.comp.lines[here]
        best, best_key = NO_RESTOCK, None
        for a in legal:
            if a == NO_RESTOCK:
                continue
            e = a - RESTOCK
            empty = state.comp.spaces[e] - len(state.epochs[e])
            key = (empty * (2.0 if e in near else 1.0) - (1.0 if e == state.patrol else 0.0), -a)
            if best_key is None or key > best_key:
                best, best_key = a, key
        return best

    def _act(self, state: TimePiratesState, me: int, legal: list[int]) -> int:
        buys = [a for a in legal if BUY <= a < PICK]
        if buys:
            deeds = state.comp.deeds
            return max(buys, key=lambda a: (deeds[a - BUY][1], deeds[a - BUY][0] != C.WHITE, -a))
        hand = state.hands[me]
        values = self.kind_values(state, me)
        if self.arrows:
            swap = self._arrow(state, values, legal)
            if swap is not None:
                return swap
        if state.std_left == 0:
            return END
        here = state.pos[me]
        takes = [a for a in legal if TAKE <= a < MOVE]
        last = state.std_left == 1
        at_patrol = here == state.patrol
        if takes and not (last and at_patrol):
            return max(takes, key=lambda a: (values[a - TAKE], -a))
        lines = state.comp.lines[here]
        move_vals = [self.epoch_value(state, values, lines[i]) for i in (0, 1)]
        best_move = MOVE + (1 if move_vals[1] > move_vals[0] else 0)
        if MOVE + 1 not in legal:
            return legal[0]
        atomics = [a for a in legal if ATOMIC <= a < ARROW]
        if atomics and not state.forced and max(move_vals) < 2.0:
            far = max(self.epoch_value(state, values, e) for e in range(len(state.epochs)))
            if far >= 3.0:
                tot = colour_totals(hand)
                return min(atomics, key=lambda a: (tot[a - ATOMIC], a))
        return best_move

    def _arrow(self, state: TimePiratesState, values: list[float], legal: list[int]) -> int | None:
        """Swap an arrow artifact for a clearly better artifact of another player (the first
        swap, in legal order, with the largest gain above 0.9)."""
        me = state.cur
        if not (state.arrows[me] and state.filled & ~(1 << me)):
            return None  # no arrow artifact, or nobody to swap with
        best, best_gain = None, 0.9
        top: dict[int, float] = {}  # per target: the value of its best artifact
        for a in legal:
            if not ARROW <= a < END:
                continue
            colour, target = divmod(a - ARROW, MAX_SEATS)
            if target not in top:
                top[target] = max(compress(values, state.hands[target]))
            gain = top[target] - values[3 * colour + 2]
            if gain > best_gain:
                best, best_gain = a, gain
        return best

    def _pay(self, state: TimePiratesState, me: int, legal: list[int]) -> int:
        """Pay with what is least useful: plain before symbols, whites last; for white deeds
        the colours we collect least."""
        tot = colour_totals(state.hands[me])

        def cost(a: int) -> tuple:
            kind = a - PICK
            if kind == WK:
                return (99, 0, a)
            return (tot[kind // 3], (0, 2, 1)[kind % 3], a)

        return min(legal, key=cost)

    def _white(self, state: TimePiratesState, me: int, legal: list[int]) -> int:
        """Put the white deed where it wins, ties or secures a majority.  Judged on public
        data only: the rivals' coloured deeds and the white deeds they hold (not where they
        put them)."""
        deeds = state.comp.deeds
        mine = state.colour_points(me)
        points = deeds[state.white_deeds_of(me)[len(state.white_place[me])]][1]
        base = [0] * C.NUM_COLOURS  # best rival's coloured points
        threat = [0] * C.NUM_COLOURS  # ... plus all the white points that rival could add
        for p in range(state.num_players):
            if p == me:
                continue
            pts = [0] * C.NUM_COLOURS
            whites = 0
            for d, k in zip(deeds, state.deeds[p]):
                if not k:
                    continue
                if d[0] == C.WHITE:
                    whites += d[1] * k
                else:
                    pts[d[0]] += d[1] * k
            for c in range(C.NUM_COLOURS):
                base[c] = max(base[c], pts[c])
                threat[c] = max(threat[c], pts[c] + whites if pts[c] else 0)

        def gain(a: int) -> tuple:
            c = a - WHITE
            after = mine[c] + points
            won = 2 * ((after >= base[c]) - (mine[c] >= base[c]))
            secured = (after >= threat[c]) - (mine[c] >= threat[c])
            return (won + secured, -a)

        return max(legal, key=gain)


class CautiousBot(PirateBot):
    """Same collector, but keeps well clear of the Patrol and never swaps arrows."""

    name = "heuristic:cautious"

    def __init__(self, caution: float | str = 4.0) -> None:
        super().__init__(arrows=False, caution=caution)
