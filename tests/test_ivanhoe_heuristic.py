"""The default Ivanhoe heuristic plays Outwit, Adapt and Retreat when they pay, keeps its
action cards out of fights it loses anyway, and weighs green and contested colours when it
starts a tournament.

`heuristic:v1` never plays Outwit, Adapt or Retreat; `heuristic:v2` plays them but spends
action cards on lost fights and starts colours by printed values alone.  Each scenario names
the position that makes the difference and checks the older bot's choice too.
"""

from __future__ import annotations

import random

from engines import get_game
from engines.bots import make_bot
from engines.ivanhoe.actions import A_COLOUR, A_END, A_WITHDRAW, PH_START
from engines.ivanhoe.bots import HeuristicBot, HeuristicV1Bot
from engines.ivanhoe.components import (
    ADAPT,
    B2,
    B3,
    B5,
    BLUE,
    DISGRACE,
    G1,
    GREEN,
    MAIDEN6,
    OUTWIT,
    P5,
    PURPLE,
    R3,
    R4,
    R5,
    RETREAT,
    SQUIRE2,
    SQUIRE3,
    STUNNED,
    YELLOW,
)
from engines.ivanhoe.scenario import P, S, T, make
from engines.ivanhoe.state import IvanhoeState


def _choose(bot, state):
    return bot.choose(state, random.Random(0))


def _v2():
    return make_bot("heuristic:v2", get_game("ivanhoe"))


def _at_start(st: IvanhoeState) -> IvanhoeState:
    """The same position before the colour is named (the on-turn seat starts)."""
    st.phase = PH_START
    st.colour = -1
    st._legal_cache = None
    return st


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


def test_no_action_card_is_spent_on_a_fight_lost_even_after_it():
    """Blue: me [blue 3], seat 1 [maiden] = 6, seat 2 [blue 2, maiden] = 8.  Disgrace would
    leave 6 against my 3, and the squire 2 cannot reach 7: withdraw and keep the Disgrace."""
    st = make(3, colour=BLUE, hands=[[DISGRACE, SQUIRE2], [R3], [R3]],
              displays=[[B3], [MAIDEN6], [B2, MAIDEN6]])
    assert _choose(_v2(), st) == P(DISGRACE)
    assert _choose(HeuristicBot(), st) == A_WITHDRAW


def test_an_action_card_that_makes_the_fight_winnable_is_still_played():
    """The same, but the hand holds a squire 3 as well: after Disgrace 3 + 2 + 3 beats 6."""
    st = make(3, colour=BLUE, hands=[[DISGRACE, SQUIRE2, SQUIRE3], [R3], [R3]],
              displays=[[B3], [MAIDEN6], [B2, MAIDEN6]])
    assert _choose(HeuristicBot(), st) == P(DISGRACE)


def test_a_hand_of_green_cards_starts_green():
    """Five green 1s against a red 3 and 4: every card counts 1 in green, so five cards there
    are the stronger tournament, though the red cards print more points."""
    st = _at_start(make(3, hands=[[G1] * 5 + [R3, R4], [R3], [R3]]))
    assert _choose(_v2(), st) == A_COLOUR + 1  # red
    assert _choose(HeuristicBot(), st) == A_COLOUR + GREEN


def test_the_start_avoids_a_colour_every_rival_fights_for():
    """Purple 5 or blue 5, both tokens I lack: both rivals own blue and would not fight for
    it, while everyone fights for purple, so blue is the easier token."""
    st = _at_start(make(3, hands=[[P5, B5], [R3], [R3]],
                        tokens=[1 << YELLOW, 1 << BLUE, 1 << BLUE]))
    assert _choose(_v2(), st) == A_COLOUR + PURPLE
    assert _choose(HeuristicBot(), st) == A_COLOUR + BLUE


def test_stunned_waits_until_the_own_display_has_a_card():
    """Red, my display still empty, seat 1 leads with [red 4]: stunning it before entering
    only helps the others' fight, so the bot enters with its red 5 first."""
    st = make(3, hands=[[STUNNED, R5], [R3], [R3]], displays=[[], [R4], [R3]])
    assert _choose(_v2(), st) == P(STUNNED)
    assert _choose(HeuristicBot(), st) == P(R5)


def test_maiden_alone_builds_with_other_cards_and_keeps_the_maiden_for_a_lead():
    """Red, my [red 3] against seat 1's [red 4, red 5]: I need 7 more, and neither card in
    my hand [maiden 6, red 4] is enough alone.  The default builds with its best card, the
    Maiden; `maiden_alone` plays the red 4 first.  Needing 6, the Maiden alone takes the
    lead, and both play it."""
    behind = make(3, hands=[[MAIDEN6, R4], [R3], [R3]], displays=[[R3], [R4, R5], []],
                  active=[True, True, False])
    assert _choose(HeuristicBot(), behind) == P(MAIDEN6)
    assert _choose(HeuristicBot(maiden_alone=True), behind) == P(R4)
    one_short = make(3, hands=[[MAIDEN6, R3], [R3], [R3]], displays=[[R3], [R4, R4], []],
                     active=[True, True, False])
    assert _choose(HeuristicBot(maiden_alone=True), one_short) == P(MAIDEN6)
    assert make_bot("heuristic:maiden_alone=true", get_game("ivanhoe")).maiden_alone
