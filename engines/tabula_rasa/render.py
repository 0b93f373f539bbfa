"""Text view of a Tabula Rasa position: the territories with each side's majority count.

Names follow ../shared/rules/tabula_rasa.md: number territories 1-5, colour territories,
the castle, treasures.  What a seat is shown follows the declared visibility (position.py):
hands to their owner only (a partner's hand is hidden too, A5); the pile and the two cards
removed unseen (A8) only by size.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.position import sees
from engines.tabula_rasa._position import VISIBILITY
from engines.tabula_rasa.components import COLOURS, NUM_TERRITORIES, card_name

if TYPE_CHECKING:
    from engines.tabula_rasa.state import TabulaRasaState

_HEADS = ("1", "2", "3", "4", "5") + tuple(c[:3] for c in COLOURS)


def side_name(state: TabulaRasaState, side: int) -> str:
    seats = [s + 1 for s in range(state.num_players) if state.side_of[s] == side]
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "team " + "+".join(map(str, seats))


def round_label(state: TabulaRasaState) -> str:
    """A turn = every seat plays one card."""
    return f"turn {min(state.ply, state.total_plies - 1) // state.num_players + 1}"


def render(state: TabulaRasaState, seat: int | None = None) -> str:
    to_move = state.current_player()
    head = (f"Tabula Rasa · card {state.ply} of {state.total_plies} played · "
            + ("game over" if to_move < 0 else f"seat {to_move + 1} to play"))
    score = state.scoring()
    width = max(len("territory"), *(len(side_name(state, s)) for s in range(state.sides)))
    lines = [head, f"{'territory':<{width}}  " + " ".join(f"{h:>3}" for h in _HEADS)
             + "   points"]
    for side in range(state.sides):
        counts = state.tally[side * NUM_TERRITORIES:(side + 1) * NUM_TERRITORIES]
        cells = " ".join(f"{c:>3}" if c else "  ." for c in counts)
        lines.append(f"{side_name(state, side):<{width}}  {cells}   {score.totals[side]:>3}")
    owner = " ".join(f"{'-' if o < 0 else o + 1:>3}" for o in score.owner)  # side's first seat
    lines.append(f"{'majority':<{width}}  {owner}")
    castle = ("not taken" if score.castle < 0 else side_name(state, score.castle))
    lines.append(f"castle: {castle}; ties: {score.two_way_ties} two-way, "
                 f"{score.multi_way_ties} three-way"
                 + ("" if to_move < 0 else " (scores if the game ended now)"))
    for s in range(state.num_players):
        hand = state.hands[s]
        shown = ((", ".join(card_name(c) for c in hand) or "none")
                 if sees(VISIBILITY["hands"], seat, s)
                 else f"{len(hand)} card{'' if len(hand) == 1 else 's'}")
        lines.append(f"hand seat {s + 1}: {shown}")
    lines.append(f"pile: {len(state.deck)} cards; removed unseen: "
                 + (", ".join(card_name(c) for c in state.removed)
                    if sees(VISIBILITY["removed"], seat) else f"{len(state.removed)} cards"))
    return "\n".join(lines)
