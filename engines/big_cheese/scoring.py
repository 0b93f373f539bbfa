"""Dice scoring, the win check and the ranking of The Big Cheese, as pure functions.

Rulings B5, B6 (what a roll is worth), B10 (shared wins) and B11 (exact-N) of
`shared/rules/big_cheese.md`; the state calls these, and rules tests can score exact
situations through them.
"""

from __future__ import annotations

from engines.big_cheese.components import NUMBER_VALUES


def roll_points(card: int, r: float, d6: bool) -> int:
    """Points of one roll of number card `card`, from a uniform `r` in [0, 1).

    B5: d6 mode = one d6 times the card's value; B6: polyhedral mode = the card's own die
    (the 2 is odd/even of any die, i.e. uniform {1, 2}).
    """
    if d6:
        return card * (int(r * 6) + 1)
    return int(r * card) + 1


def _faces(card: int, d6: bool) -> tuple[int, ...]:
    sides = 6 if d6 else card
    return tuple(roll_points(card, (face + 0.5) / sides, d6) for face in range(sides))


#: `ROLL_FACES[d6][card]`: the points of each face of the die that number card `card` rolls
#: (None for other codes), so that `faces[int(r * len(faces))] == roll_points(card, r, d6)`.
#: The engine rolls through this table on its hot path; `tests/test_fastpaths.py` checks it.
ROLL_FACES: tuple[tuple[tuple[int, ...] | None, ...], ...] = tuple(
    tuple(_faces(card, d6) if card in NUMBER_VALUES else None
          for card in range(max(NUMBER_VALUES) + 1))
    for d6 in (False, True)
)
#: `ROLL_TOP[d6][card]`: the highest face of that die (0 for other codes): the most a roll adds.
ROLL_TOP: tuple[tuple[int, ...], ...] = tuple(
    tuple(max(faces) if faces else 0 for faces in table) for table in ROLL_FACES)


def gain(points: int, rolled: int, goal: int, exact: int) -> int:
    """Points a roll actually adds to a seat holding `points` (B11: in exact-N a roll that
    overshoots the goal is void)."""
    if exact and points + rolled > goal:
        return 0
    return rolled


def at_goal(points: list[int], goal: int, exact: int) -> list[int]:
    """Seats at the goal (B10: reached or passed it; B11 exact-N: exactly on it)."""
    if exact:
        return [s for s, p in enumerate(points) if p == goal]
    return [s for s, p in enumerate(points) if p >= goal]


def best_of(points: list[int], seats: list[int]) -> list[int]:
    """The seats of `seats` with the highest points (B10: a tie shares the win)."""
    best = max(points[s] for s in seats)
    return [s for s in seats if points[s] == best]


def ranks(points: list[int], winners: list[int]) -> list[int]:
    """1 for the winners, then competition ranking by points (as `State.ranks`)."""
    out = []
    for seat, mine in enumerate(points):
        if seat in winners:
            out.append(1)
        else:
            better = 1
            for other, theirs in enumerate(points):
                if theirs > mine or other in winners:
                    better += 1
            out.append(better)
    return out


#: Score-breakdown keys, in NUMBER_VALUES order.
BREAKDOWN_KEYS = tuple(f"project_{v}" for v in NUMBER_VALUES)


def breakdown(earned: list[list[int]]) -> dict[str, list[float]]:
    """Points by project value ('project_20', ...) from per-seat rows in NUMBER_VALUES order."""
    return dict(zip(BREAKDOWN_KEYS, map(list, zip(*earned))))
