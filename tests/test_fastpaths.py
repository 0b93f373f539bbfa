"""The speed shortcuts of every engine agree with the general code on real playouts (issue 16).

Each check runs the shortcut and the plain computation side by side on every position of a
few games played by random and heuristic bots, the way `tests/test_ninjato_fastpaths.py`
does for Ninjato, so a later speed change cannot silently change a rules outcome.
"""

from __future__ import annotations

import random

import pytest

from engines import GAMES, get_game
from engines.big_cheese.state import BID, _bid_list
from engines.bots import make_bot
from engines.ivanhoe.actions import (
    A_COLOUR,
    A_TARGET,
    PH_COLOUR,
    PH_OWN_SLOT,
    PH_PLAY,
    PH_TARGET,
    PH_THEIR_SLOT,
    action_slot,
)
from engines.ivanhoe.cards import CARDS, PLAYABLE, TARGETED
from engines.ivanhoe.cards import targets as card_targets
from engines.ivanhoe.components import RIPOSTE
from engines.tabula_rasa.scoring import score_tallies


def positions(name: str, players: int, bot: str, seeds=range(4)):
    """Every position of a few games (the live state object, yielded before each move)."""
    game = get_game(name)
    for seed in seeds:
        bots = [make_bot(bot, game) for _ in range(players)]
        state = game.new_state(players, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            yield state
            state.apply_action(bots[state.current_player()].choose(state, rng))
        yield state


#: The games that use core's caching hook (`_apply` leaves the next legal list cached).
CACHING_GAMES = ["big-cheese", "ninjato", "time-pirates"]


def test_the_caching_games_are_the_ones_that_cache() -> None:
    for name in sorted(GAMES):
        game = get_game(name)
        caches = any(s._legal_cache is not None
                     for s in positions(name, game.players_default, "random", seeds=[0]))
        assert caches == (name in CACHING_GAMES), name


@pytest.mark.parametrize("name", CACHING_GAMES)
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_cached_legal_lists_equal_the_recomputed_ones(name: str, bot: str) -> None:
    """Core's caching hook: a legal list an engine leaves in `_legal_cache` while applying
    an action (a pre-built table row, a list it had at hand) is what `_legal_actions` gives."""
    game = get_game(name)
    cached = 0
    for state in positions(name, game.players_default, bot):
        if state._legal_cache is not None:
            assert state._legal_cache == state._legal_actions()
            cached += 1
    assert cached > 20


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_big_cheese_bid_tables_equal_the_general_bid_list(bot: str) -> None:
    checked = 0
    for state in positions("big-cheese", 4, bot):
        if state.phase == BID and not state.rules.leader_must_open:
            seat = state.to_act
            general = _bid_list(state.vetoes[seat] > 0, state.high_bid, state.pool[seat])
            assert state.legal_actions() == general
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_time_pirates_hand_summaries_and_token_list_equal_a_recount(bot: str) -> None:
    """`ctot`, `held`, `atoms`, `arrows`, `filled`, `short` and `tokens` are kept in step by
    `_gain` / `_lose` / draws; `_resummarize` recomputes them from the hands and the bag."""
    checked = 0
    for state in positions("time-pirates", 4, bot, seeds=range(2)):
        fresh = state.clone()
        fresh._resummarize()
        for name in ("ctot", "held", "atoms", "arrows", "filled", "short"):
            assert getattr(state, name) == getattr(fresh, name), name
        assert sorted(state.tokens) == sorted(fresh.tokens)
        checked += 1
    assert checked > 200


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_ivanhoe_display_sums_equal_a_recount(bot: str) -> None:
    """`vsum` is kept up to date card by card (display totals are read on every legal list,
    `is_highest`); `recount` adds the displays up from scratch."""
    checked = 0
    for state in positions("ivanhoe", 4, bot):
        fresh = state.clone()
        fresh.recount()
        assert state.vsum == fresh.vsum
        checked += 1
    assert checked > 500


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_ivanhoe_has_a_target_shortcuts_equal_the_target_lists(bot: str) -> None:
    """`legal_turn` asks every action card in hand on every turn whether it is playable, so
    the targeted cards answer with a loop that stops at the first target
    (`cards.break_lance_playable`, `riposte_playable`, `has_exposed_with_two` for Dodge,
    `knock_down_playable`, `stunned_playable`) instead of building the list their target
    choice offers.  Riposte also needs room for one more display card (Stunned, D4)."""
    checked = 0
    for state in positions("ivanhoe", 4, bot):
        for seat in range(state.num_players):
            for card in TARGETED:
                general = bool(card_targets(state, seat, card))
                if card == RIPOSTE:
                    general = general and state.can_add(seat)
                assert PLAYABLE[card](state, seat) == general, CARDS[card].name
                checked += 1
    assert checked > 1000


def _choice_sequences(state, unit, phases: tuple[int, ...], seat: int) -> int:
    """Complete choice sequences of an action card from here; fails on a dead end (a choice
    whose options all lead to a later choice with none)."""
    if not phases:
        return 1
    phase = phases[0]
    total = 0
    for action in unit.choices[phase](state, seat):
        field, value = {
            PH_COLOUR: ("pending_colour", action - A_COLOUR),
            PH_TARGET: ("pending_target", action - A_TARGET),
            PH_OWN_SLOT: ("pending_own_slot", action_slot(action)),
            PH_THEIR_SLOT: ("pending_their_slot", action_slot(action)),
        }[phase]
        setattr(state, field, value)
        below = _choice_sequences(state, unit, phases[1:], seat)
        assert below > 0, f"{unit.name}: a dead end after {state.action_to_str(action)}"
        total += below
    return total


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_ivanhoe_a_card_is_playable_exactly_when_its_choices_can_be_completed(bot: str) -> None:
    """Each card's `playable` (the one-card rule, Shield, I7, I11, D4 folded into one test)
    against the card's own choice lists walked to the end on a copy of the position: a card
    that targets is legal exactly when its player can make all its choices, and no choice
    leads to a later one without options.  (Unhorse, Change Weapon and Retreat are legal by
    the colour or the size of one's display; their choices must then have options.)"""
    checked = 0
    for state in positions("ivanhoe", 4, bot, seeds=range(3)):
        if state.phase != PH_PLAY:
            continue
        seat = state.turn
        for unit in CARDS:
            if unit is None or not unit.choices:
                continue
            probe = state.clone()
            probe.pending_card = unit.card
            sequences = _choice_sequences(probe, unit, tuple(unit.choices), seat)
            playable = unit.playable(state, seat)
            if unit.first_choice != PH_TARGET:
                assert sequences > 0 or not playable, unit.name
            else:
                general = sequences > 0 and (unit.card != RIPOSTE or state.can_add(seat))
                assert playable == general, unit.name
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_tabula_rasa_cached_scoring_equals_a_fresh_scoring(bot: str) -> None:
    checked = 0
    for state in positions("tabula-rasa", 4, bot):
        cached = state.scoring()
        assert cached == score_tallies(state.tally, state.sides, state.rules.castle_rule)
        checked += 1
    assert checked > 50
