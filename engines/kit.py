"""Plumbing every game engine needs, written once: random streams, shuffles, draws from decks
and count vectors, piles refilled from their discards, seat order, and lead changes.

Small plain functions on lists of ints and `random.Random`, so that calling one costs what
the inlined line it replaces did (a game that draws on its hottest path may still inline a
helper there, with a comment naming it, the way `tests/test_ninjato_fastpaths.py` checks).
Each helper consumes the random stream in one documented way, which is part of what a game's
fingerprint records: changing how a helper draws changes every game that uses it.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Hashable, Iterable, Sequence

from engines.errors import BadInput

__all__ = [
    "check_seat_bonus",
    "copy_rng",
    "deal_back",
    "draw_count",
    "draw_from",
    "first_seat",
    "following_seats",
    "lead_changes",
    "next_seat",
    "parse_seat_bonus",
    "refill",
    "refill_counts",
    "reshuffle",
    "seat_bonus",
    "seat_orders",
    "shuffled",
    "track_lead",
    "world_rng",
]


# --- random streams ---------------------------------------------------------------------------


def copy_rng(rng: random.Random) -> random.Random:
    """An independent generator in the same state (for `clone`: the copy draws what the
    original would have drawn, and drawing from one leaves the other alone)."""
    new = random.Random()
    new.setstate(rng.getstate())
    return new


def world_rng(rng: random.Random) -> random.Random:
    """The chance stream of a determinized world: seeded from the searcher's `rng` (64 bits),
    so a world's future draws depend on the searcher's randomness, not on the real stream."""
    return random.Random(rng.getrandbits(64))


# --- shuffles and hidden cards ------------------------------------------------------------------


def shuffled(cards: Iterable[int], rng: random.Random) -> list[int]:
    """A uniformly shuffled copy: Fisher-Yates on `rng.random()` (cheaper than `rng.shuffle`,
    which draws through `getrandbits`; the two give different orders for one seed)."""
    deck = list(cards)
    rand = rng.random
    for i in range(len(deck) - 1, 0, -1):
        j = int(rand() * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_back(unknown: list[int], sizes: Sequence[int], rng: random.Random) -> list[list[int]]:
    """Resample hidden cards for `determinize`: the pool of every card `seat` cannot place is
    put in canonical (sorted) order, shuffled with `rng` (`rng.shuffle`) and dealt back into
    hidden places of the given sizes, in order; the last part is what is left over (a deck).

    Sorting first makes the result depend only on the pool's contents, not on the real order
    of the hidden cards (which is exactly what `seat` must not learn).  `unknown` is reordered
    in place.
    """
    unknown.sort()
    rng.shuffle(unknown)
    parts = []
    at = 0
    for size in sizes:
        parts.append(unknown[at:at + size])
        at += size
    parts.append(unknown[at:])
    return parts


# --- draws ------------------------------------------------------------------------------------


def draw_from(pile: list[int], rng: random.Random) -> int:
    """Remove and return a uniformly random card of an unordered pile (`int(random() * len)`,
    the last card moved into the gap): the same as the top card of a shuffled pile, and O(1).
    The pile must not be empty."""
    i = int(rng.random() * len(pile))
    card = pile[i]
    pile[i] = pile[-1]
    pile.pop()
    return card


def draw_count(counts: list[int], total: int, rng: random.Random) -> int:
    """Remove and return a uniformly random item of a vector of counts holding `total` items
    (card values, treasure types): the index whose count went down by one.  Item number
    `int(rng.random() * total)` of the pile laid out in index order (one number drawn)."""
    r = int(rng.random() * total)
    last = len(counts) - 1
    for i in range(last):
        c = counts[i]
        if r < c:
            counts[i] = c - 1
            return i
        r -= c
    counts[last] -= 1
    return last


def refill(pile: list[int], discard: list[int]) -> bool:
    """An empty draw pile takes back its discards, in order (in place; the discard pile is
    emptied).  For a pile drawn with `draw_from` (random draws from an unordered pile) taking
    the discards back *is* reshuffling them.  False when there was nothing to take back."""
    if not discard:
        return False
    pile += discard
    discard.clear()
    return True


def refill_counts(counts: list[int], discard: list[int]) -> bool:
    """`refill` for a pile kept as a vector of counts (drawn with `draw_count`): the discard
    counts become the pile's, the discard vector is zeroed (in place).  False when there was
    nothing to take back."""
    if not any(discard):
        return False
    counts[:] = discard
    discard[:] = [0] * len(discard)
    return True


def reshuffle(pile: list[int], discard: list[int], rng: random.Random) -> bool:
    """An empty ordered draw pile (drawn from the end) becomes its discards, `shuffled`
    (in place; the discard pile is emptied).  False when there was nothing to take back."""
    if not discard:
        return False
    pile[:] = shuffled(discard, rng)
    discard.clear()
    return True


# --- seats --------------------------------------------------------------------------------------


def next_seat(seat: int, num_players: int) -> int:
    """The seat after `seat` in turn order (clockwise, seat numbers ascending)."""
    return seat + 1 if seat + 1 < num_players else 0


@functools.cache
def following_seats(num_players: int) -> tuple[int, ...]:
    """`following_seats(n)[seat]` is `next_seat(seat, n)`: a table for hot loops."""
    return tuple(next_seat(seat, num_players) for seat in range(num_players))


@functools.cache
def seat_orders(num_players: int) -> tuple[tuple[int, ...], ...]:
    """`seat_orders(n)[first]`: every seat once in turn order, starting with `first`."""
    return tuple(tuple((first + k) % num_players for k in range(num_players))
                 for first in range(num_players))


# --- lead changes -------------------------------------------------------------------------------


def lead_changes(leaders: Iterable[Hashable | None]) -> int:
    """How often the lead changed hands: the number of checks whose leader differs from the
    leader of the previous check that had one.

    `leaders` holds one entry per check (an intermediate scoring: a round, a year, a
    tournament, an award), in order: the leader then as the game defines it (one seat after
    the game's tie-breaks, or the tuple of seats tied on top), or None when the game has no
    leader at that check (a tie it does not break: the previous leader stands).  The first
    leader is no change.  `track_lead` counts the same thing one check at a time.
    """
    changes = 0
    last = None
    for leader in leaders:
        if leader is None:
            continue
        if last is not None and leader != last:
            changes += 1
        last = leader
    return changes


def track_lead(last: int, changes: int, leader: int) -> tuple[int, int]:
    """`lead_changes` one check at a time, for a game that keeps a running count: the leader
    (a seat, -1 for none yet) and the count after a check whose leader is `leader` (a seat,
    or -1 when no seat leads alone: the previous leader stands)."""
    if leader < 0:
        return last, changes
    if last >= 0 and leader != last:
        changes += 1
    return leader, changes


# --- seat levers and compensation ---------------------------------------------------------------

#: Salt of the stream a `random` seat lever draws from: separate from the game's own stream, so
#: the deal (cards, bag, decks) is the same whoever starts.
LEVER_SALT = 0x5EA75EA7
#: The choices of a "who goes first" rule option (`first_seat`).
FIRST_SEAT_CHOICES = ("first", "last", "random")


def first_seat(choice: str, num_players: int, seed: int) -> int:
    """The seat a "who goes first" lever names: `first` seat 1 (index 0), `last` the last seat,
    `random` a seat drawn from the game seed's lever stream (not the game's own stream)."""
    if choice == "first":
        return 0
    if choice == "last":
        return num_players - 1
    if choice == "random":
        return random.Random(seed ^ LEVER_SALT).randrange(num_players)
    raise BadInput(f"a first-seat choice must be one of {', '.join(FIRST_SEAT_CHOICES)}, "
                     f"got {choice!r}")


#: `seat_bonus` texts already parsed: the rules' validation parses each once, and the scores
#: and setups that read the values again look them up.
_PARSED_BONUS: dict[str, tuple[int, ...]] = {}


def parse_seat_bonus(text: str) -> tuple[int, ...]:
    """`b1,b2,...` (one whole number >= 0 per seat, seat 1 first) as a tuple; '' = none."""
    parsed = _PARSED_BONUS.get(text)
    if parsed is None:
        parsed = _PARSED_BONUS[text] = _parse_seat_bonus(text)
    return parsed


def _parse_seat_bonus(text: str) -> tuple[int, ...]:
    text = str(text).strip()
    if not text:
        return ()
    values = []
    for part in text.split(","):
        try:
            value = int(part.strip())
        except ValueError:
            raise BadInput(f"seat_bonus expects whole numbers b1,b2,... (one per seat), "
                             f"got {text!r}") from None
        if value < 0:
            raise BadInput(f"seat_bonus values must be >= 0 (give later seats the bonus "
                             f"instead), got {text!r}")
        values.append(value)
    return tuple(values)


def seat_bonus(text: str, num_players: int) -> list[int]:
    """Each seat's bonus under `seat_bonus=text` (all 0 when unset); the count must match
    (`Game.new_state` checks it before a game is built, with `check_seat_bonus`)."""
    values = parse_seat_bonus(text)
    if not values:
        return [0] * num_players
    if len(values) != num_players:
        raise BadInput(f"seat_bonus gives {len(values)} values for {num_players} players "
                         f"(one per seat)")
    return list(values)


def check_seat_bonus(rules: object, num_players: int) -> None:
    """A `seat_bonus` variant gives one value per seat, each within what the game allows (the
    limits its `seat_bonus_option` declares): one-line BadInput otherwise.  The one check,
    made where a game is built (`Game.new_state`) and where a run is validated."""
    text = getattr(rules, "seat_bonus", "")
    if not text:
        return
    values = seat_bonus(text, num_players)
    option = {f.name: f for f in dataclasses.fields(rules)}["seat_bonus"]  # type: ignore[arg-type]
    unit, most = option.metadata.get("unit", "points"), option.metadata.get("most")
    if most is not None and max(values) > most:
        raise BadInput(f"seat_bonus={text}: at most {most:,} {unit} per seat, got "
                       f"{max(values):,}")
    most_in_all = option.metadata.get("most_in_all")
    if most_in_all is not None and sum(values) > most_in_all(num_players):
        raise BadInput(f"seat_bonus={text}: at most {most_in_all(num_players):,} {unit} for "
                       f"all seats together with {num_players} players "
                       f"({option.metadata.get('supply', '')}), got {sum(values):,}")
