"""Scenario tests for the Time Pirates heuristics: on named positions the
default heuristic jumps, swaps, declines a restock and waits for a big deed when that pays,
where the old default (`heuristic:v1`) does not, and does not when it does not pay."""

from __future__ import annotations

import random

import pytest

import engines
from engines.bots import BotSpecError, make_bot
from engines.time_pirates import components as C
from engines.time_pirates.actions import (
    ARROW,
    ATOMIC,
    BUY,
    END,
    EPOCH,
    MAX_SEATS,
    NO_RESTOCK,
    PH_ACT,
    PH_JUMP,
    PH_LAND,
    PH_RESTOCK,
    PH_SWAP,
    PICK,
    RESTOCK,
    TAKE,
)
from engines.time_pirates.bots import CautiousBot, PirateBot, PirateBotV1
from tests.playouts import positions, random_midgame
from tests.test_time_pirates_rules import (
    BLUE,
    GREEN,
    PURPLE,
    RED,
    arrow,
    atomic,
    deed_type,
    give,
    own,
    placed,
    plain,
    turn_of,
)

GAME = engines.get_game("time-pirates")
NEW, OLD = "heuristic", "heuristic:v1"
BEFORE = "heuristic:v2"  # the default before `upgrade` and `atomic`


def choice(spec: str, state) -> int:
    return make_bot(spec, GAME).choose(state, random.Random(0))


def acting(state, seat: int, **position) -> None:
    """`seat` starts a turn (see `turn_of`) and passes on the restock: it is to act."""
    turn_of(state, seat, **position)
    if state.phase == PH_RESTOCK:
        state.apply_action(NO_RESTOCK)
    assert state.phase == PH_ACT and state.to_move == seat


def test_old_default_kept_as_heuristic_v1():
    assert GAME.heuristics["default"] is PirateBot
    assert GAME.heuristics["v1"] is PirateBotV1
    assert not issubclass(CautiousBot, PirateBot)  # the cautious style keeps v1's play
    assert make_bot(OLD, GAME).name == OLD


def poor_here_rich_elsewhere(here: list[int]):
    """Seat 0 on Middle Ages (E3) holding three blues and a purple atomic artifact (the
    small blue deeds are sold: nothing to buy); both neighbours (E2, E6 = the Patrol's) are
    empty, Age of Discovery (E4) holds five blues."""
    state = placed(4)  # seats 3, 2, 1, 0 on E0, E1, E2, E3; the Patrol on E6
    own(state, 1, deed_type(BLUE, 2), deed_type(BLUE, 3), deed_type(BLUE, 4))
    for e in (2, 3, 6):
        state.epochs[e] = []
    state.epochs[3] = list(here)
    state.epochs[4] = [plain(BLUE)] * 5
    acting(state, 0, hand={plain(BLUE): 3, atomic(PURPLE): 1})
    return state


def test_heuristic_jumps_when_the_takes_elsewhere_pay_for_the_atomic():
    state = poor_here_rich_elsewhere([plain(PURPLE)])
    assert choice(OLD, state) == TAKE + plain(PURPLE)  # v1 takes what is here
    assert choice(NEW, state) == ATOMIC + PURPLE
    state.apply_action(ATOMIC + PURPLE)
    assert state.phase == PH_JUMP
    assert choice(NEW, state) == EPOCH + 4


def test_heuristic_does_not_jump_when_its_own_epoch_feeds_the_turn():
    state = poor_here_rich_elsewhere([plain(BLUE), plain(BLUE)])
    assert choice(NEW, state) == TAKE + plain(BLUE)


def swap_position(rival_hand: dict[int, int]):
    """Seat 0 collects blue (three) and holds a green arrow artifact; its standard actions
    are spent, so only special actions and "end turn" are left; seat 2 holds `rival_hand`."""
    state = placed(4)
    give(state, 2, rival_hand)
    acting(state, 0, hand={plain(BLUE): 3, arrow(GREEN): 1})
    state.standard_actions_left = 0
    state._legal_cache = None
    return state


def test_heuristic_swaps_an_arrow_for_a_rivals_artifact_of_its_colour():
    state = swap_position({atomic(BLUE): 1, plain(GREEN): 1})
    swap = ARROW + GREEN * MAX_SEATS + 2
    assert swap in state.legal_actions()
    assert choice(OLD, state) == END  # v1's bar (0.9) is too high for this gain
    assert choice(NEW, state) == swap
    state.apply_action(swap)
    assert state.phase == PH_SWAP
    assert choice(NEW, state) == PICK + atomic(BLUE)


def test_heuristic_keeps_its_arrow_when_the_rival_has_nothing_it_collects():
    state = swap_position({plain(GREEN): 1})
    assert choice(NEW, state) == END


def restock_position(track: list[int], hand: dict[int, int]):
    """Seat 0 starts a turn with Industrial Age (E5, no pirate) one artifact short."""
    state = placed(4)
    state.epochs[5].pop()
    state.police_track = list(track)
    turn_of(state, 0, hand=hand)
    assert state.phase == PH_RESTOCK and RESTOCK + 5 in state.legal_actions()
    return state


def test_heuristic_declines_a_restock_that_may_end_the_year_before_it_buys():
    state = restock_position([3, 3], {plain(BLUE): 2})  # 6 of 8 police drawn; 2 blues buy
    assert choice(OLD, state) == RESTOCK + 5
    assert choice(NEW, state) == NO_RESTOCK


def test_heuristic_restocks_when_the_year_end_is_far_or_it_cannot_buy():
    assert choice(NEW, restock_position([1, 1], {plain(BLUE): 2})) == RESTOCK + 5
    assert choice(NEW, restock_position([3, 3], {plain(BLUE): 1})) == RESTOCK + 5


def big_deed_position(blues: int, track: list[int] | None = None, sold: bool = False,
                      here: list[int] | None = None):
    """Seat 0 (on E3) holds `blues` blue artifacts, every blue deed on offer (`sold`: not
    the 6-point one); E3 holds no blue or white artifact unless `here` says otherwise."""
    state = placed(4)
    if sold:
        own(state, 1, deed_type(BLUE, 6))
    if track:
        state.police_track = list(track)
    state.epochs[3] = [plain(GREEN)] if here is None else list(here)
    acting(state, 0, hand={plain(BLUE): blues})
    return state


def test_heuristic_waits_for_the_6_point_deed_one_artifact_away():
    state = big_deed_position(4)
    assert choice(OLD, state) == BUY + deed_type(BLUE, 4)
    new = choice(NEW, state)
    assert not BUY <= new < PICK  # keeps its four blues for the 6-point deed
    assert choice(NEW, big_deed_position(5)) == BUY + deed_type(BLUE, 6)


def test_heuristic_buys_small_when_the_big_deed_is_gone_or_the_year_ends():
    assert choice(NEW, big_deed_position(4, sold=True)) == BUY + deed_type(BLUE, 4)
    assert choice(NEW, big_deed_position(4, track=[3, 3])) == BUY + deed_type(BLUE, 4)


def test_hold7_option_waits_for_the_7_point_deed_one_artifact_away():
    """`hold7=1` (the 7-point deed MCTS buys): with five blues and both big blue
    deeds on offer, the option keeps them for the 7-point deed where the default buys the
    6-point one; with six it buys the 7, and it does not wait once the 7 is sold or the
    year is ending."""
    hold7 = "heuristic:default,hold7=1"
    assert choice(NEW, big_deed_position(5)) == BUY + deed_type(BLUE, 6)
    assert not BUY <= choice(hold7, big_deed_position(5)) < PICK
    assert choice(hold7, big_deed_position(6)) == BUY + deed_type(BLUE, 7)
    assert choice(hold7, big_deed_position(5, track=[3, 3])) == BUY + deed_type(BLUE, 6)
    state = placed(4)
    own(state, 1, deed_type(BLUE, 7))
    acting(state, 0, hand={plain(BLUE): 5})
    assert choice(hold7, state) == BUY + deed_type(BLUE, 6)


def test_heuristic_takes_the_sixth_artifact_here_then_buys_the_7_point_deed():
    """`seventh` (the default; the 7-point deed MCTS buys): five blues, both big
    blue deeds on offer, a blue artifact on its own epoch and two standard actions left:
    the default takes the blue and buys the 7-point deed in the same turn, where
    `seventh=0` without `upgrade` (which covers this case too) buys the 6-point deed at
    once."""
    state = big_deed_position(5, here=[plain(BLUE), plain(GREEN)])
    assert choice("heuristic:default,seventh=0,upgrade=0", state) == BUY + deed_type(BLUE, 6)
    assert choice("heuristic:v2", state) == TAKE + plain(BLUE)
    assert choice(NEW, state) == TAKE + plain(BLUE)
    state.apply_action(TAKE + plain(BLUE))
    assert choice(NEW, state) == BUY + deed_type(BLUE, 7)


def test_heuristic_buys_the_6_point_deed_when_the_sixth_is_not_at_hand():
    """No blue or white on its epoch, or one standard action left: no waiting."""
    assert choice(NEW, big_deed_position(5)) == BUY + deed_type(BLUE, 6)
    state = big_deed_position(5, here=[plain(BLUE)])
    state.standard_actions_left = 1
    state._legal_cache = None
    assert choice(NEW, state) == BUY + deed_type(BLUE, 6)


def upgrade_position(hand: dict[int, int], here: list[int]):
    """Seat 0 on Middle Ages (E3) holding `hand`, with `here` on its epoch and two
    standard actions left."""
    state = placed(4)
    state.epochs[3] = list(here)
    acting(state, 0, hand=hand)
    return state


def test_heuristic_takes_the_artifact_that_makes_a_dearer_deed_affordable_then_buys_it():
    """Two blues buy the 2-point blue deed; with a blue on its epoch and two standard
    actions left, the default takes it and buys the 3-point deed this turn, where the
    default before (`heuristic:v2`) buys the 2-point deed at once."""
    state = upgrade_position({plain(BLUE): 2}, [plain(BLUE), plain(PURPLE)])
    assert choice(BEFORE, state) == BUY + deed_type(BLUE, 2)
    assert choice(NEW, state) == TAKE + plain(BLUE)
    state.apply_action(TAKE + plain(BLUE))
    assert choice(NEW, state) == BUY + deed_type(BLUE, 3)


def test_heuristic_takes_a_new_colour_for_the_dearer_white_deed():
    """Three colours buy the 2-point white deed; a fourth colour on its epoch makes the
    3-point one affordable: the default takes that colour, not one it already holds."""
    hand = {plain(BLUE): 1, plain(GREEN): 1, plain(PURPLE): 1}
    state = upgrade_position(hand, [plain(BLUE), plain(RED)])
    white_2 = next(t for t, d in enumerate(C.DEFAULT.deeds) if d[0] == C.WHITE and d[1] == 2)
    white_3 = next(t for t, d in enumerate(C.DEFAULT.deeds) if d[0] == C.WHITE and d[1] == 3)
    assert choice(BEFORE, state) == BUY + white_2
    assert choice(NEW, state) == TAKE + plain(RED)
    state.apply_action(TAKE + plain(RED))
    assert choice(NEW, state) == BUY + white_3


def test_heuristic_buys_at_once_when_nothing_here_makes_a_dearer_deed_affordable():
    """No blue or white on its epoch, or one standard action left: it buys now."""
    assert choice(NEW, upgrade_position({plain(BLUE): 2}, [plain(PURPLE)])) == (
        BUY + deed_type(BLUE, 2))
    state = upgrade_position({plain(BLUE): 2}, [plain(BLUE)])
    state.standard_actions_left = 1
    state._legal_cache = None
    assert choice(NEW, state) == BUY + deed_type(BLUE, 2)


def test_heuristic_takes_a_plain_artifact_of_its_colour_over_an_atomic_of_another():
    """Holding a blue, with a blue and a green atomic artifact on its epoch: the default
    takes the blue (the atomic symbol is worth 0.1, less than one more of a colour held),
    where the default before (atomic symbol worth 0.3) takes the green atomic."""
    state = upgrade_position({plain(BLUE): 1}, [plain(BLUE), atomic(GREEN)])
    assert choice(BEFORE, state) == TAKE + atomic(GREEN)
    assert choice(NEW, state) == TAKE + plain(BLUE)


def test_crowd_option_lands_after_a_purchase_away_from_rival_pawns():
    """After buying, Prehistory (E0, seat 3's pawn) and Age of Discovery (E4, no pawn) hold
    the same artifacts, every other epoch is empty: with `crowd` it lands on E4, where no
    rival takes them first; the default (crowd=0) lands on the first of the two, E0."""
    state = placed(4)  # seat 3 on E0; the Patrol on E6, one line from E2 and E5
    for e in range(len(state.epochs)):
        state.epochs[e] = []
    state.epochs[0] = [plain(GREEN), plain(PURPLE)]
    state.epochs[4] = [plain(GREEN), plain(PURPLE)]
    acting(state, 0, hand={plain(BLUE): 2})
    state.apply_action(BUY + deed_type(BLUE, 2))  # the payment is forced: both blues
    assert state.phase == PH_LAND
    assert choice(NEW, state) == EPOCH + 0
    assert choice("heuristic:crowd=0.5", state) == EPOCH + 4


def test_v1_never_declines_a_restock_and_the_new_default_sometimes_does():
    """Coverage on a few seeded games: the old default never passes on a restock."""
    declined = {OLD: 0, NEW: 0}
    for spec in declined:
        def count(state, action, spec=spec):
            declined[spec] += state.phase == PH_RESTOCK and action == NO_RESTOCK

        for _ in positions(GAME, 4, range(6), spec, on_move=count):
            pass
    assert declined[OLD] == 0 < declined[NEW]



def test_swap_values_are_exact_differences_so_swaps_cannot_loop():
    """Giving `lost` for `gained` and then trading back changes a seat's holding value by
    exactly zero: every swap the heuristic makes raises one potential (ours minus `deny`
    times the target's), so a turn's swaps must stop."""
    from engines.time_pirates.bots import _exchange

    checked = 0
    for seed in range(6):
        state = random_midgame(GAME, 4, seed)
        for p in range(4):
            hand = state.hands[p]
            for lost in (k for k in range(C.NUM_KINDS) if hand[k]):
                for gained in range(C.NUM_KINDS):
                    there = _exchange(state, p, gained, lost)
                    after = state.clone()
                    after.hands[p][lost] -= 1
                    after.hands[p][gained] += 1
                    after._resummarize()
                    back = _exchange(after, p, lost, gained)
                    assert abs(there + back) < 1e-9, (p, lost, gained)
                    checked += 1
    assert checked > 100


def test_heuristic_rejects_an_unknown_restock_mode():
    with pytest.raises(BotSpecError, match=r"restock(=)? must be"):
        make_bot("heuristic:restock=bogus", GAME)
    assert make_bot("heuristic:restock=always", GAME).restock == "always"


@pytest.mark.parametrize("spec, message", [
    ("heuristic:default,seventh=maybe", "seventh= expects true/false"),
    ("heuristic:default,hold7=x", "hold7= expects an integer"),
    ("heuristic:default,hold7=-1", "hold7= must be >= 0"),
    ("heuristic:default,arrows=perhaps", "arrows= expects true/false"),
    ("heuristic:default,upgrade=perhaps", "upgrade= expects true/false"),
])
def test_heuristic_options_refuse_bad_values(spec: str, message: str) -> None:
    """A typo in an on/off or count option is refused, not read as 'on' (the CLI's error line)."""
    with pytest.raises(BotSpecError, match=message):
        make_bot(spec, engines.get_game("time-pirates"))


def test_heuristic_on_off_options_read_every_spelling() -> None:
    game = engines.get_game("time-pirates")
    assert not make_bot("heuristic:default,seventh=off", game).seventh
    assert not make_bot("heuristic:default,seventh=0", game).seventh
    assert make_bot("heuristic:default,seventh=yes", game).seventh
