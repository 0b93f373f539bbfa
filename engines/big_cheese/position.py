"""The Big Cheese position, declared once (`engines.position`; the code is generated into
`_position.py` by `python -m tools.positions`).

Everything but the order of the face-down deck is public (B14): the top card is face up, the
cards buried under the deck (B1 "bury") are known, the rest is seen only by its size.  Rule
options read at every auction or roll are copied onto the state once (`goal` ... `choose_order`):
compiled, a field of the state is a direct load, an option of `rules` a look-up.  `_acts`,
`_orders`, `_following`, `_roll_faces` and `_roll_tops` are shared lookup tables for this
game's chips, player count and dice; `counters` is the metrics record.
"""

from __future__ import annotations

from engines.position import (
    COMPUTED,
    HIDDEN,
    LENGTH,
    LIST,
    NESTED,
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
    "BigCheeseCounters",
    "What `BigCheeseState.metrics` reports, counted as play goes; the rules never read it.",
    counts=(
        ("vetoes_played", "0", ""),
        ("big_cheeses_played", "0", ""),
        ("big_cheese_net_points", "0", "what the re-rolls gained over the first rolls"),
        ("all_pass_rounds", "0", "auctions nobody bid in (B1)"),
        ("reshuffles", "0", ""),
        ("lead_changes", "0", ""),
        ("first_leader", "0", "the seat that led the first auction"),
        ("same_round_crossers", "0", "seats at the goal when the game was won"),
    ),
    per_seat=(
        ("seat_vetoes", "vetoes_played", "per seat: Vetoes played"),
        ("seat_cheeses", "big_cheeses_played", "per seat: Big Cheeses played"),
    ),
    metrics=True,
)

_CARDS = "(len(DECK),)"
_SEATS = "(6,)"

POSITION = Position(
    base="BigCheesePosition",
    doc=__doc__,
    imports=(
        "from engines.big_cheese.actions import PHASE_NAMES, BidTable",
        "from engines.big_cheese.components import DECK",
        "from engines.big_cheese.rules import Rules",
    ),
    records=(COUNTERS,),
    fields=(
        Field("num_players", "int", SCALAR, PUBLIC),
        Field("rules", "Rules", SHARED, PUBLIC),
        Field("rng", "random.Random", STREAM, HIDDEN, "every chance event"),
        Field("goal", "int", SCALAR, PUBLIC, "rules.goal"),
        Field("max_rounds", "int", SCALAR, PUBLIC, "rules.max_rounds"),
        Field("leader_must_open", "bool", SCALAR, PUBLIC, "rules.leader_must_open (B2)"),
        Field("veto_any_time", "bool", SCALAR, PUBLIC, "rules.veto_any_time (B8)"),
        Field("exact", "int", SCALAR, PUBLIC, "rules.exact"),
        Field("choose_order", "bool", SCALAR, PUBLIC,
              "exact-N with the owner choosing the order of the rolls"),
        Field("_orders", "tuple[tuple[int, ...], ...]", SHARED, PUBLIC,
              "per seat: the seats in turn order from it"),
        Field("_following", "tuple[int, ...]", SHARED, PUBLIC, "per seat: the next seat"),
        Field("_acts", "BidTable", SHARED, PUBLIC, "the legal bid lists, tabulated"),
        Field("_roll_faces", "tuple[tuple[int, ...] | None, ...]", SHARED, PUBLIC,
              "per project value: the die's faces"),
        Field("_roll_tops", "tuple[int, ...]", SHARED, PUBLIC,
              "per project value: the die's highest face"),
        Field("deck", "list[int]", LIST, SIZE, "the top is deck[-1] (face up)"),
        Field("known_bottom", "int", SCALAR, PUBLIC, "cards buried under the deck (public)"),
        Field("discard", "list[int]", LIST, PUBLIC),
        Field("pool", "list[int]", LIST, PUBLIC, "per seat: free chips"),
        Field("proj_cards", "list[list[int]]", NESTED, PUBLIC, "per seat: projects, oldest first"),
        Field("proj_due", "list[list[int]]", NESTED, PUBLIC,
              "per seat, per project: the award number it matures at (B3)"),
        Field("vetoes", "list[int]", LIST, PUBLIC, "per seat: Vetoes in hand"),
        Field("cheeses", "list[int]", LIST, PUBLIC, "per seat: Big Cheeses in hand"),
        Field("points", "list[int]", LIST, PUBLIC, "per seat"),
        Field("earned", "list[list[int]]", NESTED, PUBLIC, "per seat, per project value: points"),
        Field("phase", "int", SCALAR, PUBLIC, "BID, VETO_WINDOW, ROLL, OVER or ORDER"),
        Field("leader", "int", SCALAR, PUBLIC),
        Field("to_act", "int", SCALAR, PUBLIC),
        Field("high_bid", "int", SCALAR, PUBLIC),
        Field("high_bidder", "int", SCALAR, PUBLIC),
        Field("passed", "list[bool]", LIST, PUBLIC, "per seat, this auction"),
        Field("active", "int", SCALAR, PUBLIC, "seats still in the auction"),
        Field("window", "list[int]", LIST, PUBLIC, "seats still to answer the B8 Veto window"),
        Field("pending", "list[tuple[int, int]]", LIST, PUBLIC,
              "matured number projects (seat, card) to roll"),
        Field("pending_pos", "int", SCALAR, PUBLIC, "the one being rolled"),
        Field("roll_owner", "int", SCALAR, PUBLIC),
        Field("roll_card", "int", SCALAR, PUBLIC),
        Field("roll_points", "int", SCALAR, PUBLIC),
        Field("first_points", "int", SCALAR, PUBLIC, "the roll before any re-roll"),
        Field("rerolls", "int", SCALAR, PUBLIC),
        Field("award_winner", "int", SCALAR, PUBLIC),
        Field("winners_", "list[int] | None", LIST, PUBLIC, "once the game is over"),
        Field("end_reason", "str", SCALAR, PUBLIC),
        Field("rounds", "int", SCALAR, PUBLIC, "auctions opened (the game's clock: B12)"),
        Field("awards", "int", SCALAR, PUBLIC, "auctions won (the chips' clock: B3)"),
        Field("lead", "int", SCALAR, PUBLIC, "the sole leader (-1: none)"),
        Field("counters", "BigCheeseCounters", RECORD, PUBLIC, "the metrics record"),
        Field("chosen_pos", "int", SCALAR, PUBLIC,
              "the pending position whose project the owner just chose"),
    ),
    views=(
        View("seat", how=SEAT),
        View("phase", '("enum", PHASE_NAMES)', how=COMPUTED),
        View("top", how=COMPUTED),
        View("deck_size", field="deck", how=LENGTH),
        View("buried", _CARDS, how=COMPUTED),
        View("discard", _CARDS, "discard"),
        View("pool", _SEATS, "pool"),
        View("projects", "(6, len(DECK), 2)", how=COMPUTED),
        View("vetoes", _SEATS, "vetoes"),
        View("big_cheeses", _SEATS, "cheeses"),
        View("points", _SEATS, "points"),
        View("leader", field="leader"),
        View("to_act", field="to_act"),
        View("high_bid", field="high_bid"),
        View("high_bidder", field="high_bidder"),
        View("passed", _SEATS, "passed"),
        View("veto_window", _SEATS, "window"),
        View("pending", "(len(DECK), 2)", how=COMPUTED),
        View("roll", "(4,)", how=COMPUTED),
        View("goal", field="goal"),
    ),
)
