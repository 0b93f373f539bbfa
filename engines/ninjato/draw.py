"""Chance helpers shared by the rules modules: draws from count vectors and from decks."""

from __future__ import annotations

import random


def pick(counts: list[int], total: int, rng: random.Random) -> int:
    """Remove and return a uniformly random item of a counts vector with `total` items.

    Unrolled over the 5 counts (card values / treasure types): this runs ~160 times a game.
    """
    r = int(rng.random() * total)
    c = counts[0]
    if r < c:
        counts[0] = c - 1
        return 0
    r -= c
    c = counts[1]
    if r < c:
        counts[1] = c - 1
        return 1
    r -= c
    c = counts[2]
    if r < c:
        counts[2] = c - 1
        return 2
    r -= c
    c = counts[3]
    if r < c:
        counts[3] = c - 1
        return 3
    counts[4] -= 1
    return 4


def draw_from(lst: list[int], rng: random.Random) -> int:
    """Remove and return a uniformly random element of `lst` (a shuffled deck's top card)."""
    i = int(rng.random() * len(lst))
    x = lst[i]
    lst[i] = lst[-1]
    lst.pop()
    return x
