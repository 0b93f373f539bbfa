"""Scoring phases after rounds 3, 5, 7 (3.8) and final scoring with tie-breaks (3.9)."""

from __future__ import annotations

from engines.kit import lead_changes
from engines.ninjato import components as comp
from engines.ninjato.actions import (
    A_DISGUISE,
    A_HONOUR,
    A_RUMOUR,
    PH_DISGUISE,
    PH_END,
    PH_REWARD1,
    PH_REWARD2,
)

E_DISGUISE = comp.E_DISGUISE
R_SWORDSMAN, R_KINDNESS, R_FRIENDS, R_MASTER, R_SHAMEFUL = (
    comp.R_SWORDSMAN, comp.R_KINDNESS, comp.R_FRIENDS, comp.R_MASTER, comp.R_SHAMEFUL)
# queue entries of a scoring phase: [seat, kind, clan-or-tiles]
Q_DISGUISE, Q_RANK, Q_FIRST, Q_SECOND = 0, 1, 2, 3
SOURCES = ("envoys", "honour_tokens", "rumours", "elite_guards", "unused_treasure")


def set_multiplier(count: int, mult: tuple[int, int, int]) -> int:
    """3.9: groups of up to 3 cards score x1/x2/x4; a 4th card starts a new group."""
    full, rest = divmod(count, 3)
    return full * mult[2] + (mult[rest - 1] if rest else 0)


class ScoringMixin:
    """Scoring rules of `NinjatoState` (attributes are declared there)."""

    __slots__ = ()

    # ------------------------------------------------------------------ scoring phase
    def start_scoring(self) -> None:
        """A11: disguise declarations in turn order first, then rank, then rewards."""
        self.disg = [[] for _ in range(self.n)]
        q = [[p, Q_DISGUISE, self.owned[p][E_DISGUISE]] for p in self.order
             if self.owned[p][E_DISGUISE]]
        q.append([-1, Q_RANK, -1])
        self.sc_q = q
        self.sc_i = 0
        self.sc_choice = [-1, -1, -1]
        self.run_scoring()

    def masks_left(self, p: int) -> list[int]:
        mask = self.C.env_mask
        chosen = self.disg[p]
        return sorted(e for e in self.envoys[p] if mask[e] and e not in chosen)

    def influence(self, p: int, clan: int) -> int:
        """1 per envoy of the clan, +1 per disguise placed on a masked envoy of the clan."""
        ec = self.C.env_clan
        return (sum(1 for e in self.envoys[p] if ec[e] == clan)
                + sum(1 for e in self.disg[p] if ec[e] == clan))

    def oldest(self, p: int, clan: int = -1) -> int:
        ec, age = self.C.env_clan, self.C.env_age
        return max((age[e] for e in self.envoys[p] if clan < 0 or ec[e] == clan), default=-1)

    def rank_clan(self, clan: int) -> tuple[int, int]:
        """First and second place (-1 = none, A12); ties go to the oldest envoy (3.8)."""
        ec, age = self.C.env_clan, self.C.env_age
        cands = []
        for p in range(self.n):
            infl = 0
            old = -1
            for e in self.envoys[p]:
                if ec[e] == clan:
                    infl += 1
                    if age[e] > old:
                        old = age[e]
            for e in self.disg[p]:
                if ec[e] == clan:
                    infl += 1
            if infl > 0:
                cands.append((infl, old, p))
        cands.sort(reverse=True)
        first = cands[0][2] if cands else -1
        second = cands[1][2] if len(cands) > 1 else -1
        return first, second

    def clan_honour(self, clan: int) -> int:
        """Total value of the clan's tokens now on houses."""
        tv = self.C.token_values
        total = 0
        for c, tok in zip(self.hclan, self.htok):  # a loop, not a generator: per reward
            if c == clan:
                total += tv[tok]
        return total

    def give_honour(self, p: int, clan: int) -> None:
        pts = self.clan_honour(clan)
        self.honour[p] += pts
        self.src_tok[p] += pts

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
        q = self.sc_q
        while self.sc_i < len(q):
            p, kind, arg = q[self.sc_i]
            if kind == Q_DISGUISE:
                masks = self.masks_left(p)
                left = arg - len(self.disg[p])
                if left > 0 and masks:
                    if len(masks) <= left:
                        self.disg[p].extend(masks)
                    else:
                        self.cur = p
                        self.phase = PH_DISGUISE
                        return
            elif kind == Q_RANK:
                order = self.C.round_orders[self.rnd]
                firsts, seconds = [], []
                for c in order:
                    f, s = self.rank_clan(c)
                    firsts.append(f)
                    seconds.append(s)
                self.sc_first = firsts
                self.sc_second = seconds
                for c, f in zip(order, firsts):  # every first place, then every second
                    if f >= 0:
                        q.append([f, Q_FIRST, c])
                for c, s in zip(order, seconds):
                    if s >= 0:
                        q.append([s, Q_SECOND, c])
            elif kind == Q_FIRST:
                if not self.pavilion:  # A14: no rumour left: the honour
                    self.give_honour(p, arg)
                    self.sc_choice[arg] = 0
                else:
                    self.cur = p
                    self.phase = PH_REWARD1
                    return
            else:
                if self.sc_choice[arg] == 1:
                    self.give_honour(p, arg)
                elif self.pavilion:
                    slots = self.rumour_slots()
                    if len(slots) == 1:
                        self.rumours[p].append(self.pavilion.pop(slots[0] - A_RUMOUR))
                    else:
                        self.cur = p
                        self.phase = PH_REWARD2
                        return
            self.sc_i += 1
        self.refill_pavilion()
        self.leaders.append(self.leader())
        self.next_round()

    def leader(self) -> int:
        """Seat with the most honour now (ties: most envoys, oldest envoy)."""
        honour = self.honour
        best = max(honour)
        top = [p for p in range(self.n) if honour[p] == best]
        if len(top) == 1:
            return top[0]
        return max(top, key=lambda p: (len(self.envoys[p]), self.oldest(p)))

    def legal_disguise(self) -> list[int]:
        """A11: a masked envoy of one's own not yet disguised."""
        return [A_DISGUISE + e for e in self.masks_left(self.cur)]

    def legal_reward1(self) -> list[int]:
        """3.8 first place: the clan's honour or a face-up rumour."""
        return [A_HONOUR] + self.rumour_slots()

    def legal_reward2(self) -> list[int]:
        """3.8 second place after a first place took the honour: a face-up rumour."""
        return self.rumour_slots()

    def apply_scoring(self, a: int) -> None:
        ph = self.phase
        p = self.cur
        if ph == PH_DISGUISE:
            self.disg[p].append(a - A_DISGUISE)
        else:
            clan = self.sc_q[self.sc_i][2]
            if a == A_HONOUR:
                self.give_honour(p, clan)
                self.sc_choice[clan] = 0
            else:
                self.rumours[p].append(self.pavilion.pop(a - A_RUMOUR))
                if ph == PH_REWARD1:
                    self.sc_choice[clan] = 1
            self.sc_i += 1
        self.run_scoring()

    # ------------------------------------------------------------------ final scoring
    def finish(self) -> None:
        """3.9: rumour sets, shameful enemy, unused treasure, elite honour."""
        C = self.C
        n = self.n
        rt = C.rum_type
        counts = [[0] * 5 for _ in range(n)]
        for p in range(n):
            for r in self.rumours[p]:
                counts[p][rt[r]] += 1
        holders = sum(1 for p in range(n) if counts[p][R_SHAMEFUL])
        rum, elite, unused = [], [], []
        for p in range(n):
            items = (len(self.elites[p]), len(self.rumours[p]), len(self.envoys[p]),
                     len(self.tiles[p]))
            pts = 0
            for t in (R_SWORDSMAN, R_KINDNESS, R_FRIENDS, R_MASTER):
                if counts[p][t]:
                    pts += C.rum_points[t] * items[t] * set_multiplier(counts[p][t], C.set_mult)
            if counts[p][R_SHAMEFUL]:
                pts += counts[p][R_SHAMEFUL] * C.shameful[min(holders, 3) - 1]
            rum.append(self.src_rum[p] + pts)
            elite.append(sum(C.ehonour[e] for e in self.elites[p]))
            unused.append(sum(self.treas[p]))
        self.final = {
            "envoys": list(self.src_env),
            "honour_tokens": list(self.src_tok),
            "rumours": rum,
            "elite_guards": elite,
            "unused_treasure": unused,
        }
        self.phase = PH_END
        self.cur = -1

    def scores(self) -> list[float]:
        """Honour so far (track) during play; the final total once the game is over."""
        if self.final is None:
            return [float(h) for h in self.honour]
        f = self.final
        return [float(a + b + c + d + e) for a, b, c, d, e in zip(
            f["envoys"], f["honour_tokens"], f["rumours"], f["elite_guards"],
            f["unused_treasure"])]

    def score_breakdown(self) -> dict[str, list[float]]:
        if self.final is None:
            return {"envoys": [float(x) for x in self.src_env],
                    "honour_tokens": [float(x) for x in self.src_tok],
                    "rumours": [float(x) for x in self.src_rum]}
        return {k: [float(x) for x in self.final[k]] for k in SOURCES}

    def tiebreak_key(self, p: int) -> tuple[float, int, int]:
        return (self.scores()[p], len(self.envoys[p]), self.oldest(p))

    def winners(self) -> list[int]:
        """Most honour; ties: most envoys, then the oldest envoy (3.9).

        The tie-break keys are only built for the seats tied on honour (the usual case is a
        single leader: no key at all).
        """
        scores = self.scores()
        best = max(scores)
        top = [p for p in range(self.n) if scores[p] == best]
        if len(top) == 1:
            return top
        keys = {p: (len(self.envoys[p]), self.oldest(p)) for p in top}
        best_key = max(keys.values())
        return [p for p in top if keys[p] == best_key]

    def ranks(self) -> list[int]:
        """The contract's ranking (1 = winners, then competition ranking by score), one pass."""
        won = self.winners()
        scores = self.scores()
        n = self.n
        ranks = []
        for seat in range(n):
            if seat in won:
                ranks.append(1)
                continue
            score = scores[seat]
            better = 0
            for s in range(n):
                if s in won or (scores[s] > score and s != seat):
                    better += 1
            ranks.append(1 + better)
        return ranks

    def metrics(self) -> dict[str, float]:
        changes = lead_changes(self.leaders)
        return {"rounds": float(min(self.rnd, 7)), "lead_changes": float(changes),
                "envoys": float(sum(len(e) for e in self.envoys)),
                "elites": float(sum(len(e) for e in self.elites))}
