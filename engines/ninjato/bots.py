"""Heuristic Ninjato bots: cheap rules of thumb, no cloning, no look-ahead.

They read only the acting seat's own hand and rumours plus public information (houses,
face-up rows, everyone's treasures, envoys and tiles).

- "default" (raider): raids the richest house it can beat, banzais while the odds are good,
  and turns treasure into envoys at the Palace as soon as it can.
- "collector": raids for treasure too, but spends it on rumours of the types it already
  holds (sets score x1/x2/x4), learns skills for Master of Secret Arts, and prefers free
  rumours to honour at the scoring phases.
"""

from __future__ import annotations

import random

from engines.ninjato import components as comp
from engines.ninjato.actions import (
    A_BANZAI,
    A_BASE,
    A_BOR2,
    A_BOR4,
    A_DECK,
    A_DISCARD,
    A_GIVE_UP,
    A_HONOUR,
    A_HOUSE,
    A_KEEP,
    A_KI_MINUS,
    A_KI_PLUS,
    A_MINUS2,
    A_PALACE,
    A_PAVILION,
    A_PAY,
    A_PLUS2,
    A_PM1_MINUS,
    A_PM1_PLUS,
    A_RETREAT,
    A_RUMOUR,
    A_SENSEI,
    A_SIX,
    A_SKILLPAY,
    A_TAKE,
    A_TOKEN,
    A_ZERO,
    PH_CHOICE,
    PH_DISCARD,
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
)
from engines.ninjato.raid import G_ELITE
from engines.ninjato.state import NinjatoState

# how much a card is worth keeping (index = value - 1): extremes and Ki are precious
KEEP_VALUE = (3, 1, 4, 1, 3)
# discard / pay / fight order: least useful first (ascending KEEP_VALUE, then value)
SPEND_ORDER = (1, 3, 0, 4, 2)
# dojo row preference (value -> rank, higher = take first; every face-up card beats the deck)
ROW_PREF = {1: 3, 2: 1, 3: 4, 4: 1, 5: 3}
_TAKE_PREF = tuple(ROW_PREF[v + 1] for v in range(5))  # (take action - A_TAKE) -> rank
_DOJO_CHOICE: dict[tuple[int, ...], int] = {}  # face-up row -> the draw to take
TREASURE_KEEP = (2, 3, 4, 5, 6)  # gold is a joker: keep it first
TVAL = (2, 3, 4, 5, 5)  # treasure worth for raid planning (gold counts as a jade)
assert TVAL == tuple(t + 2 - (t == 4) for t in range(5))  # best_raid's closed form
_E = comp
assert SPEND_ORDER == tuple(sorted(range(5), key=lambda v: (KEEP_VALUE[v], v)))
class _PlainWorth2(dict):
    """Sorted plain treasures -> twice their TVAL sum (TVAL[t] = t + 2, gold (4) = 5)."""

    def __missing__(self, key: tuple[int, ...]) -> int:
        worth = self[key] = 2 * (sum(key) + 2 * len(key) - key.count(4))
        return worth


_PLAIN_WORTH2 = _PlainWorth2()
_HOUSE_FORCE = tuple(A_HOUSE + 2 * h for h in range(5))  # + 1: by stealth
# (stealth, guard value, *hand) -> first play of a seat without skills (same for all styles)
_FIRST_PLAY: dict[tuple[int, ...], int] = {}


def envoy_table(C: comp.Components, tr: list[int]) -> tuple[int, ...]:
    """Envoy id -> most honour holding `tr` could score on it (0: unaffordable).

    One table per holding, kept in the data set's cache (key -1, *holding: distinct from
    the engine's 5-count keys), so a placement does one lookup instead of one per envoy.
    Payability does not change above `C.caps`: holdings share the capped holding's table.
    """
    cache = C.afford
    out = cache.get((-1, tr[0], tr[1], tr[2], tr[3], tr[4]))
    if out is None:
        capped = [x if x < c else c for x, c in zip(tr, C.caps)]
        key = (-1, *capped)
        out = cache.get(key)
        if out is None:
            out = cache[key] = _envoy_points(C, capped)
        cache[(-1, *tr)] = out
    return out


def raid_plan(C: comp.Components, hand: list[int]) -> tuple[tuple[int, int] | None, ...]:
    """Sentry id (-1: none, valued 3) -> (bonus, approach) of the hand's best raid, or None.

    Force needs the top reachable value (Ki +1 each) above the sentry, stealth the bottom one
    below it; the bonus (1 = half a point, scores are doubled) is for a single card that wins
    alone.  Stealth is taken only when its bonus is higher: on a tie force comes first.
    Cached in the data set's cache under (-2, *hand) (the hand key space is small).
    """
    h0, h1, ki, h3, h4 = hand
    lo = 1 if h0 else 2 if h1 else 3 if ki else 4 if h3 else 5
    hi = 5 if h4 else 4 if h3 else 3 if ki else 2 if h1 else 1
    top = hi + (ki - 1 if hi == 3 else ki)
    bottom = lo - (ki - 1 if lo == 3 else ki)
    plan = []
    for g in C.sentry_value:
        opt = None
        if top > g:
            opt = (1 if hi > g else 0, 0)
        if bottom < g and (opt is None or (lo < g and not hi > g)):
            opt = (1 if lo < g else 0, 1)
        plan.append(opt)
    out = C.afford[(-2, *hand)] = tuple(plan)
    return out


def _envoy_points(C: comp.Components, tr: list[int]) -> tuple[int, ...]:
    """`envoy_table` computed: each envoy's options best-first, the first payable one wins.

    The options sorted by honour are built once per data set (cache key (-3,)); the exact
    payment test is `can_pay` inlined (a table is ~130 option checks on a cold cache).
    """
    ranked = C.afford.get((-3,))
    if ranked is None:
        tval = C.tval
        ranked = C.afford[(-3,)] = tuple(
            sorted(((sum(k * v for k, v in zip(o, tval)), *o) for o in opts), reverse=True)
            for opts in C.env_opts)
    t0, t1, t2, t3, gold = tr
    out = []
    for opts in ranked:
        best = 0
        for pts, n0, n1, n2, n3 in opts:
            short = ((n0 - t0 if n0 > t0 else 0) + (n1 - t1 if n1 > t1 else 0)
                     + (n2 - t2 if n2 > t2 else 0) + (n3 - t3 if n3 > t3 else 0))
            if short <= gold:
                best = pts
                break
        out.append(best)
    return tuple(out)


class Heuristic:
    """Rule-of-thumb bot; `style` is "default" (raider) or "collector"."""

    def __init__(self, style: str = "default", banzai_margin: float = 0.0) -> None:
        self.style = style
        self.collector = style == "collector"
        self.banzai_margin = float(banzai_margin)
        self.name = "heuristic" if style == "default" else f"heuristic:{style}"
        handlers = {
            PH_PLACE: self.place, PH_PAY: self.best_payment, PH_SKILLPAY: self._spend,
            PH_DISCARD: self._spend, PH_FIGHT: self.fight, PH_CHOICE: self.banzai_or_retreat,
            PH_KEEP: self._keep, PH_TOKEN: self.token, PH_REWARD1: self.reward,
            PH_REWARD2: self.pick_rumour, PH_DRAW: self.dojo_draw,
        }
        # phase (PH_* index) -> handler(state, legal); other phases take the first action
        self._by_phase = tuple(handlers.get(ph, self._first) for ph in range(PH_END + 1))

    # ------------------------------------------------------------------ dispatch
    def choose(self, state: NinjatoState, rng: random.Random) -> int:
        """Dispatch on the phase; a skill-less first play vs a regular guard (a third of all
        decisions) is answered here from the first-play cache, without a handler call."""
        legal = state._legal_cache or state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        ph = state.phase
        if ph == PH_FIGHT and state.rbase < 0 and state.rgk != G_ELITE:
            p = state.cur
            if not state.tiles[p]:
                h = state.hands[p]  # keys spelled out: a starred tuple builds a list first
                a = _FIRST_PLAY.get((state.rapp, state.C.gval[state.rgid], h[0], h[1], h[2],
                                     h[3], h[4]))
                if a is not None:
                    return a
        return self._by_phase[ph](state, legal)

    def _spend(self, state: NinjatoState, legal: list[int]) -> int:
        """Pay a skill or discard: the least useful card value first."""
        base = A_SKILLPAY if state.phase == PH_SKILLPAY else A_DISCARD
        for v in SPEND_ORDER:
            if base + v in legal:
                return base + v
        return legal[0]

    def _keep(self, state: NinjatoState, legal: list[int]) -> int:
        keeps = [a for a in legal if A_KEEP <= a < A_KEEP + 5]
        return max(keeps, key=lambda a: TREASURE_KEEP[a - A_KEEP])

    def _first(self, state: NinjatoState, legal: list[int]) -> int:
        return legal[0]

    # ------------------------------------------------------------------ placement
    def place(self, s: NinjatoState, legal: list[int]) -> int:
        """Envoy, raid, sensei (late), rumour (late), else the dojo.

        `legal` is ascending, so the palace and pavilion buys are its tail: they are read from
        the end (highest slot first, as the first of equal scores wins) without a copy.
        """
        p = s.cur
        hand = s.hands[p]
        last = legal[-1]
        if last >= A_PALACE:
            if self.collector and last >= A_PAVILION:
                best = self.rumour_buy(s, legal)
                if best is not None:
                    return best
            i = len(legal) - 1
            while legal[i] >= A_PAVILION:
                i -= 1
            a = legal[i]
            if a >= A_PALACE:
                pts = envoy_table(s.C, s.treas[p])
                palace = s.palace
                best, best_pts = a, pts[palace[a - A_PALACE]]
                a = legal[i - 1]
                while a >= A_PALACE:
                    v = pts[palace[a - A_PALACE]]
                    if v > best_pts:
                        best, best_pts = a, v
                    i -= 1
                    a = legal[i - 1]
                return best
        hn = hand[0] + hand[1] + hand[2] + hand[3] + hand[4]
        if hn:
            raid = self.best_raid(s, hand)
            if raid >= 0:
                return raid
            if hn >= 3 and (self.collector or s.rnd >= 5):
                for a in legal:
                    if a >= A_SENSEI:
                        if a < A_HOUSE:
                            return a
                        break
        if last >= A_PAVILION and s.rnd >= 6:
            best = self.rumour_buy(s, legal)
            if best is not None:
                return best
        return self.dojo_draw(s, legal)

    def dojo_draw(self, s: NinjatoState, legal: list[int]) -> int:
        """Take the most useful face-up card (Ki, then 1s and 5s; ties: the lower value);
        the deck only when the row is empty, so the cards taken are the same as before
        the draws became one at a time (issue 14.3).  `legal` starts with the draws, which
        depend only on the row (cached per row)."""
        key = tuple(s.row)
        best = _DOJO_CHOICE.get(key)
        if best is None:
            best, best_rank = legal[0], 0
            for a in legal:
                if a >= A_DECK:
                    break
                rank = _TAKE_PREF[a - A_TAKE]
                if rank > best_rank:
                    best, best_rank = a, rank
            if key:  # an empty row leaves the deck (or no draw at all): not cached
                _DOJO_CHOICE[key] = best
        return best

    def best_raid(self, s: NinjatoState, hand: list[int]) -> int:
        """The open house with the most treasure whose sentry this hand can beat (-1: none).

        A house is worth its plain treasures (TVAL: value, gold as a jade) plus 0.5 per red
        one; a sentry that one card beats alone (no Ki needed) adds 0.5.  Scores are kept
        doubled (ints); the per-sentry approach and bonus come from the hand's raid plan,
        and the plain part is looked up per (sorted) plain list.
        """
        C = s.C
        plan = C.afford.get((-2, hand[0], hand[1], hand[2], hand[3], hand[4]))
        if plan is None:
            plan = raid_plan(C, hand)
        best, best_score = -1, 0
        worths = _PLAIN_WORTH2
        for act, closed, guard, plain, red in zip(_HOUSE_FORCE, s.hclosed, s.hsentry, s.hplain,
                                                  s.hred):
            if closed:
                continue
            opt = plan[guard]
            if opt is None:
                continue
            score = worths[tuple(plain)] + len(red) + opt[0]
            if score > best_score:
                best, best_score = act + opt[1], score
        return best

    def envoy_points(self, s: NinjatoState, e: int) -> int:
        """Most honour this seat's treasure could score on envoy `e` (cached per holding)."""
        return envoy_table(s.C, s.treas[s.cur])[e]

    def rumour_buy(self, s: NinjatoState, legal: list[int]) -> int | None:
        """The pavilion buy (legal's tail, highest slot first) that best extends a set."""
        mine = [0] * 5
        rt = s.C.rum_type
        for r in s.rumours[s.cur]:
            mine[rt[r]] += 1
        pavilion = s.pavilion
        best, best_score = None, -1
        for a in reversed(legal):
            if a < A_PAVILION:
                break
            t = rt[pavilion[a - A_PAVILION]]
            score = mine[t] % 3 + (1 if t == comp.R_KINDNESS else 0)
            if score > best_score:
                best, best_score = a, score
        return best

    # ------------------------------------------------------------------ raids
    def fight(self, s: NinjatoState, legal: list[int]) -> int:
        p = s.cur
        hand = s.hands[p]
        stealth = s.rapp
        if s.rgk == G_ELITE:  # guard_value() inlined (hot path)
            g = (s.C.estealth if stealth else s.C.eforce)[s.rgid][s.rsub]
        else:
            g = s.C.gval[s.rgid]
        if s.rbase < 0 and not s.tiles[p]:
            # without skills the first play is a function of (approach, guard, hand) only
            key = (stealth, g, *hand)
            a = _FIRST_PLAY.get(key)
            if a is None:
                a = _FIRST_PLAY[key] = self._fight(s, legal, hand, stealth, g)
            return a
        return self._fight(s, legal, hand, stealth, g)

    def _fight(self, s: NinjatoState, legal: list[int], hand: list[int], stealth: int,
               g: int) -> int:
        ki = hand[2]
        if s.rbase < 0:
            # a base card that wins alone: the least precious one (index v = value - 1)
            if stealth:
                for v in SPEND_ORDER:
                    if hand[v] and v + 1 < g:
                        return A_BASE + v
            else:
                for v in SPEND_ORDER:
                    if hand[v] and v + 1 > g:
                        return A_BASE + v
            if A_BOR2 in legal and (2 < g if stealth else 2 > g):
                return A_BOR2
            if A_BOR4 in legal and (4 < g if stealth else 4 > g):
                return A_BOR4
            # a base that Ki cards (+-1 each) can push past the guard
            if stealth:
                v = next((v for v in range(5) if hand[v]), -1)
                if v >= 0:
                    spare = ki - (1 if v == 2 else 0)
                    if (v + 1 - spare < g or self._ready_low(s)) and A_BASE + v in legal:
                        return A_BASE + v
            else:
                v = next((v for v in range(4, -1, -1) if hand[v]), -1)
                if v >= 0:
                    spare = ki - (1 if v == 2 else 0)
                    if (v + 1 + spare > g or self._ready_high(s)) and A_BASE + v in legal:
                        return A_BASE + v
            return A_GIVE_UP
        gap = s.play_value() - g
        if stealth:
            for a in (A_ZERO, A_MINUS2, A_PM1_MINUS, A_KI_MINUS):
                if a in legal and (a == A_ZERO or a != A_MINUS2 or gap >= 1):
                    return a
        else:
            for a in (A_PLUS2, A_SIX, A_PM1_PLUS, A_KI_PLUS):
                if a in legal and (a != A_SIX or gap <= -2):
                    return a
        return A_GIVE_UP

    @staticmethod
    def _ready_low(s: NinjatoState) -> bool:
        r = s.ready[s.cur]
        return bool(r[_E.E_ZERO] or r[_E.E_MINUS2])

    @staticmethod
    def _ready_high(s: NinjatoState) -> bool:
        r = s.ready[s.cur]
        return bool(r[_E.E_SIX] or r[_E.E_PLUS2])

    def banzai_or_retreat(self, s: NinjatoState, legal: list[int] | None = None) -> int:
        """Banzai when P(beat a U{1..5} guard) x next treasure outweighs the treasure at risk."""
        p = s.cur
        h0, h1, ki, h3, h4 = s.hands[p]
        h = s.rh
        plain = s.hplain[h]
        ready = s.ready[p]
        if s.rapp:
            if ready[_E.E_ZERO] or ready[_E.E_MINUS2]:
                if not (h0 or h1 or ki or h3 or h4):
                    return A_RETREAT
                win = 1.0
            else:
                lo = 1 if h0 else 2 if h1 else 3 if ki else 4 if h3 else 5 if h4 else 0
                if not lo:
                    return A_RETREAT
                best = lo - (ki - 1 if lo == 3 else ki)
                win = (5 - best) / 5 if best > 0 else 1.0
        else:
            if ready[_E.E_SIX] or ready[_E.E_PLUS2]:
                if not (h0 or h1 or ki or h3 or h4):
                    return A_RETREAT
                win = 1.0
            else:
                hi = 5 if h4 else 4 if h3 else 3 if ki else 2 if h1 else 1 if h0 else 0
                if not hi:
                    return A_RETREAT
                best = hi + (ki - 1 if hi == 3 else ki)
                win = (best - 1) / 5 if best < 6 else 1.0
        if plain:
            nxt = plain[0]
            left = len(plain) + len(s.hred[h])
        else:
            win *= 0.6  # elites: harder (split and double guards)
            red = s.hred[h]
            nxt = red[0]
            left = len(red)
        gain = TVAL[nxt] + (3.0 if left == 1 else 0.0)
        shur = s.rshur
        loss = 0
        if len(shur) > 1:  # a failure keeps the best treasure: a single one is not at risk
            top = 0
            for t in shur:
                v = TVAL[t]
                loss += v
                if v > top:
                    top = v
            loss -= top
            if self.collector:
                loss *= 1.5
        return A_BANZAI if win * gain > (1 - win) * loss + self.banzai_margin else A_RETREAT

    def token(self, s: NinjatoState, legal: list[int]) -> int:
        """Put the most valuable token on the clan where this seat has the most envoys."""
        mine = [0, 0, 0]
        ec = s.C.env_clan
        for e in s.envoys[s.cur]:
            mine[ec[e]] += 1
        # max() by (envoys of the clan, value index): the first of the best
        best, best_m, best_v = legal[0], -1, -1
        for a in legal:
            c, v = divmod(a - A_TOKEN, 5)
            m = mine[c]
            if m > best_m or (m == best_m and v > best_v):
                best, best_m, best_v = a, m, v
        return best

    # ------------------------------------------------------------------ payments, scoring
    def best_payment(self, s: NinjatoState, legal: list[int]) -> int:
        """The payment worth the most honour (the first of the best, like max())."""
        kind, card = divmod(s.pend, 100)
        opts = s.C.env_opts[card] if kind == 0 else s.C.rum_opts[card]
        t0, t1, t2, t3 = s.C.tval
        best, best_pts = legal[0], -1
        for a in legal:
            o = opts[a - A_PAY]
            pts = o[0] * t0 + o[1] * t1 + o[2] * t2 + o[3] * t3
            if pts > best_pts:
                best, best_pts = a, pts
        return best

    def reward(self, s: NinjatoState, legal: list[int]) -> int:
        clan = s.sc_q[s.sc_i][2]
        if len(legal) == 1 or s.clan_honour(clan) >= (12 if self.collector else 6):
            return A_HONOUR
        return self.pick_rumour(s, legal)

    def pick_rumour(self, s: NinjatoState, legal: list[int]) -> int:
        """The face-up rumour that best extends a set (ties: the lowest slot); not the honour."""
        mine = [0] * 5
        rt = s.C.rum_type
        for r in s.rumours[s.cur]:
            mine[rt[r]] += 1
        pavilion = s.pavilion
        best, best_score = -1, -1
        for a in legal:
            if a == A_HONOUR:
                continue
            score = mine[rt[pavilion[a - A_RUMOUR]]] % 3
            if score > best_score or (score == best_score and a < best):
                best, best_score = a, score
        return best


HEURISTICS = {
    "default": lambda **kw: Heuristic("default", **kw),
    "collector": lambda **kw: Heuristic("collector", **kw),
}
