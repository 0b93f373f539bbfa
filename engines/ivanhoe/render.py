"""Text view of an Ivanhoe position: the tournament, each knight's display and tokens.

Names follow ../shared/rules/ivanhoe.md (tournament colour, display, Shield, Stunned,
tokens, withdraw).  A seat sees its own hand; of the others' hands only the size and the
cards everyone has seen (`known`: an all-action hand shown at the start, a card taken back
by Retreat, an Ivanhoe shown in a window); the deck only by size.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.ivanhoe._position import VISIBILITY
from engines.ivanhoe.actions import PH_OVER, PHASE_NAMES
from engines.ivanhoe.components import COLOUR_NAMES, NAMES
from engines.position import sees

if TYPE_CHECKING:
    from engines.ivanhoe.state import IvanhoeState


def _cards(cards: list[int]) -> str:
    return ", ".join(NAMES[c] for c in sorted(cards)) or "none"


def round_label(state: IvanhoeState) -> str:
    """A round is one tournament."""
    return f"tournament {state.tournaments + (state.phase != PH_OVER)}"


def render(state: IvanhoeState, seat: int | None = None) -> str:
    n = state.num_players
    if state.phase == PH_OVER:
        status = "game over"
    else:
        status = f"seat {state.decider + 1} to decide ({PHASE_NAMES[state.phase]})"
    colour = COLOUR_NAMES[state.colour] if state.colour >= 0 else "not chosen yet"
    lines = [  # the first line (status and pile sizes) changes every move: transcripts skip it
        f"Ivanhoe · {round_label(state)} · colour {colour} · {status} · deck "
        f"{len(state.deck)} · discards {len(state.discard)}",
        f"tokens to win: {state.target} (all five colours, or purple counting as any)"]
    if state.pending_card >= 0 and state.phase != PH_OVER:
        against = f" against seat {state.pending_target + 1}" if state.pending_target >= 0 else ""
        lines.append(f"action card in play: {NAMES[state.pending_card]}{against}")
    for s in range(n):
        tokens = [COLOUR_NAMES[c] for c in range(5) if state.tokens[s] >> c & 1]
        hand = state.hands[s]
        if sees(VISIBILITY["hands"], seat, s):
            shown = _cards(hand)
        else:
            known = state.known[s]
            shown = f"{len(hand)} card{'' if len(hand) == 1 else 's'}" + (
                f" (seen: {_cards(known)})" if known else "")
        marks = []
        if state.turn == s and state.phase != PH_OVER:
            marks.append("on turn")
        if not state.active[s] and state.colour >= 0 and state.phase != PH_OVER:
            marks.append("withdrawn")
        if state.shield_seat == s:
            marks.append("Shield")
        if state.stunned_seat == s:
            marks.append("Stunned")
        lines.append(f"seat {s + 1}{' (you)' if seat == s else ''}: display "
                     f"{', '.join(NAMES[c] for c in state.displays[s]) or 'empty'} "
                     f"= {state.total(s)}" + (f" [{', '.join(marks)}]" if marks else ""))
        lines.append(f"  seat {s + 1} tokens: {', '.join(tokens) or 'none'} · hand: {shown}")
    return "\n".join(lines)
