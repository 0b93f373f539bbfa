"""The Tabula Rasa position, declared once (`engines.position`; the code is generated into
`_position.py` by `python -m tools.positions`).

Hidden information: the hands (each seen by its owner only, a partner's too: A5), the pile's
order and the two cards removed unseen before the deal (A8).  Everything placed beside a
territory is public (`history`, `tally`).
"""

from __future__ import annotations

from engines.position import (
    CACHE,
    COMPUTED,
    HIDDEN,
    LENGTH,
    LIST,
    NESTED,
    OWN,
    OWNER,
    PUBLIC,
    SCALAR,
    SEAT,
    SHARED,
    SIZE,
    SIZES,
    STREAM,
    WHOLE,
    Field,
    Position,
    View,
)

POSITION = Position(
    base="TabulaRasaPosition",
    doc=__doc__,
    imports=(
        "from engines.tabula_rasa.components import NUM_CARDS, NUM_TERRITORIES",
        "from engines.tabula_rasa.rules import Rules",
        "from engines.tabula_rasa.scoring import Scoring",
    ),
    fields=(
        Field("num_players", "int", SCALAR, PUBLIC),
        Field("rules", "Rules", SHARED, PUBLIC),
        Field("rng", "random.Random", STREAM, HIDDEN, "every chance event"),
        Field("sides", "int", SCALAR, PUBLIC, "2 in 4p (partners 0+2, 1+3: A5), else one per seat"),
        Field("side_of", "tuple[int, ...]", SHARED, PUBLIC, "per seat: its side"),
        Field("hands", "list[list[int]]", NESTED, OWNER, "per seat: card types, sorted"),
        Field("dealt_key", "tuple[int, ...]", SHARED, OWNER,
              "per seat: a key mixed from its dealt hand (the castle mix's draw)"),
        Field("deck", "list[int]", LIST, SIZE, "the pile, drawn from the end"),
        Field("removed", "list[int]", LIST, SIZE, "the two cards out unseen (A8), sorted"),
        Field("tally", "list[int]", LIST, PUBLIC,
              "per side, per territory: the weight placed (what decides majorities)"),
        Field("history", "list[int]", LIST, PUBLIC, "every action played, in order"),
        Field("ply", "int", SCALAR, PUBLIC, "cards played so far"),
        Field("to_move", "int", SCALAR, PUBLIC, "the seat to act (-1: game over)"),
        Field("total_plies", "int", SCALAR, PUBLIC, "cards in play: every one is played (A11)"),
        Field("_weights", "tuple[int, ...]", SHARED, PUBLIC,
              "per action: what it adds to its tally (1, or the card value: A7)"),
        Field("_result", "tuple[int, Scoring] | None", CACHE, PUBLIC,
              "the scoring at ply `[0]`, computed once"),
        Field("_offset", "tuple[int, ...]", SHARED, PUBLIC, "per seat: its side's tally offset"),
        Field("_next", "tuple[int, ...]", SHARED, PUBLIC, "per ply: the seat to act"),
    ),
    views=(
        View("seat", how=SEAT),
        View("num_players", field="num_players"),
        View("side", how=COMPUTED),
        View("to_move", field="to_move"),
        View("ply", field="ply"),
        View("hand", "(NUM_CARDS,)", "hands", OWN),
        View("hand_sizes", "(4,)", "hands", SIZES),
        View("deck_size", field="deck", how=LENGTH),
        View("removed_count", field="removed", how=LENGTH),
        View("history", "(NUM_CARDS,)", "history", WHOLE),
        View("placed", "(3, NUM_TERRITORIES, NUM_CARDS)", how=COMPUTED),
        View("tally", "(3 * NUM_TERRITORIES,)", "tally", WHOLE),
    ),
)
