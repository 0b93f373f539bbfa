"""What a kit game declares about its table, once, as data: its zones of cards and who sees
each, its counters and numbers, and its actions.

The state (`engines.gamekit.table.KitState`) derives from this declaration everything that
would otherwise be written by hand and kept in step with the rules: the copy behind `clone`,
what `observation(seat)` and `render(seat)` show, the tensor layout of the RL adapters, and
`determinize(seat, rng)`, which resamples exactly the cards the seat cannot see.

Visibility is the vocabulary of `engines.position`: `PUBLIC` (everyone sees the cards),
`OWNER` (a zone per seat, each seen by its owner only; everyone sees how many cards each
holds) and `SIZE` (face down: everyone sees how many cards, nobody sees which or in what
order).  A zone's size is always public: a game hides a count by other means.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engines.position import OWNER, PUBLIC, SIZE

#: What a zone's cards may be declared as (`engines.position`'s words).
ZONE_VISIBILITIES = (PUBLIC, OWNER, SIZE)
#: Observation keys the kit writes itself (an `OWNER` zone also shows `<name>_sizes`).
RESERVED = ("seat", "to_move")


@dataclass(frozen=True)
class Zone:
    """A place cards lie: one shared pile (`per_seat=False`) or one per seat.

    `sort` keeps the zone in ascending order (a hand, whose order tells nothing); otherwise
    cards keep the order they came in, and draws take the last one (the top of a pile).
    """

    name: str
    visibility: str
    per_seat: bool = False
    sort: bool = False
    doc: str = ""

    def __post_init__(self) -> None:
        if self.visibility not in ZONE_VISIBILITIES:
            raise ValueError(f"zone {self.name!r}: visibility must be one of "
                             f"{', '.join(ZONE_VISIBILITIES)}, got {self.visibility!r}")
        if self.visibility == OWNER and not self.per_seat:
            raise ValueError(f"zone {self.name!r}: an OWNER zone has one entry per seat "
                             f"(per_seat=True)")


@dataclass(frozen=True)
class Actions:
    """The game's action ids, laid out kind by kind: `Actions(("pay", 1), ("offer", 31))`
    gives `pay` the id 0 and `offer` the ids 1..31 (`offset("offer") + index`).

    The kinds are the game's systems (`Game.action_kinds`: the names a player would use),
    and every id's kind is known from the id alone.
    """

    kinds: tuple[tuple[str, int], ...]
    #: Per action id: the index of its kind (derived).
    kind_of: tuple[int, ...] = field(init=False)
    #: Per kind: its first action id (derived).
    offsets: tuple[int, ...] = field(init=False)

    def __init__(self, *kinds: tuple[str, int]) -> None:
        object.__setattr__(self, "kinds", tuple(kinds))
        names = [name for name, _ in kinds]
        if not kinds or len(set(names)) != len(names) or any(n < 1 for _, n in kinds):
            raise ValueError(f"actions need distinct kinds of at least one id each: {kinds}")
        offsets, kind_of = [], []
        for index, (_, count) in enumerate(kinds):
            offsets.append(len(kind_of))
            kind_of += [index] * count
        object.__setattr__(self, "offsets", tuple(offsets))
        object.__setattr__(self, "kind_of", tuple(kind_of))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.kinds)

    @property
    def count(self) -> int:
        """How many action ids there are (`Game.num_actions`)."""
        return len(self.kind_of)

    def offset(self, kind: str) -> int:
        """The first action id of `kind`."""
        return self.offsets[self.names.index(kind)]

    def name(self, action: int) -> str:
        """`pay`, or `offer 12` for the id `offset("offer") + 12` of a kind with several."""
        kind = self.kind_of[action]
        name, count = self.kinds[kind]
        return name if count == 1 else f"{name} {action - self.offsets[kind]}"


@dataclass(frozen=True)
class Layout:
    """The whole table: zones, per-seat counters (chips, points: public), numbers (a pot, a
    phase, a high bid: public) and actions.  Everything a position holds is in one of them,
    so the kit can copy, show and resample a position without the game's help."""

    zones: tuple[Zone, ...]
    actions: Actions
    counters: tuple[str, ...] = ()
    values: tuple[str, ...] = ()
    #: Per zone name: its declaration (derived).
    by_name: dict[str, Zone] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        names = [z.name for z in self.zones] + list(self.counters) + list(self.values)
        names += [f"{z.name}_sizes" for z in self.zones if z.visibility == OWNER]
        if len(set(names)) != len(names) or set(names) & set(RESERVED):
            raise ValueError(f"a layout names each zone, counter and value once, and none "
                             f"{' or '.join(RESERVED)}: {names}")
        object.__setattr__(self, "by_name", {z.name: z for z in self.zones})
