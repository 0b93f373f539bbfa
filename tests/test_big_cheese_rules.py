"""Scenario tests for The Big Cheese: one per rule and per ruling of shared/rules/big_cheese.md."""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter

import pytest

from engines import get_game, play_game
from engines.big_cheese.actions import (
    ACT_BIG_CHEESE,
    ACT_KEEP,
    ACT_NO_VETO,
    ACT_ROLL_NEXT,
    ACT_VETO,
    ORDER,
    PASS,
    ROLL,
    VETO_WINDOW,
)
from engines.big_cheese.components import BIG_CHEESE, DECK, VETO
from engines.big_cheese.rules import Rules
from engines.big_cheese.state import BigCheeseState, create_state
from engines.bots import make_bot
from tests.playouts import playout

GAME = get_game("big-cheese")


class Dice(random.Random):
    """A stand-in for the state's rng that rolls scripted faces (`(face, sides)` pairs).

    A `random.Random` (the compiled state's `rng` is typed): only `random` is scripted."""

    def __init__(self, *rolls: tuple[int, int]) -> None:
        super().__init__(0)
        self.values = [(face - 0.5) / sides for face, sides in rolls]

    def random(self) -> float:
        return self.values.pop(0)

    def getstate(self):  # snapshot() support
        return tuple(self.values)


def setup(
    n: int = 4,
    deck: list[int] | None = None,
    leader: int = 0,
    pool: list[int] | None = None,
    projects: dict[int, list[tuple[int, int]]] | None = None,
    vetoes: list[int] | None = None,
    cheeses: list[int] | None = None,
    points: list[int] | None = None,
    **rules,
) -> BigCheeseState:
    """A fresh auction in an exact situation; `deck` lists cards bottom..top (top = last);
    `projects` maps a seat to its (card, chips on it) pairs, oldest first."""
    state = create_state(n, 0, Rules(**rules))
    state.deck = list(deck) if deck is not None else [2, 4, 6, 8]
    state.known_bottom = 0
    state.leader = leader
    if pool is not None:
        state.pool = list(pool)
    for seat, items in (projects or {}).items():
        state.proj_cards[seat] = [c for c, _ in items]
        state.proj_due[seat] = [state.awards + k for _, k in items]
    if vetoes is not None:
        state.vetoes = list(vetoes)
    if cheeses is not None:
        state.cheeses = list(cheeses)
    if points is not None:
        state.points = list(points)
    state.rounds = 0
    state._legal_cache = None
    state.start_auction()
    return state


def bids(state: BigCheeseState) -> list[int]:
    return [a for a in state.legal_actions() if 0 < a < 1000]


def play(state: BigCheeseState, *actions: int) -> None:
    for action in actions:
        state.apply_action(action)


def chips_on(state: BigCheeseState, seat: int) -> list[int]:
    return state.project_chips(seat)


# ------------------------------------------------------------------ components and setup
def test_components_36_cards_four_of_each_number_four_veto_four_big_cheese():
    counts = Counter(DECK)
    assert len(DECK) == 36
    assert {v: counts[v] for v in (2, 4, 6, 8, 10, 12, 20)} == dict.fromkeys(
        (2, 4, 6, 8, 10, 12, 20), 4
    )
    assert counts[VETO] == 4 and counts[BIG_CHEESE] == 4


def test_setup_ten_chips_each_shuffled_deck_and_random_first_leader():
    leaders = set()
    for seed in range(40):
        state = GAME.new_state(5, seed)
        assert state.pool == [10] * 5
        assert sorted(state.deck) == sorted(DECK)
        leaders.add(state.leader)
        assert state.current_player() == state.leader
    assert leaders == set(range(5))
    assert GAME.new_state(3, 1, chips=7).pool == [7, 7, 7]


def test_deck_is_face_up_top_card_visible_deeper_cards_not():
    state = setup(deck=[20, 12, 2, 10])
    seen = state.observation(1)
    assert seen["top"] == 10
    assert seen["deck_size"] == 4
    assert 20 not in [seen[k] for k in seen if k != "deck_size"]


# ------------------------------------------------------------------ bidding
def test_bidding_starts_with_the_leader_and_goes_clockwise():
    state = setup(leader=2)
    order = []
    for _ in range(4):
        order.append(state.current_player())
        state.apply_action(bids(state)[0])
    assert order == [2, 3, 0, 1]


def test_minimum_bid_is_one_and_bids_are_at_most_the_free_chips():
    state = setup(pool=[4, 10, 10, 10])
    assert bids(state) == [1, 2, 3, 4]
    assert PASS in state.legal_actions()


def test_bid_must_be_strictly_higher_than_the_current_bid():
    state = setup()
    play(state, 3)
    assert state.current_player() == 1
    assert bids(state) == list(range(4, 11))


def test_passing_is_final_for_the_round():
    state = setup()
    play(state, 1, PASS)  # seat 1 passes
    turns = []
    for _ in range(6):
        if state.current_player() != 0 and state.current_player() != 2:
            break
        turns.append(state.current_player())
        state.apply_action(bids(state)[0])
    assert 1 not in turns
    assert state.passed[1]


def test_auction_closes_when_only_the_high_bidder_remains_and_losers_pay_nothing():
    state = setup(deck=[2, 4, 12])
    play(state, 2, 3, PASS, PASS, PASS)  # seat 1 holds the high bid of 3
    assert state.proj_cards[1] == [12]
    assert chips_on(state, 1) == [3]
    assert state.pool == [10, 7, 10, 10]
    assert state.deck[-1] == 4 and state.current_player() == 1


def test_a_seat_that_can_neither_outbid_nor_veto_is_passed_automatically():
    state = setup(pool=[10, 2, 10, 10])
    play(state, 5)
    assert state.current_player() == 2
    assert state.passed[1]


# ------------------------------------------------------------------ award, advance, mature
def test_award_winner_becomes_the_next_leader():
    state = setup(leader=0, deck=[2, 4, 6])
    play(state, PASS, PASS, 1, PASS)
    assert state.leader == 2 and state.current_player() == 2


def test_ruling_B3_the_project_just_won_keeps_all_its_chips():
    state = setup(deck=[2, 4, 6])
    play(state, 3, PASS, PASS, PASS)
    assert chips_on(state, 0) == [3]


def test_ruling_B3_project_won_with_bid_b_matures_at_the_bth_later_award():
    state = setup(n=3, deck=[2] * 6 + [20])
    state.rng = Dice(*[(1, 6)] * 10)
    play(state, 3, PASS, PASS)  # seat 0 wins the 20 with 3 chips
    for later in (1, 2, 3):
        assert 20 in state.proj_cards[0]
        play(state, PASS, 1, PASS)  # the leader passes, the next seat takes a 2 for 1 chip
        if later < 3:
            assert chips_on(state, 0)[0] == 3 - later
    assert 20 not in state.proj_cards[0]
    assert state.score_breakdown()["project_20"][0] == 20


def test_ruling_B4_every_older_project_of_every_player_returns_one_chip():
    projects = {0: [(8, 3)], 1: [(4, 2), (6, 5)], 3: [(10, 4)]}
    state = setup(deck=[2, 12], pool=[7, 3, 10, 6], projects=projects)
    play(state, 2, PASS, PASS, PASS)  # seat 0 wins the 12 for 2
    assert chips_on(state, 0) == [2, 2]  # the older 8 lost one, the new 12 kept its 2
    assert chips_on(state, 1) == [1, 4]
    assert chips_on(state, 3) == [3]
    assert state.pool == [7 - 2 + 1, 3 + 2, 10, 6 + 1]


def test_veto_and_all_pass_rounds_are_not_awards_and_advance_nothing():
    state = setup(deck=[2, 12], vetoes=[0, 1, 0, 0], projects={2: [(8, 1)]}, pool=[10, 10, 9, 10])
    play(state, 4, ACT_VETO)
    assert chips_on(state, 2) == [1] and state.awards == 0 and state.points == [0] * 4


def test_completion_when_the_last_chip_leaves_number_card_scores_and_is_discarded():
    state = setup(deck=[2, 4], projects={1: [(12, 1)]}, pool=[10, 9, 10, 10])
    state.rng = Dice((5, 6))
    play(state, 1, PASS, PASS, PASS)
    assert state.points[1] == 60
    assert state.proj_cards[1] == [] and 12 in state.discard
    assert state.pool[1] == 10


def test_matured_special_goes_to_the_owners_hand():
    projects = {2: [(VETO, 1), (BIG_CHEESE, 1)]}
    state = setup(deck=[2, 4], projects=projects, pool=[10, 10, 8, 10])
    play(state, 1, PASS, PASS, PASS)
    assert state.vetoes[2] == 1 and state.cheeses[2] == 1
    assert state.proj_cards[2] == [] and VETO not in state.discard


def test_scoring_d6_is_one_d6_times_the_card_value():
    state = setup(deck=[2, 4], projects={0: [(20, 1)]}, pool=[9, 10, 10, 10])
    state.rng = Dice((3, 6))
    play(state, PASS, 1, PASS, PASS)
    assert state.points[0] == 60
    assert state.score_breakdown()["project_20"][0] == 60


@pytest.mark.parametrize("card", [4, 6, 8, 10, 12, 20])
def test_scoring_polyhedral_rolls_the_die_matching_the_card(card):
    state = setup(deck=[2, 4], projects={0: [(card, 1)]}, pool=[9, 10, 10, 10], dice="polyhedral")
    state.rng = Dice((card, card))  # top face of the card's die
    play(state, PASS, 1, PASS, PASS)
    assert state.points[0] == card


def first_roll_points(card: int, seed: int, **rules) -> int:
    """Points of the first roll of a maturing `card` project, through an award (the path
    every first roll takes: `award` -> `_resolve_pending`), with a seeded rng."""
    state = setup(deck=[2, 4], projects={0: [(card, 1)]}, pool=[9, 10, 10, 10], **rules)
    state.rng = random.Random(seed)
    play(state, PASS, 1, PASS, PASS)  # seat 1 wins the 4: seat 0's last chip leaves the card
    assert state.proj_cards[0] == [] and card in state.discard
    return state.points[0]


def test_ruling_B6_the_2_is_odd_even_uniform_1_or_2_in_polyhedral_and_2xd6_in_d6():
    rolls = Counter(first_roll_points(2, seed, dice="polyhedral") for seed in range(800))
    assert set(rolls) == {1, 2} and abs(rolls[1] - 400) < 60
    assert {first_roll_points(2, seed) for seed in range(300)} == {2, 4, 6, 8, 10, 12}


def test_ruling_B6_a_big_cheese_reroll_of_the_2_uses_the_same_die():
    poly = setup(dice="polyhedral")
    poly.rng = random.Random(5)
    rolls = Counter(poly.roll_die(2) for _ in range(4000))
    assert set(rolls) == {1, 2} and abs(rolls[1] - 2000) < 200
    d6 = setup()
    d6.rng = random.Random(5)
    assert {d6.roll_die(2) for _ in range(2000)} == {2, 4, 6, 8, 10, 12}


def test_ruling_B5_polyhedral_rolls_each_face_of_the_card_die():
    faces = {first_roll_points(20, seed, dice="polyhedral") for seed in range(400)}
    assert faces == set(range(1, 21))


# ------------------------------------------------------------------ Veto
def test_veto_instead_of_a_bid_even_without_enough_chips():
    state = setup(pool=[10, 0, 10, 10], vetoes=[0, 1, 0, 0])
    play(state, 6)
    assert state.current_player() == 1
    assert state.legal_actions() == [PASS, ACT_VETO]


def test_veto_not_allowed_once_passed():
    state = setup(vetoes=[0, 1, 0, 0])
    play(state, 1, PASS)  # seat 1 passes while holding a Veto
    seen = []
    while state.current_player() in (0, 2, 3) and state.proj_cards == [[]] * 4:
        seen.append(state.current_player())
        state.apply_action(PASS)
    assert 1 not in seen
    assert state.vetoes[1] == 1


def test_veto_discards_project_and_veto_nobody_pays_leader_unchanged():
    projects = {0: [(8, 1)]}
    state = setup(leader=3, deck=[6, 20], vetoes=[0, 1, 0, 0], projects=projects,
                  pool=[9, 10, 10, 10])
    play(state, 5, PASS, ACT_VETO)  # seat 3 bids 5, seat 0 passes, seat 1 vetoes
    assert sorted(state.discard) == sorted([20, VETO])
    assert state.vetoes[1] == 0
    assert state.pool == [9, 10, 10, 10]
    assert chips_on(state, 0) == [1]  # no chip came back
    assert state.leader == 3 and state.current_player() == 3
    assert state.deck[-1] == 6


def test_ruling_B8_a_veto_may_target_a_special_card():
    state = setup(deck=[6, BIG_CHEESE], vetoes=[1, 0, 0, 0])
    play(state, ACT_VETO)
    assert BIG_CHEESE in state.discard and state.deck[-1] == 6


def test_ruling_B8_veto_only_on_your_own_bidding_turn_by_default():
    state = setup(vetoes=[0, 0, 1, 0])
    for seat in (0, 1):
        assert state.current_player() == seat
        assert ACT_VETO not in state.legal_actions()
        state.apply_action(bids(state)[0])
    assert ACT_VETO in state.legal_actions()


def test_ruling_B8_veto_any_time_option_gives_passed_holders_a_last_chance():
    state = setup(deck=[6, 20], vetoes=[0, 1, 0, 0], veto_any_time=True)
    play(state, 3, PASS, PASS, PASS)
    assert state.phase == VETO_WINDOW and state.current_player() == 1
    assert state.legal_actions() == [ACT_NO_VETO, ACT_VETO]
    play(state, ACT_VETO)
    assert 20 in state.discard and state.proj_cards[0] == [] and state.pool[0] == 10
    other = setup(deck=[6, 20], vetoes=[0, 1, 0, 0], veto_any_time=True)
    play(other, 3, PASS, PASS, PASS, ACT_NO_VETO)
    assert other.proj_cards[0] == [20]


# ------------------------------------------------------------------ Big Cheese
def test_big_cheese_rerolls_your_own_roll_and_the_new_result_stands_even_if_worse():
    state = setup(deck=[2, 4], projects={0: [(20, 1)]}, pool=[9, 10, 10, 10],
                  cheeses=[1, 0, 0, 0])
    state.rng = Dice((5, 6), (1, 6))
    play(state, PASS, 1, PASS, PASS)
    assert state.phase == ROLL and state.current_player() == 0
    assert state.roll_points == 100
    play(state, ACT_BIG_CHEESE)
    assert state.points[0] == 20
    assert state.cheeses[0] == 0 and BIG_CHEESE in state.discard
    assert state.metrics()["big_cheese_net_points"] == -80


def test_big_cheese_keep_scores_the_first_roll_and_keeps_the_card():
    state = setup(deck=[2, 4], projects={0: [(10, 1)]}, pool=[9, 10, 10, 10],
                  cheeses=[1, 0, 0, 0])
    state.rng = Dice((4, 6))
    play(state, PASS, 1, PASS, PASS, ACT_KEEP)
    assert state.points[0] == 40 and state.cheeses[0] == 1


def test_big_cheese_cannot_force_an_opponent_to_reroll():
    state = setup(deck=[2, 4], projects={0: [(20, 1)]}, pool=[9, 10, 10, 10],
                  cheeses=[0, 1, 1, 1])
    state.rng = Dice((6, 6))
    play(state, PASS, 1, PASS, PASS)
    assert state.points[0] == 120  # nobody was asked
    assert state.phase != ROLL and state.cheeses == [0, 1, 1, 1]


def test_big_cheese_maturing_in_the_same_step_can_reroll_that_projects_roll():
    projects = {2: [(BIG_CHEESE, 1), (12, 1)]}
    state = setup(deck=[2, 4], projects=projects, pool=[10, 10, 8, 10])
    state.rng = Dice((1, 6), (6, 6))
    play(state, 1, PASS, PASS, PASS)
    assert state.phase == ROLL and state.current_player() == 2
    play(state, ACT_BIG_CHEESE)
    assert state.points[2] == 72


def test_ruling_B7_several_big_cheeses_chain_on_one_roll():
    state = setup(deck=[2, 4], projects={0: [(20, 1)]}, pool=[9, 10, 10, 10],
                  cheeses=[2, 0, 0, 0])
    state.rng = Dice((1, 6), (2, 6), (6, 6))
    play(state, PASS, 1, PASS, PASS, ACT_BIG_CHEESE)
    assert state.phase == ROLL and state.roll_points == 40  # may re-roll again
    play(state, ACT_BIG_CHEESE)
    assert state.points[0] == 120 and state.cheeses[0] == 0


def test_ruling_B7_no_chaining_when_big_cheese_chain_is_off():
    state = setup(deck=[2, 4], projects={0: [(20, 1)]}, pool=[9, 10, 10, 10],
                  cheeses=[2, 0, 0, 0], big_cheese_chain=False)
    state.rng = Dice((1, 6), (2, 6))
    play(state, PASS, 1, PASS, PASS, ACT_BIG_CHEESE)
    assert state.points[0] == 40 and state.cheeses[0] == 1 and state.phase != ROLL


# ------------------------------------------------------------------ order, deck, end
def test_ruling_B9_maturings_resolve_clockwise_from_the_award_winner_then_win_check():
    projects = {0: [(10, 1)], 1: [(20, 1)], 3: [(4, 1)]}
    state = setup(leader=2, deck=[2, 6], projects=projects, pool=[9, 9, 10, 9],
                  points=[0, 0, 0, 190])
    state.rng = Dice((6, 6), (5, 6), (4, 6))
    play(state, 1, PASS, PASS, PASS)  # seat 2 wins: order 3, 0, 1
    assert state.points == [50, 80, 0, 190 + 24]
    assert state.is_terminal() and state.winners() == [3]


def test_deck_reshuffles_the_discards_when_it_runs_out():
    state = setup(deck=[6], projects={1: [(VETO, 5)]}, pool=[10, 5, 10, 10])
    state.discard = [2, 4, 20]
    play(state, 1, PASS, PASS, PASS)
    assert sorted(state.deck) == [2, 4, 20] and state.discard == []
    assert state.metrics()["reshuffles"] == 1
    assert state.proj_cards[0] == [6] and state.proj_cards[1] == [VETO]


def test_ruling_B12_empty_deck_and_discards_end_the_game_on_scores():
    state = setup(deck=[6], points=[5, 9, 9, 1])
    play(state, 1, PASS, PASS, PASS)
    assert state.is_terminal()
    assert state.winners() == [1, 2] and state.end_reason == "exhausted"


def test_ruling_B12_round_cap_ends_the_game_on_scores():
    state = setup(deck=[2] * 10, points=[3, 0, 0, 0], max_rounds=2)
    play(state, PASS, PASS, PASS, PASS)  # round 1: all pass
    play(state, PASS, PASS, PASS, PASS)  # round 2: all pass
    assert state.is_terminal() and state.winners() == [0]
    assert state.metrics()["round_capped"] == 1


def test_win_first_to_200_in_d6():
    state = setup(deck=[2, 4], projects={1: [(20, 1)]}, pool=[10, 9, 10, 10],
                  points=[0, 140, 0, 0])
    state.rng = Dice((3, 6))
    play(state, 1, PASS, PASS, PASS)
    assert state.is_terminal() and state.winners() == [1] and state.points[1] == 200


def test_no_win_below_the_target():
    state = setup(deck=[2, 4], projects={1: [(20, 1)]}, pool=[10, 9, 10, 10],
                  points=[0, 140, 0, 0])
    state.rng = Dice((2, 6))
    play(state, 1, PASS, PASS, PASS)
    assert not state.is_terminal() and state.points[1] == 180


def test_win_target_40_in_polyhedral():
    state = setup(deck=[2, 4], projects={1: [(12, 1)]}, pool=[10, 9, 10, 10],
                  points=[0, 30, 0, 0], dice="polyhedral")
    state.rng = Dice((10, 12))
    play(state, 1, PASS, PASS, PASS)
    assert state.is_terminal() and state.winners() == [1]


def test_simultaneous_crossings_the_higher_total_wins():
    projects = {1: [(20, 1)], 2: [(10, 1)]}
    state = setup(deck=[2, 4], projects=projects, pool=[10, 9, 9, 10],
                  points=[0, 150, 190, 0])
    state.rng = Dice((6, 6), (3, 6))
    play(state, 1, PASS, PASS, PASS)
    assert state.points[1] == 270 and state.points[2] == 220
    assert state.winners() == [1]
    assert state.metrics()["same_round_crossers"] == 2


def test_ruling_B10_equal_totals_in_the_same_round_share_the_win():
    projects = {1: [(20, 1)], 2: [(10, 1)]}
    state = setup(deck=[2, 4], projects=projects, pool=[10, 9, 9, 10],
                  points=[0, 140, 170, 0])
    state.rng = Dice((4, 6), (5, 6))
    play(state, 1, PASS, PASS, PASS)
    assert state.points[1] == state.points[2] == 220
    assert state.winners() == [1, 2]


def test_ruling_B11_exact30_overshooting_roll_is_void_card_still_discarded():
    state = setup(deck=[2, 4], projects={1: [(20, 1)]}, pool=[10, 9, 10, 10],
                  points=[0, 25, 0, 0], dice="polyhedral", exact=30)
    state.rng = Dice((6, 20))
    play(state, 1, PASS, PASS, PASS)
    assert state.points[1] == 25 and 20 in state.discard and not state.is_terminal()


def test_ruling_B11_exact30_exactly_30_wins():
    state = setup(deck=[2, 4], projects={1: [(8, 1)]}, pool=[10, 9, 10, 10],
                  points=[0, 25, 0, 0], dice="polyhedral", exact=30)
    state.rng = Dice((5, 8))
    play(state, 1, PASS, PASS, PASS)
    assert state.is_terminal() and state.winners() == [1] and state.points[1] == 30


def test_ruling_B7_big_cheese_may_reroll_a_bust_in_exact30():
    state = setup(deck=[2, 4], projects={1: [(20, 1)]}, pool=[10, 9, 10, 10],
                  points=[0, 25, 0, 0], dice="polyhedral", exact=30, cheeses=[0, 1, 0, 0])
    state.rng = Dice((9, 20), (5, 20))
    play(state, 1, PASS, PASS, PASS)
    assert state.phase == ROLL and state.current_player() == 1
    play(state, ACT_BIG_CHEESE)
    assert state.points[1] == 30 and state.winners() == [1]


def exact30_older_4_newer_6(**rules) -> BigCheeseState:
    """Exact-30, seat 1 at 25 points: its older 4 and newer 6 both mature at the next award
    (seat 0 wins it for 1 chip), and the order decides which roll is void."""
    state = setup(deck=[2, 8], projects={1: [(4, 1), (6, 1)]}, pool=[10, 8, 10, 10],
                  points=[0, 25, 0, 0], dice="polyhedral", exact=30, **rules)
    play(state, 1, PASS, PASS, PASS)
    return state


def test_exact30_order_owner_chooses_which_project_completes_first():
    state = exact30_older_4_newer_6()
    assert state.phase == ORDER and state.current_player() == 1
    assert state.legal_actions() == [ACT_ROLL_NEXT + 4, ACT_ROLL_NEXT + 6]
    newer_first = state.clone()
    # faces 3 (d4) and 5 (d6): the 4 first gives 28, then the 5 overshoots and is void
    state.rng = Dice((3, 4), (5, 6))
    play(state, ACT_ROLL_NEXT + 4)
    assert state.points[1] == 28 and not state.is_terminal()
    # the 6 first gives exactly 30 (a win), then the 3 overshoots and is void
    newer_first.rng = Dice((5, 6), (3, 4))
    play(newer_first, ACT_ROLL_NEXT + 6)
    assert newer_first.points[1] == 30 and newer_first.winners() == [1]


def test_exact30_order_decision_survives_clone_and_determinize():
    state = exact30_older_4_newer_6()
    for world in (state.clone(), state.determinize(1, random.Random(3))):
        assert world.current_player() == 1 and world.legal_actions() == state.legal_actions()
        assert world.observation(1) == state.observation(1)
        assert world.action_to_str(ACT_ROLL_NEXT + 6) == "roll the 6 next"
        world.rng = Dice((2, 6), (1, 4))
        world.apply_action(ACT_ROLL_NEXT + 6)  # both roll (no Big Cheese): the next auction
        assert world.points[1] == 28 and world.current_player() == 0


def test_exact30_order_oldest_option_rolls_oldest_first_without_a_decision():
    state = setup(deck=[2, 8], projects={1: [(4, 1), (6, 1)]}, pool=[10, 8, 10, 10],
                  points=[0, 25, 0, 0], dice="polyhedral", exact=30, exact_order="oldest")
    state.rng = Dice((3, 4), (5, 6))
    play(state, 1, PASS, PASS, PASS)
    assert state.points[1] == 28 and state.phase != ORDER and not state.is_terminal()


def test_exact30_order_no_decision_outside_exact30_or_for_alike_projects():
    state = setup(deck=[2, 8], projects={1: [(4, 1), (6, 1)]}, pool=[10, 8, 10, 10],
                  dice="polyhedral")
    state.rng = Dice((3, 4), (5, 6))
    play(state, 1, PASS, PASS, PASS)
    assert state.points[1] == 8 and state.current_player() == 0  # next auction
    state = setup(deck=[2, 8], projects={1: [(4, 1), (4, 1)]}, pool=[10, 8, 10, 10],
                  points=[0, 25, 0, 0], dice="polyhedral", exact=30)
    state.rng = Dice((3, 4), (4, 4))
    play(state, 1, PASS, PASS, PASS)
    assert state.points[1] == 28 and state.current_player() == 0


def test_exact30_order_choice_then_big_cheese_decision_then_the_next_choice():
    # seat 1 holds a Big Cheese; its 4, 6 and 8 (oldest first) all mature at this award
    state = setup(deck=[2, 8], projects={1: [(4, 1), (6, 1), (8, 1)]}, pool=[10, 7, 10, 10],
                  points=[0, 20, 0, 0], dice="polyhedral", exact=30, cheeses=[0, 1, 0, 0])
    state.rng = Dice((3, 8), (4, 4), (3, 6))
    play(state, 1, PASS, PASS, PASS)
    assert state.legal_actions() == [ACT_ROLL_NEXT + 4, ACT_ROLL_NEXT + 6, ACT_ROLL_NEXT + 8]
    play(state, ACT_ROLL_NEXT + 8)
    assert state.phase == ROLL and (state.roll_card, state.roll_points) == (8, 3)
    play(state, ACT_KEEP)
    assert state.points[1] == 23 and state.phase == ORDER and state.current_player() == 1
    assert state.legal_actions() == [ACT_ROLL_NEXT + 4, ACT_ROLL_NEXT + 6]
    play(state, ACT_ROLL_NEXT + 4, ACT_KEEP)  # 27; the 6 is the last: no decision
    assert state.phase == ROLL and state.roll_card == 6
    play(state, ACT_KEEP)
    assert state.points[1] == 30 and state.winners() == [1]


@pytest.mark.parametrize("points,cheeses,asked", [
    (20, 0, False),  # 20 + 4 + 6 = 30 at most: no order can void a roll
    (21, 0, True),   # 21 + 4 + 6 = 31: a 4 then a 6 can overshoot where a 6 then a 4 may not
    (10, 1, True),   # a Big Cheese: which roll it may re-roll follows the order
])
def test_exact30_order_is_asked_only_when_the_order_can_change_the_result(
        points, cheeses, asked):
    state = setup(deck=[2, 8], projects={1: [(4, 1), (6, 1)]}, pool=[10, 8, 10, 10],
                  points=[0, points, 0, 0], dice="polyhedral", exact=30,
                  cheeses=[0, cheeses, 0, 0])
    state.rng = Dice((3, 4), (5, 6))
    play(state, 1, PASS, PASS, PASS)
    assert (state.phase == ORDER) is asked
    if not asked:  # rolled at once, oldest first (B9): the 4's 3, then the 6's 5
        assert state.points[1] == points + 8 and state.current_player() == 0


def test_exact30_order_alike_projects_move_the_oldest_of_that_value():
    state = setup(deck=[2, 8], projects={1: [(4, 1), (6, 1), (4, 1)]}, pool=[10, 7, 10, 10],
                  points=[0, 20, 0, 0], dice="polyhedral", exact=30)
    play(state, 1, PASS, PASS, PASS)
    state.rng = Dice((1, 4), (2, 6), (4, 4))
    play(state, ACT_ROLL_NEXT + 4)  # rolls the oldest 4; the 6 and the other 4 remain
    assert state.points[1] == 21
    assert state.observation(1)["pending"] == [[1, 6], [1, 4]]


@functools.cache
def exact_hit_chance(room: int, cards: tuple[int, ...]) -> float:
    """The exact optimum: chance to add exactly `room` points rolling the polyhedral `cards`
    one at a time in the best order (overshooting rolls void; Big Cheeses ignored)."""
    if room == 0:
        return 1.0
    return max((first_roll_chance(room, i, cards) for i in range(len(cards))), default=0.0)


def first_roll_chance(room: int, i: int, cards: tuple[int, ...]) -> float:
    rest = cards[:i] + cards[i + 1 :]
    faces = range(1, cards[i] + 1)
    return sum(exact_hit_chance(room - f if f <= room else room, rest) for f in faces) / cards[i]


def test_exact30_order_heuristic_rolls_first_the_project_most_likely_to_land_on_30():
    bot = make_bot("heuristic", GAME)
    assert bot.choose(exact30_older_4_newer_6(), random.Random(0)) == ACT_ROLL_NEXT + 6
    # this position by hand: the 6 first hits with (1 + 4 x 1/4)/6 = 1/3; the 4: 1/6
    assert first_roll_chance(5, 1, (4, 6)) == pytest.approx(1 / 3)
    assert first_roll_chance(5, 0, (4, 6)) == pytest.approx(1 / 6)
    # the bot's choice reaches the optimum in every position of two or three projects
    for k in (2, 3):
        for cards in itertools.combinations_with_replacement((2, 4, 6, 8, 10, 12, 20), k):
            if len(set(cards)) == 1:
                continue
            for room in range(1, 30):
                state = setup(deck=[2, 8], projects={1: [(c, 1) for c in cards]},
                              pool=[10, 10 - k, 10, 10], points=[0, 30 - room, 0, 0],
                              dice="polyhedral", exact=30)
                play(state, 1, PASS, PASS, PASS)
                if state.phase != ORDER:  # not asked: no order can void a roll, all hit alike
                    assert sum(cards) <= room
                    best = exact_hit_chance(room, cards)
                    assert all(first_roll_chance(room, i, cards) == pytest.approx(best)
                               for i in range(k))
                    continue
                choice = bot.choose(state, random.Random(0)) - ACT_ROLL_NEXT
                chance = first_roll_chance(room, cards.index(choice), cards)
                assert chance == pytest.approx(exact_hit_chance(room, cards)), (cards, room)


def test_exact_and_other_invalid_option_combinations_raise_value_error():
    with pytest.raises(ValueError, match="polyhedral"):
        GAME.make_rules(exact=30)
    with pytest.raises(ValueError, match="target"):
        GAME.make_rules(dice="polyhedral", exact=30, target=40)
    with pytest.raises(ValueError):
        GAME.make_rules(dice="d8")
    with pytest.raises(ValueError):
        GAME.make_rules(chips=0)
    with pytest.raises(ValueError):
        GAME.make_rules(all_pass="shrug")
    assert GAME.make_rules(dice="polyhedral").goal == 40
    assert GAME.make_rules().goal == 200
    assert GAME.make_rules(dice="polyhedral", exact="30").goal == 30
    assert GAME.make_rules(target="150").goal == 150


# ------------------------------------------------------------------ unclear cases
def test_ruling_B1_everyone_passes_the_card_is_discarded_like_a_veto():
    state = setup(leader=1, deck=[6, 20], projects={0: [(8, 1)]}, pool=[9, 10, 10, 10])
    play(state, PASS, PASS, PASS, PASS)
    assert state.discard == [20] and chips_on(state, 0) == [1]
    assert state.leader == 1 and state.current_player() == 1 and state.deck[-1] == 6
    assert state.metrics()["all_pass_rounds"] == 1


def test_ruling_B1_leader_forced_option_leader_takes_the_card_for_one_chip():
    state = setup(leader=1, deck=[6, 20], all_pass="leader_forced")
    play(state, PASS, PASS, PASS, PASS)
    assert state.proj_cards[1] == [20] and chips_on(state, 1) == [1] and state.pool[1] == 9


def test_ruling_B1_bury_option_puts_the_card_under_the_deck_publicly():
    state = setup(leader=1, deck=[6, 20], all_pass="bury")
    play(state, PASS, PASS, PASS, PASS)
    assert state.deck == [20, 6] and state.known_bottom == 1
    assert state.observation(0)["buried"] == [20]


def test_ruling_B2_leader_may_pass_by_default_and_must_open_with_the_option():
    assert PASS in setup().legal_actions()
    forced = setup(leader_must_open=True)
    assert forced.legal_actions() == list(range(1, 11))
    play(forced, 1)
    assert PASS in forced.legal_actions()  # later bidders may pass


def test_ruling_B13_after_every_award_all_but_the_winner_have_a_chip():
    game = GAME
    for seed in range(30):
        awards = 0
        for state in playout(game, 4, seed):
            if state.awards != awards and state.phase == 0:
                awards = state.awards
                broke = [s for s in range(4) if state.pool[s] == 0]
                assert broke in ([], [state.leader])


def test_ruling_B14_determinize_reshuffles_only_the_cards_below_the_top():
    state = setup(deck=[12, 2, 4, 6, 8, 10, 20], all_pass="bury")
    state.known_bottom = 1  # the 12 was buried in public
    worlds = {tuple(state.determinize(0, random.Random(s)).deck) for s in range(30)}
    assert len(worlds) > 1
    for deck in worlds:
        assert deck[0] == 12 and deck[-1] == 20
        assert sorted(deck) == sorted(state.deck)


# ------------------------------------------------------------------ reporting
def test_score_breakdown_by_project_value_sums_to_scores_and_metrics_count_specials():
    bots = [make_bot("heuristic", GAME) for _ in range(4)]
    used = Counter()
    for seed in range(20):
        record = play_game(GAME, bots, seed)
        for seat in range(4):
            total = sum(points[seat] for points in record.breakdown.values())
            assert total == record.scores[seat]
        assert set(record.breakdown) == {f"project_{v}" for v in (2, 4, 6, 8, 10, 12, 20)}
        used["veto"] += record.metrics["vetoes_played"]
        used["cheese"] += record.metrics["big_cheeses_played"]
        assert record.metrics["vetoes_played"] == sum(
            record.metrics[f"vetoes_played_p{s}"] for s in range(4)
        )
    assert used["veto"] > 0 and used["cheese"] > 0
