"""The shared playout helper (`tests/playouts.py`): tests that check every position of a game
rely on it to yield each position once, as the mover finds it, and the same ones for the
same arguments."""

from __future__ import annotations

from tests.playouts import final, play_on, playout, positions, random_midgame
from tests.toy_games import NIM


def test_playout_yields_every_position_once_and_the_end_last():
    piles, moves = [], []
    for state in playout(NIM, 2, 3, rules={"pile": 12}, on_move=lambda s, a: moves.append(a)):
        piles.append(state.pile)
    assert piles[0] == 12 and piles[-1] == 0
    assert len(piles) == len(moves) + 1
    assert [a - b for a, b in zip(piles, piles[1:])] == moves


def test_same_arguments_play_the_same_game_and_other_seeds_another():
    def game(seed: int, bots=None) -> list[int]:
        return [s.pile for s in playout(NIM, 3, seed, bots, rules={"pile": 30})]

    assert game(5) == game(5)
    assert any(game(5) != game(seed) for seed in range(6, 10))
    assert game(5, "heuristic") == game(5, "heuristic")


def test_max_moves_stops_early_and_final_returns_that_position():
    state = final(NIM, 2, 0, rules={"pile": 20}, max_moves=3)
    assert not state.is_terminal() and state.pile < 20
    assert final(NIM, 2, 0, rules={"pile": 20}).is_terminal()


def test_positions_plays_one_game_per_seed():
    ends = [s for s in positions(NIM, 2, range(4), rules={"pile": 7}) if s.is_terminal()]
    assert len(ends) == 4


def test_random_midgame_is_part_way_and_play_on_finishes_it():
    state = random_midgame(NIM, 2, 1, 0.5)
    start = NIM.new_state(2, 1).pile
    assert 0 < state.pile < start
    assert play_on(state, 1) is state and state.is_terminal()
