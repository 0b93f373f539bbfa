"""End-of-game scoring: territories left to right, treasures, ties, and the castle race.

A pure function of the per-side tallies, so rules tests can score exact situations and the
heuristic bots can score hypothetical placements.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.tabula_rasa.components import (
    CASTLE_POINTS,
    NUM_TERRITORIES,
    NUM_VALUES,
    TERRITORY_POINTS,
    TIE_TILE_POINTS,
    TREASURE_POINTS,
)

SOURCES = ("territories_number", "territories_colour", "tied_territories", "treasures", "castle")


@dataclass
class Scoring:
    """Points per side and per source, plus what happened at each territory."""

    totals: list[int]
    by_source: dict[str, list[int]]
    territories_won: list[int]  # territory tiles actually won (flipped ties do not count)
    castle: int  # side that took the castle, -1 if discarded
    owner: list[int]  # per territory: winning side, -1 if nobody (tie / empty)
    treasure: list[int]  # per territory: side that took the treasure, -1 if nobody
    two_way_ties: int
    multi_way_ties: int  # three tied for most: nobody scores


def score_tallies(tally: list[int], sides: int, castle_rule: str = "first_to_two") -> Scoring:
    """Score `tally[side * 10 + territory]` (card count, or value sum under value_sum).

    Rulings: A1 two tied for most each get 1 and nobody gets the treasure; A2 three tied for
    most score nothing, a unique leader with two tied for second leaves the treasure unclaimed;
    A3 the castle goes to the first side to win two number territories (or two in a row).
    """
    num = [0] * sides
    col = [0] * sides
    tied = [0] * sides
    treas = [0] * sides
    castle_pts = [0] * sides
    won = [0] * sides
    owner = [-1] * NUM_TERRITORIES
    treasure = [-1] * NUM_TERRITORIES
    castle = -1
    two_way = multi_way = 0
    consecutive = castle_rule == "two_consecutive"
    prev_winner = -1
    for terr in range(NUM_TERRITORIES):
        best = second = 0
        n_best = n_second = 0
        leader = runner = -1
        for side in range(sides):
            v = tally[side * NUM_TERRITORIES + terr]
            if v <= 0:
                continue
            if v > best:
                second, n_second, runner = best, n_best, leader
                best, n_best, leader = v, 1, side
            elif v == best:
                n_best += 1
            elif v > second:
                second, n_second, runner = v, 1, side
            elif v == second:
                n_second += 1
        winner = -1
        if n_best == 1:
            winner = leader
            owner[terr] = leader
            won[leader] += 1
            if terr < NUM_VALUES:
                num[leader] += TERRITORY_POINTS[terr]
            else:
                col[leader] += TERRITORY_POINTS[terr]
            if n_second == 1:
                treasure[terr] = runner
                treas[runner] += TREASURE_POINTS
        elif n_best == 2:
            two_way += 1
            for side in range(sides):
                if tally[side * NUM_TERRITORIES + terr] == best:
                    tied[side] += TIE_TILE_POINTS
        elif n_best >= 3:
            multi_way += 1
        if terr < NUM_VALUES and castle < 0 and winner >= 0:
            if consecutive:
                if prev_winner == winner:
                    castle = winner
            elif won[winner] == 2:
                castle = winner
        prev_winner = winner
    if castle >= 0:
        castle_pts[castle] = CASTLE_POINTS
    totals = [num[s] + col[s] + tied[s] + treas[s] + castle_pts[s] for s in range(sides)]
    by_source = {
        "territories_number": num,
        "territories_colour": col,
        "tied_territories": tied,
        "treasures": treas,
        "castle": castle_pts,
    }
    return Scoring(totals, by_source, won, castle, owner, treasure, two_way, multi_way)
