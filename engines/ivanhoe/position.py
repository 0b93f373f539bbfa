"""The Ivanhoe position, declared once (`engines.position`; the code is generated into
`_position.py` by `python -m tools.positions`).

Cards are type codes (`components`); tokens are a colour bitmask per seat.  Hidden: each hand
from the other seats, except `known[p]`, the part of p's hand everyone has seen (a starter
who revealed an all-action hand, a card taken back by Retreat, the Ivanhoe a reaction window
showed), and the deck (unordered: each draw takes a uniformly random card), seen by its size.
`pending_*` are the action card in play and its player's choices so far.
"""

from __future__ import annotations

from engines.position import (
    COMPUTED,
    HIDDEN,
    LENGTH,
    LIST,
    NESTED,
    OWNER,
    PUBLIC,
    RECORD,
    SCALAR,
    SEAT,
    SHARED,
    SIZE,
    SIZES,
    STREAM,
    Field,
    Position,
    Record,
    View,
)

METRICS = Record(
    "Metrics",
    "What `IvanhoeState.metrics` reports, counted as play goes; the rules never read it.",
    counts=(
        ("tournaments", "0", ""),
        ("lead_changes", "0", "times a different seat became the sole token leader"),
        ("leader", "-1", "the last sole leader"),
        ("failed_starts", "0", "would-be starters who showed their hand and passed (T2)"),
    ),
)

_CARDS = "(DECK_SIZE,)"
_SEATS = "(5,)"

POSITION = Position(
    base="IvanhoePosition",
    doc=__doc__,
    imports=(
        "from engines.ivanhoe.actions import PHASE_NAMES",
        "from engines.ivanhoe.components import DECK_SIZE",
        "from engines.ivanhoe.rules import Rules",
    ),
    records=(METRICS,),
    fields=(
        Field("num_players", "int", SCALAR, PUBLIC),
        Field("rules", "Rules", SHARED, PUBLIC),
        Field("rng", "random.Random", STREAM, HIDDEN, "every chance event"),
        Field("deck", "list[int]", LIST, SIZE, "unordered: a draw takes a random card"),
        Field("discard", "list[int]", LIST, PUBLIC),
        Field("hands", "list[list[int]]", NESTED, OWNER, "per seat"),
        Field("known", "list[list[int]]", NESTED, PUBLIC,
              "per seat: the cards of its hand everyone has seen"),
        Field("displays", "list[list[int]]", NESTED, PUBLIC, "per seat, in play order"),
        Field("vsum", "list[int]", LIST, PUBLIC, "per seat: its display's printed-value sum"),
        Field("shield_seat", "int", SCALAR, PUBLIC, "-1: no Shield in play"),
        Field("stunned_seat", "int", SCALAR, PUBLIC, "-1: no Stunned in play"),
        Field("tokens", "list[int]", LIST, PUBLIC, "per seat: a colour bitmask"),
        Field("pool", "list[int]", LIST, PUBLIC, "per colour: tokens left"),
        Field("target", "int", SCALAR, PUBLIC, "tokens to win"),
        Field("colour", "int", SCALAR, PUBLIC, "the tournament's colour (-1: none)"),
        Field("last_final", "int", SCALAR, PUBLIC, "the last tournament's final colour (T1)"),
        Field("active", "list[bool]", LIST, PUBLIC, "per seat: still in the tournament"),
        Field("starter", "int", SCALAR, PUBLIC),
        Field("turn", "int", SCALAR, PUBLIC),
        Field("decider", "int", SCALAR, PUBLIC, "the seat to decide (-1: game over)"),
        Field("phase", "int", SCALAR, PUBLIC, "PH_* of actions.py"),
        Field("played", "bool", SCALAR, PUBLIC, "the player on turn has played a card"),
        Field("added", "int", SCALAR, PUBLIC, "cards added to the display this turn (Stunned)"),
        Field("opening", "bool", SCALAR, PUBLIC, "the starter's first play: a display card only"),
        Field("pending_card", "int", SCALAR, PUBLIC),
        Field("pending_target", "int", SCALAR, PUBLIC),
        Field("pending_own_slot", "int", SCALAR, PUBLIC),
        Field("pending_their_slot", "int", SCALAR, PUBLIC),
        Field("pending_colour", "int", SCALAR, PUBLIC),
        Field("adapt_queue", "list[tuple[int, int]]", LIST, PUBLIC,
              "(owner, printed value) still to thin (Adapt)"),
        Field("failed_starts_in_a_row", "int", SCALAR, PUBLIC),
        Field("stalled", "bool", SCALAR, PUBLIC, "nobody could start for too long: a draw (I14)"),
        Field("stats", "Metrics", RECORD, PUBLIC, "the metrics record"),
    ),
    views=(
        View("seat", how=SEAT),
        View("hand", _CARDS, how=COMPUTED),
        View("hand_sizes", _SEATS, "hands", SIZES),
        View("known_in_hands", "(5, DECK_SIZE)", how=COMPUTED),
        View("displays", "(5, DECK_SIZE)", "displays"),
        View("shield_seat", field="shield_seat"),
        View("stunned_seat", field="stunned_seat"),
        View("discard", _CARDS, "discard"),
        View("deck_size", field="deck", how=LENGTH),
        View("tokens", _SEATS, "tokens"),
        View("colour", field="colour"),
        View("last_final_colour", field="last_final"),
        View("active", _SEATS, "active"),
        View("starter", field="starter"),
        View("turn", field="turn"),
        View("to_move", field="decider"),
        View("phase", '("enum", PHASE_NAMES)', how=COMPUTED),
        View("played", field="played"),
        View("added", field="added"),
        View("opening", field="opening"),
        View("pending", "(4,)", how=COMPUTED),
        View("adapt_queue", "(DECK_SIZE, 2)", how=COMPUTED),
        View("failed_starts", field="failed_starts_in_a_row"),
    ),
)
