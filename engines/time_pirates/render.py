"""Text view of a Time Pirates position: the epochs with their artifacts and pawns, hands, deeds.

Names follow ../shared/rules/time_pirates.md (epochs, artifacts, police track, patrol,
bazaar, deeds, years).  Everything is public but the bag's order and, in the final
scoring, the other players' secret white-deed placements (shown only as a count).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.position import sees
from engines.time_pirates import components as C
from engines.time_pirates._position import VISIBILITY
from engines.time_pirates.actions import PH_OVER, PH_WHITE, PHASE_NAMES

if TYPE_CHECKING:
    from engines.time_pirates.state import TimePiratesState


def _counts(counts: list[int], name=C.kind_name) -> str:
    return ", ".join(f"{name(k)}" + (f" x{c}" if c > 1 else "")
                     for k, c in enumerate(counts) if c) or "none"


def round_label(state: TimePiratesState) -> str:
    """A round is a year (scored when the police track fills)."""
    return f"year {min(state.year + 1, state.components.years)}"


def render(state: TimePiratesState, seat: int | None = None) -> str:
    comp = state.components
    names = comp.epoch_names
    n = state.num_players
    status = ("game over" if state.phase == PH_OVER else
              f"seat {state.current_player() + 1} to act ({PHASE_NAMES[state.phase]}"
              + (f", {left} standard actions left" if (left := state.standard_actions_left)
                 else "") + ")")
    lines = [  # the first line (status, bag size) changes every move: transcripts skip it
        f"Time Pirates · {round_label(state)} of {comp.years} · {status} · bag: "
        f"{state.bag_total} tokens",
        f"police track: line 1 {state.police_track[0]}, line 2 {state.police_track[1]} · patrol at "
        f"{names[state.patrol]}"]
    width = max(map(len, names))
    for e, epoch in enumerate(state.epochs):
        pawns = [str(p + 1) for p in range(n) if state.pawn_epoch[p] == e]
        arts = ", ".join(C.kind_name(k) for k in sorted(epoch)) or "empty"
        lines.append(f"  {names[e]:<{width}}  {arts}"
                     + (f"  [pawn of seat {', '.join(pawns)}]" if pawns else "")
                     + ("  [patrol]" if state.patrol == e else ""))

    def deed_name(t: int) -> str:
        colour, points = comp.deeds[t][:2]
        return f"{'white' if colour == C.WHITE else C.COLOURS[colour]} {points}"

    totals = state.scores()
    for p in range(n):
        at = f"at {names[state.pawn_epoch[p]]}" if state.pawn_epoch[p] >= 0 else "not placed yet"
        lines.append(f"seat {p + 1}{' (you)' if seat == p else ''}: {totals[p]:g} points · "
                     f"{at} · hand: {_counts(state.hands[p])}")
        lines.append(f"  seat {p + 1} deeds: {_counts(state.deeds[p], deed_name)}")
        placed = state.white_placements[p]
        if placed:
            # secret (owner-only, position.py) while the placements are being made
            secret = state.phase == PH_WHITE and not sees(VISIBILITY["white_placements"], seat, p)
            shown = (f"{len(placed)} placed (secret)" if secret
                     else ", ".join(C.COLOURS[c] for c in placed))
            lines.append(f"  seat {p + 1} white deeds counted as: {shown}")
    lines.append(f"bazaar: {_counts(state.bazaar, deed_name)}")
    lines.append(f"discards: {_counts(state.discard)}")
    if state.year_scores:
        years = " · ".join(f"year {y + 1}: " + "/".join(map(str, row))
                           for y, row in enumerate(state.year_scores))
        lines.append(f"scored: {years}")
    return "\n".join(lines)
