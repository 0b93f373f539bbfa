"""Time Pirates rules (Rio Grande rules T1 with the rulings of /work/shared/rules/time_pirates.md).

Representation: the bag, hands and discard pile are count vectors by kind (see
`components`), epochs are lists of artifact kinds, deeds are count vectors by deed type.
The bag's *order* is the only hidden part of the board, so the bag is stored as counts and
every draw is a uniform pick with the state's rng — which makes `determinize` a reseed.
The other hidden thing is the secret white-deed placement of the final scoring.

A decision with a single legal action is applied automatically (`_settle`): it is no choice.
"""

from __future__ import annotations

import random

from engines.core import State
from engines.time_pirates import components as C
from engines.time_pirates import scoring
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
    PH_OVER,
    PH_PAY,
    PH_PENALTY,
    PH_RESTOCK,
    PH_START,
    PH_SWAP,
    PH_WHITE,
    PHASE_NAMES,
    PICK,
    RESTOCK,
    WHITE,
    action_name,
)
from engines.time_pirates.rules import Rules

NK = C.NUM_KINDS
WK = C.WHITE_KIND
KIND_COLOUR = tuple(C.kind_colour(k) for k in range(NK))
COLOUR_RANGE = range(C.NUM_COLOURS)
MOVES = (MOVE, MOVE + 1)
ATOMIC_KINDS = tuple((3 * c + 1, ATOMIC + c) for c in COLOUR_RANGE)


class TimePiratesState(State):
    """A Time Pirates position; seat 0 is the start player, turns go 0, 1, 2, ... (clockwise)."""

    __slots__ = (
        "num_players", "rules", "rng", "_legal_cache", "comp", "bag", "bag_total", "epochs",
        "hands", "deeds", "bazaar", "discard", "track", "pos", "patrol", "year", "year_scores",
        "leaders", "white_place", "special", "phase", "cur", "std_left", "forced", "pend",
        "pend_need", "pend_mask", "stats", "shop",
    )

    def __init__(self, num_players: int, seed: int, rules: Rules | None = None) -> None:
        rules = rules or Rules()
        comp = C.load(rules.components)
        n = num_players
        self.num_players = n
        self.rules = rules
        self.rng = random.Random(seed)
        self._legal_cache = None
        self.comp = comp
        self.bag = list(comp.bag)
        self.bag_total = sum(comp.bag)
        self.epochs: list[list[int]] = [[] for _ in comp.spaces]
        self.hands = [[0] * NK for _ in range(n)]
        self.deeds = [[0] * len(comp.deeds) for _ in range(n)]
        self.bazaar = [d[3] for d in comp.deeds]
        self.discard = [0] * NK
        self.track = [0, 0]  # police tokens drawn this year, by line
        self.pos = [-1] * n
        self.patrol = comp.patrol_start
        self.year = 0  # years completed (scored)
        self.year_scores: list[list[int]] = []
        self.leaders: list[tuple[int, ...]] = []
        self.white_place: list[list[int]] = [[] for _ in range(n)]
        self.special: list[list[int]] | None = None  # [set bonus, majority bonus] per seat
        self.cur = n - 1  # start epochs are chosen from the right of the start player
        self.phase = PH_START
        self.std_left = 0
        self.forced = False
        self.pend = 0  # deed type being paid / arrow colour
        self.pend_need = 0  # artifacts still to pay / arrow target seat
        self.pend_mask = 0  # colours already paid for a white deed
        # restocks, patrol catches, deeds bought, turns, atomic jumps, arrow swaps
        self.stats = [0, 0, 0, 0, 0, 0]
        self.shop: tuple = ()
        self._stock_shop()
        self._setup_fill()
        self._settle()

    # --- setup ---------------------------------------------------------------------------
    def _setup_fill(self) -> None:
        """Setup 3: fill every space; police tokens drawn now go aside and back into the bag."""
        aside = [0, 0]
        for e, space in enumerate(self.comp.spaces):
            ep = self.epochs[e]
            while len(ep) < space:
                kind = self._draw()
                if kind >= NK:
                    aside[kind - NK] += 1
                else:
                    ep.append(kind)
        self.bag[C.POLICE_1] += aside[0]
        self.bag[C.POLICE_2] += aside[1]
        self.bag_total += aside[0] + aside[1]

    def _draw(self) -> int:
        """One token from the bag, uniformly (the bag is never empty: see P5)."""
        r = int(self.rng.random() * self.bag_total)
        bag = self.bag
        kind = 0
        while r >= bag[kind]:
            r -= bag[kind]
            kind += 1
        bag[kind] -= 1
        self.bag_total -= 1
        return kind

    # --- contract: acting ---------------------------------------------------------------
    def current_player(self) -> int:
        return -1 if self.phase == PH_OVER else self.cur

    def is_terminal(self) -> bool:
        return self.phase == PH_OVER

    def _legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == PH_ACT:
            return self._legal_act()
        if phase == PH_RESTOCK:
            return self._legal_restock()
        if phase == PH_PAY:
            return self._legal_pay()
        if phase == PH_LAND:
            return [EPOCH + e for e in range(len(self.epochs))]
        if phase == PH_JUMP:
            here = self.pos[self.cur]
            return [EPOCH + e for e in range(len(self.epochs)) if e != here]
        if phase == PH_SWAP:
            target = self.hands[self.pend_need]
            return [PICK + k for k in range(NK) if target[k]]
        if phase == PH_PENALTY:
            return [PICK + k for k in self.penalty_choices(self.cur)]
        if phase == PH_START:
            taken = set(self.pos)
            return [EPOCH + e for e in range(len(self.epochs))
                    if e != self.patrol and e not in taken]
        if phase == PH_WHITE:
            return [WHITE + c for c in self.owned_colours(self.cur)]
        return []

    def _legal_act(self) -> list[int]:
        p = self.cur
        h = self.hands[p]
        if self.std_left:
            if self.forced:
                acts = [MOVE, MOVE + 1]
            else:
                here = self.epochs[self.pos[p]]
                acts = sorted(set(here)) if here else []  # TAKE + kind == kind
                acts += MOVES
                if sum(h) >= self.comp.min_cost:
                    self._add_affordable(h, acts)
                if h[1] or h[4] or h[7] or h[10] or h[13]:  # P2: none before the forced move
                    acts += [a for k, a in ATOMIC_KINDS if h[k]]
        else:
            acts = [END]
            if h[1] or h[4] or h[7] or h[10] or h[13]:
                acts += [a for k, a in ATOMIC_KINDS if h[k]]
        if h[2] or h[5] or h[8] or h[11] or h[14]:
            targets = [q for q, hq in enumerate(self.hands) if q != p and any(hq)]
            if targets:
                for c in COLOUR_RANGE:
                    if h[3 * c + 2]:
                        base = ARROW + c * MAX_SEATS
                        acts += [base + q for q in targets]
        return acts

    def _add_affordable(self, h: list[int], acts: list[int]) -> None:
        """Deed types on the bazaar that hand `h` can pay for (white wild; white deeds need
        distinct colours).  Looks up `self.shop`: per colour, the purchasable deeds by budget."""
        shop = self.shop
        cap = self.comp.shop_cap  # budgets above the dearest deed buy the same
        white = h[WK]
        distinct = white
        for c in COLOUR_RANGE:
            b = 3 * c
            tot = h[b] + h[b + 1] + h[b + 2]
            if tot:
                distinct += 1
            elif not white:
                continue
            tot += white
            acts += shop[c][tot if tot < cap else cap]
        if distinct:
            acts += shop[C.WHITE][distinct if distinct < cap else cap]

    def _stock_shop(self, colour: int | None = None) -> None:
        """Rebuild the budget -> purchasable-deeds rows (of `colour`, or all) after the
        bazaar changed.  Rows are tuples shared with clones, so they are replaced, not edited."""
        shop = list(self.shop) if self.shop else [()] * (C.NUM_COLOURS + 1)
        bazaar = self.bazaar
        colours = range(C.NUM_COLOURS + 1) if colour is None else (colour,)
        for c in colours:
            deeds = self.comp.white_deeds if c == C.WHITE else self.comp.colour_deeds[c]
            row, cur, i = [], [], 0
            for budget in range(self.comp.shop_cap + 1):
                while i < len(deeds) and deeds[i][1] <= budget:
                    if bazaar[deeds[i][0]]:
                        cur.append(BUY + deeds[i][0])
                    i += 1
                row.append(tuple(cur))
            shop[c] = tuple(row)
        self.shop = tuple(shop)

    def _legal_restock(self) -> list[int]:
        spaces = self.comp.spaces
        pos = self.pos
        empty_only = self.rules.restock_eligibility == "piatnik"
        out = []
        for e, ep in enumerate(self.epochs):
            if e in pos:
                continue
            if (not ep) if empty_only else len(ep) < spaces[e]:
                out.append(RESTOCK + e)
        out.append(NO_RESTOCK)
        return out

    def _legal_pay(self) -> list[int]:
        h = self.hands[self.cur]
        colour = self.comp.deeds[self.pend][0]
        if colour != C.WHITE:
            base = 3 * colour
            out = [PICK + k for k in (base, base + 1, base + 2) if h[k]]
        else:
            mask = self.pend_mask
            out = [PICK + k for k in range(WK) if h[k] and not mask >> KIND_COLOUR[k] & 1]
        if h[WK]:
            out.append(PICK + WK)
        return out

    def apply_action(self, action: int) -> None:
        """Same contract as `State.apply_action`, one call shallower (this is the hot path)."""
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_actions()
        if action not in legal:
            super().apply_action(action)  # raises IllegalActionError, changes nothing
        self._do(action)
        self._settle()

    def _apply(self, action: int) -> None:
        self._do(action)
        self._settle()

    def _settle(self) -> None:
        """Apply forced single choices; leave the next real decision's legal list cached."""
        while True:
            legal = self._legal_act() if self.phase == PH_ACT else self._legal_actions()
            if len(legal) != 1:
                self._legal_cache = legal
                return
            self._do(legal[0])

    def _do(self, action: int) -> None:
        phase = self.phase
        p = self.cur
        if phase == PH_ACT:
            if action < MOVE:
                self.epochs[self.pos[p]].remove(action)  # TAKE + kind == kind
                self.hands[p][action] += 1
                self.std_left -= 1
            elif action < BUY:
                self.pos[p] = self.comp.lines[self.pos[p]][action - MOVE]
                self.std_left -= 1
                if self.forced:
                    self.forced = False
                    if self.rules.patrol_effect == "flee":
                        self._begin_turn((p + 1) % self.num_players)
            elif action < PICK:
                t = action - BUY
                self.std_left -= 1
                self.pend = t
                self.pend_need = self.comp.deeds[t][2]
                self.pend_mask = 0
                self.phase = PH_PAY
            elif action == END:
                self._begin_turn((p + 1) % self.num_players)
            elif action < ARROW:
                kind = 3 * (action - ATOMIC) + 1
                self.hands[p][kind] -= 1
                self.discard[kind] += 1
                self.stats[4] += 1
                self.phase = PH_JUMP
            else:
                self.pend, self.pend_need = divmod(action - ARROW, MAX_SEATS)
                self.phase = PH_SWAP
        elif phase == PH_RESTOCK:
            self.phase = PH_ACT
            self.std_left = 2
            if action != NO_RESTOCK:
                self.stats[0] += 1
                if self.rules.restock_extra_action:
                    self.std_left = 3
                self._restock(action - RESTOCK)
        elif phase == PH_PAY:
            kind = action - PICK
            self.hands[p][kind] -= 1
            self.discard[kind] += 1
            if kind != WK:
                self.pend_mask |= 1 << KIND_COLOUR[kind]
            self.pend_need -= 1
            if not self.pend_need:
                self.deeds[p][self.pend] += 1
                self.bazaar[self.pend] -= 1
                self._stock_shop(self.comp.deeds[self.pend][0])
                self.stats[2] += 1
                self.phase = PH_LAND
        elif phase == PH_LAND or phase == PH_JUMP:
            self.pos[p] = action - EPOCH
            self.phase = PH_ACT
        elif phase == PH_SWAP:
            kind = action - PICK
            given = 3 * self.pend + 2
            mine, theirs = self.hands[p], self.hands[self.pend_need]
            theirs[kind] -= 1
            mine[kind] += 1
            mine[given] -= 1
            theirs[given] += 1
            self.stats[5] += 1
            self.phase = PH_ACT
        elif phase == PH_PENALTY:
            kind = action - PICK
            self.hands[p][kind] -= 1
            self.discard[kind] += 1
            self._after_penalty()
        elif phase == PH_START:
            self.pos[p] = action - EPOCH
            if p == 0:
                self._begin_turn(0)
            else:
                self.cur = p - 1
        elif phase == PH_WHITE:
            self.white_place[p].append(action - WHITE)
            self._next_white()

    # --- turn structure -------------------------------------------------------------------
    def _begin_turn(self, p: int) -> None:
        """Start of a turn: case A (the Patrol is in your epoch) or case B (restock option)."""
        self.cur = p
        self.stats[3] += 1
        self.forced = False
        if self.pos[p] == self.patrol:
            self.stats[1] += 1
            if self.penalty_choices(p):
                self.phase = PH_PENALTY
            else:
                self._after_penalty()
        else:
            self.phase = PH_RESTOCK

    def penalty_choices(self, p: int) -> list[int]:
        """P1: kinds the caught player may lose: any artifact of a largest *colour* group."""
        h = self.hands[p]
        tot = [h[3 * c] + h[3 * c + 1] + h[3 * c + 2] for c in COLOUR_RANGE]
        best = max(tot)
        if not best:
            return []
        return [k for c in COLOUR_RANGE if tot[c] == best for k in (3 * c, 3 * c + 1, 3 * c + 2)
                if h[k]]

    def _after_penalty(self) -> None:
        """Lose all white artifacts, then the forced move (no atomic) and one more action."""
        h = self.hands[self.cur]
        self.discard[WK] += h[WK]
        h[WK] = 0
        self.phase = PH_ACT
        self.forced = True
        self.std_left = 1 if self.rules.patrol_effect == "flee" else 2

    # --- restocking and the year end ------------------------------------------------------
    def _restock(self, e: int) -> None:
        """Fill every empty space of epoch `e`; police tokens move the Patrol (P3, P4, P5)."""
        ep = self.epochs[e]
        need = self.comp.spaces[e] - len(ep)
        lines = self.comp.lines
        per_year = self.comp.police_per_year
        while need > 0 and self.bag_total:
            kind = self._draw()
            if kind < NK:
                ep.append(kind)
                need -= 1
                continue
            line = kind - NK
            self.patrol = lines[self.patrol][line]
            self.track[line] += 1
            if self.track[0] + self.track[1] >= per_year:
                self._end_year()
                if self.phase == PH_WHITE or self.phase == PH_OVER:
                    return

    def _end_year(self) -> None:
        """Police tokens and discards go back into the bag; score the year (game end after 3)."""
        bag = self.bag
        bag[C.POLICE_1] += self.track[0]
        bag[C.POLICE_2] += self.track[1]
        self.bag_total += self.track[0] + self.track[1]
        self.track = [0, 0]
        discard = self.discard
        for k in range(NK):
            if discard[k]:
                bag[k] += discard[k]
                self.bag_total += discard[k]
                discard[k] = 0
        self.year_scores.append([self.deed_points(p) for p in range(self.num_players)])
        self.year += 1
        if self.year >= self.comp.years:
            self._begin_final()
        else:
            totals = self.totals()
            best = max(totals)
            self.leaders.append(tuple(p for p, s in enumerate(totals) if s == best))

    def deed_points(self, p: int) -> int:
        return scoring.deed_points(self.comp.deeds, self.deeds[p])

    def totals(self) -> list[int]:
        return [sum(ys[p] for ys in self.year_scores) for p in range(self.num_players)]

    # --- final scoring --------------------------------------------------------------------
    def owned_colours(self, p: int) -> list[int]:
        return scoring.owned_colours(self.comp.deeds, self.deeds[p])

    def white_deeds_of(self, p: int) -> list[int]:
        return scoring.white_deeds(self.comp.deeds, self.deeds[p])

    def _begin_final(self) -> None:
        self.phase = PH_WHITE
        self.cur = 0
        self._seek_white(0)

    def _next_white(self) -> None:
        p = self.cur
        if len(self.white_place[p]) < len(self.white_deeds_of(p)):
            return
        self._seek_white(p + 1)

    def _seek_white(self, start: int) -> None:
        """Next seat (in turn order) with a white deed to place; none left: final scoring."""
        for p in range(start, self.num_players):
            if self.white_deeds_of(p) and self.owned_colours(p):
                self.cur = p
                return
        self._final_scoring()

    def colour_points(self, p: int) -> list[int]:
        return scoring.colour_points(self.comp.deeds, self.deeds[p], self.white_place[p])

    def _final_scoring(self) -> None:
        sets, majority = scoring.special_bonuses(
            self.comp.deeds, self.deeds, self.white_place, self.rules.set_bonus,
            self.rules.majority_bonus)
        self.special = [sets, majority]
        self.phase = PH_OVER
        self.cur = -1
        self._legal_cache = None
        self.leaders.append(tuple(self.winners()))

    # --- contract: outcome --------------------------------------------------------------
    def scores(self) -> list[float]:
        totals = self.totals()
        if self.special:
            totals = [t + a + b for t, a, b in zip(totals, *self.special)]
        return [float(t) for t in totals]

    def winners(self) -> list[int]:
        """Highest total; ties go to the player with more deeds, then the win is shared."""
        return scoring.winners(self.scores(), [sum(d) for d in self.deeds])

    def score_breakdown(self) -> dict[str, list[float]]:
        n = self.num_players
        out = {}
        for y in range(self.comp.years):
            row = self.year_scores[y] if y < len(self.year_scores) else [0] * n
            out[f"year{y + 1}"] = [float(v) for v in row]
        special = self.special or [[0] * n, [0] * n]
        out["set_bonus"] = [float(v) for v in special[0]]
        out["majority"] = [float(v) for v in special[1]]
        return out

    def metrics(self) -> dict[str, float]:
        """`years` scored; `lead_changes`: how often the leader set (top cumulative total)
        changes from the year-1 count to the year-2 count to the final result (0..2)."""
        changes = sum(1 for a, b in zip(self.leaders, self.leaders[1:]) if a != b)
        restocks, catches, bought, turns, atomics, arrows = self.stats
        return {
            "years": float(self.year),
            "lead_changes": float(changes),
            "turns": float(turns),
            "restocks": float(restocks),
            "patrol_catches": float(catches),
            "deeds_bought": float(bought),
            "atomic_jumps": float(atomics),
            "arrow_swaps": float(arrows),
        }

    # --- contract: information ------------------------------------------------------------
    def clone(self) -> TimePiratesState:
        new = TimePiratesState.__new__(TimePiratesState)
        new.num_players = self.num_players
        new.rules = self.rules
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        new._legal_cache = self._legal_cache
        new.comp = self.comp
        new.bag = list(self.bag)
        new.bag_total = self.bag_total
        new.epochs = [list(e) for e in self.epochs]
        new.hands = [list(h) for h in self.hands]
        new.deeds = [list(d) for d in self.deeds]
        new.bazaar = list(self.bazaar)
        new.discard = list(self.discard)
        new.track = list(self.track)
        new.pos = list(self.pos)
        new.patrol = self.patrol
        new.year = self.year
        new.year_scores = [list(y) for y in self.year_scores]
        new.leaders = list(self.leaders)
        new.white_place = [list(w) for w in self.white_place]
        new.special = None if self.special is None else [list(s) for s in self.special]
        new.phase = self.phase
        new.cur = self.cur
        new.std_left = self.std_left
        new.forced = self.forced
        new.pend = self.pend
        new.pend_need = self.pend_need
        new.pend_mask = self.pend_mask
        new.stats = list(self.stats)
        new.shop = self.shop  # immutable, rebuilt on every purchase
        return new

    def determinize(self, seat: int, rng: random.Random) -> TimePiratesState:
        """Resample what `seat` cannot see: the bag order (a reseed, the bag being counts)
        and the other players' secret white-deed placements made so far."""
        world = self.clone()
        world.rng = random.Random(rng.getrandbits(64))
        if self.phase == PH_WHITE:
            for p in range(self.num_players):
                placed = world.white_place[p]
                if p == seat or not placed:
                    continue
                owned = world.owned_colours(p)
                world.white_place[p] = [owned[int(rng.random() * len(owned))] for _ in placed]
        return world

    def observation(self, seat: int) -> dict:
        """Everything public (pawns, epochs, hands, deeds, bag counts, discards) plus `seat`'s
        own white-deed placements; of the others only how many they have placed."""
        secret = self.phase == PH_WHITE
        return {
            "seat": seat,
            "phase": PHASE_NAMES[self.phase],
            "to_move": self.current_player(),
            "year": self.year,
            "police_track": list(self.track),
            "patrol": self.patrol,
            "pawns": list(self.pos),
            "epochs": [sorted(e) for e in self.epochs],
            "hands": [list(h) for h in self.hands],
            "deeds": [list(d) for d in self.deeds],
            "bazaar": list(self.bazaar),
            "discard": list(self.discard),
            "bag": list(self.bag),
            "standard_actions_left": self.std_left,
            "forced_move": self.forced,
            "pending": [self.pend, self.pend_need, self.pend_mask],
            "year_scores": [list(y) for y in self.year_scores],
            "white_placed": [
                list(w) if (p == seat or not secret) else len(w)
                for p, w in enumerate(self.white_place)
            ],
            "special": None if self.special is None else [list(s) for s in self.special],
        }

    def action_to_str(self, action: int) -> str:
        return action_name(action, self.comp.epoch_names, self.comp.deeds)
