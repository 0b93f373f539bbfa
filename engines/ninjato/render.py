"""Text view of a Ninjato position: the five clan houses (numbered 0-4 as the actions number
them), the dojo row, sensei, palace, pavilion, each ninja's treasures, skills, envoys and
honour, and a raid in progress.

Names follow ../shared/rules/ninjato.md (dojo, sentry, clan token, sensei skills, palace
envoys, pavilion rumours, Ki, Boryaku, banzai).  A seat sees its own dojo hand and rumours;
of the others only how many; the decks (dojo, guards, elites, envoys, rumours, skills) only
by size, as `determinize` resamples them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.ninjato._position import VISIBILITY
from engines.ninjato.actions import (
    PH_CHOICE,
    PH_DISCARD,
    PH_DISGUISE,
    PH_DRAW,
    PH_END,
    PH_FIGHT,
    PH_KEEP,
    PH_PAY,
    PH_PLACE,
    PH_REWARD1,
    PH_REWARD2,
    PH_SKILLPAY,
    PH_TOKEN,
)
from engines.ninjato.components import CLAN_NAMES, RUMOUR_TYPES, TREASURE_NAMES
from engines.position import sees as seat_sees

if TYPE_CHECKING:
    from engines.ninjato.state import NinjatoState

PHASES = {
    PH_PLACE: "place a shuriken", PH_PAY: "pay", PH_SKILLPAY: "pay for a skill",
    PH_DISCARD: "discard to 7 cards", PH_FIGHT: "fight a guard", PH_CHOICE: "banzai or retreat",
    PH_KEEP: "keep a treasure", PH_TOKEN: "take a clan token", PH_DISGUISE: "declare Disguise",
    PH_REWARD1: "scoring reward", PH_REWARD2: "scoring reward", PH_DRAW: "draw a dojo card",
    PH_END: "game over",
}
ROUNDS = 7


def _treasures(counts: list[int]) -> str:
    return ", ".join(TREASURE_NAMES[t] + (f" x{c}" if c > 1 else "")
                     for t, c in enumerate(counts) if c) or "none"


def _hand(counts: list[int]) -> str:
    return " ".join(str(v + 1) for v in range(5) for _ in range(counts[v])) or "empty"


def _slots(items) -> str:
    """Numbered as the actions number them (`sensei slot 0`, `palace slot 2`)."""
    return " · ".join(f"{i}) {item}" for i, item in enumerate(items)) or "empty"


def round_label(state: NinjatoState) -> str:
    return f"round {min(state.round, ROUNDS)}"


def _guard(state: NinjatoState, g: int) -> str:
    if g < 0:
        return "no sentry"
    return f"sentry {state.C.gval[g]}" + (" (alarm)" if state.C.galarm[g] else "")


def _envoy(state: NinjatoState, e: int) -> str:
    return f"{CLAN_NAMES[state.C.env_clan[e]]} envoy #{e} (age {state.C.env_age[e]})"


def _rumour(state: NinjatoState, r: int) -> str:
    return RUMOUR_TYPES[state.C.rum_type[r]].replace("_", " ")


def render(state: NinjatoState, seat: int | None = None) -> str:
    C = state.C
    n = state.n
    status = ("game over" if state.phase == PH_END
              else f"seat {state.player + 1} to act ({PHASES.get(state.phase, 'decide')})")
    order = ", ".join(str(p + 1) for p in state.order)
    lines = [  # the first line (status and pile sizes) changes every move: transcripts skip it
        f"Ninjato · {round_label(state)} of {ROUNDS}, shuriken {state.turn} of {3 * n} · "
        f"{status} · dojo deck {sum(state.deck)}, discards {sum(state.dojo_discards)} · "
        f"treasure bag {sum(state.bag)}",
        f"turn order: seat {order}",
        f"dojo row: {' '.join(map(str, state.row)) or 'empty'}",
    ]
    for h in range(5):
        token = C.token_values[state.house_token[h]]
        plain = ", ".join(TREASURE_NAMES[t] for t in state.house_plain[h])
        red = ", ".join(TREASURE_NAMES[t] for t in state.house_red[h])
        loot = " + ".join(part for part in (plain, red and f"red {red}") if part)
        lines.append(f"house {h} {CLAN_NAMES[state.house_clan[h]]} (token {token}): "
                     f"{_guard(state, state.house_sentry[h])} · {loot or 'no treasure'}"
                     + (" [cleared]" if state.house_closed[h] else ""))
    lines.append("sensei: " + _slots(C.skill_names[t] for t in state.sensei))
    lines.append("palace: " + _slots(_envoy(state, e) for e in state.palace))
    lines.append("pavilion: " + _slots(_rumour(state, r) for r in state.pavilion))
    honour = state.scores()
    # What a seat may see of the others is what its observation holds: everyone's rumours
    # (when they are public) and the cards of each hand that everyone saw taken (`known`).
    obs = state.observation(seat) if seat is not None else {}
    public_rumours = "rumours" in obs
    known = obs.get("known")
    for p in range(n):
        hand = state.hands[p]
        rumours = state.rumours[p]
        sees = seat is None or seat == p or public_rumours
        if seat_sees(VISIBILITY["hands"], seat, p):
            shown_hand = _hand(hand)
        else:
            seen = f" (seen: {_hand(known[p])})" if known and sum(known[p]) else ""
            shown_hand = f"{sum(hand)} card{'' if sum(hand) == 1 else 's'}{seen}"
        shown_rumours = (", ".join(_rumour(state, r) for r in sorted(rumours)) or "none"
                         if sees else f"{len(rumours)} hidden")
        lines.append(f"seat {p + 1}{' (you)' if seat == p else ''}: honour {honour[p]:g} · "
                     f"hand {shown_hand} · treasures {_treasures(state.treasures[p])}")
        extras = []
        if state.tiles[p]:
            extras.append(f"skills {', '.join(C.skill_names[t] for t in state.tiles[p])} "
                          f"({sum(state.ready[p])} face up)")
        if state.envoys[p]:
            extras.append("envoys " + ", ".join(_envoy(state, e) for e in state.envoys[p]))
        if state.elites[p]:
            extras.append("elite guards " + ", ".join(C.enames[e] for e in state.elites[p]))
        lines.append(f"  seat {p + 1} rumours {shown_rumours}" + "".join(f" · {x}" for x in extras))
    if state.phase in (PH_FIGHT, PH_CHOICE, PH_KEEP, PH_TOKEN):
        approach = "stealth" if state.raid_approach else "force"
        play = state.play_value() if state.play_base >= 0 else "-"
        lines.append(f"raid: seat {state.player + 1} on house {state.raid_house} by {approach} · "
                     f"guards beaten {state.raid_wins} · guard value {state.guard_value()} · "
                     f"play {play} · on the shuriken: "
                     + (", ".join(TREASURE_NAMES[t] for t in state.raid_treasures) or "nothing"))
    return "\n".join(lines)
