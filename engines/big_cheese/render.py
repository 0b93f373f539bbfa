"""Text view of a Big Cheese position: the project up for auction, chips, projects, points.

Names follow ../shared/rules/big_cheese.md (projects, chips, Veto, Big Cheese, the goal).
Everything but the order of the face-down deck is public (B14), so every seat sees the
same view, and `seat` only marks whose view it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.big_cheese.actions import OVER, ROLL, VETO_WINDOW
from engines.big_cheese.components import card_name

if TYPE_CHECKING:
    from engines.big_cheese.state import BigCheeseState


def _chips(k: int) -> str:
    return f"{k} chip" if k == 1 else f"{k} chips"


def round_label(state: BigCheeseState) -> str:
    """A round is one auction (rules: reveal, bid, award)."""
    return f"auction {max(state.rounds, 1)}"


def render(state: BigCheeseState, seat: int | None = None) -> str:
    n = state.num_players
    if state.phase == OVER:
        status = "game over" + (f" ({state.end_reason})" if state.end_reason else "")
    else:
        status = f"seat {state.current_player() + 1} to act"
    lines = [f"The Big Cheese · auction {state.rounds} · goal {state.goal} points · {status}"]
    if state.phase != OVER and state.deck:
        bid = (f"high bid {state.high_bid} by seat {state.high_bidder + 1}"
               if state.high_bidder >= 0 else "no bid yet")
        passed = [str(s + 1) for s in range(n) if state.passed[s]]
        lines.append(f"up for auction: {card_name(state.deck[-1])} · leader seat "
                     f"{state.leader + 1} · {bid}"
                     + (f" · passed: seat {', '.join(passed)}" if passed else ""))
    buried = state.deck[:state.known_bottom]
    lines.append(f"deck: {len(state.deck)} cards"
                 + (f" (buried at the bottom: {', '.join(map(card_name, buried))})"
                    if buried else "")
                 + f" · discards: {len(state.discard)}")
    for s in range(n):
        projects = ", ".join(f"{card_name(c)} ({_chips(due - state.awards)})"
                             for c, due in zip(state.proj_cards[s], state.proj_due[s]))
        extras = []
        if state.vetoes[s]:
            extras.append(f"Veto x{state.vetoes[s]}")
        if state.cheeses[s]:
            extras.append(f"Big Cheese x{state.cheeses[s]}")
        mark = " (you)" if seat == s else ""
        lines.append(f"seat {s + 1}{mark}: {state.points[s]} points · {state.pool[s]} chips free"
                     f" · projects: {projects or 'none'}"
                     + (f" · {', '.join(extras)}" if extras else ""))
    if state.phase == ROLL:
        lines.append(f"roll: seat {state.roll_owner + 1}'s {card_name(state.roll_card)} project "
                     f"rolled {state.roll_points} points (re-rolls so far: {state.rerolls})")
    elif state.phase == VETO_WINDOW:
        lines.append("veto window: the award may still be vetoed")
    return "\n".join(lines)
