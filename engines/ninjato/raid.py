"""Clan house raids (rules 3.4): guards, plays, banzai/retreat, alarms, elites, clearing.

A play against one guard is built step by step: a base (a dojo card, a Ki alone = 3, or
Boryaku as 2/4), then modifiers (Ki +-1, skills).  As soon as the play beats the guard it
resolves (adding more could not help), so most fights are one decision.  Giving up fails
the raid; cards already committed stay spent.
"""

from __future__ import annotations

from bisect import insort
from typing import Final

from engines.kit import draw_count, draw_from
from engines.ninjato._position import NinjatoPosition
from engines.ninjato.actions import (
    A_BANZAI,
    A_BASE,
    A_BOR2,
    A_BOR4,
    A_GIVE_UP,
    A_KEEP,
    A_KI_MINUS,
    A_KI_PLUS,
    A_MINUS2,
    A_PLUS2,
    A_PM1_MINUS,
    A_PM1_PLUS,
    A_REFRESH,
    A_RETREAT,
    A_SIX,
    A_SWAP,
    A_SWITCH,
    A_TOKEN,
    A_ZERO,
    PH_CHOICE,
    PH_FIGHT,
    PH_KEEP,
    PH_TOKEN,
)
from engines.ninjato.components import (
    E_BORYAKU,
    E_MINUS2,
    E_PLUS2,
    E_PM1,
    E_REFRESH,
    E_SIX,
    E_SWAP,
    E_SWITCH,
    E_ZERO,
)

# guard kinds in a fight (`Final`: compiled code inlines them, like the actions' numbers)
G_SENTRY: Final = 0
G_REGULAR: Final = 1
G_ELITE: Final = 2
G_NONE: Final = 3
# skills a Tenmon tile may turn face up again (not Disguise, not itself)
_REFRESHABLE: Final[tuple[int, ...]] = (E_MINUS2, E_ZERO, E_BORYAKU, E_PLUS2, E_SIX, E_PM1,
                                        E_SWAP, E_SWITCH)


# Legal lists shared by every state that has them (the contract: callers never mutate a
# legal list), so the commonest decisions allocate no list.
# (stealth, guard value, hand) -> first-play actions of a seat without skills
# (module tables are `Final`: compiled, a native static instead of a global look-up)
# `fight_key` (stealth, guard value, hand) -> first-play actions of a seat without skills
_BASE_ACTS: Final[dict[int, list[int]]] = {}
_BANZAI_OR_RETREAT: Final = [A_BANZAI, A_RETREAT]
_KI_OR_GIVE_UP: Final = [A_KI_PLUS, A_KI_MINUS, A_GIVE_UP]
_GIVE_UP: Final = [A_GIVE_UP]


def fight_key(stealth: int, g: int, hand: list[int]) -> int:
    """(approach, guard value, hand) packed in one int, 8 bits each (a count is far below
    256): the key of the first-play caches, without a tuple to build and hash."""
    return ((((((stealth << 8 | g) << 8 | hand[0]) << 8 | hand[1]) << 8 | hand[2]) << 8
             | hand[3]) << 8) | hand[4]


class RaidRules(NinjatoPosition):
    """Raid rules of `NinjatoState`, its base class (attributes are declared in
    `position.py`, generated into `NinjatoPosition`): a raid is a phase of the rules with its
    own steps (fight, banzai or retreat, keep, token), so it reads as one chapter beside the
    rest of `state.py`."""

    __slots__ = ()

    # ------------------------------------------------------------------ starting
    def start_raid(self, h: int, approach: int) -> None:
        """3.4.1: commit a shuriken to force (0) or stealth (1); fight the sentry first (A21)."""
        self.raid_house = h
        self.raid_approach = approach
        self.raid_treasures = []
        self.raid_wins = 0
        self.elite_part = 0
        g = self.house_sentry[h]
        self.play_base = -1
        self.play_modifier = 0
        self.play_override = -1
        self.boryaku_played = False
        if g < 0:  # A20: no guard left to reveal: the treasure is unguarded
            self.guard_kind = G_NONE
            self.win_guard()
            return
        self.guard_kind = G_SENTRY
        self.guard_id = g
        self.await_play()

    def guard_value(self) -> int:
        """Value of the guard being fought, for the current approach (split elites, 3.4.8)."""
        return self.guard_value_for(self.raid_approach, self.elite_part)

    def guard_value_for(self, stealth: int, part: int) -> int:
        """Value of the guard being fought by force (0) or by stealth (1), guard `part` of an
        elite: the one place that reads it (the fight's legal list, its outcome, what can
        still win and the heuristic all call this)."""
        if self.guard_kind == G_ELITE:
            return (self.C.estealth if stealth else self.C.eforce)[self.guard_id][part]
        return self.C.gval[self.guard_id]

    def double_elite(self) -> bool:
        """A double elite with a guard still to beat after the current one (A6)."""
        return (self.guard_kind == G_ELITE
                and self.elite_part + 1 < len(self.C.eforce[self.guard_id]))

    def play_value(self) -> int:
        """A2: a set-to-0/6 overrides the base and every +- modifier."""
        override = self.play_override
        return override if override >= 0 else self.play_base + self.play_modifier

    # ------------------------------------------------------------------ legal actions
    def legal_choice(self) -> list[int]:
        """3.4.4 after a win: banzai or retreat (Choho swaps too, 3.4.9)."""
        if self.ready[self.player][E_SWAP]:
            return [A_BANZAI, A_RETREAT] + self.swap_actions()
        return _BANZAI_OR_RETREAT

    def legal_keep(self) -> list[int]:
        """A4: a failed raider keeps one treasure type of the shuriken (Choho first)."""
        out = [A_KEEP + t for t in sorted(set(self.raid_treasures))]
        if self.ready[self.player][E_SWAP]:
            out.extend(self.swap_actions())
        return out

    def legal_fight(self) -> list[int]:
        """A base card (or Boryaku), then modifiers (Ki, skills), or give up (3.4.2)."""
        p = self.player
        hand = self.hands[p]
        if not self.tiles[p]:  # no skill tile: only cards (the usual case, ~all bot fights)
            if self.play_base < 0:
                if self.double_elite():  # its next guard too
                    return self.legal_fight_general()
                stealth = self.raid_approach
                g = self.guard_value()
                key = fight_key(stealth, g, hand)
                acts = _BASE_ACTS.get(key)
                if acts is None:  # only a card that Ki cards can carry past g
                    ki = hand[2]
                    acts = _BASE_ACTS[key] = [
                        *(A_BASE + v for v in range(5) if hand[v] and (
                            v + 1 - ki + (v == 2) < g if stealth else v + 1 + ki - (v == 2) > g)),
                        A_GIVE_UP]
                return acts
            if hand[2]:  # no skill ever set a value: play_override < 0
                return _KI_OR_GIVE_UP
            return _GIVE_UP
        return self.legal_fight_general()

    def legal_fight_general(self) -> list[int]:
        """`legal_fight` for a seat with skill tiles (also valid without: tests compare)."""
        p = self.player
        hand = self.hands[p]
        ready = self.ready[p]
        owned = self.owned[p]
        out = []
        if self.play_base < 0:
            ki = hand[2]
            part = self.elite_part
            double = self.double_elite()
            always, above, below = self.card_reach(part)
            for v in range(5):
                if hand[v]:
                    kis = ki - (v == 2)
                    if (always or v + 1 + kis > above or v + 1 - kis < below) and (
                            not double or self.rest_winnable(v)):
                        out.append(A_BASE + v)
            if ready[E_BORYAKU]:
                rest = not double or self.rest_winnable(-1)
                if rest and self.can_still_win(2, ki, True, part):
                    out.append(A_BOR2)
                if rest and self.can_still_win(4, ki, True, part):
                    out.append(A_BOR4)
            if not out and not (ready[E_REFRESH] and owned[E_BORYAKU] > ready[E_BORYAKU] and (
                    self.can_still_win(2, ki, True, part) or self.can_still_win(4, ki, True, part))
                    and (not double or self.rest_winnable(-1))):
                # seed 004, translator's note: a fight no play can win fails at once (no
                # switch, refresh or swap is offered first: a switch or refresh that could
                # help is counted by `can_still_win`; Choho stays open when keeping, A4)
                return _GIVE_UP
        elif self.play_override < 0:
            if hand[2]:
                out.append(A_KI_PLUS)
                out.append(A_KI_MINUS)
            if not self.boryaku_played or self.rules.boryaku_skills:
                if ready[E_MINUS2]:
                    out.append(A_MINUS2)
                if ready[E_PLUS2]:
                    out.append(A_PLUS2)
                if ready[E_PM1]:
                    out.append(A_PM1_PLUS)
                    out.append(A_PM1_MINUS)
                if ready[E_ZERO]:
                    out.append(A_ZERO)
                if ready[E_SIX]:
                    out.append(A_SIX)
        if ready[E_SWITCH]:
            out.append(A_SWITCH)
        out.append(A_GIVE_UP)
        if ready[E_REFRESH]:
            for e in _REFRESHABLE:
                if owned[e] > ready[e]:
                    out.append(A_REFRESH + e)
        if ready[E_SWAP] and self.raid_treasures:
            out.extend(self.swap_actions())
        return out

    def can_still_win(self, base: int, kis: int, boryaku: bool, part: int) -> bool:
        """Whether a play with this base value can still beat the guard, or
        guard `part` of the elite being fought (a double elite's later guard).

        The reach of each direction is the base plus every ready modifier pushing that way
        (Ki +-1 each; -2/+2, +-1, set 0/6, also on Boryaku unless `boryaku_skills` is off,
        A18), with each Tenmon refresh spent on the strongest such skill the seat owns.
        One switch of approach (Seishin) is tried too, paid by a refresh when the tile is
        used.  An upper bound: a False is certain, a True may still lose.
        """
        if boryaku and self.rules.boryaku_skills:
            boryaku = False  # modified like a dojo card of 2 or 4
        p = self.player
        ready = self.ready[p]
        owned = self.owned[p]
        refresh = ready[E_REFRESH]
        stealth = self.raid_approach
        if self._reaches(base, kis, boryaku, stealth, refresh, part, ready, owned):
            return True
        if ready[E_SWITCH]:
            return self._reaches(base, kis, boryaku, stealth ^ 1, refresh, part, ready, owned)
        if owned[E_SWITCH] and refresh:
            return self._reaches(base, kis, boryaku, stealth ^ 1, refresh - 1, part, ready,
                                 owned)
        return False

    def card_reach(self, part: int) -> tuple[bool, int, int]:
        """`can_still_win` for a dojo card, solved once for every card of a fight:
        (any card wins, a card whose value plus its Ki tops this wins, one whose value less
        its Ki is under this wins) over the same approaches and refreshes."""
        p = self.player
        ready = self.ready[p]
        owned = self.owned[p]
        refresh = ready[E_REFRESH]
        stealth = self.raid_approach
        always = False
        above, below = 99, -99
        for n in range(2):
            if n:
                if ready[E_SWITCH]:
                    spare = refresh
                elif owned[E_SWITCH] and refresh:
                    spare = refresh - 1
                else:
                    break
                stealth ^= 1
            else:
                spare = refresh
            g = self.guard_value_for(stealth, part)
            if stealth:
                if (ready[E_ZERO] or owned[E_ZERO] and spare) and 0 < g:
                    always = True
                step = 2 if owned[E_MINUS2] else 1 if owned[E_PM1] else 0
                limit = g + 2 * ready[E_MINUS2] + ready[E_PM1] + spare * step
                if limit > below:
                    below = limit
            else:
                if (ready[E_SIX] or owned[E_SIX] and spare) and 6 > g:
                    always = True
                step = 2 if owned[E_PLUS2] else 1 if owned[E_PM1] else 0
                limit = g - 2 * ready[E_PLUS2] - ready[E_PM1] - spare * step
                if limit < above:
                    above = limit
        return always, above, below

    def _reaches(self, base: int, kis: int, boryaku: bool, stealth: int, spare: int, part: int,
                 ready: list[int], owned: list[int]) -> bool:
        """`can_still_win` for one approach, with `spare` refreshes (no list of options
        built per call: this runs for every card of every fight of a seat with skills)."""
        g = self.guard_value_for(stealth, part)
        if boryaku:
            return base - kis < g if stealth else base + kis > g
        if stealth:
            if (ready[E_ZERO] or owned[E_ZERO] and spare) and 0 < g:
                return True
            step = 2 if owned[E_MINUS2] else 1 if owned[E_PM1] else 0
            return base - kis - 2 * ready[E_MINUS2] - ready[E_PM1] - spare * step < g
        if (ready[E_SIX] or owned[E_SIX] and spare) and 6 > g:
            return True
        step = 2 if owned[E_PLUS2] else 1 if owned[E_PM1] else 0
        return base + kis + 2 * ready[E_PLUS2] + ready[E_PM1] + spare * step > g

    def rest_winnable(self, v: int) -> bool:
        """Seed 004 (a double elite: both guards must be beaten, A6 one play each) and its
        translator's note (a fight that cannot be won fails at once): whether the guards
        after this one can still be beaten once card index `v` (-1: Boryaku) is played on it.

        The card (or Boryaku, as its 4 by force, its 2 by stealth) and the Ki it needs to
        pass this guard leave the hand (the Ki that ready skills pushing the same way, or a
        Tenmon, cannot stand in for; none if a set-to-0/6 or a switch of approach may do;
        on Boryaku only Ki and a switch when `boryaku_skills` is off), and some card of the
        rest, or a Boryaku still ready (or a used one a ready Tenmon can turn face up),
        with the Ki left, must still beat each later guard (a double elite has two).
        Without skill tiles this is exact; with them it is an upper bound, as
        `can_still_win` (the skills used on this guard are still counted for the next).
        """
        p = self.player
        hand = list(self.hands[p])
        part = self.elite_part
        stealth = self.raid_approach
        ready = self.ready[p]
        owned = self.owned[p]
        boryaku = ready[E_BORYAKU]
        if v >= 0:
            hand[v] -= 1
            base = v + 1
            skills = True
        else:
            boryaku -= 1
            base = 2 if stealth else 4
            skills = self.rules.boryaku_skills
        g = self.guard_value()
        need = base + 1 - g if stealth else g - base + 1  # Ki to carry the base past g
        if need > 0 and self.tiles[p]:
            spare = ready[E_REFRESH]
            setter, big = (E_ZERO, E_MINUS2) if stealth else (E_SIX, E_PLUS2)
            if ready[E_SWITCH] or owned[E_SWITCH] and spare or skills and (
                    ready[setter] or owned[setter] and spare):
                need = 0
            elif skills:
                step = 2 if owned[big] else 1 if owned[E_PM1] else 0
                need -= 2 * ready[big] + ready[E_PM1] + spare * step
        if need > 0:
            hand[2] -= need
            if hand[2] < 0:
                return False
        ki = hand[2]
        spare_later = ready[E_REFRESH] - (boryaku < 0)  # a Tenmon turned this one face up
        later_boryaku = boryaku > 0 or owned[E_BORYAKU] > max(boryaku, 0) and spare_later > 0
        for later in range(part + 1, len(self.C.eforce[self.guard_id])):
            if not any(hand[w] and self.can_still_win(w + 1, ki - (w == 2), False, later)
                       for w in range(5)) and not (
                    later_boryaku and (self.can_still_win(2, ki, True, later)
                                       or self.can_still_win(4, ki, True, later))):
                return False
        return True

    def swap_actions(self) -> list[int]:
        """Choho: give a treasure from the shuriken for any treasure in the house.

        Swapping for a plain treasure of the same type changes nothing, so it is not
        offered; a same-type red swap is, when it turns a more valuable plain treasure red.
        """
        out = []
        h = self.raid_house
        plain = self.house_plain[h]
        gives = sorted(set(self.raid_treasures))
        for t in sorted(set(plain)):
            for g in gives:
                if g != t:
                    out.append(A_SWAP + g * 10 + t * 2)
        top = plain[-1] if plain else -1
        for t in sorted(set(self.house_red[h])):
            for g in gives:
                if g != t or top > t:
                    out.append(A_SWAP + g * 10 + t * 2 + 1)
        out.sort()
        return out

    def token_actions(self) -> list[int]:
        """3.4.7 / A24: any available token of either other clan (or each clan's lowest)."""
        old = self.house_clan[self.raid_house]
        lowest = self.rules.token_choice == "lowest"
        out = []
        for c in range(3):
            if c == old:
                continue
            for vi, free in enumerate(self.token_supply[c]):
                if free:
                    out.append(A_TOKEN + c * 5 + vi)
                    if lowest:
                        break
        return out

    # ------------------------------------------------------------------ applying
    def apply_choice(self, a: int) -> None:
        if a == A_BANZAI:
            self.banzai()
        elif a == A_RETREAT:
            self.retreat()
        else:
            self.swap(a)

    def apply_keep(self, a: int) -> None:
        if a >= A_SWAP:
            self.swap(a)
        else:
            self.finish_fail(a - A_KEEP)

    def apply_token(self, a: int) -> None:
        self.take_token(*divmod(a - A_TOKEN, 5))

    def apply_fight(self, a: int) -> None:
        p = self.player
        if a < A_BOR2:
            v = a - A_BASE
            self.hands[p][v] -= 1
            self.dojo_discards[v] += 1
            if self.known[p][v]:  # a card known to be held left the hand in sight
                self.known[p][v] -= 1
            self.play_base = v + 1
        elif a == A_GIVE_UP:
            self.fail()
            return
        elif a <= A_BOR4:
            self.ready[p][E_BORYAKU] -= 1
            self.play_base = 2 if a == A_BOR2 else 4
            self.boryaku_played = True
        elif a <= A_KI_MINUS:
            self.hands[p][2] -= 1
            self.dojo_discards[2] += 1
            if self.known[p][2]:
                self.known[p][2] -= 1
            self.play_modifier += 1 if a == A_KI_PLUS else -1
        elif a == A_MINUS2:
            self.ready[p][E_MINUS2] -= 1
            self.play_modifier -= 2
        elif a == A_PLUS2:
            self.ready[p][E_PLUS2] -= 1
            self.play_modifier += 2
        elif a <= A_PM1_MINUS:
            self.ready[p][E_PM1] -= 1
            self.play_modifier += 1 if a == A_PM1_PLUS else -1
        elif a == A_ZERO:
            self.ready[p][E_ZERO] -= 1
            self.play_override = 0
        elif a == A_SIX:
            self.ready[p][E_SIX] -= 1
            self.play_override = 6
        elif a == A_SWITCH:
            self.ready[p][E_SWITCH] -= 1
            self.raid_approach ^= 1
        elif a < A_BANZAI:
            self.ready[p][E_REFRESH] -= 1
            self.ready[p][a - A_REFRESH] += 1
            self.await_play()
            return
        else:
            self.swap(a)
            self.await_play()
            return
        # Does the play beat the guard?  Force must be strictly higher than the guard,
        # stealth strictly lower; ties fail; a switch before any base card beats nothing yet.
        base = self.play_base
        if base >= 0:
            v = self.play_override if self.play_override >= 0 else base + self.play_modifier
            g = self.guard_value()
            if v < g if self.raid_approach else v > g:
                self.win_guard()
                return
        self.await_play()

    def await_play(self) -> None:
        """Wait for the raider's next play against the guard (phase FIGHT).

        When giving up is the only legal action (no play that can still win, no usable
        skill), the raid fails at once: that step is not a choice, so it is not exposed as a
        decision, and no card is spent to show the loss (seed 004, translator's note).
        """
        self.phase = PH_FIGHT
        if self.play_base >= 0 and self.play_override < 0 and self.hands[self.player][2]:
            return  # a Ki to add
        legal = self.legal_fight()
        if len(legal) == 1:  # giving up is always offered, and last
            self.fail()
        else:
            self._legal_cache = legal  # the last step of an action: the next decision's list

    def win_guard(self) -> None:
        """Beat the guard (or the next guard of a double elite); take the next treasure."""
        C = self.C
        kind = self.guard_kind
        if kind == G_ELITE:
            vals = C.eforce[self.guard_id]
            if self.elite_part + 1 < len(vals):  # A6: one play per guard of a double elite
                self.elite_part += 1
                self.play_base = -1
                self.play_modifier = 0
                self.play_override = -1
                self.boryaku_played = False
                self.await_play()
                return
            self.elites[self.player].append(self.guard_id)
        elif kind == G_REGULAR:
            self.guard_discards.append(self.guard_id)
        h = self.raid_house
        plain = self.house_plain[h]
        t = plain.pop(0) if plain else self.house_red[h].pop(0)
        self.raid_treasures.append(t)
        self.raid_wins += 1
        if not plain and not self.house_red[h]:
            self.clear_house()
        else:
            self.phase = PH_CHOICE
            if not self.ready[self.player][E_SWAP]:  # `legal_choice` without Choho (the usual)
                self._legal_cache = _BANZAI_OR_RETREAT

    def banzai(self) -> None:
        """3.4.4: reveal the next guard: regular while plain treasure remains, else an elite."""
        h = self.raid_house
        plain = self.house_plain[h]
        self.play_base = -1
        self.play_modifier = 0
        self.play_override = -1
        self.boryaku_played = False
        self.elite_part = 0
        if plain:
            deck = self.guard_deck
            if deck:  # draw_guard inlined (hot path)
                i = int(self.rng.random() * len(deck))
                g = deck[i]
                deck[i] = deck[-1]
                deck.pop()
            else:
                g = self.draw_guard()
            if g < 0:
                self.guard_kind = G_NONE
                self.win_guard()
                return
            if self.C.galarm[g]:  # 3.4.5: add a treasure, flip the most valuable plain one
                t = self.draw_treasure()
                if t >= 0:
                    insort(plain, t)
                insort(self.house_red[h], plain.pop())
            self.guard_kind = G_REGULAR
            self.guard_id = g
        else:
            if not self.elite_deck:
                self.elite_deck, self.elite_discards = self.elite_discards, []
            if not self.elite_deck:
                self.guard_kind = G_NONE
                self.win_guard()
                return
            self.guard_kind = G_ELITE
            self.guard_id = draw_from(self.elite_deck, self.rng)
        self.await_play()

    def retreat(self) -> None:
        """3.4.4: keep every treasure on the shuriken; the house gets one more (3.4.6)."""
        tr = self.treasures[self.player]
        for t in self.raid_treasures:
            tr[t] += 1
        self.raid_treasures = []
        self.refill_after_raid()

    def fail(self) -> None:
        """The raid fails: the revealed guard is discarded (A5), keep one treasure (A4)."""
        if self.guard_kind == G_REGULAR:
            self.guard_discards.append(self.guard_id)
        elif self.guard_kind == G_ELITE:
            self.elite_discards.append(self.guard_id)
        self.guard_kind = G_NONE
        shur = self.raid_treasures
        if shur and (len(set(shur)) > 1 or (self.ready[self.player][E_SWAP]
                                            and self.swap_actions())):
            self.phase = PH_KEEP
        else:
            self.finish_fail(shur[0] if shur else -1)

    def finish_fail(self, keep: int) -> None:
        shur = self.raid_treasures
        if keep >= 0:
            shur.remove(keep)
            self.treasures[self.player][keep] += 1
        for t in shur:
            self.treasure_discards[t] += 1
        self.raid_treasures = []
        if self.raid_wins or self.rules.refill_on_zero_gain:
            self.refill_after_raid()
        else:
            self.next_turn()

    def refill_after_raid(self) -> None:
        """3.4.6: a house not cleared gets one plain treasure from the bag."""
        bag = self.bag
        total = bag[0] + bag[1] + bag[2] + bag[3] + bag[4]
        t = draw_count(bag, total, self.rng) if total else self.draw_treasure()
        if t >= 0:
            insort(self.house_plain[self.raid_house], t)
        self.next_turn()

    def swap(self, a: int) -> None:
        """3.4.9 Choho: the returned treasure goes in plain; taking a red one turns the most
        valuable plain treasure left in the house red (seed 004; see docs/deviations.md)."""
        g, rest = divmod(a - A_SWAP, 10)
        t, side = divmod(rest, 2)
        self.ready[self.player][E_SWAP] -= 1
        plain = self.house_plain[self.raid_house]
        insort(plain, g)
        if side:
            red = self.house_red[self.raid_house]
            red.remove(t)
            insort(red, plain.pop())
        else:
            plain.remove(t)
        self.raid_treasures.remove(g)
        self.raid_treasures.append(t)
        if self.phase == PH_KEEP and len(set(self.raid_treasures)) == 1 and not (
                self.ready[self.player][E_SWAP] and self.swap_actions()):
            self.finish_fail(self.raid_treasures[0])

    def clear_house(self) -> None:
        """3.4.7: all treasure to the raider, sentry discarded, new token, house closed."""
        h = self.raid_house
        tr = self.treasures[self.player]
        for t in self.raid_treasures:
            tr[t] += 1
        self.raid_treasures = []
        if self.house_sentry[h] >= 0:
            self.guard_discards.append(self.house_sentry[h])
        self.house_sentry[h] = -1
        self.house_closed[h] = True
        self.token_supply[self.house_clan[h]][self.house_token[h]] = 1
        opts = self.token_actions()
        if len(opts) == 1:
            self.take_token(*divmod(opts[0] - A_TOKEN, 5))
        else:
            self.phase = PH_TOKEN
            self._legal_cache = opts  # the last step of an action: the next decision's list

    def take_token(self, clan: int, vi: int) -> None:
        h = self.raid_house
        self.house_clan[h] = clan
        self.house_token[h] = vi
        self.token_supply[clan][vi] = 0
        self.next_turn()

