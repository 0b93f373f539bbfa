"""The default Ivanhoe heuristic plays Outwit, Adapt and Retreat when they pay.

The old default (`heuristic:v1`) never played them; each scenario names the position that
makes the card worth it and checks the old bot's choice too, so the difference is visible.
"""

from __future__ import annotations

import random

from engines.ivanhoe.actions import A_END, A_WITHDRAW
from engines.ivanhoe.bots import HeuristicBot, HeuristicV1Bot
from engines.ivanhoe.components import ADAPT, BLUE, MAIDEN6, OUTWIT, R3, R4, R5, RETREAT, SQUIRE2
from engines.ivanhoe.scenario import P, S, T, make


def _choose(bot, state):
    return bot.choose(state, random.Random(0))


def test_outwit_swaps_the_own_squire_for_the_leaders_red_5():
    """Red: me [red 3, squire 2] = 5, seat 1 [red 5, red 4] = 9, seat 2 [red 3].  Swapping
    the squire for the red 5 makes it 8 against 6: a swing of 6 over the best rival."""
    st = make(3, hands=[[OUTWIT], [R3], [R3]],
              displays=[[R3, SQUIRE2], [R5, R4], [R3]])
    assert _choose(HeuristicV1Bot(), st) == A_WITHDRAW
    bot = HeuristicBot()
    for expected in (P(OUTWIT), T(1), S(1), S(0)):
        action = _choose(bot, st)
        assert action == expected, st.action_to_str(action)
        st.apply_action(action)
    assert st.displays[0] == [R3, R5] and st.displays[1] == [SQUIRE2, R4]


def test_adapt_thins_the_leaders_duplicates():
    """Red: me [red 3, red 4] = 7, seat 1 [red 4, red 4, red 3, red 3] = 14: Adapt leaves the
    leader 7 and me untouched; the red 5 alone could not catch up."""
    st = make(3, hands=[[ADAPT, R5], [R3], [R3]],
              displays=[[R3, R4], [R4, R4, R3, R3], [R3]])
    assert _choose(HeuristicV1Bot(), st) == A_WITHDRAW
    action = _choose(HeuristicBot(), st)
    assert action == P(ADAPT)


def test_adapt_is_not_played_when_it_costs_the_player_more():
    """Me [red 4, red 4, red 3] = 11 ahead of seat 1 [red 5, red 3] = 8: Adapt would take my
    own duplicate 4 (7 against 8), so the bot ends its turn instead."""
    st = make(3, hands=[[ADAPT], [R3], [R3]],
              displays=[[R4, R4, R3], [R5, R3], [R3]], played=True)
    assert P(ADAPT) in st.legal_actions()
    assert _choose(HeuristicBot(), st) == A_END


def test_retreat_saves_the_maiden_and_the_token_before_withdrawing():
    """Red: me [red 3, maiden] = 9 with a blue token, seat 1 at 18: hopeless.  Withdrawing
    with the Maiden would cost the token; Retreat takes the Maiden back into the hand first."""
    st = make(3, hands=[[RETREAT], [R3], [R3]],
              displays=[[R3, MAIDEN6], [R5, R5, R4, R4], [R3]],
              tokens=[1 << BLUE, 0, 0])
    assert _choose(HeuristicV1Bot(), st) == A_WITHDRAW
    bot = HeuristicBot()
    for expected in (P(RETREAT), S(1), A_WITHDRAW):
        action = _choose(bot, st)
        assert action == expected, st.action_to_str(action)
        st.apply_action(action)
    assert st.tokens[0] == 1 << BLUE
    assert MAIDEN6 in st.hands[0]
