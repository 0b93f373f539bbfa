"""Ninjato scenario tests: one per rule / ruling of ../shared/rules/ninjato.md (placements,
dojo, sensei, raids, skills, palace, pavilion, end of round).  Scoring is in
test_ninjato_scoring.py.  The helpers at the top build exact situations."""

from __future__ import annotations

import hashlib
import json

import pytest

from engines.ninjato import GAME, components
from engines.ninjato.actions import (
    A_BANZAI,
    A_BASE,
    A_BOR2,
    A_BOR4,
    A_DECK,
    A_DISCARD,
    A_GIVE_UP,
    A_HOUSE,
    A_KEEP,
    A_KI_MINUS,
    A_KI_PLUS,
    A_MINUS2,
    A_PALACE,
    A_PAVILION,
    A_PAY,
    A_PLUS2,
    A_PM1_PLUS,
    A_REFRESH,
    A_RETREAT,
    A_SENSEI,
    A_SIX,
    A_SKILLPAY,
    A_SWAP,
    A_SWITCH,
    A_TAKE,
    A_TOKEN,
    A_ZERO,
    PH_CHOICE,
    PH_DISCARD,
    PH_DRAW,
    PH_FIGHT,
    PH_KEEP,
    PH_PAY,
    PH_PLACE,
    PH_SKILLPAY,
    PH_TOKEN,
)
from engines.ninjato.state import NinjatoState

FAN, SCROLL, VASE, JADE, GOLD = range(5)
(E_MINUS2, E_ZERO, E_BORYAKU, E_PLUS2, E_SIX, E_PM1, E_SWAP, E_SWITCH, E_REFRESH,
 E_DISGUISE) = range(10)


# ---------------------------------------------------------------------------- helpers
def fresh(n: int = 4, seed: int = 0, **rules) -> NinjatoState:
    """A new game with seat 0 to move and turn order 0, 1, 2, ..."""
    s = GAME.new_state(n, seed, **rules)
    s.order = list(range(n))
    s.player = 0
    s.turn = 0
    return s


def guard(s: NinjatoState, value: int, alarm: int = 0) -> int:
    """Id of a regular guard with this value and alarm flag (taken out of the deck)."""
    g = next(i for i, (v, a) in enumerate(zip(s.C.gval, s.C.galarm))
             if v == value and a == alarm and i not in s.house_sentry)
    if g in s.guard_deck:
        s.guard_deck.remove(g)
    return g


def hand(*values: int) -> list[int]:
    counts = [0] * 5
    for v in values:
        counts[v - 1] += 1
    return counts


def set_house(s: NinjatoState, h: int, plain=(), red=(), sentry: int = 3,
              alarm: int = 0) -> None:
    s.house_plain[h] = sorted(plain)
    s.house_red[h] = sorted(red)
    s.house_sentry[h] = guard(s, sentry, alarm)
    s.house_closed[h] = False


def next_guard(s: NinjatoState, value: int, alarm: int = 0) -> None:
    """The next regular guard revealed is this one."""
    s.guard_deck = [guard(s, value, alarm)]


def next_elite(s: NinjatoState, name: str) -> None:
    s.elite_deck = [s.C.enames.index(name)]


def only_bag(s: NinjatoState, t: int, k: int = 10) -> None:
    """Every bag draw is a treasure of type t."""
    s.bag = [0] * 5
    s.bag[t] = k
    s.treasure_discards = [0] * 5


def give_skill(s: NinjatoState, p: int, effect: int) -> int:
    t = next(i for i, e in enumerate(s.C.skill_effect) if e == effect
             and not any(i in tl for tl in s.tiles))
    s.tiles[p].append(t)
    s.owned[p][effect] += 1
    s.ready[p][effect] += 1
    s.schools[p] |= 1 << s.C.skill_school[t]
    return t


def act(s: NinjatoState, a: int) -> None:
    """Apply an action after a scenario edited the state by hand (drop the legal cache)."""
    s._legal_cache = None
    s.apply_action(a)


def legal(s: NinjatoState) -> list[int]:
    s._legal_cache = None
    return s.legal_actions()


def raid(s: NinjatoState, h: int, stealth: bool = False) -> None:
    act(s, A_HOUSE + 2 * h + int(stealth))


def play(s: NinjatoState, value: int) -> None:
    act(s, A_BASE + value - 1)


def visit_dojo(s: NinjatoState, *take: int) -> None:
    """Visit the dojo: take these face-up values first, then draw the rest from the deck."""
    act(s, A_TAKE + take[0] - 1 if take else A_DECK)  # the placement is the first draw
    for v in take[1:]:
        act(s, A_TAKE + v - 1)
    while s.phase == PH_DRAW:
        act(s, A_DECK)


# ---------------------------------------------------------------------------- setup
def test_setup_houses_tokens_sensei_palace_pavilion_hands():
    s = GAME.new_state(3, 5)
    assert all(len(p) == 3 and not r for p, r in zip(s.house_plain, s.house_red))
    assert sorted((c, s.C.token_values[v]) for c, v in zip(s.house_clan, s.house_token)) == [
        (0, 2), (0, 4), (1, 2), (1, 4), (2, 6)]
    assert len(s.sensei) == 3 and all(s.C.skill_effect[t] != E_DISGUISE for t in s.sensei)
    assert len(s.palace) == 4 and len(s.pavilion) == 4
    assert [sum(h) for h in s.hands] == [4, 4, 4] and len(s.row) == 3
    assert GAME.players_default == 4


def test_seven_rounds_of_three_shuriken_each():
    s = GAME.new_state(2, 1)
    placements = 0
    while not s.is_terminal():
        if s.phase == PH_PLACE:
            placements += 1
            visit_dojo(s)  # always legal
        else:
            act(s, legal(s)[0])
    assert placements == 7 * 3 * 2
    assert s.metrics()["rounds"] == 7


# ---------------------------------------------------------------------------- dojo
def test_turn_order_from_dojo_stack_seed_example():
    """SEED: order T, M, E, B; B visits the Dojo, later M on top: new order M, B, T, E."""
    s = fresh()
    s.dojo_stack = [3, 1]
    s.end_round()
    assert s.order == [1, 3, 0, 2]


def test_turn_order_counts_a_player_once_at_the_highest_shuriken():
    s = fresh()
    s.order = [2, 0, 3, 1]
    s.dojo_stack = [1, 0, 1]
    s.end_round()
    assert s.order == [1, 0, 2, 3]  # A23: 2 and 3 keep their relative order


@pytest.mark.parametrize("start,drawn", [(0, 4), (1, 3), (2, 2), (5, 2)])
def test_dojo_draws_by_hand_size(start, drawn):
    s = fresh()
    s.hands[0] = hand(*([1] * start))
    visit_dojo(s)  # all from the deck
    assert sum(s.hands[0]) == start + drawn
    assert s.dojo_stack == [0]


def test_dojo_takes_face_up_cards_then_refills_the_row():
    s = fresh()
    s.hands[0] = hand(1, 1)
    s.row = [2, 4, 5]
    s.deck = hand(3, 3, 3, 3)  # deck holds only Ki: row refills with 3s
    visit_dojo(s, 4, 5)
    assert s.hands[0] == hand(1, 1, 4, 5)
    assert s.row == [2, 3, 3]


def test_dojo_draw_options_are_one_per_face_up_value_or_the_deck():
    s = fresh()
    s.hands[0] = hand(1, 2)  # draws 2
    s.row = [3, 3, 5]
    # the placement is the first draw; equal 3s are one option
    assert [a for a in legal(s) if a < A_SENSEI] == [A_TAKE + 2, A_TAKE + 4, A_DECK]
    act(s, A_TAKE + 2)
    assert s.phase == PH_DRAW and legal(s) == [A_TAKE + 2, A_TAKE + 4, A_DECK]
    act(s, A_TAKE + 2)  # never more than 2 cards
    assert s.phase == PH_PLACE and s.hands[0] == hand(1, 2, 3, 3) and len(s.row) == 3


def test_hand_limit_of_seven_discards_down_at_once():
    s = fresh()
    s.hands[0] = hand(1, 1, 2, 2, 4, 5)
    visit_dojo(s)  # 6 + 2 draws = 8: one discard after the last draw
    assert s.phase == PH_DISCARD and s.to_discard == 1 and s.to_draw == 0
    act(s, A_DISCARD + 1)
    assert sum(s.hands[0]) == 7 and s.hands[0][1] == 1
    assert s.phase == PH_PLACE and s.player == 1


def test_ruling_A17_hand_limit_applies_right_after_each_draw():
    """A 7-card hand draws 2: over the limit after the first draw, it discards at once and
    chooses its second draw holding 7 cards, not 8 (A17: right after any draw)."""
    s = fresh()
    s.hands[0] = hand(1, 1, 2, 2, 4, 5, 5)
    s.row = [1, 3, 5]
    s.deck = hand(4, 4, 4, 4)
    act(s, A_TAKE + 2)  # takes the face-up 3: 8 cards
    assert s.phase == PH_DISCARD and s.to_discard == 1 and s.to_draw == 1
    assert sum(s.hands[0]) == 8 and s.row == [1, 5]  # the row waits for the end of the visit
    act(s, A_DISCARD + 1)
    assert s.phase == PH_DRAW and sum(s.hands[0]) == 7 and s.player == 0
    act(s, A_TAKE + 4)
    assert s.phase == PH_DISCARD and s.to_discard == 1 and s.to_draw == 0
    act(s, A_DISCARD + 0)
    assert s.hands[0] == hand(1, 2, 3, 4, 5, 5, 5)
    assert s.row == [1, 4, 4] and s.phase == PH_PLACE and s.player == 1


def test_ruling_A17_a_forced_discard_between_draws_needs_no_decision():
    s = fresh()
    s.hands[0] = hand(5, 5, 5, 5, 5, 5, 5)
    s.row = [5, 5, 5]
    act(s, A_TAKE + 4)  # 8 fives: the discard has one option, made at once
    assert s.phase == PH_DRAW and s.hands[0] == hand(5, 5, 5, 5, 5, 5, 5)
    assert s.dojo_discards[4] == 1


def test_dojo_deck_reshuffles_discards_when_empty():
    s = fresh()
    s.hands[0] = [0] * 5
    s.deck = hand(5)
    s.dojo_discards = hand(1, 1, 1, 1, 1)
    visit_dojo(s)
    assert sum(s.hands[0]) == 4 and s.hands[0][4] == 1 and s.hands[0][0] == 3


# ---------------------------------------------------------------------------- sensei
def _tile(s, effect):
    return next(i for i, e in enumerate(s.C.skill_effect) if e == effect)


def test_sensei_pays_the_card_shown_on_the_tile():
    s = fresh()
    t = _tile(s, E_PLUS2)  # Kenjutsu costs a 5
    s.sensei = [t]
    s.hands[0] = hand(1, 5)
    act(s, A_SENSEI)
    assert s.hands[0] == hand(1) and s.dojo_discards[4] == 1
    assert t in s.tiles[0] and s.ready[0][E_PLUS2] == 1


def test_sensei_tile_not_offered_without_its_card():
    s = fresh()
    s.sensei = [_tile(s, E_PLUS2)]
    s.hands[0] = hand(1, 2)
    assert A_SENSEI not in legal(s)


def test_sensei_school_once_learned_needs_no_more_cards():
    s = fresh()
    give_skill(s, 0, E_SIX)  # a Tiger skill
    t = _tile(s, E_PLUS2)  # Tiger too
    s.sensei = [t]
    s.hands[0] = hand(1)
    assert A_SENSEI in legal(s)
    act(s, A_SENSEI)
    assert s.hands[0] == hand(1) and t in s.tiles[0]


def test_sensei_any_card_cost_is_a_choice():
    s = fresh()
    s.sensei = [_tile(s, E_BORYAKU)]  # "?" = any card
    s.hands[0] = hand(2, 5)
    act(s, A_SENSEI)
    assert s.phase == PH_SKILLPAY
    assert sorted(legal(s)) == [A_SKILLPAY + 1, A_SKILLPAY + 4]
    act(s, A_SKILLPAY + 1)
    assert s.hands[0] == hand(5) and s.owned[0][E_BORYAKU] == 1


def test_sensei_supply_rounds_1_to_4_one_per_player_then_one_disguise():
    s = fresh(3)
    for rnd in range(1, 8):
        s.round = rnd
        assert len(s.sensei) == (3 if rnd <= 4 else 1), rnd
        if rnd >= 5:
            assert s.C.skill_effect[s.sensei[0]] == E_DISGUISE
        if rnd == 7:
            break
        s.dojo_stack = []
        s.end_round()
        if s.phase != PH_PLACE:  # scoring phase decisions
            while s.phase != PH_PLACE:
                act(s, legal(s)[0])
        assert s.round == rnd + 1
    assert not s.skill_stack  # the rest of the big stack was discarded after round 4


def test_skill_once_per_tile_per_round_and_reset_at_round_end():
    s = fresh()
    give_skill(s, 0, E_PLUS2)
    set_house(s, 0, [FAN, FAN, FAN], sentry=5)
    s.hands[0] = hand(4, 4)
    raid(s, 0)
    play(s, 4)
    act(s, A_PLUS2)  # 6 > 5
    assert s.phase == PH_CHOICE and s.ready[0][E_PLUS2] == 0
    next_guard(s, 5)
    act(s, A_BANZAI)  # 4 vs 5 and Kenjutsu is used up this round: the raid fails at once
    assert s.phase == PH_PLACE and s.ready[0][E_PLUS2] == 0 and s.treasures[0][FAN] == 1
    assert s.hands[0] == hand(4)  # no card spent to show a loss (seed 004)
    s.end_round()
    assert s.ready[0][E_PLUS2] == 1


# ---------------------------------------------------------------------------- raids
def test_raid_force_must_play_higher_and_a_tie_fails():
    s = fresh()
    set_house(s, 0, [FAN, SCROLL, VASE], sentry=3)
    s.hands[0] = hand(3, 4)
    raid(s, 0)
    # Ki alone counts as 3: a tie does not win, and the 4 cannot modify it (not a Ki)
    assert legal(s) == [A_BASE + 3, A_GIVE_UP]
    play(s, 4)
    assert s.raid_treasures == [FAN] and s.phase == PH_CHOICE


def test_forced_give_up_is_not_a_decision_but_a_real_choice_is():
    s = fresh()
    set_house(s, 0, [FAN, SCROLL, VASE], sentry=5)
    s.hands[0] = hand(4, 3, 3)
    raid(s, 0)
    play(s, 4)  # 4 vs 5: two Ki could still make it 6, so the raider decides
    assert s.phase == PH_FIGHT and legal(s) == [A_KI_PLUS, A_KI_MINUS, A_GIVE_UP]
    act(s, A_KI_MINUS)
    act(s, A_KI_MINUS)  # 2 vs 5 with no card left: the raid fails without a decision
    assert s.phase == PH_PLACE and s.player == 1 and s.hands[0] == [0] * 5
    s.player = 0
    s.hands[0] = [0] * 5  # an empty hand commits to the sentry (A21) and fails at once
    raid(s, 0)
    assert s.phase == PH_PLACE and s.turn == 2 and len(s.house_plain[0]) == 5  # A3: +1 per raid


def test_raid_stealth_must_play_lower():
    s = fresh()
    set_house(s, 1, [JADE, SCROLL, FAN], sentry=2)
    s.hands[0] = hand(2, 1)
    raid(s, 1, stealth=True)
    assert legal(s) == [A_BASE + 0, A_GIVE_UP]  # a 2 ties the 2: cannot win, not offered
    play(s, 1)
    assert s.raid_treasures == [FAN]


def test_ki_card_as_modifier_several_on_one_card():
    s = fresh()
    set_house(s, 0, [FAN, FAN, FAN], sentry=5)
    s.hands[0] = hand(4, 3, 3)
    raid(s, 0)
    play(s, 4)
    act(s, A_KI_PLUS)  # 5: tie
    assert s.phase == PH_FIGHT
    act(s, A_KI_PLUS)  # 6 > 5
    assert s.raid_treasures == [FAN] and s.hands[0] == [0] * 5 and s.dojo_discards[2] == 2


def test_ki_minus_for_stealth():
    s = fresh()
    set_house(s, 0, [FAN, FAN, FAN], sentry=1)
    s.hands[0] = hand(1, 3)
    raid(s, 0, stealth=True)
    play(s, 1)
    act(s, A_KI_MINUS)  # 0 < 1
    assert s.raid_treasures == [FAN]


def test_treasure_order_lowest_plain_first_then_red_gold_last():
    s = fresh()
    set_house(s, 0, [JADE, GOLD, FAN], red=[SCROLL], sentry=1)
    s.hands[0] = hand(5, 5, 5, 5)
    only_bag(s, FAN)
    raid(s, 0)
    play(s, 5)
    for value in (1, 1, 1):
        next_guard(s, value)
        act(s, A_BANZAI)
        if s.phase == PH_FIGHT and s.guard_kind == 1:
            play(s, 5)
        else:
            break
    assert s.raid_treasures == [FAN, JADE, GOLD]
    assert s.house_plain[0] == [] and s.house_red[0] == [SCROLL]


def test_banzai_reveals_elite_when_only_red_treasure_remains():
    s = fresh()
    set_house(s, 0, [FAN], red=[JADE], sentry=1)
    s.hands[0] = hand(5, 5)
    raid(s, 0)
    play(s, 5)
    next_elite(s, "elite-2a")
    act(s, A_BANZAI)
    assert s.guard_kind == 2 and s.guard_value() == 2


def test_banzai_failure_keeps_one_treasure_of_the_shuriken():
    s = fresh()
    set_house(s, 0, [FAN, JADE, VASE, VASE], sentry=1)
    s.hands[0] = hand(5, 5, 2)
    only_bag(s, SCROLL)
    raid(s, 0)
    play(s, 5)
    next_guard(s, 2)
    act(s, A_BANZAI)
    play(s, 5)
    assert s.raid_treasures == [FAN, VASE]
    next_guard(s, 5)
    act(s, A_BANZAI)  # the 2 left cannot beat a 5: the raid fails at once, the 2 is kept
    assert s.phase == PH_KEEP and s.hands[0] == hand(2)
    assert sorted(legal(s)) == [A_KEEP + FAN, A_KEEP + VASE]
    act(s, A_KEEP + VASE)
    assert s.treasures[0] == [0, 0, 1, 0, 0]
    assert s.treasure_discards[FAN] == 1  # the rest go to the discard, not the house
    # the house keeps what is left plus one treasure from the bag (3.4.6)
    assert s.house_plain[0] == [SCROLL, VASE, JADE]
    assert s.house_sentry[0] >= 0  # the sentry recovers


def test_retreat_keeps_all_and_house_gets_one_treasure():
    s = fresh()
    set_house(s, 0, [FAN, SCROLL, VASE], sentry=1)
    s.hands[0] = hand(5, 5)
    only_bag(s, JADE)
    raid(s, 0)
    play(s, 5)
    next_guard(s, 1)
    act(s, A_BANZAI)
    play(s, 5)
    act(s, A_RETREAT)
    assert s.treasures[0] == [1, 1, 0, 0, 0]
    assert s.house_plain[0] == [VASE, JADE]


@pytest.mark.parametrize("flag,expected", [(True, 4), (False, 3)])
def test_ruling_A3_refill_on_zero_gain(flag, expected):
    s = fresh(refill_on_zero_gain=flag)
    set_house(s, 0, [FAN, FAN, FAN], sentry=5)
    s.hands[0] = hand(1)
    raid(s, 0)  # A21: committed, fails at the sentry (at once: a 1 cannot beat a 5)
    assert len(s.house_plain[0]) == expected


def test_alarm_draws_a_treasure_and_flips_the_most_valuable_plain_gold_first():
    s = fresh()
    set_house(s, 0, [FAN, JADE, GOLD], sentry=1)
    s.hands[0] = hand(5, 5)
    only_bag(s, SCROLL)
    raid(s, 0)
    play(s, 5)
    next_guard(s, 2, alarm=1)
    act(s, A_BANZAI)
    assert s.house_plain[0] == [SCROLL, JADE] and s.house_red[0] == [GOLD]
    play(s, 5)
    assert s.raid_treasures == [FAN, SCROLL]


def test_alarm_on_the_sentry_is_ignored():
    s = fresh()
    set_house(s, 0, [FAN, SCROLL, VASE], sentry=2, alarm=1)
    s.hands[0] = hand(5)
    raid(s, 0)
    assert s.house_red[0] == [] and len(s.house_plain[0]) == 3
    play(s, 5)
    assert s.raid_treasures == [FAN]


def test_elite_split_values_by_approach_and_switch_mid_raid():
    s = fresh()
    set_house(s, 0, [FAN], red=[JADE, JADE], sentry=1)
    s.hands[0] = hand(5, 5, 1)
    give_skill(s, 0, E_SWITCH)
    raid(s, 0)
    play(s, 5)
    next_elite(s, "split-5/2")
    act(s, A_BANZAI)
    assert s.guard_value() == 5  # force value: the 5 ties; the 1 wins only after a switch
    assert legal(s) == [A_BASE + 0, A_SWITCH, A_GIVE_UP]
    act(s, A_SWITCH)  # A22: stealth now, for this guard and later ones
    assert s.raid_approach == 1 and s.guard_value() == 2
    assert legal(s) == [A_BASE + 0, A_GIVE_UP]  # the 1 beats a 2 by stealth
    act(s, A_GIVE_UP)
    assert s.elite_discards == [s.C.enames.index("split-5/2")]  # A5: a winning elite is discarded


def test_switch_after_base_resolves_against_the_new_approach():
    s = fresh()
    set_house(s, 0, [FAN, FAN], sentry=4)
    s.hands[0] = hand(2)
    give_skill(s, 0, E_SWITCH)
    raid(s, 0)  # force: a 2 cannot beat a 4
    play(s, 2)
    assert s.phase == PH_FIGHT
    act(s, A_SWITCH)
    assert s.raid_treasures == [FAN]


def test_double_elite_needs_one_play_per_guard_and_is_kept_for_honour():
    s = fresh()
    set_house(s, 0, [FAN], red=[JADE], sentry=1)
    s.hands[0] = hand(5, 4, 5)
    raid(s, 0)
    play(s, 5)
    next_elite(s, "double-1+3")
    act(s, A_BANZAI)
    play(s, 4)  # beats the 1, the 3 is still to beat
    assert s.phase == PH_FIGHT and s.guard_value() == 3 and s.raid_treasures == [FAN]
    play(s, 5)
    assert s.elites[0] == [s.C.enames.index("double-1+3")]
    assert s.raid_treasures == [] and s.treasures[0][JADE] == 1  # cleared: everything taken


def test_clearing_a_house_changes_the_token_to_another_clan_and_closes_it():
    s = fresh()
    set_house(s, 2, [FAN], sentry=1)
    s.house_clan[2], s.house_token[2] = 0, 1  # Taira 4
    s.token_supply[0][1] = 0
    s.hands[0] = hand(5)
    raid(s, 2)
    play(s, 5)
    assert s.phase == PH_TOKEN and s.treasures[0][FAN] == 1
    opts = legal(s)
    assert opts and all((a - A_TOKEN) // 5 != 0 for a in opts)
    act(s, A_TOKEN + 1 * 5 + 4)  # Minamoto 10
    assert (s.house_clan[2], s.C.token_values[s.house_token[2]]) == (1, 10)
    assert s.token_supply[0][1] == 1 and s.token_supply[1][4] == 0  # old token back to supply
    assert s.house_closed[2]
    s.player = 0
    s.phase = PH_PLACE
    assert A_HOUSE + 4 not in legal(s)


def test_ruling_A24_token_choice_lowest():
    s = fresh(token_choice="lowest")
    set_house(s, 2, [FAN], sentry=1)
    s.house_clan[2] = 2
    s.hands[0] = hand(5)
    raid(s, 2)
    play(s, 5)
    lowest = [A_TOKEN + c * 5 + next(v for v, f in enumerate(s.token_supply[c]) if f)
              for c in (0, 1)]
    assert sorted(legal(s)) == lowest


def test_cleared_house_resets_at_round_end_with_three_plain_and_new_sentry():
    s = fresh()
    s.house_closed[3] = True
    s.house_plain[3], s.house_red[3], s.house_sentry[3] = [], [], -1
    only_bag(s, JADE)
    s.guard_deck = [guard(s, 4, alarm=1)]  # an alarm on the new sentry is ignored
    s.end_round()
    assert s.house_plain[3] == [JADE] * 3 and s.house_red[3] == []
    assert s.C.gval[s.house_sentry[3]] == 4 and not s.house_closed[3]


def test_ruling_A20_empty_elite_deck_leaves_the_treasure_unguarded():
    s = fresh()
    set_house(s, 0, [FAN], red=[JADE, VASE], sentry=1)
    s.hands[0] = hand(5)
    raid(s, 0)
    play(s, 5)
    s.elite_deck, s.elite_discards = [], []
    act(s, A_BANZAI)
    assert s.raid_treasures == [FAN, VASE] and s.phase == PH_CHOICE


# ---------------------------------------------------------------------------- skills
def _fight(s, plain=(FAN, FAN, FAN), sentry=3, stealth=False, cards=(3,)):
    set_house(s, 0, list(plain), sentry=sentry)
    s.hands[0] = hand(*cards)
    raid(s, 0, stealth)


def test_skill_minus2_shinobi_iri():
    s = fresh()
    give_skill(s, 0, E_MINUS2)
    _fight(s, sentry=2, stealth=True, cards=(3,))
    play(s, 3)
    act(s, A_MINUS2)
    assert s.raid_treasures == [FAN]


def test_skill_plus2_kenjutsu():
    s = fresh()
    give_skill(s, 0, E_PLUS2)
    _fight(s, sentry=5, cards=(4,))
    play(s, 4)
    act(s, A_PLUS2)
    assert s.raid_treasures == [FAN]


def test_skill_zero_overrides_ki_ruling_A2():
    s = fresh()
    give_skill(s, 0, E_ZERO)
    _fight(s, sentry=1, stealth=True, cards=(4, 3))
    play(s, 4)
    act(s, A_KI_PLUS)  # 5, then set to 0: exactly 0
    act(s, A_ZERO)
    assert s.raid_treasures == [FAN]
    assert s.play_value() == 0


def test_skill_six_sets_a_card_to_six():
    s = fresh()
    give_skill(s, 0, E_SIX)
    _fight(s, sentry=5, cards=(1,))
    play(s, 1)
    act(s, A_SIX)
    assert s.raid_treasures == [FAN]


def test_skill_plus_minus_one_taijutsu():
    s = fresh()
    give_skill(s, 0, E_PM1)
    _fight(s, sentry=4, cards=(4,))
    play(s, 4)
    act(s, A_PM1_PLUS)
    assert s.raid_treasures == [FAN]


def test_skill_boryaku_acts_as_2_or_4_without_a_card_and_ki_modifies_it():
    s = fresh()
    give_skill(s, 0, E_BORYAKU)
    _fight(s, sentry=4, cards=(3,))
    assert A_BOR4 in legal(s) and A_BOR2 not in legal(s)  # a 2 (+1 Ki) cannot beat a 4
    act(s, A_BOR4)
    assert s.phase == PH_FIGHT and legal(s) == [A_KI_PLUS, A_KI_MINUS, A_GIVE_UP]
    act(s, A_KI_PLUS)  # A18
    assert s.raid_treasures == [FAN] and s.hands[0] == [0] * 5


@pytest.mark.parametrize("skills", [True, False])
def test_ruling_A18_skills_modify_boryaku_like_a_dojo_card(skills):
    """Seed 004: Boryaku plays like a dojo card of 2 or 4, and the modifier skills act on a
    dojo card, so Boryaku 4 + Kenjutsu +2 beats a sentry of 5 by force (the default).
    `boryaku_skills=false` keeps the earlier reading: only Ki modify Boryaku, and with no
    card that fight cannot be won, so it fails at once and Boryaku stays ready."""
    assert GAME.new_state(4, 0).rules.boryaku_skills is True  # the documented default
    s = fresh(boryaku_skills=skills)
    give_skill(s, 0, E_BORYAKU)
    give_skill(s, 0, E_PLUS2)
    _fight(s, sentry=5, cards=())
    if not skills:
        assert s.phase == PH_PLACE and s.player == 1 and s.ready[0][E_BORYAKU] == 1
        return
    assert legal(s) == [A_BOR4, A_GIVE_UP]
    act(s, A_BOR4)
    assert A_PLUS2 in legal(s)
    act(s, A_PLUS2)
    assert s.raid_treasures == [FAN] and s.ready[0][E_PLUS2] == 0


def test_skill_refresh_turns_a_used_skill_face_up():
    s = fresh()
    give_skill(s, 0, E_PLUS2)
    give_skill(s, 0, E_REFRESH)
    _fight(s, plain=(FAN, FAN, FAN), sentry=5, cards=(4, 4))
    play(s, 4)
    act(s, A_PLUS2)
    next_guard(s, 5)
    act(s, A_BANZAI)
    act(s, A_REFRESH + E_PLUS2)
    play(s, 4)
    act(s, A_PLUS2)
    assert s.raid_treasures == [FAN, FAN]


def test_skill_choho_swap_returns_red_for_red_even_after_failing():
    s = fresh()
    give_skill(s, 0, E_SWAP)
    set_house(s, 0, [FAN, SCROLL], red=[JADE], sentry=1)
    s.hands[0] = hand(5)
    only_bag(s, VASE)
    raid(s, 0)
    play(s, 5)
    next_guard(s, 5)
    act(s, A_BANZAI)  # nothing beats the 5: failed at once, Choho may still be used (3.4.9)
    assert s.phase == PH_KEEP
    act(s, A_SWAP + FAN * 10 + JADE * 2 + 1)
    # the fan goes back plain and the most valuable treasure left turns red (seed 004);
    # then the failed raid adds one treasure from the bag (a vase here)
    assert s.house_plain[0] == [FAN, VASE] and s.house_red[0] == [SCROLL]  # red count unchanged
    assert s.treasures[0][JADE] == 1 and s.phase == PH_PLACE


def test_skill_choho_swap_in_the_middle_of_a_raid():
    s = fresh()
    give_skill(s, 0, E_SWAP)
    set_house(s, 0, [FAN, SCROLL, JADE], sentry=1)
    s.hands[0] = hand(5)
    raid(s, 0)
    play(s, 5)
    act(s, A_SWAP + FAN * 10 + JADE * 2 + 0)
    assert s.raid_treasures == [JADE] and s.house_plain[0] == [FAN, SCROLL]
    assert s.ready[0][E_SWAP] == 0


# ---------------------------------------------------------------------------- palace, pavilion
def _envoy(s, cost):
    return next(i for i, o in enumerate(s.C.env_opts) if o == components.envoy_options(cost))


def test_palace_buys_an_envoy_with_exact_treasures_and_scores_them():
    s = fresh()
    e = _envoy(s, ["vase", "jade"])
    s.palace = [e]
    s.treasures[0] = [0, 0, 1, 0, 0]
    assert A_PALACE not in legal(s)  # the jade is missing
    s.treasures[0] = [0, 0, 1, 1, 0]
    act(s, A_PALACE)
    assert s.envoys[0] == [e] and s.honour[0] == 9 and s.treasures[0] == [0] * 5


def test_palace_gold_is_a_joker_scoring_as_the_type_it_replaces():
    s = fresh()
    e = _envoy(s, ["vase", "jade"])
    s.palace = [e]
    s.treasures[0] = [0, 0, 1, 0, 1]
    act(s, A_PALACE)
    assert s.honour[0] == 9 and s.treasure_discards[GOLD] == 1


def test_palace_same_type_and_three_plus_one_kinds():
    s = fresh()
    e = _envoy(s, "three_plus_one")
    s.palace = [e]
    s.treasures[0] = [4, 0, 0, 0, 0]  # ruling A19: 4 fans = 8
    act(s, A_PALACE)
    assert s.honour[0] == 8
    s.player = 0
    e2 = _envoy(s, "same")
    s.palace = [e2]
    s.treasures[0] = [0, 0, 0, 2, 0]
    act(s, A_PALACE)
    assert s.phase == PH_PAY  # 1 or 2 jade
    act(s, max(legal(s)))
    assert s.honour[0] == 18 and s.treasures[0][JADE] == 0


def test_pavilion_buys_a_rumour_scores_it_face_up_then_keeps_it_face_down():
    s = fresh()
    r = next(i for i, o in enumerate(s.C.rum_opts) if o == ((0, 0, 0, 1),))
    s.pavilion = [r]
    s.treasures[0] = [0, 0, 0, 1, 0]
    act(s, A_PAVILION)
    assert s.rumours[0] == [r] and s.honour[0] == 5 and s.rumour_honour[0] == 5
    # kept face down, but taken face up: everyone saw which one
    assert s.observation(1)["rumours"][0] == [r]


def test_pavilion_any_treasure_rumour_offers_a_choice():
    s = fresh()
    r = next(i for i, o in enumerate(s.C.rum_opts) if len(o) == 4)
    s.pavilion = [r]
    s.treasures[0] = [1, 0, 0, 1, 0]
    act(s, A_PAVILION)
    assert s.phase == PH_PAY and len(legal(s)) == 2
    act(s, A_PAY + 3)
    assert s.honour[0] == 5 and s.treasures[0] == [1, 0, 0, 0, 0]


def test_end_of_round_refills_palace_and_pavilion_to_four():
    s = fresh()
    s.palace = s.palace[:1]
    s.pavilion = []
    s.end_round()
    assert len(s.palace) == 4 and len(s.pavilion) == 4


# ---------------------------------------------------------------------------- data set
def test_dataset_label_and_replacement_file(tmp_path):
    assert GAME.dataset(GAME.make_rules()) == "ninjato-reconstructed-v1"
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"dataset": "owned-copy-v2", "dojo_counts": [8, 12, 12, 12, 8]}))
    rules = GAME.make_rules(components=str(path))
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:8]
    assert GAME.dataset(rules) == f"owned-copy-v2#{digest}"
    s = GAME.new_state(2, 0, components=str(path))
    assert sum(s.deck) + sum(map(sum, s.hands)) + len(s.row) == 52
    assert s.C.dojo == (8, 12, 12, 12, 8)


def test_dataset_toml_and_treasure_mix_a(tmp_path):
    path = tmp_path / "d.toml"
    path.write_text('dataset = "toml-set"\ntreasure_counts = [10, 10, 10, 10, 5]\n')
    assert GAME.dataset(GAME.make_rules(components=str(path))).startswith("toml-set#")
    s = GAME.new_state(2, 0, treasure_mix="A")
    assert sum(s.bag) + 15 == 90 and s.C.tcounts == (18,) * 5
    with pytest.raises(ValueError):
        GAME.make_rules(treasure_mix="C")


# ------------------------------- rules re-read against seed 004: Choho, fights, dojo, hidden
def _choho_raid_won_a_fan(plain, red):
    """Seat 0 with Choho ready has beaten the sentry of house 0 and holds its fan."""
    s = fresh()
    give_skill(s, 0, E_SWAP)
    set_house(s, 0, plain, red=red, sentry=1)
    s.hands[0] = hand(5)
    raid(s, 0)
    play(s, 5)
    assert s.raid_treasures == [FAN] and s.phase == PH_CHOICE
    return s


def test_skill_choho_taking_red_turns_the_most_valuable_treasure_left_red():
    """Seed 004: after swapping a plain treasure for a red one, the most valuable treasure
    left in the house turns red (not the one given back)."""
    s = _choho_raid_won_a_fan([FAN, FAN, JADE], red=[GOLD])
    act(s, A_SWAP + FAN * 10 + GOLD * 2 + 1)
    assert s.raid_treasures == [GOLD]
    assert s.house_plain[0] == [FAN, FAN] and s.house_red[0] == [JADE]


def test_skill_choho_most_valuable_left_already_red_flips_the_best_plain():
    """Ruling (docs/deviations.md): when the most valuable treasure left is already red,
    the most valuable plain one turns red, so the house keeps its number of red treasures."""
    s = _choho_raid_won_a_fan([FAN, FAN, SCROLL], red=[VASE, GOLD])
    act(s, A_SWAP + FAN * 10 + VASE * 2 + 1)
    assert s.house_plain[0] == [FAN, FAN] and s.house_red[0] == [SCROLL, GOLD]


def test_skill_choho_same_type_swaps_offered_only_when_they_change_the_house():
    s = _choho_raid_won_a_fan([FAN, FAN, JADE], red=[FAN, VASE])
    swaps = [a for a in legal(s) if a >= A_SWAP]
    assert A_SWAP + FAN * 10 + FAN * 2 not in swaps  # a plain fan for a plain fan: no change
    assert A_SWAP + FAN * 10 + FAN * 2 + 1 in swaps  # a red fan: the plain jade turns red
    act(s, A_SWAP + FAN * 10 + FAN * 2 + 1)
    assert s.raid_treasures == [FAN]
    assert s.house_plain[0] == [FAN, FAN] and s.house_red[0] == [VASE, JADE]
    t = _choho_raid_won_a_fan([FAN], red=[SCROLL, JADE])
    # nothing plain left above a red scroll: giving a fan for it... is a different type;
    # a red jade for a jade held would flip the jade back (no change), so it is not offered
    t.raid_treasures = [JADE]
    assert A_SWAP + JADE * 10 + JADE * 2 + 1 not in legal(t)
    assert A_SWAP + JADE * 10 + SCROLL * 2 + 1 in legal(t)


def test_raid_a_fight_that_cannot_be_won_spends_no_card():
    """Seed 004 translator's note: a fight that cannot be won fails at once, and no dojo
    card is discarded to show the loss (a 2 against a sentry of 4 by force, no Ki)."""
    s = fresh()
    set_house(s, 0, [FAN, SCROLL, VASE], sentry=4)
    s.hands[0] = hand(2)
    raid(s, 0)
    assert s.phase == PH_PLACE and s.player == 1 and s.raid_treasures == []
    assert s.hands[0] == hand(2) and sum(s.dojo_discards) == 0


def test_raid_offers_only_plays_that_can_still_win():
    s = fresh()
    set_house(s, 0, [FAN, SCROLL, VASE], sentry=4)
    s.hands[0] = hand(1, 2, 3, 5)  # by force: the 5 alone, a 2 or the 3 with one Ki (+1)
    raid(s, 0)
    assert legal(s) == [A_BASE + 4, A_GIVE_UP]  # 2+1 and a lone 3 do not beat 4
    s = fresh()
    set_house(s, 0, [FAN, SCROLL, VASE], sentry=4)
    s.hands[0] = hand(1, 2, 3, 3)  # two Ki: 2+2 = 4 ties, 3+1 = 4 ties
    raid(s, 0)
    assert s.phase == PH_PLACE and s.hands[0] == hand(1, 2, 3, 3)
    s = fresh()
    give_skill(s, 0, E_PLUS2)  # a ready +2 carries the 2 (with the Ki) and a lone Ki past 4
    set_house(s, 0, [FAN, SCROLL, VASE], sentry=4)
    s.hands[0] = hand(1, 2, 3)
    raid(s, 0)  # but not the 1: 1 + 1 + 2 = 4 ties
    assert [a for a in legal(s) if a < A_BOR2] == [A_BASE + 1, A_BASE + 2]


def test_raid_counts_used_skills_only_through_a_ready_refresh():
    s = fresh()
    give_skill(s, 0, E_SIX)
    s.ready[0][E_SIX] = 0  # used earlier this round
    set_house(s, 0, [FAN, SCROLL, VASE], sentry=5)
    s.hands[0] = hand(1)
    raid(s, 0)
    assert s.phase == PH_PLACE and s.hands[0] == hand(1)  # nothing can beat the 5
    s = fresh()
    give_skill(s, 0, E_SIX)
    give_skill(s, 0, E_REFRESH)
    s.ready[0][E_SIX] = 0
    set_house(s, 0, [FAN, SCROLL, VASE], sentry=5)
    s.hands[0] = hand(1)
    raid(s, 0)  # Tenmon turns the 6-skill face up again: the 1 can become a 6
    assert A_BASE + 0 in legal(s)


@pytest.mark.parametrize("allowed", [True, False])
def test_ruling_A21_raid_with_an_empty_hand_is_a_rule_option(allowed):
    """Seed silent: by default (A21, A3 read literally) an empty hand may raid; it fails at
    the sentry and the house gains a treasure. `empty_hand_raid=false` forbids it unless a
    ready Boryaku can stand in for a card."""
    s = fresh(empty_hand_raid=allowed)
    assert GAME.new_state(4, 0).rules.empty_hand_raid is True  # the documented default
    set_house(s, 0, [FAN, SCROLL, VASE], sentry=3)
    s.hands[0] = [0] * 5
    houses = [a for a in legal(s) if A_HOUSE <= a < A_PALACE]
    assert (A_HOUSE in houses) is allowed and (houses != []) is allowed
    if allowed:
        raid(s, 0)  # fails at once; A3: the house gains one treasure
        assert s.phase == PH_PLACE and s.player == 1 and len(s.house_plain[0]) == 4
    give_skill(s, 0, E_BORYAKU)
    s.player = 0
    assert A_HOUSE in legal(s)  # Boryaku plays a 2 or a 4 without a card


def test_dojo_draws_one_at_a_time_deck_first_then_face_up():
    """Seed 004 (Dojo): any mix of face-up and deck cards, the row refilled only after all
    the draws. One card at a time, so a blind draw can be seen before choosing face up."""
    s = fresh()
    s.hands[0] = [0] * 5  # draws 4
    s.row = [2, 4, 5]
    s.deck = hand(1, 1, 1, 1, 1, 1)
    act(s, A_DECK)  # placed at the dojo, drew a 1: seen by the drawer before the next choice
    assert s.dojo_stack == [0] and s.phase == PH_DRAW and s.to_draw == 3
    assert s.hands[0] == hand(1) and s.row == [2, 4, 5]
    act(s, A_TAKE + 4)
    assert s.row == [2, 4] and s.phase == PH_DRAW and s.player == 0
    act(s, A_TAKE + 3)
    act(s, A_TAKE + 1)  # the row is empty now; no draws left anyway
    assert s.hands[0] == hand(1, 2, 4, 5)
    assert s.row == [1, 1, 1] and s.phase == PH_PLACE and s.player == 1  # refilled at the end


def test_dojo_draws_from_the_deck_at_once_when_the_row_is_empty():
    s = fresh()
    s.hands[0] = [0] * 5
    s.row = [3, 3, 3]
    s.deck = hand(5, 5, 5, 5)
    for _ in range(3):
        act(s, A_TAKE + 2)
    # the fourth draw has one option (the deck): made without a decision
    assert s.hands[0] == hand(3, 3, 3, 5) and s.row == [5, 5, 5] and s.phase == PH_PLACE


def test_observation_does_not_name_skill_tiles_discarded_unseen():
    s = fresh(n=2)
    s.round = 4
    unseen = sorted(s.skill_stack)
    assert unseen
    s.end_round()  # after round 4 the rest of the big stack is discarded face down
    o = s.observation(0)
    assert o["skills_unseen_size"] == len(unseen) and sorted(s.skills_unseen) == unseen
    assert not set(unseen) & set(o["skill_discards"])  # only tiles that were face up are named
    assert all(t not in unseen for t in o["sensei"])


def _hidden_world(s: NinjatoState, seat: int, seed: int) -> NinjatoState:
    import random
    return s.determinize(seat, random.Random(seed))


def test_determinize_keeps_cards_seen_taken_face_up_and_all_rumours():
    s = fresh(n=3)
    s.hands[1] = hand(1, 1)  # dealt: unknown to seat 0
    s.row = [5, 5, 3]
    s.deck = hand(2, 2, 2, 2, 4, 4, 4, 4)
    r = s.pavilion[0]
    s.rumours[2] = [r]
    s.pavilion = s.pavilion[1:]
    s.player = 1
    act(s, A_TAKE + 4)  # seat 1 draws 2: both 5s, face up, seen by everyone
    act(s, A_TAKE + 4)
    assert s.known[1] == hand(5, 5)
    for seed in range(20):
        w = _hidden_world(s, 0, seed)
        assert w.hands[1][4] >= 2 and sum(w.hands[1]) == 4  # the two 5s stay in seat 1's hand
        assert w.rumours == s.rumours  # which rumour seat 2 took is public
    # a 5 played in sight: the observer only knows one 5 is left
    s.player = 1
    set_house(s, 0, [FAN, SCROLL, VASE], sentry=3)
    raid(s, 0)
    play(s, 5)
    assert s.known[1] == hand(5)
    assert all(_hidden_world(s, 0, seed).hands[1][4] >= 1 for seed in range(10))


# ------------------------------------------ double elites, hopeless fights, empty-hand raids
def test_double_elite_fight_fails_at_once_when_any_guard_is_unbeatable():
    """Seed 004: a double elite's 3 and 5 must both be beaten, and a fight that cannot be
    won fails at once without a card spent (translator's note): the 4 that would beat the
    3 is not offered, since nothing in hand beats the 5."""
    s = fresh()
    set_house(s, 0, [FAN], red=[JADE], sentry=1)
    s.hands[0] = hand(4, 5)
    raid(s, 0)
    play(s, 5)
    next_elite(s, "double-3+5")
    act(s, A_BANZAI)
    assert s.phase == PH_PLACE and s.player == 1
    assert s.hands[0] == hand(4) and s.treasures[0][FAN] == 1  # the 4 kept, A4: one kept
    assert s.elite_discards == [s.C.enames.index("double-3+5")]


def test_double_elite_fight_fails_at_once_when_the_hand_answers_only_one_guard():
    """Seed 004's example: "the remaining cards can answer only one of them" (one play per
    guard, A6): a single 5 against a double 1+3 cannot win, so no card is spent."""
    s = fresh()
    set_house(s, 0, [FAN], red=[JADE], sentry=1)
    s.hands[0] = hand(5, 5)
    raid(s, 0)
    play(s, 5)
    next_elite(s, "double-1+3")
    act(s, A_BANZAI)
    assert s.phase == PH_PLACE and s.hands[0] == hand(5)


def test_double_elite_offers_only_cards_that_leave_a_play_for_the_next_guard():
    s = fresh()
    set_house(s, 0, [FAN], red=[JADE], sentry=1)
    s.hands[0] = hand(3, 4, 5, 5)
    raid(s, 0)
    play(s, 5)
    next_elite(s, "double-3+5")
    act(s, A_BANZAI)  # the 5 on the 3 would leave 4 + Ki = 5 for the 5: not offered
    assert legal(s) == [A_BASE + 3, A_GIVE_UP]
    assert s.legal_fight() == s.legal_fight_general()  # the skill-less shortcut agrees
    play(s, 4)
    play(s, 5)
    act(s, A_KI_PLUS)
    assert s.elites[0] == [s.C.enames.index("double-3+5")]


def test_double_elite_counts_the_ki_a_card_needs_when_no_skill_can_stand_in():
    """By stealth against a double 1+5, a 1 needs the Ki (-1) to pass the 1, leaving
    nothing for the 5; Kenjutsu and the set-to-6 push the wrong way: fails at once."""
    s = fresh()
    give_skill(s, 0, E_PLUS2)
    give_skill(s, 0, E_SIX)
    set_house(s, 0, [FAN], red=[JADE], sentry=5)
    s.hands[0] = hand(1, 3, 4)
    raid(s, 0, stealth=True)
    play(s, 4)
    next_elite(s, "double-1+5")
    act(s, A_BANZAI)
    assert s.phase == PH_PLACE and s.hands[0] == hand(1, 3)


def test_a_fight_no_play_can_win_fails_at_once_despite_a_ready_switch_or_refresh():
    """Seed 004, translator's note: a ready Seishin-teki kyoyo that cannot help (a 3 ties a
    3 either way) or a Tenmon with nothing useful to turn up is no reason to go on."""
    s = fresh()
    give_skill(s, 0, E_SWITCH)
    give_skill(s, 0, E_REFRESH)
    give_skill(s, 0, E_SWAP)
    s.ready[0][E_SWAP] = 0  # used: Tenmon could turn it up, which cannot win the fight
    set_house(s, 0, [FAN, SCROLL, VASE], sentry=3)
    s.hands[0] = hand(3)
    raid(s, 0)
    assert s.phase == PH_PLACE and s.player == 1 and s.hands[0] == hand(3)
    assert s.ready[0][E_SWITCH] == 1 and s.ready[0][E_REFRESH] == 1


def test_empty_hand_raid_off_counts_a_used_boryaku_with_a_ready_tenmon():
    """`empty_hand_raid=false`: a used Boryaku that a ready Tenmon can turn face up again
    is a way to fight, as a ready Boryaku is."""
    s = fresh(empty_hand_raid=False)
    give_skill(s, 0, E_BORYAKU)
    give_skill(s, 0, E_REFRESH)
    s.ready[0][E_BORYAKU] = 0
    set_house(s, 0, [FAN, SCROLL, VASE], sentry=3)
    s.hands[0] = [0] * 5
    s.ready[0][E_REFRESH] = 0
    assert not [a for a in legal(s) if A_HOUSE <= a < A_PALACE]  # both used: no raid
    s.ready[0][E_REFRESH] = 1
    assert A_HOUSE in legal(s)
    raid(s, 0)
    assert legal(s) == [A_GIVE_UP, A_REFRESH + E_BORYAKU]
    act(s, A_REFRESH + E_BORYAKU)
    act(s, A_BOR4)
    assert s.raid_treasures == [FAN]


def test_render_names_the_dojo_draw_phase():
    s = fresh()
    s.hands[0] = hand(1, 2)
    act(s, A_DECK)
    assert s.phase == PH_DRAW and "(draw a dojo card)" in s.render()


def _boryaku_raider_meets_double_2_3(boryaku_ready: bool) -> NinjatoState:
    """Seat 0 owns Boryaku (ready or used this round), holds 1, 1, 5, 5, beats a sentry of 1
    by force with a 5 and calls banzai: the double 2+3/3+4 elite is revealed."""
    s = fresh()
    give_skill(s, 0, E_BORYAKU)
    if not boryaku_ready:
        s.ready[0][E_BORYAKU] = 0  # used earlier this round
    set_house(s, 0, [FAN], red=[JADE], sentry=1)
    s.hands[0] = hand(1, 1, 5, 5)
    raid(s, 0)
    play(s, 5)
    next_elite(s, "double-2+3/3+4")
    act(s, A_BANZAI)
    return s


def test_double_elite_second_guard_counts_only_a_ready_boryaku():
    """Seed 004 / A6: each guard of a double elite needs a play of its own, and a Boryaku
    already used this round is no play (skills are once per tile per round).  By force
    against the double 2+3/3+4, a 5 would beat the 2 but only a 1 and a used Boryaku are
    left for the 3: the fight cannot be won, so it fails at once and the 5 is kept."""
    s = _boryaku_raider_meets_double_2_3(boryaku_ready=False)
    assert s.phase == PH_PLACE and s.player == 1
    assert s.hands[0] == hand(1, 1, 5)  # nothing spent on a fight that could not be won


def test_double_elite_second_guard_counts_a_ready_boryaku():
    """The same fight with the Boryaku ready: the 5 beats the 2 and Boryaku 4 the 3."""
    s = _boryaku_raider_meets_double_2_3(boryaku_ready=True)
    assert A_BASE + 4 in legal(s)
    play(s, 5)
    act(s, A_BOR4)
    assert s.elites[0] == [s.C.enames.index("double-2+3/3+4")]


def test_double_elite_boryaku_on_the_first_guard_takes_its_ki_from_the_hand():
    """A18 (Ki modifies Boryaku) with A6: by stealth against the double 2+4, Boryaku's 2
    needs the Ki (-1) to pass the 2, and that Ki is then gone for the 4, which a 4 alone
    only ties.  Boryaku is not offered, and with no other play the fight fails at once;
    with a second Ki the same fight is offered."""
    for extra_ki, offered in ((0, False), (1, True)):
        s = fresh()
        give_skill(s, 0, E_BORYAKU)
        set_house(s, 0, [FAN], red=[JADE], sentry=5)
        s.hands[0] = hand(1, 3, 4, *[3] * extra_ki)
        raid(s, 0, stealth=True)
        play(s, 1)
        next_elite(s, "double-2+4")
        act(s, A_BANZAI)
        if not offered:
            assert s.phase == PH_PLACE and s.hands[0] == hand(3, 4)
            continue
        assert A_BOR2 in legal(s)
        act(s, A_BOR2)
        act(s, A_KI_MINUS)
        play(s, 4)
        act(s, A_KI_MINUS)
        assert s.elites[0] == [s.C.enames.index("double-2+4")]
