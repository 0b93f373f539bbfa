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
from engines.core import play_game
from engines.ivanhoe.state import OUTWIT, TARGETED
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


#: The games whose states declare `kind_table` (`play_game` looks kinds up in it).
KIND_TABLE_GAMES = ["ninjato"]


def test_the_kind_table_games_are_the_ones_with_a_table() -> None:
    for name in sorted(GAMES):
        state = get_game(name).new_state(get_game(name).players_default, 0)
        assert (state.kind_table is not None) == (name in KIND_TABLE_GAMES), name


@pytest.mark.parametrize("name", KIND_TABLE_GAMES)
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_kind_table_entries_equal_action_kind(name: str, bot: str) -> None:
    """`State.kind_table`: where it names a kind (not -1), `action_kind` gives the same for
    every legal action of every position; and `play_game`'s counts equal a recount."""
    game = get_game(name)
    looked_up = 0
    for state in positions(name, game.players_default, bot):
        table = state.kind_table
        assert len(table) == game.num_actions
        for action in state.legal_actions():
            if table[action] >= 0:
                assert table[action] == state.action_kind(action), state.action_to_str(action)
                looked_up += 1
    assert looked_up > 500


@pytest.mark.parametrize("name", KIND_TABLE_GAMES)
def test_play_game_kind_counts_equal_action_kind_counts(name: str) -> None:
    game = get_game(name)
    players = game.players_default
    bots = [make_bot("random", game) for _ in range(players)]
    record = play_game(game, bots, 5, players, record=True, availability=True)
    chosen = [[0] * len(game.action_kinds) for _ in range(players)]
    available = [[0] * len(game.action_kinds) for _ in range(players)]
    state = game.new_state(players, 5)
    for action in record.actions:
        seat = state.current_player()
        chosen[seat][state.action_kind(action)] += 1
        for kind in {state.action_kind(a) for a in state.legal_actions()}:
            available[seat][kind] += 1
        state.apply_action(action)
    assert record.kinds_chosen == chosen
    assert record.kinds_available == available


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
def test_ivanhoe_has_target_and_display_sums_equal_the_general_code(bot: str) -> None:
    checked = 0
    for state in positions("ivanhoe", 4, bot):
        fresh = state.clone()
        fresh._recount()
        assert state.vsum == fresh.vsum
        for seat in range(state.num_players):
            for card in TARGETED:
                if card == OUTWIT:  # `action_playable` asks `outwit_options` instead
                    continue
                assert state._has_target(seat, card) == bool(state.targets(seat, card))
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
