"""The default Ninjato heuristic plays the whole game.  Each test sets up a
named position and checks the new default's choice, and where the old default
(`heuristic:v1`) chooses otherwise, that too, so that each test fails on the old bot."""

from __future__ import annotations

import random

import pytest

from engines.ninjato import components as comp
from engines.ninjato.actions import (
    A_BANZAI,
    A_BASE,
    A_BOR4,
    A_DECK,
    A_DISGUISE,
    A_GIVE_UP,
    A_HONOUR,
    A_HOUSE,
    A_PALACE,
    A_PAVILION,
    A_PM1_PLUS,
    A_REFRESH,
    A_RUMOUR,
    A_SENSEI,
    A_SIX,
    A_SWAP,
    A_SWITCH,
    A_TAKE,
    A_TOKEN,
    PH_CHOICE,
    PH_DISGUISE,
    PH_REWARD1,
    PH_TOKEN,
)
from engines.ninjato.bots import Heuristic, envoy_table
from engines.ninjato.raid import G_REGULAR
from tests.test_ninjato_rules import (
    FAN,
    GOLD,
    JADE,
    SCROLL,
    VASE,
    act,
    fresh,
    give_skill,
    hand,
    legal,
    raid,
    set_house,
)
from tests.test_ninjato_scoring import envoys_of, rumours_of, set_tokens

NEW, OLD = Heuristic("default"), Heuristic("v1")
RNG = random.Random(0)


def choice(bot: Heuristic, s) -> int:
    legal(s)  # refresh the cache after hand edits
    return bot.choose(s, RNG)


def tile(s, effect: int) -> int:
    return next(i for i, e in enumerate(s.C.skill_effect) if e == effect)


def poor_houses(s) -> None:
    """Every house holds one fan behind a sentry of 3: a raid worth little."""
    for h in range(5):
        set_house(s, h, [FAN], sentry=3)


# ------------------------------------------------------------------ Sensei
@pytest.mark.parametrize("style", ["default", "collector"])
def test_heuristic_takes_a_skill_when_round_1_raids_are_poor(style: str):
    """Round 1, Kayaku-jutsu (set to 6) face up, the hand holds its 4, every house a single
    fan: six rounds of a guard-beating skill are worth more than that raid (the collector's
    docstring says it learns skills too)."""
    s = fresh()
    s.sensei = [tile(s, comp.E_SIX)]
    s.hands[0] = hand(2, 4, 5)
    poor_houses(s)
    assert choice(Heuristic(style), s) == A_SENSEI
    assert A_HOUSE <= choice(OLD, s) < A_HOUSE + 10  # the old default raids


def test_heuristic_raids_a_rich_house_rather_than_learn_a_skill():
    s = fresh()
    s.sensei = [tile(s, comp.E_SIX)]
    s.hands[0] = hand(2, 4, 5)
    poor_houses(s)
    set_house(s, 2, [JADE, JADE, VASE, GOLD], sentry=3)
    assert choice(NEW, s) == A_HOUSE + 2 * 2  # by force: the 4 and 5 beat a 3


def test_heuristic_learns_disguise_once_it_holds_a_masked_envoy():
    """Round 5, the Disguise tile face up: worth two scorings of +1 influence, but only to
    a seat with a masked envoy to lift."""
    s = fresh()
    s.round = 5
    s.sensei = [tile(s, comp.E_DISGUISE)]
    s.hands[0] = hand(2, 4)
    poor_houses(s)
    s.envoys[0] = envoys_of(s, comp.TAIRA, 1, mask=1)
    assert choice(NEW, s) == A_SENSEI
    assert choice(OLD, s) != A_SENSEI
    s.envoys[0] = envoys_of(s, comp.TAIRA, 1, mask=0)
    assert choice(NEW, s) != A_SENSEI


# ------------------------------------------------------------------ skills in raids
def test_heuristic_raids_past_a_sentry_only_its_skill_beats():
    """A ready set-to-6 makes a sentry of 5 beatable with a 5 (a tie alone): the rich house
    is raided by force, the 5 played and set to 6."""
    s = fresh()
    give_skill(s, 0, comp.E_SIX)
    s.hands[0] = hand(5)
    poor_houses(s)
    set_house(s, 1, [JADE, JADE, VASE], sentry=5)
    assert choice(NEW, s) == A_HOUSE + 2 * 1
    assert choice(OLD, s) != A_HOUSE + 2 * 1  # without the skill in its plan: a poor house
    raid(s, 1)
    assert choice(NEW, s) == A_BASE + 4
    act(s, A_BASE + 4)
    assert choice(NEW, s) == A_SIX  # ... set to 6
    act(s, A_SIX)
    assert s.raid_treasures == [VASE]


def test_heuristic_uses_choho_for_a_better_treasure():
    """After winning a fan with a jade still plain in the house, Choho swaps them."""
    s = fresh()
    give_skill(s, 0, comp.E_SWAP)
    set_house(s, 0, [FAN, JADE], sentry=1)
    s.hands[0] = hand(2, 2)
    raid(s, 0)
    act(s, A_BASE + 1)
    assert s.phase == PH_CHOICE and s.raid_treasures == [FAN]
    a = choice(NEW, s)
    assert a == A_SWAP + FAN * 10 + JADE * 2 + 0  # give the fan, take the plain jade
    assert choice(OLD, s) < A_SWAP


# ------------------------------------------------------------------ rumours
def test_heuristic_buys_the_rumour_that_scores_not_the_biggest_set():
    """Round 6, no skill tiles, six envoys, one Master of Secret Arts held: a Powerful
    Friends card scores ~7 at the end, a second Master 0 (it counts skill tiles)."""
    s = fresh()
    s.round = 6
    master, friends = rumours_of(s, comp.R_MASTER, 4)[3], rumours_of(s, comp.R_FRIENDS, 1)[0]
    s.rumours[0] = rumours_of(s, comp.R_MASTER, 1)
    s.envoys[0] = envoys_of(s, comp.TAIRA, 6)
    s.pavilion = [master, friends]  # costs: any treasure, and a scroll
    s.palace = []
    s.treasures[0] = [0, 1, 0, 0, 0]
    s.hands[0] = hand()
    assert s.C.rum_opts[master] and NEW.rumour_worth(s, master) == 0
    assert choice(NEW, s) == A_PAVILION + 1
    assert choice(OLD, s) == A_PAVILION + 0  # set size: extends the Master set


def test_heuristic_takes_a_free_rumour_over_little_clan_honour():
    """First place in Taira, whose tokens on houses total 6: a free Powerful Friends card
    for a seat with six envoys (about 7 at the end) beats that honour; the old default takes
    any honour of 6 or more."""
    s = fresh()
    s.round = 5
    friends = rumours_of(s, comp.R_FRIENDS, 1)[0]
    s.envoys[0] = envoys_of(s, comp.TAIRA, 6)
    s.pavilion = [friends]
    s.house_clan = [comp.TAIRA, comp.MINAMOTO, comp.MINAMOTO, comp.GOSHIRAKAWA, comp.GOSHIRAKAWA]
    s.house_token = [s.C.token_values.index(v) for v in (6, 2, 4, 8, 10)]
    s.phase = PH_REWARD1
    s.scoring_queue = [[0, 2, comp.TAIRA]]
    s.scoring_step = 0
    s.player = 0
    assert s.clan_honour(comp.TAIRA) == 6
    assert choice(NEW, s) == A_RUMOUR + 0
    assert choice(OLD, s) == A_HONOUR
    s.envoys[0] = envoys_of(s, comp.TAIRA, 2)  # worth ~3 now: the 6 honour wins
    assert choice(NEW, s) == A_HONOUR


def test_heuristic_disguises_the_envoy_that_wins_its_clan():
    """Two masked envoys, one Disguise: Taira is already ours alone, Minamoto is lost on
    age to a rival's single envoy; +1 there takes first place."""
    s = fresh(2)
    taira = envoys_of(s, comp.TAIRA, 1, mask=1)
    minamoto = envoys_of(s, comp.MINAMOTO, 1, mask=1)
    rival = envoys_of(s, comp.MINAMOTO, 1, oldest_first=True, mask=0)
    s.envoys = [taira + minamoto, rival]
    give_skill(s, 0, comp.E_DISGUISE)
    s.disguised = [[], []]
    s.phase = PH_DISGUISE
    s.player = 0
    assert legal(s) == sorted(A_DISGUISE + e for e in taira + minamoto)
    assert taira[0] < minamoto[0]  # the old default's first legal action is Taira's
    assert choice(NEW, s) == A_DISGUISE + minamoto[0]
    assert choice(OLD, s) == A_DISGUISE + taira[0]


# ------------------------------------------------------------------ duplicate-format options
def test_heuristic_deck_below_option_draws_blind_from_a_poor_row():
    """`deck_below=2` alone (`deck_helps=0`; the dojo deck draw MCTS uses):
    with only a 2 and a 4 face up (rank 1 in `ROW_PREF`) the next draw is the deck; without
    it (`deck_below=0`, the default before) the 2 is taken."""
    s = fresh()
    s.hands[0] = hand()
    act(s, A_TAKE + s.row[0] - 1)  # the visit's first draw: the rest are PH_DRAW decisions
    s.row = [2, 4]
    blind = Heuristic("default", deck_below=2, deck_helps=False)
    assert choice(blind, s) == A_DECK
    assert choice(Heuristic("default", deck_below=0), s) == A_TAKE + 1
    s.row = [4, 5]  # a 5 (rank 3) is worth taking
    assert choice(blind, s) == A_TAKE + 4


def low_row_draw(s, *values: int) -> None:
    """Seat 0 in the middle of a dojo visit holding `values`, only a 2 and a 4 face up,
    every house a fan behind a sentry of 5 (a 2 or a 4 beats it by stealth)."""
    s.hands[0] = hand()
    act(s, A_TAKE + s.row[0] - 1)  # the visit's first draw: the rest are PH_DRAW decisions
    s.hands[0] = hand(*values)
    s.row = [2, 4]
    for h in range(5):
        set_house(s, h, [FAN], sentry=5)


def test_heuristic_draws_blind_when_no_face_up_card_helps_its_raids():
    """The dojo deck draw MCTS uses (the default's `deck_below=2, deck_helps`):
    with only a 2 and a 4 face up (the lowest `ROW_PREF`; a blind card ranks higher on
    average) and both already in hand, neither opening a better raid, the default draws
    from the deck; the default before (`deck_below=0`) and `heuristic:v1` take the 2."""
    s = fresh()
    low_row_draw(s, 2, 4)
    assert choice(NEW, s) == A_DECK
    assert choice(Heuristic("default", deck_below=0), s) == A_TAKE + 1
    assert choice(OLD, s) == A_TAKE + 1


def test_heuristic_takes_a_low_card_that_opens_a_raid_or_a_missing_value():
    """... but a face-up 2 or 4 that raises the hand's best raid, or whose value the hand
    lacks, is taken: a 4 beats a rich house's sentry of 2 by force (a 2 cannot), and a
    hand of one 4 lacks the 2."""
    s = fresh()
    low_row_draw(s)
    set_house(s, 0, [JADE, GOLD, VASE], sentry=2)
    assert choice(NEW, s) == A_TAKE + 3
    s = fresh()
    low_row_draw(s, 4)
    assert choice(NEW, s) == A_TAKE + 1


def test_heuristic_save_ki_option_gives_up_rather_than_spend_ki():
    """`save_ki` (the give-up MCTS uses): against a sentry of 5 by force a
    hand of 4, Ki, Ki can only win with both Ki: the option gives up, the default plays 4."""
    s = fresh()
    s.hands[0] = hand(4, 3, 3)
    poor_houses(s)
    set_house(s, 1, [JADE, JADE], sentry=5)
    raid(s, 1)
    assert choice(Heuristic("default", save_ki=True), s) == A_GIVE_UP
    assert choice(NEW, s) == A_BASE + 3


def test_heuristic_overdraw_option_visits_the_dojo_with_a_full_hand_and_poor_raids():
    """`overdraw=8` (the hand limit discard MCTS uses): with six cards and
    every house a single fan, the option draws at the dojo (then discards to the hand limit);
    the default raids; with three cards, or a rich house, the option raids too."""
    s = fresh()
    s.sensei = []  # no skill to learn instead
    s.hands[0] = hand(1, 2, 2, 4, 4, 5)
    poor_houses(s)
    over = Heuristic("default", overdraw=8)
    assert choice(over, s) < A_SENSEI
    assert A_HOUSE <= choice(NEW, s) < A_HOUSE + 10
    s.hands[0] = hand(1, 4, 5)
    assert A_HOUSE <= choice(over, s) < A_HOUSE + 10
    s.hands[0] = hand(1, 2, 2, 4, 4, 5)
    set_house(s, 1, [JADE, JADE, VASE], sentry=3)
    assert A_HOUSE <= choice(over, s) < A_HOUSE + 10


def test_heuristic_choho_worth_option_learns_choho_from_a_poor_round_1():
    """`choho_worth=2` (the Choho MCTS uses): round 1, Choho face up, every
    house a single fan: the option learns it (2 x 7 rounds), the default (0.7 x 7 < 6) raids."""
    s = fresh()
    s.sensei = [tile(s, comp.E_SWAP)]
    s.hands[0] = hand(2, 4, 5)
    poor_houses(s)
    assert choice(Heuristic("default", choho_worth=2), s) == A_SENSEI
    assert choice(NEW, s) != A_SENSEI


@pytest.mark.parametrize("effect, option", [(comp.E_SWITCH, "switch_worth"),
                                            (comp.E_REFRESH, "refresh_worth")])
def test_heuristic_switch_and_refresh_worth_options_learn_those_tiles(effect, option):
    """Seishin-teki kyoyo (switch) and Tenmon (refresh) are learnt when their worth per round
    left makes them worth a Sensei visit: at 2 (x 7 rounds) from a poor round 1, the
    default's 0.5 (x 7 < 6) raids instead."""
    s = fresh()
    s.sensei = [tile(s, effect)]
    s.hands[0] = hand(2, 4, 5)
    poor_houses(s)
    assert choice(Heuristic("default", **{option: 2}), s) == A_SENSEI
    assert choice(NEW, s) != A_SENSEI


@pytest.mark.parametrize("spec, message", [
    ("heuristic:default,deck_below=abc", "deck_below= expects an integer"),
    ("heuristic:default,deck_helps=maybe", "deck_helps= expects true/false"),
    ("heuristic:default,save_ki=perhaps", "save_ki= expects true/false"),
])
def test_heuristic_options_refuse_bad_values(spec: str, message: str) -> None:
    """A typo in an option is one clear BotSpecError (the CLI's `error:` line), not a
    ValueError from int() or a silent 'on'."""
    from engines import get_game
    from engines.bots import BotSpecError, make_bot

    with pytest.raises(BotSpecError, match=message):
        make_bot(spec, get_game("ninjato"))


# ------------------------------------------------------------------ tuned weights (simulate tune)
def test_heuristic_gives_up_a_winnable_fight_whose_ki_outweighs_the_treasure():
    """`ki_cost` (give up a winnable fight): against a sentry of 4 by force, a hand of 4, Ki,
    Ki wins with one Ki card.  At 3 a Ki card, one Ki outweighs the fan at stake (worth 2):
    the bot gives up and keeps its cards; a jade (worth 5) is worth the Ki, and so is any
    fight with the default (`ki_cost=0`: never give up)."""
    s = fresh()
    s.hands[0] = hand(4, 3, 3)
    poor_houses(s)
    set_house(s, 1, [FAN], sentry=4)
    raid(s, 1)
    assert legal(s) == [A_BASE + 3, A_GIVE_UP]  # winnable: the 4 with one Ki
    thrifty = Heuristic("default", ki_cost=3)
    assert choice(thrifty, s) == A_GIVE_UP
    assert choice(NEW, s) == A_BASE + 3
    t = fresh()
    t.hands[0] = hand(4, 3, 3)
    poor_houses(t)
    set_house(t, 1, [JADE], sentry=4)
    raid(t, 1)
    assert choice(thrifty, t) == A_BASE + 3


def test_heuristic_gives_up_a_fight_that_would_risk_the_shuriken_only_when_ki_outweighs_all():
    """After a banzai the fight also stakes the shuriken (all but its best treasure): with a
    fan and a vase won, two Ki cards at 3 each (6) outweigh the next fan plus the fan at risk
    (4), but not at 1.5 each (3)."""
    s = fresh()
    s.hands[0] = hand(3, 3, 4, 5)
    poor_houses(s)
    set_house(s, 1, [FAN, FAN, VASE, FAN], sentry=1)
    raid(s, 1)
    act(s, A_BASE + 4)  # the 5 beats the sentry: a fan
    s.house_plain[1] = [FAN, FAN]
    s.raid_treasures = [FAN, VASE]
    act(s, A_BANZAI)
    s.guard_kind, s.guard_id = G_REGULAR, next(
        i for i, v in enumerate(s.C.gval) if v == 5 and i not in s.guard_discards)
    s.hands[0] = hand(3, 3, 4)
    s._legal_cache = None
    assert A_BASE + 3 in legal(s) and A_GIVE_UP in legal(s)
    assert choice(Heuristic("default", ki_cost=3), s) == A_GIVE_UP
    assert choice(Heuristic("default", ki_cost=1.5), s) == A_BASE + 3


def revealed_guard(s, value: int, won: list[int], rest: list[int], cards: list[int]) -> None:
    """Seat 0 raided house 1 by force, beat the sentry and called banzai: `won` on its
    shuriken, `rest` left in the house, a regular guard of `value` revealed, `cards` in
    hand (no skill tiles)."""
    s.hands[0] = hand(5, *cards)
    poor_houses(s)
    set_house(s, 1, [FAN, *rest], sentry=1)
    raid(s, 1)
    act(s, A_BASE + 4)  # the 5 beats the sentry: a fan
    act(s, A_BANZAI)
    s.house_plain[1], s.house_red[1] = sorted(rest), []  # whatever an alarm did
    s.raid_treasures = list(won)
    s.guard_kind, s.guard_id = G_REGULAR, next(
        i for i, v in enumerate(s.C.gval) if v == value and i not in s.guard_discards)
    s.hands[0] = hand(*cards)


def shipped_default():
    from engines import get_game
    from engines.bots import make_bot

    return make_bot("heuristic", get_game("ninjato"))


def test_heuristic_gives_up_a_revealed_guard_whose_cards_outweigh_the_next_fan():
    """Giving up after a banzai with one treasure won loses nothing but the next treasure.
    Against a revealed 5 by force, the hand's 5 ties and needs its Ki: a 5 and a Ki (keep
    values 3 + 4, at the default `fight_cost` 0.4 worth 2.8) outweigh the next fan (2), so
    the default gives up and keeps both cards; the old default (`v2`) and `fight_cost=0`
    fight."""
    s = fresh()
    revealed_guard(s, 5, [FAN], [FAN, FAN], [5, 3])
    assert legal(s) == [A_BASE + 4, A_GIVE_UP]  # winnable: the 5 with the Ki
    assert choice(shipped_default(), s) == A_GIVE_UP
    assert choice(NEW, s) == A_BASE + 4
    from engines import get_game
    from engines.bots import make_bot
    assert choice(make_bot("heuristic:v2", get_game("ninjato")), s) == A_BASE + 4


@pytest.mark.parametrize(("won", "rest", "why"), [
    ([FAN], [JADE, JADE], "the next treasure, a jade (5), is worth the cards (2.8)"),
    ([FAN, VASE], [FAN, FAN], "a failure would lose the fan too: fan + fan (4) > 2.8"),
    ([FAN], [FAN], "the win clears the house: the fan plus 3 (5) > 2.8"),
])
def test_heuristic_fights_a_revealed_guard_when_the_win_is_worth_its_cards(won, rest, why):
    """The same fight (a 5 and a Ki against a revealed 5) is fought where the win adds
    more than the cards are worth: a richer next treasure, a shuriken at risk, a cleared
    house."""
    s = fresh()
    revealed_guard(s, 5, won, rest, [5, 3])
    assert choice(shipped_default(), s) == A_BASE + 4, why


def test_heuristic_fights_a_revealed_guard_with_a_cheap_card():
    """A 4 that beats a revealed 3 alone (keep value 1, worth 0.4) is always worth a fan;
    and the sentry is never given up by this rule (the raid was chosen to fight it)."""
    s = fresh()
    revealed_guard(s, 3, [FAN], [FAN, FAN], [4, 5])
    assert choice(shipped_default(), s) == A_BASE + 3
    t = fresh()
    t.hands[0] = hand(5, 3)
    poor_houses(t)
    set_house(t, 1, [FAN, FAN], sentry=5)
    raid(t, 1)
    assert choice(shipped_default(), t) == A_BASE + 4


def test_heuristic_card_cost_option_pays_a_card_for_a_skill():
    """Round 1, Taijutsu (+-1) face up, learnt by paying a Ki card: worth 1 x 7 rounds less
    the Ki's keep value 4 = 3, below the 6 a tile must be worth; valuing the card at a
    quarter (`card_cost=0.25`) makes it 6: the bot pays the card and learns it."""
    s = fresh()
    s.sensei = [tile(s, comp.E_PM1)]
    s.hands[0] = hand(2, 3, 5)
    poor_houses(s)
    assert choice(Heuristic("default", card_cost=0.25), s) == A_SENSEI
    assert choice(NEW, s) != A_SENSEI


def test_heuristic_skill_min_option_learns_a_cheaper_skill():
    """Round 1, Choho face up: worth 0.7 x 7 less a 2's keep value = 3.9 < 6 by default;
    `skill_min=3` learns it."""
    s = fresh()
    s.sensei = [tile(s, comp.E_SWAP)]
    s.hands[0] = hand(2, 4, 5)
    poor_houses(s)
    assert choice(Heuristic("default", skill_min=3), s) == A_SENSEI
    assert choice(NEW, s) != A_SENSEI


def test_heuristic_disguise_worth_option_takes_the_last_disguise():
    """Round 6, one scoring phase left, a masked envoy: Disguise is worth 4 less a card by
    default (below 6); at `disguise_worth=8` the bot takes the tile."""
    s = fresh()
    s.round = 6
    s.sensei = [tile(s, comp.E_DISGUISE)]
    s.hands[0] = hand(2, 4)
    poor_houses(s)
    s.envoys[0] = envoys_of(s, comp.TAIRA, 1, mask=1)
    assert choice(Heuristic("default", disguise_worth=8), s) == A_SENSEI
    assert choice(NEW, s) != A_SENSEI


# ------------------------------------------------------------------ each skill where it pays
def test_heuristic_plays_taijutsu_to_lift_a_tie_past_the_guard():
    """A 4 ties a sentry of 4 by force; Taijutsu's +1 wins: the 4, then +1."""
    s = fresh()
    give_skill(s, 0, comp.E_PM1)
    s.hands[0] = hand(4)
    poor_houses(s)
    set_house(s, 1, [JADE, JADE], sentry=4)
    raid(s, 1)
    assert choice(NEW, s) == A_BASE + 3
    act(s, A_BASE + 3)
    assert choice(NEW, s) == A_PM1_PLUS
    act(s, A_PM1_PLUS)
    assert s.raid_treasures == [JADE]


def test_heuristic_switches_approach_when_only_force_can_win():
    """By stealth against a sentry of 1 no card can go lower; the switch to force lets the 5
    win: the bot switches, then plays the 5."""
    s = fresh()
    give_skill(s, 0, comp.E_SWITCH)
    s.hands[0] = hand(5)
    poor_houses(s)
    set_house(s, 1, [JADE], sentry=1)
    raid(s, 1, stealth=True)
    assert choice(NEW, s) == A_SWITCH
    act(s, A_SWITCH)
    assert choice(NEW, s) == A_BASE + 4


def test_heuristic_refreshes_a_used_set_to_6_to_win():
    """Set-to-6 already used this round, refresh ready: a 5 ties a sentry of 5; the bot plays
    the 5, refreshes set-to-6 and sets the card to 6."""
    s = fresh()
    give_skill(s, 0, comp.E_SIX)
    s.ready[0][comp.E_SIX] = 0  # used
    give_skill(s, 0, comp.E_REFRESH)
    s.hands[0] = hand(5)
    poor_houses(s)
    set_house(s, 1, [JADE], sentry=5)
    raid(s, 1)
    assert choice(NEW, s) == A_BASE + 4
    act(s, A_BASE + 4)
    assert choice(NEW, s) == A_REFRESH + comp.E_SIX
    act(s, A_REFRESH + comp.E_SIX)
    assert choice(NEW, s) == A_SIX


def test_heuristic_plays_boryaku_when_no_card_beats_the_guard():
    """A hand of one 1 against a sentry of 3 by force: Boryaku's 4 wins."""
    s = fresh()
    give_skill(s, 0, comp.E_BORYAKU)
    s.hands[0] = hand(1)
    poor_houses(s)
    set_house(s, 1, [JADE], sentry=3)
    raid(s, 1)
    assert choice(NEW, s) == A_BOR4


def previous_default():
    """The default before Boryaku was tuned (`heuristic:v3`)."""
    from engines import get_game
    from engines.bots import make_bot

    return make_bot("heuristic:v3", get_game("ninjato"))


def test_heuristic_learns_boryaku_over_set_to_6():
    """Round 1, Kayaku-jutsu (set to 6) and Boryaku face up, every house a single fan:
    Boryaku, a 2 or 4 with no card spent that beats any sentry alone and is ready again each
    round, is worth more (`boryaku_worth` 4 per round left, a 2 paid: 27) than set-to-6 (2 per
    round left, a 4 paid: 13); the previous default (1.5 per round left) takes set-to-6."""
    s = fresh()
    s.sensei = [tile(s, comp.E_SIX), tile(s, comp.E_BORYAKU)]
    s.hands[0] = hand(2, 4, 5)
    poor_houses(s)
    assert choice(shipped_default(), s) == A_SENSEI + 1
    assert choice(previous_default(), s) == A_SENSEI


def test_heuristic_plays_boryaku_before_a_card_worth_keeping():
    """A ready Boryaku and a hand of a 5 and a Ki against a sentry of 3 by force: the 5 wins
    alone, but Boryaku's 4 wins too and spends no card (`boryaku_first=1`), so the 5 stays
    in hand for the banzai; the previous default spends the 5 and keeps Boryaku unused."""
    s = fresh()
    give_skill(s, 0, comp.E_BORYAKU)
    s.hands[0] = hand(5, 3)
    poor_houses(s)
    set_house(s, 1, [FAN, JADE], sentry=3)
    raid(s, 1)
    assert choice(previous_default(), s) == A_BASE + 4
    assert choice(shipped_default(), s) == A_BOR4
    act(s, A_BOR4)
    assert s.raid_treasures == [FAN] and s.hands[0] == hand(5, 3)


def with_option(**options):
    """The shipped default with `options` set."""
    from engines import get_game
    from engines.bots import make_bot

    spec = ",".join(f"{k}={v}" for k, v in options.items())
    return make_bot(f"heuristic:{spec}", get_game("ninjato"))


def test_heuristic_raid_ahead_option_raids_the_house_its_hand_can_carry_home():
    """A hand of 2, Ki, 5, 5: by stealth its 2 beats a sentry of 5 before a scroll and two
    jades, but treasure comes lowest first and what is left (Ki, 5, 5) rarely wins a
    stealth banzai, so that raid expects a scroll and little more; by force a 5 beats a
    sentry of 4 before a jade and a gold, and the other 5 wins the banzai that clears the
    house.  With `raid_ahead=1` (the default) the heuristic raids the second house;
    `heuristic:v4` (`raid_ahead=0`: all the plain treasure in the house) the first."""
    from engines import get_game
    from engines.bots import make_bot

    s = fresh()
    s.hands[0] = hand(2, 3, 5, 5)
    poor_houses(s)
    set_house(s, 1, [SCROLL, JADE, JADE], sentry=5)
    set_house(s, 2, [JADE, GOLD], sentry=4)
    assert choice(make_bot("heuristic:v4", get_game("ninjato")), s) == A_HOUSE + 2 * 1 + 1
    assert choice(with_option(raid_ahead=0), s) == A_HOUSE + 2 * 1 + 1
    assert choice(with_option(raid_ahead=1), s) == A_HOUSE + 2 * 2
    assert choice(shipped_default(), s) == A_HOUSE + 2 * 2


def test_heuristic_envoy_favour_option_buys_the_envoy_that_wins_a_clan():
    """Round 2, two envoys affordable: a Taira one paying 9 honour (a rival holds two Taira
    envoys: second place, half of Taira's 6 on houses) and a Minamoto one paying 8 (first
    place in Minamoto, 18 on houses, at three scoring phases).  With `envoy_favour=1` the
    heuristic buys the Minamoto envoy; the default (honour paid alone) the Taira one."""
    s = fresh()
    s.round = 2
    s.treasures[0] = [1, 1, 1, 1, 0]
    taira, minamoto = 12, 4
    assert (s.C.env_clan[taira], s.C.env_clan[minamoto]) == (comp.TAIRA, comp.MINAMOTO)
    assert [envoy_table(s.C, s.treasures[0])[e] for e in (taira, minamoto)] == [9, 8]
    s.palace = [taira, minamoto]
    s.envoys[1] = envoys_of(s, comp.TAIRA, 2)
    set_tokens(s, [(comp.TAIRA, 2), (comp.TAIRA, 4), (comp.MINAMOTO, 8), (comp.MINAMOTO, 10),
                   (comp.GOSHIRAKAWA, 6)])
    assert choice(shipped_default(), s) == A_PALACE + 0
    assert choice(with_option(envoy_favour=1), s) == A_PALACE + 1


def test_heuristic_token_favour_option_puts_the_new_token_on_the_clan_it_leads():
    """Clearing a Go-Shirakawa house: seat 0 holds two Taira envoys but a rival holds three
    (second place), and the only Minamoto envoy (first place).  With `token_favour` the
    heuristic puts the 10 on Minamoto, whose favour it takes; the default puts it on Taira,
    the clan of its most envoys, where the rival gains more."""
    s = fresh()
    set_house(s, 2, [FAN], sentry=1)
    s.house_clan[2] = comp.GOSHIRAKAWA
    s.envoys[0] = envoys_of(s, comp.TAIRA, 2) + envoys_of(s, comp.MINAMOTO, 1)
    s.envoys[1] = envoys_of(s, comp.TAIRA, 3, oldest_first=True)
    s.hands[0] = hand(5)
    raid(s, 2)
    act(s, A_BASE + 4)
    assert s.phase == PH_TOKEN
    assert choice(shipped_default(), s) == A_TOKEN + comp.TAIRA * 5 + 4
    assert choice(with_option(token_favour="true"), s) == A_TOKEN + comp.MINAMOTO * 5 + 4
