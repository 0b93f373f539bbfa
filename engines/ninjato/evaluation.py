"""What a Ninjato position is worth to each seat where an `mcts` rollout is cut off
(`Game.mcts_evaluation`).

Why not the honour alone: in a short rollout most of what a move wins has not scored yet.
Treasure becomes honour only when it buys an envoy or a rumour, an envoy pays off at the
next scoring phase (clan favour), and rumours, elite guards and unused treasure score at the
end.  Scored by honour alone, rollouts cut after 20 actions played no better than the
heuristic they start from; scored by this estimate, much better (`docs/bots.md`).

So each seat's worth is its honour plus a linear estimate of what it will still gain: the
treasure it holds (value and count; on the shuriken of a raid in progress too), its dojo
hand, what its rumours and elite guards would score at the end if the game ended now, the
clan favour the current influence ranking gives it at the next scoring phase (first place:
the clan's tokens on houses; second place: half that), the same for the scoring phases
after it, and its envoys, skill tiles and Disguise tiles.  The weights, one set per round,
are a least-squares fit of the rest of the game's score (final score minus honour now) on
these features over all-heuristic 4-player games (`python -m tools.fit_ninjato_evaluation`
refits them).
The estimates are normalized like `scores()` at a cut-off.  It reads only the world it is
given, which in a search is a sampled world of what the seat can see.
"""

from __future__ import annotations

from typing import Final

from engines.bots.mcts.rewards import normalized
from engines.ninjato.actions import PH_DISGUISE, PH_REWARD1, PH_REWARD2
from engines.ninjato.components import E_DISGUISE, R_SHAMEFUL
from engines.ninjato.scoring import elite_honour, rank_clan, rumour_counts, rumour_points
from engines.ninjato.state import (
    Q_FIRST,
    Q_RANK,
    Q_SECOND,
    ROUNDS,
    SCORING_ROUNDS,
    NinjatoState,
)

#: Feature names, in `features` order (what `WEIGHTS` multiplies).
FEATURES: Final = (
    "treasure_value", "treasures", "shuriken_value", "hand", "rumour_points", "elite_honour",
    "favour_next", "favour_later", "envoys", "tiles", "disguises",
)

#: Per round 1..7: the weight of each feature (`FEATURES` order).  Fitted by
#: `tools/fit_ninjato_evaluation.py` (3,000 games, every 4th action; R² of the rest of the
#: score from 0.02 in round 1 to 0.59 in round 7: early on, most of a game is still to come).
WEIGHTS: Final[tuple[tuple[float, ...], ...]] = (
    (1.412, -2.301, 0.954, 2.096, 0.000, 3.243, 0.062, 0.123, -0.199, 6.374, 0.000),
    (0.940, -1.036, 0.644, 0.370, 0.000, 0.955, 0.090, 0.180, 2.051, 4.479, 0.000),
    (1.120, -1.168, 0.928, 0.816, 0.106, 0.690, 0.202, 0.405, 2.147, 4.315, 0.000),
    (1.045, -0.625, 0.786, 1.110, 1.196, 0.873, 0.232, 0.232, 2.864, 3.557, 0.000),
    (0.930, -0.667, 0.683, 0.703, 1.228, 0.868, 0.462, 0.462, 1.207, 2.500, 2.871),
    (0.706, 0.047, 0.582, 0.974, 1.163, 0.996, 0.432, 0.000, 0.002, 1.342, 0.682),
    (0.254, 0.280, 0.541, 0.036, 0.998, 0.866, 0.699, 0.000, -0.619, 0.539, 0.981),
)


def _treasure_value(tval: tuple[int, ...], held: list[int]) -> int:
    """Face value of a holding (5 counts; gold counts as a jade, what it pays for)."""
    return held[0] * tval[0] + held[1] * tval[1] + held[2] * tval[2] + held[3] * tval[3] + \
        held[4] * tval[3]


def _favour(state: NinjatoState, out: list[float]) -> None:
    """Add to `out` each seat's clan favour by the current ranking: first place the clan's
    tokens on houses, second place half that.  Outside a scoring phase the Disguises of the
    last one still count (a seat lifts the same masked envoys again)."""
    C = state.C
    for c in range(3):
        first, second = rank_clan(state.envoys, state.disguised, c, C.env_clan, C.env_age)
        if first >= 0:
            pts = state.clan_honour(c)
            out[first] += pts
            if second >= 0:
                out[second] += 0.5 * pts


def _pending_favour(state: NinjatoState, out: list[float]) -> None:
    """In a scoring phase: the rewards still to give (the ranking, if not yet made)."""
    q = state.scoring_queue
    for i in range(state.scoring_step, len(q)):
        p, kind, clan = q[i][0], q[i][1], q[i][2]
        if kind == Q_RANK:
            _favour(state, out)
        elif kind == Q_FIRST:
            out[p] += state.clan_honour(clan)
        elif kind == Q_SECOND:
            out[p] += state.clan_honour(clan) if state.reward_taken[clan] == 1 else \
                0.5 * state.clan_honour(clan)


def features(state: NinjatoState) -> list[list[float]]:
    """Per seat, the `FEATURES` of an unfinished position."""
    C = state.C
    n = state.n
    tval = C.tval
    phase = state.phase
    in_scoring = phase == PH_DISGUISE or phase == PH_REWARD1 or phase == PH_REWARD2
    later = 0
    for r in SCORING_ROUNDS:
        if r > state.round:
            later += 1
    next_favour = [0.0] * n
    if in_scoring:
        _pending_favour(state, next_favour)
    else:
        _favour(state, next_favour)
        if later and state.round not in SCORING_ROUNDS:
            later -= 1  # the next phase is a later round's: counted as the next one
    # (the data set's tables read once: `Components` is a plain class, each read a look-up)
    rum_type = C.rum_type
    rum_points = C.rum_points
    set_mult = C.set_mult
    shameful = C.shameful
    ehonour = C.ehonour
    counts = [rumour_counts(state.rumours[p], rum_type) for p in range(n)]
    holders = 0
    for p in range(n):
        if counts[p][R_SHAMEFUL]:
            holders += 1
    raider = state.player if state.raid_treasures else -1
    out: list[list[float]] = []
    for p in range(n):
        held = state.treasures[p]
        hand = state.hands[p]
        elites = state.elites[p]
        items = [len(elites), len(state.rumours[p]), len(state.envoys[p]), len(state.tiles[p])]
        shuriken = 0
        if p == raider:
            for t in state.raid_treasures:
                shuriken += tval[t] if t < 4 else tval[3]
        rumours = 0
        if items[1]:
            rumours = rumour_points(counts[p], items, holders, rum_points, set_mult, shameful)
        out.append([
            float(_treasure_value(tval, held)),
            float(held[0] + held[1] + held[2] + held[3] + held[4]),
            float(shuriken),
            float(hand[0] + hand[1] + hand[2] + hand[3] + hand[4]),
            float(rumours),
            float(elite_honour(elites, ehonour) if elites else 0),
            next_favour[p],
            later * next_favour[p],
            float(items[2]),
            float(items[3]),
            float(state.owned[p][E_DISGUISE]),
        ])
    return out


def estimated_points(state: NinjatoState) -> list[float]:
    """Each seat's honour plus the fitted estimate of what it will still score (the final
    scores once the game is over)."""
    if state.is_terminal():
        return state.scores()
    weights = WEIGHTS[min(max(state.round, 1), ROUNDS) - 1]
    out: list[float] = []
    for honour, row in zip(state.honour, features(state)):
        total = float(honour)
        for w, x in zip(weights, row):
            total += w * x
        out.append(total)
    return out


def cutoff_value(state: NinjatoState) -> list[float]:
    """`estimated_points`, normalized to [0, 1] like `scores()` at a cut-off."""
    return normalized(estimated_points(state))
