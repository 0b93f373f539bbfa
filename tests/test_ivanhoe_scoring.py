"""Ivanhoe's token rules as pure functions (`engines/ivanhoe/scoring.py`) and its metrics record.

The scenario tests in `test_ivanhoe_rules.py` play these rules through the engine; these ask
the functions directly about holdings no short scenario reaches.
"""

from __future__ import annotations

from engines.ivanhoe.components import BLUE, GREEN, PURPLE, RED, YELLOW
from engines.ivanhoe.scoring import (
    colours_held,
    has_won,
    score_breakdown,
    scores,
    sole_leader,
    tokens_won,
)
from engines.ivanhoe.state import Metrics, count_tournament


def mask(*colours: int) -> int:
    return sum(1 << c for c in colours)


def test_W3_a_purple_win_offers_every_lacking_colour():
    assert tokens_won(mask(RED, BLUE), PURPLE) == [PURPLE, YELLOW, GREEN]
    assert tokens_won(mask(PURPLE, RED, BLUE, YELLOW), PURPLE) == [GREEN]
    assert tokens_won(mask(PURPLE, RED, BLUE, YELLOW, GREEN), PURPLE) == []


def test_W4_a_colour_already_owned_earns_nothing():
    assert tokens_won(mask(RED), RED) == []
    assert tokens_won(mask(BLUE), RED) == [RED]


def test_W5_game_won_at_the_token_target():
    assert has_won(mask(PURPLE, RED, BLUE, YELLOW), 4)
    assert not has_won(mask(PURPLE, RED, BLUE, YELLOW), 5)
    assert has_won(mask(PURPLE, RED, BLUE, YELLOW, GREEN), 5)


def test_W1_a_maiden_costs_one_of_the_tokens_held():
    assert colours_held(mask(RED, GREEN)) == [RED, GREEN]
    assert colours_held(0) == []


def test_score_is_the_token_count_and_the_breakdown_adds_up_to_it():
    tokens = [mask(RED, BLUE), 0, mask(PURPLE)]
    assert scores(tokens) == [2.0, 0.0, 1.0]
    parts = score_breakdown(tokens)
    assert [sum(column) for column in zip(*parts.values())] == scores(tokens)
    assert parts["red token"] == [1.0, 0.0, 0.0]


def test_lead_changes_count_only_a_new_sole_leader():
    metrics = Metrics()
    count_tournament(metrics, [mask(RED), 0, 0])  # seat 0 leads
    count_tournament(metrics, [mask(RED), mask(BLUE), 0])  # shared: no leader, no change
    assert sole_leader([mask(RED), mask(BLUE), 0]) == -1
    count_tournament(metrics, [mask(RED), mask(BLUE, GREEN), 0])  # seat 1 takes the lead
    count_tournament(metrics, [mask(RED), mask(BLUE, GREEN, RED), 0])  # still seat 1
    assert (metrics.tournaments, metrics.lead_changes, metrics.leader) == (4, 1, 1)
    copy = metrics.copy()
    count_tournament(copy, [mask(RED, BLUE, GREEN, YELLOW), 0, 0])
    assert (metrics.tournaments, metrics.lead_changes) == (4, 1)  # the copy is independent
    assert (copy.tournaments, copy.lead_changes, copy.leader) == (5, 2, 0)
