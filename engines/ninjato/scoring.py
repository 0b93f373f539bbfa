"""Ninjato scoring as pure functions of plain values: the scoring phases after rounds 3, 5
and 7 (rules 3.8) and the final scoring with its tie-breaks (3.9).

The state runs the phases (who declares or chooses what, in which order) and calls these for
the arithmetic, so that rules tests can score exact situations and the heuristic bots can
value hypothetical ones.  Holdings are lists of ids (`envoys[seat]`, `disguised[seat]`: the
masked envoys a seat's Disguise tiles lift); tables are the data set's tuples
(`Components.env_clan`, `env_age`, `env_mask`, `token_values`, `rum_points`, ...).
"""

from __future__ import annotations

from typing import Final

from engines.ninjato.components import R_FRIENDS, R_KINDNESS, R_MASTER, R_SHAMEFUL, R_SWORDSMAN

#: Final scoring sources (3.9), in `score_breakdown` order.
SOURCES: Final = ("envoys", "honour_tokens", "rumours", "elite_guards", "unused_treasure")
#: Rumour types scored in sets, and what each counts (index into `rumour_points`'s `items`).
SET_TYPES: Final[tuple[int, ...]] = (R_SWORDSMAN, R_KINDNESS, R_FRIENDS, R_MASTER)


# ---------------------------------------------------------------- scoring phase (3.8)
def influence(envoys: list[int], disguised: list[int], clan: int,
              env_clan: tuple[int, ...]) -> int:
    """3.8.1-2: 1 per envoy of the clan, +1 per Disguise placed on a masked envoy of it."""
    total = 0
    for e in envoys:
        if env_clan[e] == clan:
            total += 1
    for e in disguised:
        if env_clan[e] == clan:
            total += 1
    return total


def masks_left(envoys: list[int], disguised: list[int], env_mask: tuple[int, ...]) -> list[int]:
    """A11: the masked envoys a Disguise may still lift (each envoy at most once), sorted."""
    return sorted([e for e in envoys if env_mask[e] and e not in disguised])


def clan_standing(envoys: list[int], disguised: list[int], clan: int,
                  env_clan: tuple[int, ...], env_age: tuple[int, ...]) -> tuple[int, int]:
    """One seat's (influence, age of its oldest envoy) with a clan (-1: no envoy there): what
    3.8.3 ranks the seats by."""
    infl = 0
    old = -1
    for e in envoys:
        if env_clan[e] == clan:
            infl += 1
            if env_age[e] > old:
                old = env_age[e]
    for e in disguised:
        if env_clan[e] == clan:
            infl += 1
    return infl, old


def rank_clan(envoys: list[list[int]], disguised: list[list[int]], clan: int,
              env_clan: tuple[int, ...], env_age: tuple[int, ...]) -> tuple[int, int]:
    """3.8.3: the seats in first and second place of a clan (-1 = none).

    Only seats with influence rank (A12: a lone seat gets first place, nobody second); a tie
    goes to the seat holding the oldest envoy of that clan (ages are unique, A13).
    """
    cands: list[tuple[int, int, int]] = []
    for p in range(len(envoys)):
        infl, old = clan_standing(envoys[p], disguised[p], clan, env_clan, env_age)
        if infl > 0:
            cands.append((infl, old, p))
    cands.sort(reverse=True)
    first = cands[0][2] if cands else -1
    second = cands[1][2] if len(cands) > 1 else -1
    return first, second


def clan_honour(house_clans: list[int], house_tokens: list[int], clan: int,
                token_values: tuple[int, ...]) -> int:
    """3.8.4 first-place reward: the total value of the clan's tokens now on houses
    (`house_tokens` holds indices into `token_values`)."""
    total = 0
    for c, tok in zip(house_clans, house_tokens):
        if c == clan:
            total += token_values[tok]
    return total


def oldest_envoy(envoys: list[int], env_age: tuple[int, ...]) -> int:
    """Age of a seat's oldest envoy (-1: no envoy), the last tie-break (3.9)."""
    old = -1
    for e in envoys:
        if env_age[e] > old:
            old = env_age[e]
    return old


def leader(honour: list[int], envoys: list[list[int]], env_age: tuple[int, ...]) -> int:
    """The seat with the most honour now, ties broken as the winner's (most envoys, then the
    oldest envoy): the leader after a scoring phase, for the lead-change metric."""
    best = max(honour)
    top = [p for p in range(len(honour)) if honour[p] == best]
    if len(top) == 1:
        return top[0]
    return _best_tiebreak(top, envoys, env_age)[0]


# ---------------------------------------------------------------- final scoring (3.9)
def set_multiplier(count: int, mult: tuple[int, int, int]) -> int:
    """3.9: groups of up to 3 cards score x1/x2/x4; a 4th card starts a new group."""
    full, rest = divmod(count, 3)
    return full * mult[2] + (mult[rest - 1] if rest else 0)


def rumour_counts(rumours: list[int], rum_type: tuple[int, ...]) -> list[int]:
    """How many rumour cards of each type (index R_*) a seat holds."""
    counts = [0, 0, 0, 0, 0]
    for r in rumours:
        counts[rum_type[r]] += 1
    return counts


def rumour_points(counts: list[int], items: list[int], shameful_holders: int,
                  rum_points: tuple[int, ...], set_mult: tuple[int, int, int],
                  shameful: tuple[int, int, int]) -> int:
    """3.9: the final points of one seat's rumours.

    `counts`: cards per type (`rumour_counts`); `items[t]`: what type `t` of `SET_TYPES`
    counts for this seat (elite guards, rumour cards, envoys, skill tiles).  Each set type
    scores points per item x items x the set multiplier; each Shameful Enemy card scores
    6/4/2 by how many seats hold one (`shameful_holders`, at least 1 when `counts` has one).
    """
    pts = 0
    for t in SET_TYPES:
        k = counts[t]
        if k:
            pts += rum_points[t] * items[t] * set_multiplier(k, set_mult)
    k = counts[R_SHAMEFUL]
    if k:
        pts += k * shameful[min(shameful_holders, 3) - 1]
    return pts


def elite_honour(elites: list[int], ehonour: tuple[int, ...]) -> int:
    """3.9: the 1 or 2 honour printed on each elite guard a seat defeated."""
    total = 0
    for e in elites:
        total += ehonour[e]
    return total


def winners(scores: list[float], envoys: list[list[int]], env_age: tuple[int, ...]) -> list[int]:
    """3.9: the most honour; ties go to the most envoys, then to the oldest envoy.

    The tie-break keys are only built for the seats tied on honour (the usual case is a
    single leader: no key at all).
    """
    best = max(scores)
    top = [p for p in range(len(scores)) if scores[p] == best]
    if len(top) == 1:
        return top
    return _best_tiebreak(top, envoys, env_age)


def _best_tiebreak(seats: list[int], envoys: list[list[int]],
                   env_age: tuple[int, ...]) -> list[int]:
    """The seats of `seats` with the best (envoy count, oldest envoy), in seat order."""
    keys = [(len(envoys[p]), oldest_envoy(envoys[p], env_age)) for p in seats]
    best = max(keys)
    return [p for p, key in zip(seats, keys) if key == best]


def ranks(scores: list[float], won: list[int]) -> list[int]:
    """Competition ranking: the winners are 1, every other seat 1 + the seats ahead of it
    (the winners, and the seats with a higher score)."""
    n = len(scores)
    out = []
    for seat in range(n):
        if seat in won:
            out.append(1)
            continue
        score = scores[seat]
        better = 0
        for s in range(n):
            if s in won or (scores[s] > score and s != seat):
                better += 1
        out.append(1 + better)
    return out
