"""Time Pirates scoring as pure functions of the deed table and the deeds held.

Kept apart from the turn machinery so the rules text (yearly count, special scoring P10-P12,
tie-break P16) can be read and tested on its own.  `deeds` is the data set's deed table
(colour, points, cost, copies); `held` is one seat's count per deed type.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from engines.time_pirates.components import NUM_COLOURS, WHITE


class Outcome(NamedTuple):
    """The final result, fixed once at the end (`play_game` asks for it several times)."""

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    ranks: tuple[int, ...]


Deeds = Sequence[tuple[int, int, int, int]]


def deed_points(deeds: Deeds, held: Sequence[int]) -> int:
    """Yearly count: face points of every deed held (white deeds at face value, P11)."""
    return sum(d[1] * k for d, k in zip(deeds, held) if k)


def owned_colours(deeds: Deeds, held: Sequence[int]) -> list[int]:
    """Colours of the coloured deeds held: where white deeds may go, and the set bonus."""
    return sorted({d[0] for d, k in zip(deeds, held) if k and d[0] != WHITE})


def white_deeds(deeds: Deeds, held: Sequence[int]) -> list[int]:
    """Deed type of every white deed held, one entry per deed, in placement order."""
    return [t for t, k in enumerate(held) if k and deeds[t][0] == WHITE for _ in range(k)]


def colour_points(deeds: Deeds, held: Sequence[int], placed: Sequence[int]) -> list[int]:
    """Points per colour for the majorities: coloured deeds plus the white deeds placed."""
    pts = [0] * NUM_COLOURS
    for d, k in zip(deeds, held):
        if k and d[0] != WHITE:
            pts[d[0]] += d[1] * k
    for t, colour in zip(white_deeds(deeds, held), placed):
        pts[colour] += deeds[t][1]
    return pts


def special_bonuses(deeds: Deeds, held: Sequence[Sequence[int]],
                    placed: Sequence[Sequence[int]], set_bonus: int,
                    majority_bonus: int) -> tuple[list[int], list[int]]:
    """Special scoring after year 3: the all-five-colours bonus (whites do not count) and the
    majority bonus per colour (most points, > 0, every tied player scores; P10, P12)."""
    n = len(held)
    sets = [set_bonus if len(owned_colours(deeds, h)) == NUM_COLOURS else 0 for h in held]
    pts = [colour_points(deeds, held[p], placed[p]) for p in range(n)]
    majority = [0] * n
    for c in range(NUM_COLOURS):
        best = max(pts[p][c] for p in range(n))
        if best > 0:
            for p in range(n):
                if pts[p][c] == best:
                    majority[p] += majority_bonus
    return sets, majority


def winners(scores: Sequence[float], deed_counts: Sequence[int]) -> list[int]:
    """Highest total; a tie goes to more deeds, then the win is shared (P16)."""
    best = max(scores)
    top = [p for p, s in enumerate(scores) if s == best]
    most = max(deed_counts[p] for p in top)
    return [p for p in top if deed_counts[p] == most]
