"""The words a game declares its position in: each attribute of its state once.

A game lists its attributes in `engines/<game>/position.py` (`POSITION`: one `Field` each)
and what a seat observes (`OBSERVATION`: one `View` each).  `python -m tools.positions`
writes the mechanical code from them into `engines/<game>/_position.py`: the slots and typed
attributes, the field-by-field copy behind `clone`, `snapshot`'s skip list, `observation` and
`tensor_spec`.  Written out, not computed at run time: compiled by mypyc, each line of the
copy is a typed field copy, where a loop over names would go through generic look-ups.

Copy depth (what `clone` does with the attribute):

- `SCALAR`: an int, bool, str or other immutable value, assigned;
- `SHARED`: an object never mutated (rules, lookup tables, tuples), assigned;
- `LIST`: a flat list, copied (`None` kept where the type allows it);
- `NESTED`: a list of lists, copied two levels deep;
- `RECORD`: a mutable record with its own `copy()` (counters);
- `CACHE`: derived from the rest, reset to its `reset` text and left out of `snapshot`;
- `STREAM`: the random generator: `clone` copies it, `clone_with_rng` and `determinize` take
  a new one (the generated copy leaves it to them).

Visibility (what another seat may learn of it; `determinize(seat, rng)` resamples exactly
what the seat cannot see, and `tests/test_positions.py` checks both against the declaration):

- `PUBLIC`: everyone sees it;
- `OWNER`: one entry per seat, seen only by its seat (a list entry's size is public);
- `SIZE`: others see only its length (a face-down pile);
- `HIDDEN`: nobody sees it (the random generator).
"""

from __future__ import annotations

from dataclasses import dataclass

SCALAR = "scalar"
SHARED = "shared"
LIST = "list"
NESTED = "nested"
RECORD = "record"
CACHE = "cache"
STREAM = "stream"
COPIES = (SCALAR, SHARED, LIST, NESTED, RECORD, CACHE, STREAM)

PUBLIC = "public"
OWNER = "owner"
SIZE = "size"
HIDDEN = "hidden"
VISIBILITIES = (PUBLIC, OWNER, SIZE, HIDDEN)

#: How a `View` shows its field: copied whole, the observing seat's own entry, the length of
#: each entry, the length, or computed by the state's method `_view_<key>(seat)`.
WHOLE = "whole"
OWN = "own"
SIZES = "sizes"
LENGTH = "length"
COMPUTED = "computed"
SEAT = "seat"
#: Which views each visibility allows (a computed view may read anything: the information
#: test checks what it shows).
ALLOWED_VIEWS = {
    PUBLIC: (WHOLE, OWN, SIZES, LENGTH),
    OWNER: (OWN, SIZES),
    SIZE: (LENGTH, SIZES),
    HIDDEN: (),
}


@dataclass(frozen=True)
class Field:
    """One attribute of the state: its name, type (as source text), copy depth, visibility."""

    name: str
    type: str
    copy: str
    visibility: str
    doc: str = ""
    #: For `CACHE`: the value a clone starts with (source text).
    reset: str = "None"

    def __post_init__(self) -> None:
        if self.copy not in COPIES:
            raise ValueError(f"field {self.name}: copy {self.copy!r} not one of {COPIES}")
        if self.visibility not in VISIBILITIES:
            raise ValueError(f"field {self.name}: visibility {self.visibility!r} not one of "
                             f"{VISIBILITIES}")


@dataclass(frozen=True)
class View:
    """One key of `observation(seat)`: which field it shows and how, and its tensor cap as
    source text (`"int"`, or an expression such as `"(NUM_CARDS,)"` or
    `'("enum", PHASE_NAMES)'`; see `engines.tensor`)."""

    key: str
    cap: str = "int"
    field: str = ""
    how: str = WHOLE


@dataclass(frozen=True)
class Record:
    """A mutable record the state keeps (play counters): int fields (`name`, start value as
    source text, doc) and per-seat int lists (`name`, metric name, doc), copied field by
    field.  With `metrics` the record also gets `metrics()`: every count under its own name
    and each per-seat list with a metric name as `<metric>_p<seat>`, seat by seat (what the
    state's `metrics` reports, without typing the names a second time)."""

    name: str
    doc: str
    counts: tuple[tuple[str, str, str], ...] = ()
    per_seat: tuple[tuple[str, str, str], ...] = ()
    metrics: bool = False


@dataclass(frozen=True)
class Position:
    """A game's declaration: the class to write and everything it holds."""

    base: str
    doc: str
    imports: tuple[str, ...]
    fields: tuple[Field, ...]
    views: tuple[View, ...]
    records: tuple[Record, ...] = ()
    #: Methods the state defines that the generated base must know (`name(args) -> type`).
    hooks: tuple[str, ...] = ()
    #: A clone keeps the pending decision's legal list (core's `_legal_cache`: shared, never
    #: mutated) instead of recomputing it.
    keep_legal_cache: bool = False


def sees(visibility: str, seat: int | None, owner: int = -1) -> bool:
    """Whether `seat` (None: the transcript, which sees everything) sees the contents of an
    attribute (`owner`: the seat an `OWNER` attribute's entry belongs to)."""
    return seat is None or visibility == PUBLIC or (visibility == OWNER and seat == owner)
