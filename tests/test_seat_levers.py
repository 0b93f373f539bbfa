"""Seat levers (rule options that change one seat-order mechanism) and the `seat_bonus`
compensation variant of every game: each lever does what its rule text says, keeps the deal,
and the default keeps today's games (`tests/fingerprints.json` pins those)."""

from __future__ import annotations

import random

import pytest

from engines import GAMES, get_game, kit, play_game
from engines.bots import make_bot
from engines.core import rule_options
from engines.time_pirates.actions import PH_START


def _bots(game, n: int, spec: str = "random") -> list:
    return [make_bot(spec, game) for _ in range(n)]


# --- Time Pirates -------------------------------------------------------------------------------


def test_time_pirates_pawns_are_placed_in_reverse_turn_order_start_player_last():
    state = get_game("time-pirates").new_state(4, 3)
    order = []
    rng = random.Random(0)
    while state.phase == PH_START:
        order.append(state.current_player())
        state.apply_action(rng.choice(state.legal_actions()))
    assert order == [3, 2, 1, 0]
    assert state.to_move == 0  # then the start player takes the first turn


def test_time_pirates_reversed_placement_lets_the_start_player_place_first():
    state = get_game("time-pirates").new_state(4, 3, placement_order="reversed")
    order = []
    rng = random.Random(0)
    while state.phase == PH_START:
        order.append(state.current_player())
        state.apply_action(rng.choice(state.legal_actions()))
    assert order == [0, 1, 2, 3]
    assert state.to_move == 0


def test_time_pirates_game_ends_mid_round_as_printed_but_at_round_end_with_the_lever():
    game = get_game("time-pirates")
    bots = _bots(game, 4)
    printed = [play_game(game, bots, seed, 4).metrics for seed in range(12)]
    played_out = [play_game(game, bots, seed, 4, {"game_end": "round"}).metrics
                  for seed in range(12)]
    # turns go clockwise from seat 1, so every seat has had as many turns iff 4 divides them
    assert any(m["turns"] % 4 for m in printed)
    assert all(m["turns"] % 4 == 0 and m["years"] == 3 for m in played_out)
    assert all(b["turns"] >= a["turns"] for a, b in zip(printed, played_out))


def test_time_pirates_seat_bonus_adds_points_to_the_final_total():
    game = get_game("time-pirates")
    bots = _bots(game, 4, "heuristic")
    base = play_game(game, bots, 5, 4)
    bonus = play_game(game, bots, 5, 4, {"seat_bonus": "0,1,2,3"})
    assert bonus.scores == [s + b for s, b in zip(base.scores, (0, 1, 2, 3))]
    assert bonus.breakdown["seat_bonus"] == [0.0, 1.0, 2.0, 3.0]
    assert "seat_bonus" not in base.breakdown


# --- Ninjato ------------------------------------------------------------------------------------


@pytest.mark.parametrize("choice, order", [("seats", [0, 1, 2, 3]), ("reversed", [3, 2, 1, 0])])
def test_ninjato_first_round_order_lever_fixes_the_order_and_keeps_the_deal(choice, order):
    game = get_game("ninjato")
    drawn = game.new_state(4, 11)
    fixed = game.new_state(4, 11, first_round_order=choice)
    assert sorted(drawn.order) == [0, 1, 2, 3]  # printed: markers drawn at random
    assert fixed.order == order and fixed.player == order[0]
    assert fixed.hands == drawn.hands and fixed.palace == drawn.palace


def test_ninjato_seat_bonus_is_starting_honour():
    game = get_game("ninjato")
    state = game.new_state(3, 2, seat_bonus="0,2,4")
    assert state.honour == [0, 2, 4]
    bots = _bots(game, 3, "heuristic")
    base = play_game(game, bots, 4, 3)
    bonus = play_game(game, bots, 4, 3, {"seat_bonus": "0,0,3"})
    assert bonus.breakdown["seat_bonus"] == [0.0, 0.0, 3.0]
    assert sum(bonus.scores) >= 3  # the bonus is part of the final total
    assert "seat_bonus" not in base.breakdown


# --- Big Cheese ---------------------------------------------------------------------------------


@pytest.mark.parametrize("choice, leader", [("first", 0), ("last", 3)])
def test_big_cheese_first_leader_lever_keeps_the_deck(choice, leader):
    game = get_game("big-cheese")
    drawn = game.new_state(4, 9)
    fixed = game.new_state(4, 9, first_leader=choice)
    assert fixed.leader == leader and fixed.deck == drawn.deck


def test_big_cheese_seat_bonus_is_extra_starting_chips():
    state = get_game("big-cheese").new_state(4, 1, seat_bonus="0,1,2,3")
    assert state.pool == [10, 11, 12, 13]
    game = get_game("big-cheese")
    record = play_game(game, _bots(game, 4), 1, 4, {"seat_bonus": "0,1,2,3"})
    assert record.winners or record.truncated


# --- Tabula Rasa --------------------------------------------------------------------------------


def test_tabula_rasa_starting_player_lever():
    game = get_game("tabula-rasa")
    first = game.new_state(3, 5)
    last = game.new_state(3, 5, starting_player="last")
    assert first.current_player() == 0 and last.current_player() == 2
    assert last.hands == first.hands and last.deck == first.deck
    drawn = {game.new_state(3, seed, starting_player="random").current_player()
             for seed in range(40)}
    assert drawn == {0, 1, 2}
    assert game.new_state(3, 7, starting_player="random").current_player() == \
        kit.first_seat("random", 3, 7)


def test_tabula_rasa_play_goes_clockwise_from_the_starting_player():
    state = get_game("tabula-rasa").new_state(4, 5, starting_player="last")
    seen = []
    for _ in range(6):
        seen.append(state.current_player())
        state.apply_action(state.legal_actions()[0])
    assert seen == [3, 0, 1, 2, 3, 0]


def test_tabula_rasa_seat_bonus_adds_points_and_teams_add_their_seats():
    game = get_game("tabula-rasa")
    bots = _bots(game, 4, "heuristic")
    base = play_game(game, bots, 3, 4)
    bonus = play_game(game, bots, 3, 4, {"seat_bonus": "0,1,0,2"})
    assert bonus.scores == [base.scores[0], base.scores[1] + 3, base.scores[2],
                            base.scores[3] + 3]


# --- Ivanhoe ------------------------------------------------------------------------------------


@pytest.mark.parametrize("choice, starter", [("first", 0), ("last", 3)])
def test_ivanhoe_first_tournament_starter_lever(choice, starter):
    state = get_game("ivanhoe").new_state(4, 6, first_starter=choice)
    assert state.stats.failed_starts == 0  # this deal: the named seat can start
    assert state.starter == starter


def test_ivanhoe_seat_bonus_deals_extra_cards():
    game = get_game("ivanhoe")
    base = game.new_state(4, 6, first_starter="first")
    bonus = game.new_state(4, 6, first_starter="first", seat_bonus="0,0,1,2")
    sizes = [len(h) for h in bonus.hands]
    assert sizes[1:] == [len(base.hands[1]), len(base.hands[2]) + 1, len(base.hands[3]) + 2]


# --- every game ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(GAMES))
def test_seat_bonus_needs_one_whole_number_per_seat(name):
    game = get_game(name)
    with pytest.raises(ValueError, match="one per seat"):
        game.new_state(3, 1, seat_bonus="1,2")
    with pytest.raises(ValueError, match=">= 0"):
        game.make_rules(seat_bonus="0,-1,2")
    with pytest.raises(ValueError, match="whole numbers"):
        game.make_rules(seat_bonus="0,x,2")
    assert "seat_bonus" in {option["name"] for option in rule_options(game.Rules)}


def test_run_spec_rejects_a_seat_bonus_of_the_wrong_length():
    from analysis.run import tournament

    spec = tournament.RunSpec(game="tabula-rasa", players=3, games=2, bots=("random",) * 3, seed=1,
                              rules={"seat_bonus": "1,2"})
    with pytest.raises(ValueError, match="one per seat"):
        spec.validated()


def test_tabula_rasa_heuristic_counts_its_plays_from_the_turn_table():
    """Under the starting_player lever every seat still plays 16 of the 48 plies, read from
    the turn table the heuristic's plays-left estimate now uses, and games finish."""
    game = get_game("tabula-rasa")
    bots = _bots(game, 3, "heuristic")
    for seed in range(3):
        state = game.new_state(3, seed, starting_player="last")
        assert sum(1 for p in range(state.ply, state.total_plies)
                   if state._next[p] == 2) == 16
        record = play_game(game, bots, seed, 3, {"starting_player": "last"})
        assert record.decisions == 48 and not record.truncated
