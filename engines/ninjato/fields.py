"""The attributes of a Ninjato position, declared once with their types (issue 17).

Why a class of declarations: compiled with mypyc, a declared attribute is a typed field of
the C struct (a direct load, ints unboxed); an undeclared one would land in a per-instance
`__dict__`, slower than the pure build's slots.  The state's rules are split over
`RaidRules` (raid.py, rules 3.4) -> `NinjatoState` (state.py, everything else), one
inheritance chain on top of this class (a compiled class has one base); the scoring
arithmetic is pure functions (scoring.py).  The data layout is described field by field below.
"""

from __future__ import annotations

import random

from engines.core import State
from engines.ninjato import components as comp
from engines.ninjato.rules import Rules

#: The attributes of the position (and `_legal_cache`, core's cache): the slots in the pure build.
SLOTS = (
    "n", "rules", "rng", "C", "round", "turn", "order", "dojo_stack", "phase", "player",
    "hands", "known", "deck", "dojo_discards", "row", "treasures", "bag", "treasure_discards",
    "house_plain", "house_red", "house_sentry", "house_clan", "house_token", "house_closed",
    "token_supply", "guard_deck", "guard_discards", "elite_deck", "elite_discards", "elites",
    "sensei", "skill_stack", "disguise_stack", "skill_discards", "skills_unseen", "tiles",
    "owned", "ready", "schools", "palace", "envoy_deck", "envoys", "pavilion", "rumour_deck",
    "rumours", "honour", "envoy_honour", "token_honour", "rumour_honour",
    "raid_house", "raid_approach", "raid_treasures", "guard_kind", "guard_id", "elite_part",
    "play_base", "play_modifier", "play_override", "boryaku_played", "raid_wins",
    "pending", "to_discard", "to_draw", "disguised", "scoring_queue", "scoring_step",
    "first_places", "second_places", "reward_taken", "leaders", "final",
)


class NinjatoFields(State):
    """Typed declarations of `NinjatoState`'s attributes, and of the methods of
    `NinjatoState` that the raid rules call (defined in `state.py`).

    Card values, treasure types, guards, tiles, envoys and rumours are small ints (ids into
    the data set `C`); a "count" list holds how many of each value or type.
    """

    __slots__ = (*SLOTS, "_legal_cache")

    n: int                          # number of seats
    rules: Rules
    rng: random.Random              # every chance event
    C: comp.Components              # the component data set (shared, never mutated)
    # --- rounds and turns
    round: int                      # 1..7 (8 once the game is over)
    turn: int                       # shuriken placed this round (3 per seat)
    order: list[int]                # turn order of the seats this round
    dojo_stack: list[int]           # seats that visited the dojo this round, in order (3.7)
    phase: int                      # PH_* of actions.py: which decision is asked
    player: int                     # the seat to act (-1 once the game is over)
    # --- dojo cards: counts of card values 1..5
    hands: list[list[int]]          # per seat
    known: list[list[int]]          # per seat: cards of the hand everyone saw it take
    deck: list[int]                 # the dojo deck (a draw picks at random among these)
    dojo_discards: list[int]
    row: list[int]                  # the face-up cards (values 1..5, sorted)
    # --- treasures: counts of types fan, scroll, vase, jade, gold
    treasures: list[list[int]]      # per seat
    bag: list[int]                  # the treasure bag
    treasure_discards: list[int]
    # --- the five clan houses (index = house)
    house_plain: list[list[int]]    # plain treasure types on each house, sorted
    house_red: list[list[int]]      # red (alarmed) treasure types on each house, sorted
    house_sentry: list[int]         # guard id of each house's sentry (-1: none)
    house_clan: list[int]           # clan of each house's honour token
    house_token: list[int]          # index into C.token_values of each house's token
    house_closed: list[bool]        # cleared this round (reopened at the end of it)
    token_supply: list[list[int]]   # per clan, per token value index: 1 if in the supply
    # --- guards (ids into C.gval / C.ehonour)
    guard_deck: list[int]           # regular guards (drawn at random)
    guard_discards: list[int]
    elite_deck: list[int]
    elite_discards: list[int]
    elites: list[list[int]]         # per seat: elite guards defeated (honour at the end)
    # --- Sensei skill tiles (tile ids; effects E_* in components.py)
    sensei: list[int]               # the face-up tiles
    skill_stack: list[int]          # the big stack (every tile but Disguise), rounds 1-4
    disguise_stack: list[int]       # the Disguise tiles, rounds 4-6
    skill_discards: list[int]       # face-up tiles left at the end of a round
    skills_unseen: list[int]        # the big stack's tiles put away unseen after round 4
    tiles: list[list[int]]          # per seat: tiles learned
    owned: list[list[int]]          # per seat, per effect: tiles owned
    ready: list[list[int]]          # per seat, per effect: tiles still face up this round
    schools: list[int]              # per seat: bit set of the schools learned (3.5)
    # --- envoys and rumours (card ids)
    palace: list[int]               # face-up envoys
    envoy_deck: list[int]
    envoys: list[list[int]]         # per seat
    pavilion: list[int]             # face-up rumours
    rumour_deck: list[int]
    rumours: list[list[int]]        # per seat
    # --- honour: the track, and its sources (the breakdown)
    honour: list[int]               # per seat
    envoy_honour: list[int]         # per seat: from treasure paid for envoys
    token_honour: list[int]         # per seat: from clan honour at the scoring phases
    rumour_honour: list[int]        # per seat: from treasure paid for rumours
    # --- the raid in progress (3.4; raid.py)
    raid_house: int
    raid_approach: int              # 0 force, 1 stealth
    raid_treasures: list[int]       # treasure types won so far (on the shuriken)
    guard_kind: int                 # G_* of raid.py
    guard_id: int
    elite_part: int                 # which guard of a double elite is fought
    play_base: int                  # value of the play's base card (-1: none yet)
    play_modifier: int              # sum of the +-modifiers played on it
    play_override: int              # set-to-0/6 value (-1: none)
    boryaku_played: bool            # the base is Boryaku (A18, rule boryaku_skills)
    raid_wins: int                  # guards beaten in this raid
    # --- decisions in progress
    pending: int                    # card being paid for (kind * 100 + id) or skill tile
    to_discard: int                 # cards still to discard to the hand limit (A17)
    to_draw: int                    # dojo draws still to take (3.3)
    # --- scoring phase (3.8; state.py)
    disguised: list[list[int]]      # per seat: masked envoys lifted by Disguise (A11)
    scoring_queue: list[list[int]]  # steps [seat, Q_* step, clan or Disguise tiles]
    scoring_step: int               # index of the step in progress
    first_places: list[int]         # per clan of the round's order: first place (-1: none)
    second_places: list[int]        # ... second place
    reward_taken: list[int]         # per clan: what first place took (0 honour, 1 rumour)
    leaders: list[int]              # the leader after each scoring phase (lead changes)
    final: dict[str, list[int]] | None  # final scoring per source, once the game is over
    _legal_cache: list[int] | None

    def draw_treasure(self) -> int:
        raise NotImplementedError

    def draw_guard(self) -> int:
        raise NotImplementedError

    def next_turn(self) -> None:
        raise NotImplementedError
