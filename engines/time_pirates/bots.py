"""Heuristic Time Pirates bots.

`PirateBotV1` (`heuristic:v1`, the first default): buy early (deeds score every
year), collect one colour deep, keep away from the Patrol, always restock a nearby epoch so
the years keep moving; it almost never jumps or swaps.  `PirateBot` (the default) adds the
systems MCTS found worth using: atomic jumps, arrow swaps, declined restocks and waiting for
a colour's big deeds, and taking the artifact that makes a dearer deed affordable before
buying.

They read only public state (pawns, epochs, hands, deeds, bazaar) and their own secret
white-deed placements; never the rng or the others' placements.
"""

from __future__ import annotations

import math
import random
from itertools import compress
from typing import Final

from engines.bots.options import Param, parse_flag, parse_int
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

WK: Final = C.WHITE_KIND


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
_COLOUR_VALUES: Final = tuple([(_colour_value_row(m, False), _colour_value_row(m, True))
                               for m in range(7)])
#: The atomic symbol's bonus in `_COLOUR_VALUES` (the default's `atomic` option may weigh it
#: otherwise in `kind_values`).
ATOMIC_BONUS: Final = 0.3
#: `kind_values` lists per atomic bonus, by hand summary (key: per colour, min(held, 6) * 2 +
#: on offer, in base 14), shared: callers only read them.  A few hundred keys occur; building
#: the list each time was the bot's largest cost.
_KIND_VALUES: Final[dict[float, dict[int, list[float]]]] = {}


def _kind_values_row(key: int, atomic: float) -> list[float]:
    """The `kind_values` list of a summary key with this atomic bonus (see `_KIND_VALUES`)."""
    out: list[float] = []
    shift = atomic - ATOMIC_BONUS
    for _ in range(C.NUM_COLOURS):
        plain, atom, arrow = _COLOUR_VALUES[key % 14 // 2][key % 2]
        out += (plain, atom + shift, arrow)
        key //= 14
    out.append(1.6)  # white
    return out


#: Payment order of the symbols (plain first, then arrow, then atomic), by symbol.
_PAY_ORDER: Final = (0, 2, 1)


def colour_totals(hand: list[int]) -> list[int]:
    return [hand[3 * c] + hand[3 * c + 1] + hand[3 * c + 2] for c in range(C.NUM_COLOURS)]


class PirateBotV1:
    """Greedy collector: restocks the epoch best placed for itself (never declines when one
    is eligible); `arrows` toggles arrow swaps (rare: the gain must exceed 0.9)."""

    name = "heuristic:v1"

    def __init__(self, arrows: bool | str = True, caution: float | str = 2.0) -> None:
        self.arrows = parse_flag("time-pirates heuristic", "arrows", arrows)
        self.caution = float(caution)
        self._value_rows(ATOMIC_BONUS)

    def _value_rows(self, atomic: float) -> None:
        """Value artifacts with this atomic bonus (`kind_values`, its shared cache)."""
        self.atomic = atomic
        self._values = _KIND_VALUES.setdefault(atomic, {})

    # --- valuations (public information only) -------------------------------------------
    def kind_values(self, state: TimePiratesState, me: int) -> list[float]:
        """How much one more artifact of each kind is worth to `me` right now: more of a
        colour already collected is better (up to 6), symbols are a bonus, and a colour whose
        deeds are all sold is only good for white deeds.  Read from a per-(count, sold-out)
        table of the same sums.
        The list is shared (`_KIND_VALUES`): do not mutate it."""
        counts = state.colour_counts[me]
        offers = state.offers  # public: offers[c][-1] = that colour's deeds on offer
        key = 0
        for c in range(C.NUM_COLOURS - 1, -1, -1):
            t = counts[c]
            key = key * 14 + (t if t < 6 else 6) * 2 + (1 if offers[c][-1] else 0)
        values = self._values.get(key)
        if values is None:
            values = self._values[key] = _kind_values_row(key, self.atomic)
        return values

    def epoch_value(self, state: TimePiratesState, values: list[float], e: int) -> float:
        """Artifacts there (best two count most), minus the risk of meeting the Patrol."""
        vals = [values[k] for k in state.epochs[e]]
        vals.sort()  # then reversed: the order of sorted(reverse=True), without a keyword call
        vals.reverse()
        value = sum(vals[:2]) + 0.2 * sum(vals[2:])
        if e == state.patrol:
            value -= self.caution * 1.5
        elif e in state.components.lines[state.patrol]:
            value -= self.caution * 0.3
        return value

    # --- decisions ------------------------------------------------------------------------
    def choose(self, state: TimePiratesState, rng: random.Random) -> int:
        legal = state.legal_actions()
        me = state.to_move
        phase = state.phase
        if phase == PH_ACT:
            return self._act(state, me, legal)
        if phase == PH_RESTOCK:
            return self._restock(state, me, legal)
        if phase == PH_PAY:
            return self._pay(state, me, legal)
        if phase == PH_LAND:
            return self._land(state, me, legal)
        if phase == PH_JUMP or phase == PH_START:
            return self._best_epoch(state, self.kind_values(state, me), legal)
        if phase == PH_SWAP:
            return self._swap_pick(state, me, legal)
        if phase == PH_PENALTY:
            return min(legal, key=lambda a: (self._keep_value(state, me, a - PICK), a))
        if phase == PH_WHITE:
            return self._white(state, me, legal)
        return legal[0]

    def _best_epoch(self, state: TimePiratesState, values: list[float], legal: list[int]) -> int:
        """The EPOCH action of highest `epoch_value`, the lowest on ties (a loop, not `max`
        with a key: no tuple per option)."""
        best = legal[0]
        best_value = self.epoch_value(state, values, best - EPOCH)
        for i in range(1, len(legal)):
            a = legal[i]
            value = self.epoch_value(state, values, a - EPOCH)
            if value > best_value or (value == best_value and a < best):
                best, best_value = a, value
        return best

    def _land(self, state: TimePiratesState, me: int, legal: list[int]) -> int:
        """Where the pawn goes after a purchase: the best epoch (`epoch_value`)."""
        return self._best_epoch(state, self.kind_values(state, me), legal)

    def _swap_pick(self, state: TimePiratesState, me: int, legal: list[int]) -> int:
        values = self.kind_values(state, me)
        return max(legal, key=lambda a: (values[a - PICK], -a))

    def _keep_value(self, state: TimePiratesState, me: int, kind: int) -> float:
        symbol = kind % 3
        return (0.0, 0.5, 0.3)[symbol] if kind != WK else 1.0

    def _restock(self, state: TimePiratesState, me: int, legal: list[int]) -> int:
        here = state.pawn_epoch[me]
        near = state.components.lines[here]
        best, best_key = NO_RESTOCK, None
        for a in legal:
            if a == NO_RESTOCK:
                continue
            e = a - RESTOCK
            empty = state.components.spaces[e] - len(state.epochs[e])
            key = (empty * (2.0 if e in near else 1.0) - (1.0 if e == state.patrol else 0.0), -a)
            if best_key is None or key > best_key:
                best, best_key = a, key
        return best

    def _act(self, state: TimePiratesState, me: int, legal: list[int]) -> int:
        buys = [a for a in legal if BUY <= a < PICK]
        if buys:
            deeds = state.components.deeds
            return max(buys, key=lambda a: (deeds[a - BUY][1], deeds[a - BUY][0] != C.WHITE, -a))
        hand = state.hands[me]
        values = self.kind_values(state, me)
        if self.arrows:
            swap = self._arrow(state, values, legal)
            if swap is not None:
                return swap
        if state.standard_actions_left == 0:
            return END
        here = state.pawn_epoch[me]
        takes = [a for a in legal if TAKE <= a < MOVE]
        last = state.standard_actions_left == 1
        at_patrol = here == state.patrol
        if takes and not (last and at_patrol):
            return max(takes, key=lambda a: (values[a - TAKE], -a))
        lines = state.components.lines[here]
        move_vals = [self.epoch_value(state, values, lines[i]) for i in (0, 1)]
        best_move = MOVE + (1 if move_vals[1] > move_vals[0] else 0)
        if MOVE + 1 not in legal:
            return legal[0]
        atomics = [a for a in legal if ATOMIC <= a < ARROW]
        if atomics and not state.forced_move and max(move_vals) < 2.0:
            far = max(self.epoch_value(state, values, e) for e in range(len(state.epochs)))
            if far >= 3.0:
                tot = colour_totals(hand)
                return min(atomics, key=lambda a: (tot[a - ATOMIC], a))
        return best_move

    def _arrow(self, state: TimePiratesState, values: list[float], legal: list[int]) -> int | None:
        """Swap an arrow artifact for a clearly better artifact of another player (the first
        swap, in legal order, with the largest gain above 0.9)."""
        me = state.to_move
        if not (state.arrow_colours[me] and state.seats_with_artifacts & ~(1 << me)):
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
        # the least (colour count, symbol order, action), whites (99, 0) last: a loop, not
        # min with a key (no closure, no tuple per option)
        best, best_count, best_order = -1, 0, 0
        for a in legal:
            kind = a - PICK
            if kind == WK:
                count, order = 99, 0
            else:
                count, order = tot[kind // 3], _PAY_ORDER[kind % 3]
            if best < 0 or count < best_count or (count == best_count and (
                    order < best_order or (order == best_order and a < best))):
                best, best_count, best_order = a, count, order
        return best

    def _white(self, state: TimePiratesState, me: int, legal: list[int]) -> int:
        """Put the white deed where it wins, ties or secures a majority.  Judged on public
        data only: the rivals' coloured deeds and the white deeds they hold (not where they
        put them)."""
        deeds = state.components.deeds
        mine = state.colour_points(me)
        points = deeds[state.white_deeds_of(me)[len(state.white_placements[me])]][1]
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


class CautiousBot(PirateBotV1):
    """Same collector, but keeps well clear of the Patrol and never swaps arrows."""

    name = "heuristic:cautious"

    def __init__(self, caution: float | str = 4.0) -> None:
        super().__init__(arrows=False, caution=caution)


def _top(values: list[float], epoch: list[int], k: int) -> float:
    """Sum of the `k` best artifact values in `epoch` (what `k` takes there are worth)."""
    vals = [values[kind] for kind in epoch]
    if k == 1:
        return max(vals) if vals else 0.0
    vals.sort()  # then reversed: sorted(reverse=True) without a keyword call
    vals.reverse()
    return sum(vals[:k])


def _best_take(values: list[float], legal: list[int]) -> int:
    """The take (TAKE + kind, first in `legal`) of the most valued kind, the lowest on ties."""
    best = legal[0]
    for a in legal:
        if a >= MOVE:
            break
        if values[a - TAKE] > values[best - TAKE] or (
                values[a - TAKE] == values[best - TAKE] and a < best):
            best = a
    return best


def holding_rows(state: TimePiratesState, p: int) -> tuple[list[float], list[float]]:
    """Per artifact kind, its `_COLOUR_VALUES` entry at seat `p`'s count of its colour (`up`:
    what one more is worth, as `kind_values`) and at one fewer (`down`: what the last one
    held is worth).  A seat's holding value adds, per colour, the entries at counts 0, 1,
    ...; these two rows give its exact changes."""
    tot = state.colour_counts[p]
    shop = state.offers
    v = _COLOUR_VALUES
    up: list[float] = []
    down: list[float] = []
    for c in range(C.NUM_COLOURS):
        n = tot[c]
        row = v[n if n < 6 else 6]
        below = v[n - 1 if 0 < n < 7 else (0 if n <= 0 else 6)]
        o = 1 if shop[c][-1] else 0
        up += row[o]
        down += below[o]
    up.append(1.6)
    down.append(1.6)
    return up, down


def _exchange(state: TimePiratesState, p: int, gained: int, lost: int) -> float:
    """Exact change in seat `p`'s holding value when `lost` leaves its hand and `gained`
    enters (the formula `PirateBot._swap_choice` applies inline)."""
    up, down = holding_rows(state, p)
    return (down[gained] if gained // 3 == lost // 3 else up[gained]) - down[lost]


def affordable_rows(state: TimePiratesState, p: int, extra: int = -1) -> list[tuple[int, ...]]:
    """The bazaar's budget rows (as in `legal_actions`) of the deeds seat `p` can pay for,
    each colour's then the white one, with one more artifact of kind `extra` in hand (-1:
    none); a row lists its deeds by cost."""
    shop = state.offers
    tot = state.colour_counts[p]
    white = state.hands[p][WK] + (1 if extra == WK else 0)
    rows: list[tuple[int, ...]] = []
    colours = 0
    for c in range(C.NUM_COLOURS):
        n = tot[c] + (1 if extra >= 0 and extra != WK and extra // 3 == c else 0)
        colours += 1 if n else 0
        rows.append(shop[c][n + white])
    rows.append(shop[C.WHITE][colours + white])
    return rows


def best_affordable(state: TimePiratesState, p: int, extra: int = -1) -> int:
    """The most points of a deed on offer that seat `p` can pay for, with one more artifact
    of kind `extra` in hand (-1: none); 0 when it can pay for none."""
    deeds = state.components.deeds
    best = 0
    for row in affordable_rows(state, p, extra):
        if row:  # sorted by cost: within a colour the dearest deed scores most
            best = max(best, deeds[row[-1] - BUY][1])
    return best


class PirateBot(PirateBotV1):
    """The default collector: v1's valuations and purchases, plus the systems that pay.

    - Atomic jump (mid-turn) when the takes of the best other epoch beat the best plan here
      (takes here, or a move and a take next door) by more than the atomic artifact is
      worth, plus `jump`.  Jumping at the end of a turn to start the next one elsewhere
      lost to not doing so (README), so the bot does not.
    - Arrow swap at the end of the turn, taking an artifact of the colour we hold most of,
      when it raises our holding value minus `deny` times the target's by more than `swap`
      (see `_exchange`: exact differences, so swaps cannot go round in circles).
    - No restock (`restock=yearend`; `always` = v1) when at most `window` police tokens
      are left in the year and we can buy a deed this turn: a restock could end the year
      before the purchase, which would then miss that year's count.
    - Big deeds: a colour's small deed is not bought while its 6- or 7-point deed is on
      offer and within `hold` artifacts of our reach, unless the year is ending; nor its
      6-point deed when the artifact that makes the 7-point one affordable lies on our
      epoch with two standard actions left (`seventh`).
    - Dearer deeds (`upgrade`): with two standard actions left, when an artifact on our
      epoch makes a deed worth more points affordable than the one we could buy now, take
      it and buy that deed with the second action (a point more every year it is held, for
      the same two actions; `seventh` is its 6-to-7-point case).
    - Atomic artifacts (`atomic`): their symbol counts 0.1 over a plain artifact when taking
      and weighing epochs (v1: 0.3), so one more of a colour we collect comes first.
      `heuristic:v2` is the default with `upgrade=false, atomic=0.3`.
    - Landing after a purchase (`crowd`, off by default): each rival pawn on an epoch costs
      `crowd`, since it takes that epoch's artifacts before our next turn.  `crowd=0.5`
      plays better against the default, but a lone `mcts` seat then gains more on a table
      of it (its rollouts play it too), so the default keeps it off.
    """

    name = "heuristic"

    def __init__(self, arrows: bool | str = True, caution: float | str = 2.0,
                 jump: float | str = 0.2, swap: float | str = 0.2, deny: float | str = 0.5,
                 hold: int | str = 1, restock: str = "yearend", window: int | str = 2,
                 hold7: int | str = 0, seventh: bool | str = True,
                 upgrade: bool | str = True, atomic: float | str = 0.1,
                 crowd: float | str = 0.0) -> None:
        super().__init__(arrows=arrows, caution=caution)
        self.crowd = float(crowd)
        self._value_rows(float(atomic))
        if restock not in ("yearend", "always"):
            raise TypeError(f"restock must be 'yearend' or 'always', not {restock!r}")
        self.upgrade = parse_flag("time-pirates heuristic", "upgrade", upgrade)
        self.jump = float(jump)
        self.swap = max(0.0, float(swap))  # >= 0: gains are exact, so swaps cannot loop
        self.deny = float(deny)
        self.hold = int(hold)
        # the 7-point deed (MCTS buys one in 9% of its games; README): keep a
        # colour's 6-point deed unbought for its 7-point deed (one more artifact, +1 point
        # a year) when the sixth artifact (its colour or white) lies on our epoch and two
        # standard actions are left: take it, then buy the 7 this turn (`seventh`, the
        # default since it costs no wait; `seventh=0` = the default before); or whenever
        # the 7 is within `hold7` artifacts (0: never; waiting like that loses, README)
        self.hold7 = parse_int("time-pirates heuristic", "hold7", hold7, minimum=0)
        self.seventh = parse_flag("time-pirates heuristic", "seventh", seventh)
        self.restock = restock
        self.window = int(window)

    def risk(self, state: TimePiratesState, e: int) -> float:
        """What ending a turn on epoch `e` risks from the Patrol (as in `epoch_value`)."""
        if e == state.patrol:
            return self.caution * 1.5
        if e in state.components.lines[state.patrol]:
            return self.caution * 0.3
        return 0.0

    def _swap_pick(self, state: TimePiratesState, me: int, legal: list[int]) -> int:
        """The artifact to take in the swap under way: the one that raises our holding value
        minus `deny` times the target's most (`_exchange` for both, rows read once)."""
        target, given = state.swap_target, 3 * state.swap_colour + 2
        my_up, my_down = holding_rows(state, me)
        their_up, their_down = holding_rows(state, target)
        deny = self.deny
        best, best_gain = -1, 0.0
        for a in legal:  # the largest gain, the lowest action on ties
            k = a - PICK
            if k // 3 == given // 3:
                mine, theirs = my_down[k], their_down[given]
            else:
                mine, theirs = my_up[k], their_up[given]
            gain = mine - my_down[given] - deny * (theirs - their_down[k])
            if best < 0 or gain > best_gain or (gain == best_gain and a < best):
                best, best_gain = a, gain
        return best

    # --- restock -------------------------------------------------------------------------
    def _restock(self, state: TimePiratesState, me: int, legal: list[int]) -> int:
        choice = super()._restock(state, me, legal)
        if self.restock == "yearend" and choice != NO_RESTOCK:
            left = state.components.police_per_year - sum(state.police_track)
            if left <= self.window and self._can_buy(state, me):
                return NO_RESTOCK
        return choice

    def _can_buy(self, state: TimePiratesState, me: int) -> bool:
        """Can `me` afford a deed on offer (the bazaar's budget rows, as in `legal_actions`)?"""
        return any(affordable_rows(state, me))

    # --- standard and special actions ----------------------------------------------------
    def _act(self, state: TimePiratesState, me: int, legal: list[int]) -> int:
        """Swaps are weighed once a turn, when the standard actions are spent (where MCTS
        swaps), and jumps before the turn's first take: once per turn keeps the bot fast."""
        actions_left = state.standard_actions_left
        if not actions_left:
            if self.arrows:
                swap = self._swap_choice(state, legal)
                if swap is not None:
                    return swap
            return END
        buys = [a for a in legal if BUY <= a < PICK]
        values = self.kind_values(state, me)
        if buys:
            buy = self._buy(state, me, buys)
            if buy is not None:
                if self.upgrade and actions_left >= 2:
                    take = self._upgrade_take(state, me, values, legal,
                                              state.components.deeds[buy - BUY][1])
                    if take is not None:
                        return take
                return buy
        if actions_left >= 2 and state.atomic_colours[me] and not state.forced_move:
            atomics = [a for a in legal if ATOMIC <= a < ARROW]
            jump = self._mid_jump(state, me, values, atomics) if atomics else None
            if jump is not None:  # (no atomics legal: a restricted seat, see bots.restricted)
                return jump
        here = state.pawn_epoch[me]
        if legal[0] < MOVE and not (actions_left == 1 and here == state.patrol):
            return _best_take(values, legal)
        lines = state.components.lines[here]
        move_vals = [self.epoch_value(state, values, lines[i]) for i in (0, 1)]
        return MOVE + (1 if move_vals[1] > move_vals[0] else 0)

    def _land(self, state: TimePiratesState, me: int, legal: list[int]) -> int:
        """After a purchase: the best epoch (`epoch_value`) less `crowd` for each rival pawn
        there (they take its artifacts before our next turn), the lowest on ties."""
        values = self.kind_values(state, me)
        if not self.crowd:
            return self._best_epoch(state, values, legal)
        pawns = state.pawn_epoch
        best, best_value = legal[0], -math.inf
        for a in legal:
            e = a - EPOCH
            rivals = 0
            for q in range(state.num_players):
                if q != me and pawns[q] == e:
                    rivals += 1
            value = self.epoch_value(state, values, e) - self.crowd * rivals
            if value > best_value:
                best, best_value = a, value
        return best

    def _upgrade_take(self, state: TimePiratesState, me: int, values: list[float],
                      legal: list[int], points: int) -> int | None:
        """The take on our epoch after which a deed worth more than `points` is affordable
        (then bought with the turn's second action), the most valued on ties; None if no
        artifact here does that."""
        best, best_key = None, (points, 0.0)
        for a in legal:
            if a >= MOVE:  # the takes come first
                break
            k = a - TAKE
            after = best_affordable(state, me, k)
            if after > points and (after, values[k]) > best_key:
                best, best_key = TAKE + k, (after, values[k])
        return best

    def _cheapest_atomic(self, state: TimePiratesState, me: int, values: list[float],
                         atomics: list[int]) -> tuple[int, float]:
        """The atomic artifact we miss least (the lowest on ties), and its value."""
        best = atomics[0]
        least = values[3 * (best - ATOMIC) + 1]
        for a in atomics:
            value = values[3 * (a - ATOMIC) + 1]
            if value < least or (value == least and a < best):
                best, least = a, value
        return best, least

    def _mid_jump(self, state: TimePiratesState, me: int, values: list[float],
                  atomics: list[int]) -> int | None:
        """Jump when the `k` takes of the best other epoch beat the best plan here (`k`
        takes, or a move and `k - 1` takes next door) by more than the jump costs."""
        k = state.standard_actions_left
        here = state.pawn_epoch[me]
        epochs = state.epochs
        plan = _top(values, epochs[here], k)
        if k > 1:
            for e in state.components.lines[here]:
                plan = max(plan, _top(values, epochs[e], k - 1) - self.risk(state, e))
        plan -= self.risk(state, here)
        a, cost = self._cheapest_atomic(state, me, values, atomics)
        bar = plan + cost + self.jump
        if k * max(values) <= bar:  # no epoch can hold takes worth that much: skip the scan
            return None
        best = -math.inf
        for e, ep in enumerate(epochs):
            if e != here:
                value = _top(values, ep, k) - self.risk(state, e)
                if value > best:
                    best = value
        return a if best > bar else None

    def _swap_choice(self, state: TimePiratesState, legal: list[int]) -> int | None:
        """The swap gaining most (as `_swap_pick` values it, above `swap`) among those that take an
        artifact of the colour we hold most of, for an arrow artifact of another colour: the
        swaps worth making, at a few table look-ups each (this runs at most turn ends)."""
        me = state.to_move
        if not (state.arrow_colours[me] and state.seats_with_artifacts & ~(1 << me)):
            return None
        tot = state.colour_counts[me]
        top = max(range(C.NUM_COLOURS), key=tot.__getitem__)
        shop = state.offers
        if not shop[top][-1]:
            return None  # its deeds are sold out: nothing worth taking
        v = _COLOUR_VALUES
        n = tot[top]
        mine = v[n if n < 6 else 6][1]  # our row of the top colour: what one more is worth
        best, best_gain = None, self.swap
        deny = self.deny
        hands, colour_counts = state.hands, state.colour_counts
        for a in legal:
            if not ARROW <= a < END:
                continue
            colour, target = divmod(a - ARROW, MAX_SEATS)
            hand = hands[target]
            base = 3 * top
            if colour == top or not (hand[base] or hand[base + 1] or hand[base + 2]):
                continue
            m = tot[colour] - 1  # our count of the given arrow's colour once it is gone
            o = 1 if shop[colour][-1] else 0
            given_mine = v[m if m < 6 else 6][o][2]
            t = colour_counts[target][colour]
            given_theirs = v[t if t < 6 else 6][o][2]
            t = colour_counts[target][top] - 1
            theirs = v[t if t < 6 else 6][1]
            for symbol in (0, 1, 2):
                if hand[base + symbol]:
                    gain = (mine[symbol] - given_mine
                            - deny * (given_theirs - theirs[symbol]))
                    if gain > best_gain:
                        best, best_gain = a, gain
        return best

    # --- deeds ---------------------------------------------------------------------------
    def _buy(self, state: TimePiratesState, me: int, buys: list[int]) -> int | None:
        """The dearest affordable deed (coloured before white), skipping a colour's small
        deed while its big deed is close (see the class docstring)."""
        deeds = state.components.deeds
        ranked = sorted(buys, key=lambda a: (-deeds[a - BUY][1], deeds[a - BUY][0] == C.WHITE, a))
        if self.hold < 0 or sum(state.police_track) >= state.components.police_per_year - 2:
            return ranked[0]
        white = state.hands[me][WK]
        bazaar = state.bazaar
        for a in ranked:
            colour, points, cost, _ = deeds[a - BUY]
            if colour != C.WHITE and points < 6:
                reach = state.colour_counts[me][colour] + white + self.hold
                for t, big_cost in state.components.colour_deeds[colour]:  # a big deed in reach?
                    if reach >= big_cost > cost and deeds[t][1] >= 6 and bazaar[t]:
                        break
                else:
                    return a
                continue
            if colour != C.WHITE and points == 6 and (self.hold7 or self.seventh):
                if self._wait_for_seven(state, me, colour, cost):
                    continue
            return a
        return None

    def _wait_for_seven(self, state: TimePiratesState, me: int, colour: int,
                        cost: int) -> bool:
        """Keep `colour`'s 6-point deed (costing `cost`) unbought for its 7-point deed?"""
        deeds, bazaar = state.components.deeds, state.bazaar
        have = state.colour_counts[me][colour] + state.hands[me][WK]
        for t, big_cost in state.components.colour_deeds[colour]:
            if deeds[t][1] != 7 or not bazaar[t] or big_cost <= cost:
                continue
            if have + self.hold7 >= big_cost:
                return True
            if (self.seventh and have + 1 >= big_cost
                    and state.standard_actions_left >= 2
                    and any(k == WK or k // 3 == colour
                            for k in state.epochs[state.pawn_epoch[me]])):
                return True
        return False


#: The default's weights and switches (`simulate list`, `simulate tune`).
PARAMS: tuple[Param, ...] = (
    Param("arrows", "bool", True, "swap artifacts with arrows"),
    Param("caution", "float", 2.0, "cost of ending a turn where the Patrol can reach", 0.0, 6.0),
    Param("jump", "float", 0.2, "gain an atomic jump must add over staying", 0.0, 2.0),
    Param("swap", "float", 0.2, "gain an arrow swap must add", 0.0, 2.0),
    Param("deny", "float", 0.5, "weight of the target's loss in an arrow swap", 0.0, 1.5),
    Param("hold", "int", 1, "wait for a colour's big deed within this many artifacts", 0, 3),
    Param("restock", "choice", "yearend", "decline restocks near the year's end (yearend) "
          "or never (always)", choices=("yearend", "always")),
    Param("window", "int", 2, "police tokens left in the year that count as its end", 0, 4),
    Param("hold7", "int", 0, "wait for a 7-point deed within this many artifacts", 0, 3),
    Param("seventh", "bool", True, "keep a 6-point deed for the 7 reachable this turn"),
    Param("atomic", "float", 0.1, "worth of an atomic symbol over a plain artifact "
          "when taking and weighing epochs", 0.0, 1.0),
    Param("crowd", "float", 0.0, "cost of each rival pawn on the epoch where it lands after "
          "a purchase", 0.0, 2.0),
    Param("upgrade", "bool", True, "with two standard actions left, take the artifact here "
          "that makes a dearer deed affordable, then buy that one"),
)
