"""The attributes of a Ninjato position, declared once with their types (issue 17).

Why a class of declarations: compiled with mypyc, a declared attribute is a typed field of
the C struct (a direct load, ints unboxed); an undeclared one would land in a per-instance
`__dict__`, slower than the pure build's slots.  The state's rules are split over
`RaidRules` (raid.py, rules 3.4) -> `NinjatoState` (state.py, everything else), one
inheritance chain on top of this class (a compiled class has one base); the scoring
arithmetic is pure functions (scoring.py).  The data layout is described in `state.py`.
"""

from __future__ import annotations

import random

from engines.core import State
from engines.ninjato import components as comp
from engines.ninjato.rules import Rules

#: The attributes of the position (and `_legal_cache`, core's cache): the slots in the pure build.
SLOTS = (
    "n", "rules", "rng", "C", "rnd", "turn", "order", "dojo_stack", "phase", "cur",
    "hands", "known", "deck", "ddisc", "row", "treas", "bag", "tdisc",
    "hplain", "hred", "hsentry", "hclan", "htok", "hclosed", "toksup",
    "gdeck", "gdisc", "edeck", "edisc", "elites",
    "sensei", "sbig", "sdis", "sdisc", "sunseen", "tiles", "owned", "ready", "schools",
    "palace", "envdeck", "envoys", "pavilion", "rdeck", "rumours",
    "honour", "src_env", "src_tok", "src_rum",
    "raid_house", "raid_approach", "raid_treasures", "guard_kind", "guard_id", "elite_part",
    "play_base", "play_modifier", "play_override", "boryaku_played", "raid_wins",
    "pend", "ndisc", "ndraw", "disg", "sc_q", "sc_i", "sc_first", "sc_second", "sc_choice",
    "disg_left", "leaders", "final",
)


class NinjatoFields(State):
    """Typed declarations of `NinjatoState`'s attributes, and of the methods of
    `NinjatoState` that the raid rules call (defined in `state.py`)."""

    __slots__ = (*SLOTS, "_legal_cache")

    n: int
    rules: Rules
    rng: random.Random
    C: comp.Components
    rnd: int
    turn: int
    order: list[int]
    dojo_stack: list[int]
    phase: int
    cur: int
    hands: list[list[int]]
    known: list[list[int]]
    deck: list[int]
    ddisc: list[int]
    row: list[int]
    treas: list[list[int]]
    bag: list[int]
    tdisc: list[int]
    hplain: list[list[int]]
    hred: list[list[int]]
    hsentry: list[int]
    hclan: list[int]
    htok: list[int]
    hclosed: list[bool]
    toksup: list[list[int]]
    gdeck: list[int]
    gdisc: list[int]
    edeck: list[int]
    edisc: list[int]
    elites: list[list[int]]
    sensei: list[int]
    sbig: list[int]
    sdis: list[int]
    sdisc: list[int]
    sunseen: list[int]
    tiles: list[list[int]]
    owned: list[list[int]]
    ready: list[list[int]]
    schools: list[int]
    palace: list[int]
    envdeck: list[int]
    envoys: list[list[int]]
    pavilion: list[int]
    rdeck: list[int]
    rumours: list[list[int]]
    honour: list[int]
    src_env: list[int]
    src_tok: list[int]
    src_rum: list[int]
    raid_house: int
    raid_approach: int
    raid_treasures: list[int]
    guard_kind: int
    guard_id: int
    elite_part: int
    play_base: int
    play_modifier: int
    play_override: int
    boryaku_played: bool
    raid_wins: int
    pend: int
    ndisc: int
    ndraw: int
    disg: list[list[int]]
    sc_q: list[list[int]]
    sc_i: int
    sc_first: list[int]
    sc_second: list[int]
    sc_choice: list[int]
    disg_left: int
    leaders: list[int]
    final: dict[str, list[int]] | None
    _legal_cache: list[int] | None

    def draw_treasure(self) -> int:
        raise NotImplementedError

    def draw_guard(self) -> int:
        raise NotImplementedError

    def next_turn(self) -> None:
        raise NotImplementedError
