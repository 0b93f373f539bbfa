"""Tokens: what a tournament win earns, what the game is scored by, who leads.

Pure functions of the token bitmasks (bit c set = a token of colour c), so rules tests and
bots can ask them about any holding.  Rules text: `shared/rules/ivanhoe.md` ("Winning a
tournament", "Winning the game"); W3/W4 are its rulings.
"""

from __future__ import annotations

from engines.ivanhoe.components import COLOUR_NAMES, PURPLE

NUM_COLOURS = len(COLOUR_NAMES)


def colours_held(owned: int) -> list[int]:
    """Colours of the tokens in `owned` (what a Maiden's owner may give back on withdrawing)."""
    return [c for c in range(NUM_COLOURS) if (owned >> c) & 1]


def tokens_won(owned: int, colour: int) -> list[int]:
    """Colours the winner of a `colour` tournament may take: that colour's token, or after
    purple any colour they lack (W3); never a second token of one colour (W4).  The winner
    chooses when more than one is offered."""
    if colour == PURPLE:
        return [c for c in range(NUM_COLOURS) if not (owned >> c) & 1]
    return [] if (owned >> colour) & 1 else [colour]


def has_won(owned: int, target: int) -> bool:
    """Enough tokens to win the game (5 with 2-3 players, 4 with 4-5: `IvanhoeState.target`)."""
    return owned.bit_count() >= target


def scores(tokens: list[int]) -> list[float]:
    """The score of each seat: its tokens."""
    return [float(t.bit_count()) for t in tokens]


def score_breakdown(tokens: list[int]) -> dict[str, list[float]]:
    """Each seat's score by token colour."""
    return {
        f"{name} token": [float((t >> c) & 1) for t in tokens]
        for c, name in enumerate(COLOUR_NAMES)
    }


def sole_leader(tokens: list[int]) -> int:
    """The seat holding strictly the most tokens, -1 if the most are shared."""
    counts = [t.bit_count() for t in tokens]
    best = max(counts)
    return counts.index(best) if counts.count(best) == 1 else -1
