"""The Time Pirates position, declared once (`engines.position`; the code is generated into
`_position.py` by `python -m tools.positions`).

Everything is public (pawns, epochs, hands, deeds, bag counts, discards) but the order of
the bag and, while they are being made, the other players' white-deed placements (only how
many each has placed is seen).  Besides the hands (count vectors) each seat has a running
summary kept in step by `_gain` / `_lose`, so that the legal actions need not rescan the
hands: `colour_counts`, `hand_size`, `atomic_colours` / `arrow_colours` (bitmask of colours
with an atomic / arrow artifact) and `seats_with_artifacts` (bitmask of seats holding any).
"""

from __future__ import annotations

from engines.position import (
    COMPUTED,
    HIDDEN,
    LIST,
    NESTED,
    OWNER,
    PUBLIC,
    RECORD,
    SCALAR,
    SEAT,
    SHARED,
    SIZE,
    STREAM,
    Field,
    Position,
    Record,
    View,
)

COUNTERS = Record(
    "TimePiratesCounters",
    "What `TimePiratesState.metrics` reports, counted as play goes; the rules never read it.",
    counts=(
        ("restocks", "0", ""),
        ("patrol_catches", "0", ""),
        ("deeds_bought", "0", ""),
        ("turns", "0", ""),
        ("atomic_jumps", "0", ""),
        ("arrow_swaps", "0", ""),
    ),
    metrics=True,
)

_SEATS = "MAX_SEATS"

POSITION = Position(
    base="TimePiratesPosition",
    doc=__doc__,
    imports=(
        "from engines.time_pirates import components as C",
        "from engines.time_pirates.actions import MAX_SEATS, PHASE_NAMES",
        "from engines.time_pirates.legal_lists import OfferRow",
        "from engines.time_pirates.rules import Rules",
        "from engines.time_pirates.scoring import Outcome",
    ),
    records=(COUNTERS,),
    keep_legal_cache=True,
    fields=(
        Field("num_players", "int", SCALAR, PUBLIC),
        Field("rules", "Rules", SHARED, PUBLIC),
        Field("rng", "random.Random", STREAM, HIDDEN, "every chance event (bag draws)"),
        Field("components", "C.Components", SHARED, PUBLIC, "the board and component data set"),
        Field("bag", "list[int]", LIST, PUBLIC, "counts by bag kind (artifacts, police tokens)"),
        Field("bag_total", "int", SCALAR, PUBLIC),
        Field("bag_tokens", "list[int]", LIST, SIZE,
              "the same multiset one token each, for uniform draws (its order is hidden)"),
        Field("epochs", "list[list[int]]", NESTED, PUBLIC, "artifact kinds lying in each epoch"),
        Field("epochs_with_space", "int", SCALAR, PUBLIC, "bitmask of the epochs with a space"),
        Field("hands", "list[list[int]]", NESTED, PUBLIC, "per seat, artifact counts by kind"),
        Field("deeds", "list[list[int]]", NESTED, PUBLIC, "per seat, deed counts by deed type"),
        Field("bazaar", "list[int]", LIST, PUBLIC, "deeds left on offer, by deed type"),
        Field("offers", "tuple[OfferRow, ...]", SHARED, PUBLIC,
              "offers[colour][budget]: BUY actions on offer (rebuilt on every purchase)"),
        Field("discard", "list[int]", LIST, PUBLIC, "discarded artifacts by kind"),
        Field("police_track", "list[int]", LIST, PUBLIC, "police tokens drawn this year, by line"),
        Field("pawn_epoch", "list[int]", LIST, PUBLIC, "per seat (-1 before the start placement)"),
        Field("patrol", "int", SCALAR, PUBLIC, "the Patrol's epoch"),
        Field("year", "int", SCALAR, PUBLIC, "years completed (scored)"),
        Field("year_scores", "list[list[int]]", NESTED, PUBLIC,
              "per year scored, each seat's deed points"),
        Field("leaders", "list[tuple[int, ...]]", LIST, PUBLIC,
              "the leading seats after each year, then the winners"),
        Field("white_placements", "list[list[int]]", NESTED, OWNER,
              "per seat, the colour each white deed was put on (secret while being made)"),
        Field("final_bonuses", "list[list[int]] | None", NESTED, PUBLIC,
              "[set bonus, majority bonus] per seat, at the end"),
        Field("phase", "int", SCALAR, PUBLIC, "PH_*: which decision is pending"),
        Field("to_move", "int", SCALAR, PUBLIC, "the seat deciding (-1 when the game is over)"),
        Field("standard_actions_left", "int", SCALAR, PUBLIC),
        Field("forced_move", "bool", SCALAR, PUBLIC,
              "P2: caught by the Patrol, the move is forced first"),
        Field("paying_deed", "int", SCALAR, PUBLIC, "bazaar: the deed type being paid for"),
        Field("payment_left", "int", SCALAR, PUBLIC, "bazaar: artifacts still to pay"),
        Field("paid_colours", "int", SCALAR, PUBLIC,
              "bazaar: bitmask of the colours paid for a white deed"),
        Field("swap_colour", "int", SCALAR, PUBLIC, "arrow swap: the colour given"),
        Field("swap_target", "int", SCALAR, PUBLIC, "arrow swap: the seat swapped with"),
        Field("counters", "TimePiratesCounters", RECORD, PUBLIC, "the metrics record"),
        Field("colour_counts", "list[list[int]]", NESTED, PUBLIC,
              "per seat: artifacts per colour"),
        Field("hand_size", "list[int]", LIST, PUBLIC, "per seat: artifacts in all"),
        Field("atomic_colours", "list[int]", LIST, PUBLIC),
        Field("arrow_colours", "list[int]", LIST, PUBLIC),
        Field("seats_with_artifacts", "int", SCALAR, PUBLIC),
        Field("result", "Outcome | None", SHARED, PUBLIC, "fixed by the final scoring"),
        Field("final_round", "bool", SCALAR, PUBLIC,
              "game_end=round: year 3 has ended, the round is being played out"),
    ),
    views=(
        View("seat", how=SEAT),
        View("phase", '("enum", PHASE_NAMES)', how=COMPUTED),
        View("to_move", field="to_move"),
        View("year", field="year"),
        View("police_track", "(2,)", "police_track"),
        View("patrol", field="patrol"),
        View("pawns", f"({_SEATS},)", "pawn_epoch"),
        View("epochs", "(C.MAX_EPOCHS, max(self.components.spaces))", how=COMPUTED),
        View("hands", f"({_SEATS}, C.NUM_KINDS)", "hands"),
        View("deeds", f"({_SEATS}, C.MAX_DEED_TYPES)", "deeds"),
        View("bazaar", "(C.MAX_DEED_TYPES,)", "bazaar"),
        View("discard", "(C.NUM_KINDS,)", "discard"),
        View("bag", "(len(self.components.bag),)", "bag"),
        View("standard_actions_left", field="standard_actions_left"),
        View("forced_move", field="forced_move"),
        View("payment", "(3,)", how=COMPUTED),
        View("swap", "(2,)", how=COMPUTED),
        View("year_scores", f"(self.components.years, {_SEATS})", "year_scores"),
        View("white_placed", f"({_SEATS}, C.NUM_COLOURS)", how=COMPUTED),
        View("final_bonuses", f"(2, {_SEATS})", "final_bonuses"),
    ),
)
