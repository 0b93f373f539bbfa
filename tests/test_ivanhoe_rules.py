"""Scenario tests for every rule and ruling of shared/rules/ivanhoe.md (names cite the file)."""

from __future__ import annotations

import random

import pytest

from engines import get_game, play_game
from engines.bots import make_bot
from engines.core import IllegalActionError
from engines.ivanhoe.actions import (
    A_COLOUR,
    A_END,
    A_IVANHOE,
    A_PASS,
    A_SHIELD_SLOT,
    A_STUNNED_SLOT,
    A_TOKEN,
    A_WITHDRAW,
    PH_ADAPT,
    PH_CLAIM,
    PH_COLOUR,
    PH_IVANHOE,
    PH_OVER,
    PH_PLAY,
    PH_RETURN,
    PH_START,
    PH_TARGET,
)
from engines.ivanhoe.components import (
    ADAPT,
    B2,
    B3,
    B4,
    B5,
    BLUE,
    BREAK_LANCE,
    CHANGE_WEAPON,
    CHARGE,
    COUNTERCHARGE,
    DISGRACE,
    DODGE,
    DROP_WEAPON,
    G1,
    GREEN,
    IVANHOE,
    KNOCK_DOWN,
    MAIDEN6,
    OUTMANEUVER,
    OUTWIT,
    P3,
    P4,
    P5,
    P7,
    PURPLE,
    R3,
    R4,
    R5,
    RED,
    RETREAT,
    RIPOSTE,
    SHIELD,
    SQUIRE2,
    SQUIRE3,
    STUNNED,
    UNHORSE,
    Y3,
    YELLOW,
)
from engines.ivanhoe.rules import Rules
from engines.ivanhoe.scenario import FULL, P, S, T, census, make
from engines.ivanhoe.state import IvanhoeState

GAME = get_game("ivanhoe")


def run(st: IvanhoeState, *actions: int) -> IvanhoeState:
    for a in actions:
        st.apply_action(a)
    return st


def colours_offered(st: IvanhoeState) -> set[int]:
    return {a - A_COLOUR for a in st.legal_actions()}


# ----------------------------------------------------------------------------- deck, setup


def test_deck_has_the_110_cards_of_the_rulebook_table():
    state = GAME.new_state(4, 1)
    assert sum(FULL.values()) == 110
    assert census(state) == FULL
    assert all(len(h) in (8, 9) for h in state.hands)  # the starter has drawn a 9th


def test_setup_first_starter_draws_before_choosing_a_colour():
    state = GAME.new_state(3, 5)
    assert state.phase == PH_START
    assert len(state.hands[state.starter]) == 9
    assert sum(len(h) for h in state.hands) == 25


# ----------------------------------------------------------------------------- starting


def _start(n: int, hands: list[list[int]], starter: int, last_final: int = -1,
           draws: list[int] | None = None) -> IvanhoeState:
    st = make(n, colour=-1, hands=hands, deck=draws or [G1] * 10)
    st.active = [False] * n
    st.last_final = last_final
    st.begin_start(starter)
    st._legal_cache = None
    return st


def test_start_colour_must_be_backed_by_a_card_or_a_supporter():
    st = _start(3, [[R3, B2, RIPOSTE], [], []], 0, draws=[Y3])
    assert colours_offered(st) == {RED, BLUE, YELLOW}
    st = _start(3, [[SQUIRE2, RIPOSTE], [], []], 0)
    assert colours_offered(st) == {PURPLE, RED, BLUE, YELLOW, GREEN}


def test_T1_no_purple_after_a_purple_final_colour():
    st = _start(3, [[SQUIRE2, P3], [], []], 0, last_final=PURPLE)
    assert colours_offered(st) == {RED, BLUE, YELLOW, GREEN}
    with pytest.raises(IllegalActionError):
        st.apply_action(A_COLOUR + PURPLE)


def test_T1_only_the_final_colour_counts_purple_unhorsed_to_red_allows_purple_next():
    # A starts purple, unhorses to red, B and C withdraw: A wins red, the final colour
    st = make(3, colour=PURPLE, hands=[[UNHORSE, P3], [], []], displays=[[P4], [], []],
              played=True, deck=[G1] * 10)
    run(st, P(UNHORSE), A_COLOUR + RED, A_END, A_WITHDRAW, A_WITHDRAW)
    assert st.tokens[0] == 1 << RED
    assert st.last_final == RED
    assert st.phase == PH_START and st.decider == 0
    assert PURPLE in colours_offered(st)  # A still holds a purple 3


def test_T2_starter_with_only_action_cards_shows_the_hand_and_passes_the_start_on():
    st = _start(3, [[RIPOSTE, DODGE], [R3, R4], []], 0, draws=[KNOCK_DOWN])
    # the draw happens first: the deck's only card (an action) goes to seat 0, who cannot start
    assert st.starter == 1 and st.decider == 1 and st.phase == PH_START
    assert sorted(st.known[0]) == sorted([RIPOSTE, DODGE, KNOCK_DOWN])
    assert st.observation(2)["known_in_hands"][0] == sorted([RIPOSTE, DODGE, KNOCK_DOWN])


def test_T2_revealed_hand_survives_determinization():
    st = _start(3, [[RIPOSTE, DODGE], [R3, R4], [B2, B3]], 0, draws=[KNOCK_DOWN])
    for k in range(5):
        world = st.determinize(1, random.Random(k))
        assert sorted(world.hands[0]) == sorted([RIPOSTE, DODGE, KNOCK_DOWN])
        assert len(world.hands[2]) == len(st.hands[2])


def test_T3_after_purple_a_hand_of_purple_and_actions_cannot_start():
    st = _start(3, [[P3, P7, RIPOSTE], [R3], []], 0, last_final=PURPLE, draws=[P4])
    assert st.starter == 1
    assert colours_offered(st) == {RED}  # seat 1 drew nothing useful (deck empty): red only


def test_T4_a_squire_and_actions_may_start_any_allowed_colour_by_playing_the_squire():
    st = _start(3, [[SQUIRE2, RIPOSTE, DODGE], [], []], 0, last_final=PURPLE, draws=[KNOCK_DOWN])
    assert colours_offered(st) == {RED, BLUE, YELLOW, GREEN}
    run(st, A_COLOUR + YELLOW)
    assert st.legal_actions() == [P(SQUIRE2)]
    run(st, P(SQUIRE2))
    assert st.displays[0] == [SQUIRE2] and st.colour == YELLOW


def test_T5_the_starter_may_not_open_with_an_action_card_and_must_play():
    st = _start(3, [[R3, DODGE, RIPOSTE], [], []], 0, draws=[G1])
    run(st, A_COLOUR + RED)
    assert st.legal_actions() == [P(R3)]  # no action card, no end of turn, no withdrawal
    for bad in (P(DODGE), A_END, A_WITHDRAW):
        with pytest.raises(IllegalActionError):
            st.apply_action(bad)
    run(st, P(R3))
    assert P(DODGE) not in st.legal_actions()  # nothing to dodge yet
    assert A_END in st.legal_actions()


def test_I14_nobody_able_to_start_ends_the_game_as_a_draw_after_the_cap():
    rules = Rules(max_failed_starts=2)
    st = make(2, colour=-1, hands=[[RIPOSTE], [DODGE]], deck=[], rules=rules)
    st.active = [False, False]
    st.begin_start(0)
    assert st.is_terminal() and st.stalled
    assert st.winners() == [0, 1]


# ----------------------------------------------------------------------------- display totals


def test_D1_must_end_the_turn_strictly_highest_or_withdraw():
    st = make(3, colour=RED, hands=[[], [R5, R3], []], displays=[[R3], [], []], turn=1)
    assert A_END not in st.legal_actions()  # nothing played yet
    run(st, P(R3))
    assert A_END not in st.legal_actions()  # 3 ties 3: not enough (I1)
    assert A_WITHDRAW in st.legal_actions()
    run(st, P(R5))
    assert A_END in st.legal_actions()


def test_I1_allow_ties_flag_lets_a_level_total_stay_in():
    st = make(3, colour=RED, hands=[[], [R3], []], displays=[[R3], [], [R3]], turn=1,
              rules=Rules(allow_ties=True))
    run(st, P(R3))
    assert A_END in st.legal_actions()


def test_I3_not_highest_means_the_only_way_to_end_the_turn_is_withdrawal():
    st = make(3, colour=RED, hands=[[], [R3, G1], []], displays=[[R5], [], []], turn=1,
              deck=[G1] * 5)
    run(st, P(R3))
    assert st.legal_actions() == [A_WITHDRAW]


def test_colour_cards_must_match_and_squires_fit_any_colour_any_number():
    st = make(3, colour=BLUE, hands=[[B2, R3, Y3, SQUIRE2, SQUIRE2, SQUIRE3], [], []])
    legal = st.legal_actions()
    assert P(B2) in legal and P(R3) not in legal and P(Y3) not in legal
    run(st, P(SQUIRE2), P(SQUIRE2), P(SQUIRE3), P(B2))
    assert st.displays[0] == [SQUIRE2, SQUIRE2, SQUIRE3, B2] and st.total(0) == 9


def test_D2_green_counts_every_card_as_one():
    st = make(3, colour=GREEN, displays=[[Y3, MAIDEN6, G1], [], []])
    assert st.total(0) == 3


def test_D3_one_maiden_at_a_time():
    st = make(3, colour=RED, hands=[[MAIDEN6, MAIDEN6], [], []], displays=[[R3], [], []])
    run(st, P(MAIDEN6))
    assert P(MAIDEN6) not in st.legal_actions()


def test_D4_stunned_player_adds_at_most_one_card_per_turn():
    st = make(3, colour=RED, hands=[[R3, R4, RIPOSTE], [], []], displays=[[R3], [R4, R5], []],
              stunned=0)
    run(st, P(R3))
    legal = st.legal_actions()
    assert P(R4) not in legal and P(RIPOSTE) not in legal


def test_D4_stunned_riposte_counts_as_the_one_card():
    st = make(3, colour=RED, hands=[[R3, RIPOSTE], [], []], displays=[[R3], [R4, R5], []],
              stunned=0)
    run(st, P(RIPOSTE), T(1))
    assert st.displays[0] == [R3, R5]
    assert P(R3) not in st.legal_actions()


def test_D4_stunned_outwit_is_a_swap_and_one_card_may_still_follow():
    st = make(3, colour=RED, hands=[[R4, OUTWIT], [], []], displays=[[R3], [R5, R4], []],
              stunned=0)
    run(st, P(OUTWIT), T(1), A_STUNNED_SLOT, S(0))  # give Stunned to seat 1, take red 5
    assert st.stunned_seat == 1
    assert st.displays == [[R3, R5], [R4], []]
    assert P(R4) in st.legal_actions()


def test_action_cards_alone_may_keep_a_player_in_if_highest():
    st = make(3, colour=RED, hands=[[], [RIPOSTE], []], displays=[[R3, R5], [R4], []],
              turn=1, active=[True, True, False])
    run(st, P(RIPOSTE), T(0))
    assert st.displays[1] == [R4, R5] and A_END in st.legal_actions()


# ----------------------------------------------------------------------------- colour changes


def test_C1_unhorse_only_in_purple_and_only_to_red_blue_or_yellow():
    st = make(3, colour=YELLOW, hands=[[UNHORSE], [], []], displays=[[Y3], [], []])
    assert P(UNHORSE) not in st.legal_actions()
    st = make(3, colour=PURPLE, hands=[[UNHORSE], [], []], displays=[[P3], [], []])
    run(st, P(UNHORSE))
    assert st.phase == PH_COLOUR
    assert colours_offered(st) == {RED, BLUE, YELLOW}
    run(st, A_COLOUR + BLUE)
    assert st.colour == BLUE and st.displays[0] == [P3]


def test_C2_change_weapon_to_another_weapon_and_drop_weapon_only_from_weapons():
    st = make(3, colour=RED, hands=[[CHANGE_WEAPON], [], []], displays=[[R3], [], []])
    run(st, P(CHANGE_WEAPON))
    assert colours_offered(st) == {BLUE, YELLOW}
    for colour in (PURPLE, GREEN):
        st = make(3, colour=colour, hands=[[DROP_WEAPON, CHANGE_WEAPON], [], []],
                  displays=[[SQUIRE2], [], []])
        assert P(DROP_WEAPON) not in st.legal_actions()
        assert P(CHANGE_WEAPON) not in st.legal_actions()
    st = make(3, colour=YELLOW, hands=[[DROP_WEAPON], [], []], displays=[[Y3], [], []])
    run(st, P(DROP_WEAPON))
    assert st.colour == GREEN


def test_colour_change_then_cards_of_the_new_colour_in_the_same_turn():
    st = make(3, colour=RED, hands=[[CHANGE_WEAPON, B4, R4], [], []], displays=[[R3], [], []])
    run(st, P(CHANGE_WEAPON), A_COLOUR + BLUE)
    legal = st.legal_actions()
    assert P(B4) in legal and P(R4) not in legal
    assert st.total(0) == 3  # the red 3 already displayed still counts


def test_S4_colour_change_works_while_someone_holds_the_shield():
    st = make(3, colour=PURPLE, hands=[[UNHORSE], [], []], displays=[[P3], [P4], []], shield=1)
    run(st, P(UNHORSE), A_COLOUR + RED)
    assert st.colour == RED


def test_C3_charge_in_green_with_only_green_ones_leaves_each_display_its_earliest_card():
    st = make(5, colour=GREEN, hands=[[CHARGE], [], [], [], []],
              displays=[[G1], [G1, G1], [G1, G1, G1], [G1, G1, G1, G1], [G1]])
    run(st, P(CHARGE))
    assert st.displays == [[G1]] * 5
    assert [st.total(p) for p in range(5)] == [1] * 5


def test_C4_charge_in_green_compares_printed_values():
    st = make(3, colour=GREEN, hands=[[], [CHARGE], []],
              displays=[[G1, P4], [G1, G1, Y3], [SQUIRE2]], turn=1)
    run(st, P(CHARGE))
    assert st.displays == [[P4], [Y3], [SQUIRE2]]


def test_C5_countercharge_removes_the_highest_printed_value_per_display():
    # the reference scenario uses three purple 7s (the deck has two): built without the census
    st = make(3, colour=PURPLE, hands=[[COUNTERCHARGE], [], []],
              displays=[[P7, P3], [P7], [P5, P7, SQUIRE2]], deck=[])
    run(st, P(COUNTERCHARGE))
    assert st.displays == [[P3], [P7], [P5, SQUIRE2]]


def test_I11_charge_with_no_effect_is_illegal():
    st = make(3, colour=RED, hands=[[CHARGE, COUNTERCHARGE, ADAPT, OUTMANEUVER], [], []],
              displays=[[R3], [R4], [R5]])
    legal = st.legal_actions()
    assert not {P(CHARGE), P(COUNTERCHARGE), P(ADAPT), P(OUTMANEUVER)} & set(legal)


# ----------------------------------------------------------------------------- display actions


def test_A1_break_lance():
    st = make(3, colour=PURPLE, hands=[[BREAK_LANCE], [], []],
              displays=[[P4], [P3, SQUIRE2, P5], []])
    run(st, P(BREAK_LANCE), T(1))
    assert st.displays[1] == [SQUIRE2]
    st = make(3, colour=PURPLE, hands=[[BREAK_LANCE], [], []], displays=[[P4], [P3, P5], []])
    run(st, P(BREAK_LANCE), T(1))
    assert st.displays[1] == [P3]
    st = make(3, colour=PURPLE, hands=[[BREAK_LANCE], [], []], displays=[[P3], [P4], []])
    assert P(BREAK_LANCE) not in st.legal_actions()


def test_A2_riposte_takes_the_top_card():
    st = make(3, colour=RED, hands=[[RIPOSTE], [], []], displays=[[R4], [R3, R5], [R4]])
    run(st, P(RIPOSTE))
    assert st.legal_actions() == [T(1)]  # the one-card display of seat 2 is not a target
    run(st, T(1))
    assert st.displays == [[R4, R5], [R3], [R4]]


def test_I7_riposte_may_not_give_a_second_maiden():
    st = make(3, colour=RED, hands=[[RIPOSTE], [], []],
              displays=[[MAIDEN6], [R3, MAIDEN6], []])
    assert P(RIPOSTE) not in st.legal_actions()


def test_A3_dodge_discards_any_chosen_card():
    st = make(3, colour=RED, hands=[[DODGE], [], []], displays=[[R4], [R3, R5, R4], []])
    run(st, P(DODGE), T(1))
    assert set(st.legal_actions()) == {S(0), S(1), S(2)}
    run(st, S(0))
    assert st.displays[1] == [R5, R4] and st.discard[-1] == R3


def test_A4_retreat():
    st = make(3, colour=RED, hands=[[RETREAT], [], []], displays=[[R4], [R3], []])
    assert P(RETREAT) not in st.legal_actions()
    st = make(3, colour=RED, hands=[[RETREAT], [], []], displays=[[R4, R3, R5], [R5, R4], []])
    run(st, P(RETREAT), S(2))
    assert st.displays[0] == [R4, R3] and R5 in st.hands[0]
    assert st.known[0] == [R5]  # everyone saw it go back
    assert A_END not in st.legal_actions()  # 7 < 9: must still end highest


def test_A5_outmaneuver():
    st = make(4, colour=RED, hands=[[OUTMANEUVER], [], [], []],
              displays=[[R4, R3], [R3, R5], [R4], [R3, R4]], shield=3)
    run(st, P(OUTMANEUVER))
    assert st.displays == [[R4, R3], [R3], [R4], [R3, R4]]


def test_A6_disgrace_hits_every_display_including_ones_own():
    st = make(3, colour=RED, hands=[[DISGRACE], [], []],
              displays=[[R3, SQUIRE2], [SQUIRE3, SQUIRE2, MAIDEN6], [R4, R5]])
    run(st, P(DISGRACE))
    assert st.displays == [[R3], [SQUIRE3], [R4, R5]]


def test_A7_adapt_each_owner_keeps_one_card_per_value():
    st = make(4, colour=BLUE, hands=[[ADAPT], [], [], []],
              displays=[[B2, B3, SQUIRE3, B4, SQUIRE2], [B4], [B3, SQUIRE3], [B2, B2]],
              shield=3)
    run(st, P(ADAPT))
    assert st.phase == PH_ADAPT and st.current_player() == 0
    assert set(st.legal_actions()) == {S(0), S(4)}  # which 2 to keep
    run(st, S(4))  # keep the squire 2
    assert set(st.legal_actions()) == {S(0), S(1)}  # which 3 (positions after the removal)
    run(st, S(1))  # keep the squire 3
    assert st.displays[0] == [SQUIRE3, B4, SQUIRE2]
    assert st.current_player() == 2  # out of turn: seat 2 decides for its display
    run(st, S(0))
    assert st.displays[2] == [B3]
    assert st.displays[1] == [B4] and st.displays[3] == [B2, B2]  # no duplicates / shielded
    assert st.phase == PH_PLAY and st.current_player() == 0


def test_A8_knock_down():
    st = make(3, colour=RED, hands=[[KNOCK_DOWN], [], [R3, R4]], displays=[[R3], [], []])
    run(st, P(KNOCK_DOWN))
    assert st.legal_actions() == [T(2)]  # seat 1's hand is empty
    run(st, T(2))
    assert len(st.hands[0]) == 1 and st.hands[0][0] in (R3, R4) and len(st.hands[2]) == 1
    assert census(st) == FULL


def test_knock_down_uses_the_state_rng_so_it_is_reproducible():
    outcomes = set()
    for seed in range(20):
        st = make(3, colour=RED, hands=[[KNOCK_DOWN], [R3, R4, R5, B2], []],
                  displays=[[R3], [], []])
        st.rng.seed(seed)
        again = st.clone()
        run(st, P(KNOCK_DOWN), T(1))
        run(again, P(KNOCK_DOWN), T(1))
        assert st.hands == again.hands
        outcomes.add(st.hands[0][0])
    assert len(outcomes) > 1  # and it is random


def test_stunned_and_knock_down_may_target_players_not_yet_in_or_withdrawn():
    st = make(3, colour=RED, hands=[[STUNNED, KNOCK_DOWN], [R3], [R4]], displays=[[R3], [], []],
              active=[True, True, False])
    run(st, P(STUNNED))
    assert st.legal_actions() == [T(1)]  # seat 1 has not entered; seat 2 withdrew
    run(st, T(1), P(KNOCK_DOWN))
    assert st.legal_actions() == [T(1), T(2)]  # Knock Down also reaches the withdrawn
    assert st.stunned_seat == 1


def test_A9_outwit_swaps_face_up_cards():
    st = make(3, colour=RED, hands=[[OUTWIT], [], []], displays=[[R3, R4], [R5], []], stunned=0)
    run(st, P(OUTWIT), T(1))
    assert set(st.legal_actions()) == {S(0), S(1)}  # Stunned can't buy seat 1's only card
    run(st, S(0))
    assert st.legal_actions() == [S(0)]  # one-card display: its card may be swapped
    run(st, S(0))
    assert st.displays == [[R5, R4], [R3], []]  # display cards trade places
    st = make(3, colour=RED, hands=[[OUTWIT], [], []], displays=[[R3], [R5, R4], []], stunned=0)
    run(st, P(OUTWIT), T(1), A_STUNNED_SLOT, S(1))  # give away own Stunned, take the red 4
    assert st.stunned_seat == 1 and st.displays == [[R3, R4], [R5], []]


def test_A9_outwit_may_not_empty_a_display_by_trading_its_card_for_shield_or_stunned():
    st = make(3, colour=RED, hands=[[OUTWIT], [], []], displays=[[R3], [R5], []], stunned=0)
    run(st, P(OUTWIT), T(1))
    assert st.legal_actions() == [S(0)]  # the Stunned card cannot buy seat 1's only card
    run(st, S(0))
    assert st.legal_actions() == [S(0)]
    run(st, S(0))
    assert st.displays == [[R5], [R3], []] and st.stunned_seat == 0


def test_A10_outwit_may_not_give_a_second_maiden():
    st = make(3, colour=RED, hands=[[OUTWIT], [], []],
              displays=[[R3, MAIDEN6], [R4, MAIDEN6], []])
    run(st, P(OUTWIT), T(1))
    assert st.legal_actions() == [S(0)]  # own Maiden: no legal swap (a no-op or two Maidens)
    run(st, S(0))
    assert st.legal_actions() == [S(0)]  # the red 3 may buy the red 4, not the Maiden


# ----------------------------------------------------------------------------- Shield


def test_S1_shield_blocks_opponents_display_cards():
    st = make(3, colour=PURPLE, hands=[[DODGE, RIPOSTE, BREAK_LANCE, OUTMANEUVER], [], []],
              displays=[[P3], [P4, P5], [P3]], shield=1)
    legal = st.legal_actions()
    assert not {P(DODGE), P(RIPOSTE), P(BREAK_LANCE), P(OUTMANEUVER)} & set(legal)


def test_S2_I5_charge_ignores_shielded_displays_when_finding_the_value():
    displays = [[P4, P5], [P3, P3], [P4, P7]]
    st = make(3, colour=PURPLE, hands=[[CHARGE], [], []], displays=displays, shield=1)
    run(st, P(CHARGE))
    assert st.displays == [[P5], [P3, P3], [P7]]
    flagged = make(3, colour=PURPLE, hands=[[CHARGE], [], []], displays=displays, shield=1,
                   rules=Rules(charge_counts_shielded=True))
    assert P(CHARGE) not in flagged.legal_actions()  # value 3 is only on the shielded display


def test_S3_shielded_player_may_still_retreat_and_riposte():
    st = make(3, colour=RED, hands=[[RETREAT, RIPOSTE], [], []],
              displays=[[R3, R4], [R3, R5], []], shield=0)
    legal = st.legal_actions()
    assert P(RETREAT) in legal and P(RIPOSTE) in legal


def test_S5_stunned_may_be_placed_on_a_shielded_player():
    st = make(3, colour=RED, hands=[[STUNNED], [], []], displays=[[R3], [R4], []], shield=1)
    run(st, P(STUNNED), T(1))
    assert st.stunned_seat == 1 and st.shield_seat == 1


def test_I6_shield_blocks_knock_down_by_default_flag_turns_it_off():
    hands = [[KNOCK_DOWN], [R3], []]
    st = make(3, colour=RED, hands=hands, displays=[[R3], [R4], []], shield=1)
    assert P(KNOCK_DOWN) not in st.legal_actions()
    st = make(3, colour=RED, hands=hands, displays=[[R3], [R4], []], shield=1,
              rules=Rules(shield_blocks_knock_down=False))
    assert P(KNOCK_DOWN) in st.legal_actions()


def test_I8_outwit_cannot_target_a_shielded_player_unless_flagged():
    displays = [[R3, R4], [R5], []]
    st = make(3, colour=RED, hands=[[OUTWIT], [], []], displays=displays, shield=1)
    assert P(OUTWIT) not in st.legal_actions()
    st = make(3, colour=RED, hands=[[OUTWIT], [], []], displays=displays, shield=1,
              rules=Rules(outwit_ignores_shield=True))
    run(st, P(OUTWIT), T(1), S(0), A_SHIELD_SLOT)
    assert st.shield_seat == 0 and st.displays == [[R4], [R5, R3], []]


def test_shield_is_placed_beside_the_display_not_in_it():
    st = make(3, colour=RED, hands=[[SHIELD], [], []], displays=[[R3], [], []])
    run(st, P(SHIELD))
    assert st.shield_seat == 0 and st.displays[0] == [R3] and SHIELD not in st.discard
    assert census(st) == FULL


# ----------------------------------------------------------------------------- Ivanhoe


def test_I1_ivanhoe_cancels_an_action_card_out_of_turn():
    st = make(3, colour=RED, hands=[[DODGE], [], [IVANHOE]], displays=[[R5], [R3, R4], []])
    run(st, P(DODGE), T(1), S(0))
    assert st.phase == PH_IVANHOE and st.current_player() == 2
    assert st.displays[1] == [R3, R4]  # nothing happened yet
    run(st, A_IVANHOE)
    assert st.displays[1] == [R3, R4]
    assert st.discard[-2:] == [DODGE, IVANHOE]
    assert st.current_player() == 0 and st.phase == PH_PLAY


def test_ivanhoe_declined_lets_the_card_resolve():
    st = make(3, colour=RED, hands=[[DODGE], [], [IVANHOE]], displays=[[R5], [R3, R4], []])
    run(st, P(DODGE), T(1), S(0), A_PASS)
    assert st.displays[1] == [R4] and IVANHOE in st.hands[2]


def test_ivanhoe_is_never_playable_as_an_ordinary_card():
    st = make(3, colour=RED, hands=[[IVANHOE, R3], [], []], displays=[[R5], [R3, R4], []])
    assert P(IVANHOE) not in st.legal_actions()


def test_I2_cancelled_drop_weapon_keeps_the_colour_and_the_cards_played_before():
    st = make(3, colour=RED, hands=[[SQUIRE2, DROP_WEAPON], [], [IVANHOE]],
              displays=[[R3, R3], [R5, R4], []], deck=[G1] * 4)
    run(st, P(SQUIRE2), P(DROP_WEAPON))
    assert st.current_player() == 2
    run(st, A_IVANHOE)
    assert st.colour == RED and st.displays[0] == [R3, R3, SQUIRE2]
    assert st.legal_actions() == [A_WITHDRAW]  # 8 < 9: play more (nothing left) or withdraw


def test_I3_ivanhoe_against_a_shield_as_it_is_played_discards_it():
    st = make(3, colour=RED, hands=[[SHIELD], [IVANHOE], []], displays=[[R3], [], []])
    run(st, P(SHIELD), A_IVANHOE)
    assert st.shield_seat == -1 and st.discard == [SHIELD, IVANHOE]


def test_I4_withdrawn_player_is_not_offered_ivanhoe():
    st = make(3, colour=RED, hands=[[DODGE], [], [IVANHOE]], displays=[[R5], [R3, R4], []],
              active=[True, True, False])
    run(st, P(DODGE), T(1), S(0))
    assert st.displays[1] == [R4] and st.phase == PH_PLAY


def test_I12_knock_down_window_opens_before_the_card_is_taken():
    st = make(3, colour=RED, hands=[[KNOCK_DOWN], [IVANHOE, R3], []], displays=[[R5], [], []])
    run(st, P(KNOCK_DOWN), T(1))
    assert st.phase == PH_IVANHOE and st.current_player() == 1
    assert sorted(st.hands[1]) == sorted([IVANHOE, R3])
    run(st, A_IVANHOE)
    assert st.hands[1] == [R3] and st.hands[0] == []


def test_I12_being_asked_shows_the_holder_has_ivanhoe():
    st = make(3, colour=RED, hands=[[DODGE], [], [IVANHOE, R3]], displays=[[R5], [R3, R4], []])
    run(st, P(DODGE), T(1), S(0))
    assert IVANHOE in st.known[2]
    world = st.determinize(0, random.Random(3))
    assert IVANHOE in world.hands[2]


# ----------------------------------------------------------------------------- withdrawal


def test_withdrawal_discards_face_up_cards_including_shield_and_stunned():
    st = make(3, colour=RED, hands=[[], [], []], displays=[[R3, R4], [], []], shield=0,
              stunned=0, played=True, deck=[G1] * 5)
    run(st, A_WITHDRAW)
    assert st.displays[0] == [] and not st.active[0]
    assert st.shield_seat == -1 and st.stunned_seat == -1
    assert sorted(st.discard) == sorted([R3, R4, SHIELD, STUNNED])
    assert st.current_player() == 1  # and play moves on


def test_W1_withdrawing_with_a_maiden_returns_a_token_of_ones_choice():
    st = make(3, colour=RED, displays=[[R3, MAIDEN6], [], []], deck=[G1] * 5,
              tokens=[(1 << RED) | (1 << BLUE), 0, 0])
    run(st, A_WITHDRAW)
    assert st.phase == PH_RETURN and st.current_player() == 0
    assert set(st.legal_actions()) == {A_TOKEN + RED, A_TOKEN + BLUE}
    run(st, A_TOKEN + BLUE)
    assert st.tokens[0] == 1 << RED and st.pool[BLUE] == 5
    assert st.current_player() == 1


def test_W1_maiden_penalty_with_one_token_is_automatic_and_with_none_is_nothing():
    st = make(3, colour=RED, displays=[[MAIDEN6], [], []], deck=[G1] * 5,
              tokens=[1 << GREEN, 0, 0])
    run(st, A_WITHDRAW)
    assert st.tokens[0] == 0 and st.pool[GREEN] == 5 and st.current_player() == 1
    st = make(3, colour=RED, displays=[[MAIDEN6], [], []], deck=[G1] * 5)
    run(st, A_WITHDRAW)
    assert st.tokens == [0, 0, 0] and st.current_player() == 1


def test_withdrawn_players_are_skipped_and_draw_nothing():
    st = make(3, colour=RED, hands=[[R3], [], []], displays=[[R4], [], [R5]], deck=[G1] * 9,
              active=[True, False, True], turn=2, played=True)
    run(st, A_END)
    assert st.turn == 0 and st.hands[1] == []
    assert len(st.hands[0]) == 2  # the player whose turn it is draws first


def test_W2_last_player_in_wins_at_once_without_an_extra_draw():
    st = make(4, colour=RED, hands=[[R3], [], [], []], displays=[[R4], [], [], []],
              played=True, deck=[G1] * 20)
    run(st, A_END, A_WITHDRAW, A_WITHDRAW, A_WITHDRAW)
    assert st.tokens[0] == 1 << RED and st.tournaments == 1
    assert st.phase == PH_START and st.current_player() == 0
    assert len(st.hands[0]) == 2  # one card: the draw of the next tournament's start only
    assert st.displays == [[], [], [], []] and R4 in st.discard


def test_W3_purple_winner_chooses_any_lacking_colour_and_no_purple_follows():
    st = make(2, colour=PURPLE, hands=[[SQUIRE2, P3], []], displays=[[P4], []],
              tokens=[1 << RED, 0], played=True, deck=[G1] * 5)
    run(st, A_END, A_WITHDRAW)
    assert st.phase == PH_CLAIM and st.current_player() == 0
    assert set(st.legal_actions()) == {A_TOKEN + c for c in (PURPLE, BLUE, YELLOW, GREEN)}
    run(st, A_TOKEN + YELLOW)
    assert st.tokens[0] == (1 << RED) | (1 << YELLOW)
    assert st.phase == PH_START and PURPLE not in colours_offered(st)


def test_W4_winning_a_colour_already_owned_earns_nothing():
    st = make(2, colour=RED, hands=[[], []], displays=[[R4], []], tokens=[1 << RED, 0],
              played=True, deck=[G1] * 5)
    run(st, A_END, A_WITHDRAW)
    assert st.tokens[0] == 1 << RED and st.pool[RED] == 4 and st.tournaments == 1


@pytest.mark.parametrize("n,owned,ends", [(3, 4, True), (3, 3, False), (4, 3, True),
                                          (5, 3, True), (4, 2, False), (2, 4, True)])
def test_W5_game_ends_when_a_token_reaches_the_target(n, owned, ends):
    lacking = GREEN
    tokens = [sum(1 << c for c in range(owned))] + [0] * (n - 1)
    assert not tokens[0] & (1 << lacking)
    st = make(n, colour=GREEN, hands=[[]] * n, displays=[[G1]] + [[]] * (n - 1), played=True,
              tokens=tokens, deck=[R3] * 10)
    run(st, A_END, *[A_WITHDRAW] * (n - 1))
    assert st.is_terminal() == ends
    assert st.scores()[0] == owned + 1
    if ends:
        assert st.phase == PH_OVER and st.winners() == [0] and st.current_player() == -1
        assert st.legal_actions() == []


def test_W6_empty_draw_pile_is_rebuilt_from_the_discards():
    st = make(2, colour=RED, hands=[[], []], displays=[[R4], []], played=True, deck=[])
    st.discard = [B3, B4]
    run(st, A_END)
    assert st.hands[1] in ([B3], [B4]) and len(st.deck) == 1 and st.discard == []


def test_I13_no_cards_anywhere_skips_the_draw():
    st = make(2, colour=RED, hands=[[], []], displays=[[R4], []], played=True, deck=[])
    run(st, A_END)
    assert st.hands[1] == [] and st.current_player() == 1


def test_I15_tournament_end_discards_shield_and_stunned():
    st = make(2, colour=RED, hands=[[], []], displays=[[R4], []], played=True, shield=0,
              stunned=0, deck=[G1] * 5)
    run(st, A_END, A_WITHDRAW)
    assert st.shield_seat == -1 and st.stunned_seat == -1
    assert SHIELD in st.discard and STUNNED in st.discard


# ----------------------------------------------------------------------------- contract bits


def test_scores_are_distinct_token_colours_and_breakdown_sums_to_them():
    st = make(3, tokens=[0b10101, 0b00010, 0])
    assert st.scores() == [3.0, 1.0, 0.0]
    bd = st.score_breakdown()
    assert [sum(v[p] for v in bd.values()) for p in range(3)] == [3.0, 1.0, 0.0]


def test_max_decisions_cap_is_never_hit_in_random_play():
    bots = [make_bot("random", GAME) for _ in range(4)]
    longest = 0
    for seed in range(300):
        n = 2 + seed % 4
        rec = play_game(GAME, bots[:1] * n, seed, num_players=n)
        assert not rec.truncated
        longest = max(longest, rec.decisions)
    assert longest < GAME.max_decisions // 5


def test_action_targets_are_decisions_of_the_acting_player():
    st = make(3, colour=RED, hands=[[DODGE], [], []], displays=[[R5], [R3, R4], [R3, R4]])
    run(st, P(DODGE))
    assert st.phase == PH_TARGET and st.current_player() == 0
    assert st.legal_actions() == [T(1), T(2)]


# ----------------------------------------------------------------------------- bots


def test_heuristic_bot_clearly_beats_random():
    n, games, share = 4, 40, 0.0
    for k in range(games):
        bots = [make_bot("random", GAME) for _ in range(n)]
        bots[k % n] = make_bot("heuristic", GAME)
        rec = play_game(GAME, bots, 500 + k)
        if k % n in rec.winners:
            share += 1 / len(rec.winners)
    assert share / games > 0.6  # fair share 0.25


def test_heuristic_bot_keeps_ivanhoe_for_a_strong_action():
    bot = make_bot("heuristic", GAME)
    weak = make(3, colour=RED, hands=[[DODGE], [IVANHOE], []], displays=[[R5], [], [R3, R4]])
    run(weak, P(DODGE), T(2), S(0))  # Dodge against someone else: let it pass
    assert bot.choose(weak, random.Random(0)) == A_PASS
    strong = make(3, colour=RED, hands=[[DODGE], [IVANHOE], []],
                  displays=[[R5], [R5, R4], [R3]])
    run(strong, P(DODGE), T(1), S(0))  # Dodge on its own 9-point display: cancel it
    assert bot.choose(strong, random.Random(0)) == A_IVANHOE


def test_heuristic_bot_chooses_its_strongest_lacking_colour_and_withdraws_when_hopeless():
    bot = make_bot("heuristic", GAME)
    st = make(3, colour=-1, hands=[[B4, B5, B3, R3, SQUIRE2], [], []], deck=[G1])
    st.active = [False] * 3
    st.begin_start(0)
    assert bot.choose(st, random.Random(0)) == A_COLOUR + BLUE
    st.tokens[0] = 1 << BLUE
    st._legal_cache = None
    assert bot.choose(st, random.Random(0)) != A_COLOUR + BLUE
    hopeless = make(3, colour=RED, hands=[[], [R3, SQUIRE2], []], displays=[[R5, R4, R4], [], []],
                    turn=1)
    assert bot.choose(hopeless, random.Random(0)) == A_WITHDRAW
