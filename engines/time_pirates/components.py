"""Time Pirates component data: one named, versioned, replaceable data set.

Provenance: /work/shared/rules/time_pirates.md §1 and §5.  Deed values, artifact counts and
police tokens are CONFIRMED (T1-T3); the symbol split of the artifacts is confirmed per T2
with the INFERRED reading that no token carries both symbols and white carries none; the
board (epoch spaces and time lines, table 1d) is wholly INFERRED (`inferred-v1`).

A user who owns the game replaces everything here with `--rule components=PATH`, a TOML or
JSON file of the same shape as `DEFAULT_DATA` (any key left out keeps its default).

Encoding used by the engine:
- colours 0..4 are the five continents, 5 is white (wild);
- artifact kind `k = colour * 3 + symbol` (symbol 0 plain, 1 atomic, 2 arrow) for the five
  colours, `k = 15` for white; bag kinds 16 and 17 are the police tokens "1" and "2";
- deed type index = position in `Components.deeds` (colour, points, cost, copies).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from engines import datasets
from engines.errors import BadInput

DATASET = "time-pirates-inferred-v1"

COLOURS = ("blue", "brown", "red", "green", "purple")
# `Final`: the compiled engines (mypyc) inline these numbers instead of looking them up.
WHITE: Final = 5
NUM_COLOURS: Final = 5
PLAIN: Final = 0
ATOMIC: Final = 1
ARROW: Final = 2
SYMBOLS = ("plain", "atomic", "arrow")
WHITE_KIND: Final = 15
NUM_KINDS: Final = 16  # artifact kinds
POLICE_1: Final = 16
POLICE_2: Final = 17
NUM_BAG_KINDS: Final = 18
MAX_EPOCHS: Final = 12
MAX_DEED_TYPES: Final = 48

#: The data set as plain tables (the shape a replacement file must have).
DEFAULT_DATA: dict[str, Any] = {
    "name": DATASET,
    # INFERRED (rules file 1d): name, artifact spaces, target of line 1, target of line 2.
    "epochs": [
        {"name": "Prehistory", "spaces": 4, "line1": 6, "line2": 3},
        {"name": "Ancient Egypt", "spaces": 5, "line1": 0, "line2": 4},
        {"name": "Classical Antiquity", "spaces": 6, "line1": 1, "line2": 4},
        {"name": "Middle Ages", "spaces": 7, "line1": 2, "line2": 6},
        {"name": "Age of Discovery", "spaces": 5, "line1": 3, "line2": 0},
        {"name": "Industrial Age", "spaces": 6, "line1": 4, "line2": 3},
        {"name": "2200-2299", "spaces": 3, "line1": 5, "line2": 2},
    ],
    "patrol_start": 6,  # CONFIRMED: the Patrol always starts on 2200-2299
    # CONFIRMED T2 (symbol exclusivity INFERRED): per colour, and white.
    "artifacts_per_colour": {"plain": 8, "atomic": 4, "arrow": 2},
    "white_artifacts": 6,
    "police_tokens": {"line1": 5, "line2": 5},  # CONFIRMED
    # CONFIRMED: (points, cost) of each colour's five deeds; white deeds (points, cost, copies).
    "coloured_deeds": [[2, 2], [3, 3], [4, 4], [6, 5], [7, 6]],
    "white_deeds": [[2, 3, 4], [3, 4, 4], [4, 5, 4]],
    "police_per_year": 8,  # CONFIRMED: the 8th police token drawn ends the year
    "years": 3,
}


@dataclass(frozen=True)
class Components:
    """Immutable, engine-ready view of a data set (shared by every state)."""

    label: str
    epoch_names: tuple[str, ...]
    spaces: tuple[int, ...]
    lines: tuple[tuple[int, int], ...]  # lines[e] = (line-1 target, line-2 target)
    patrol_start: int
    bag: tuple[int, ...]  # initial count of every bag kind (18)
    deeds: tuple[tuple[int, int, int, int], ...]  # (colour, points, cost, copies)
    police_per_year: int
    years: int
    colour_deeds: tuple[tuple[tuple[int, int], ...], ...] = ()  # per colour: (type, cost)
    white_deeds: tuple[tuple[int, int], ...] = ()  # (type, cost), sorted by cost
    min_cost: int = 1
    shop_cap: int = 1  # the highest deed cost: budgets above it buy the same

    def __post_init__(self) -> None:
        by_cost = sorted(range(len(self.deeds)), key=lambda t: (self.deeds[t][2], t))
        colour = tuple(tuple((t, self.deeds[t][2]) for t in by_cost if self.deeds[t][0] == c)
                       for c in range(NUM_COLOURS))
        white = tuple((t, self.deeds[t][2]) for t in by_cost if self.deeds[t][0] == WHITE)
        object.__setattr__(self, "colour_deeds", colour)
        object.__setattr__(self, "white_deeds", white)
        object.__setattr__(self, "min_cost", min(d[2] for d in self.deeds))
        object.__setattr__(self, "shop_cap", max(d[2] for d in self.deeds))

    @property
    def num_epochs(self) -> int:
        return len(self.spaces)


def kind_colour(kind: int) -> int:
    """Colour 0..4 of an artifact kind, 5 for white."""
    return WHITE if kind == WHITE_KIND else kind // 3


def kind_name(kind: int) -> str:
    if kind == WHITE_KIND:
        return "white"
    if kind >= NUM_KINDS:
        return f"police-{kind - NUM_KINDS + 1}"
    colour, symbol = divmod(kind, 3)
    return COLOURS[colour] + ("" if symbol == PLAIN else f"-{SYMBOLS[symbol]}")


def build(data: dict[str, Any], label: str) -> Components:
    """Validate a data table and turn it into `Components`; bad data raises ValueError."""
    merged = {**DEFAULT_DATA, **data}
    epochs = merged["epochs"]
    n = len(epochs)
    if not 2 <= n <= MAX_EPOCHS:
        raise BadInput(f"components: need 2..{MAX_EPOCHS} epochs, got {n}")
    spaces, lines, names = [], [], []
    for i, ep in enumerate(epochs):
        s, l1, l2 = int(ep["spaces"]), int(ep["line1"]), int(ep["line2"])
        if s < 1 or not (0 <= l1 < n and 0 <= l2 < n) or i in (l1, l2):
            raise BadInput(f"components: bad epoch {i}: {ep!r}")
        spaces.append(s)
        lines.append((l1, l2))
        names.append(str(ep.get("name", f"E{i}")))
    start = int(merged["patrol_start"])
    if not 0 <= start < n:
        raise BadInput(f"components: patrol_start {start} out of range")
    per = merged["artifacts_per_colour"]
    bag = [0] * NUM_BAG_KINDS
    for c in range(NUM_COLOURS):
        bag[3 * c + PLAIN] = int(per["plain"])
        bag[3 * c + ATOMIC] = int(per["atomic"])
        bag[3 * c + ARROW] = int(per["arrow"])
    bag[WHITE_KIND] = int(merged["white_artifacts"])
    bag[POLICE_1] = int(merged["police_tokens"]["line1"])
    bag[POLICE_2] = int(merged["police_tokens"]["line2"])
    per_year = int(merged["police_per_year"])
    if min(bag) < 0 or bag[POLICE_1] + bag[POLICE_2] < per_year or per_year < 1:
        raise BadInput("components: token counts must be >= 0 with enough police tokens")
    if sum(bag[:NUM_KINDS]) < sum(spaces):
        raise BadInput("components: fewer artifacts than artifact spaces")
    deeds = [(c, int(p), int(cost), 1) for c in range(NUM_COLOURS)
             for p, cost in merged["coloured_deeds"]]
    deeds += [(WHITE, int(p), int(cost), int(k)) for p, cost, k in merged["white_deeds"]]
    if len(deeds) > MAX_DEED_TYPES or any(d[2] < 1 or d[1] < 0 or d[3] < 1 for d in deeds):
        raise BadInput("components: bad deed table")
    if any(d[0] == WHITE and d[2] > NUM_COLOURS + bag[WHITE_KIND] for d in deeds):
        raise BadInput("components: a white deed costs more than distinct colours allow")
    return Components(
        label=label,
        epoch_names=tuple(names),
        spaces=tuple(spaces),
        lines=tuple(lines),
        patrol_start=start,
        bag=tuple(bag),
        deeds=tuple(deeds),
        police_per_year=per_year,
        years=int(merged["years"]),
    )


DEFAULT = build(DEFAULT_DATA, DATASET)


def load(source: str) -> Components:
    """The data set in force: the built-in one for '' or the one a `components` rule value
    names (a TOML/JSON file, or items set inline), through the one loader
    `engines.datasets.load` (labelled and cached by content); a missing, unreadable or
    misshapen file raises one ValueError naming it."""
    if not source:
        return DEFAULT
    return datasets.load("time-pirates", source, build)


def dataset_label(path: str) -> str:
    """`time-pirates-inferred-v1`, or a file's name (or `file:<path>`) `#<sha256[:8]>`."""
    return load(path).label
