"""The engine contract, checked on every registered game and every player count.

A new game passes these without writing a line of test code; its own rules tests live
beside them in tests/test_<game>_*.py.
"""

from __future__ import annotations

import json
import random
import types
from copy import deepcopy

import pytest

from engines import GAMES, get_game, play_game, replay
from engines.bots import bot_names, make_bot
from engines.core import IllegalActionError, State
from engines.declarations import declarations
from tests.playouts import play_on, playout, random_midgame

CASES = [(name, n) for name, game in sorted(GAMES.items())
         for n in range(game.min_players, game.max_players + 1)]
IDS = [f"{name}-{n}p" for name, n in CASES]
SEEDS = range(6)


def _random_bots(game, n):
    return [make_bot("random", game) for _ in range(n)]


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_random_playouts_terminate_with_legal_actions_until_the_end(name, n):
    game = get_game(name)
    for seed in range(12):
        for state in playout(game, n, seed, max_moves=100_000):
            if state.is_terminal():
                break
            assert 0 <= state.current_player() < n
            legal = state.legal_actions()
            assert legal, "no legal action before the end"
            assert len(set(legal)) == len(legal), "duplicate actions"
        assert state.is_terminal(), "game does not terminate"
        assert state.current_player() == -1
        assert state.legal_actions() == []
        scores = state.scores()
        assert len(scores) == n
        low, high = game.score_range  # the declared bounds of one seat's score
        assert all((low is None or s >= low) and (high is None or s <= high) for s in scores)
        winners = state.winners()
        assert winners and set(winners) <= set(range(n))
        ranks = state.ranks()
        assert all(ranks[w] == 1 for w in winners)
        breakdown = state.score_breakdown()
        for source, points in breakdown.items():
            assert len(points) == n, source
        if breakdown:
            for seat in range(n):
                total = sum(points[seat] for points in breakdown.values())
                assert total == pytest.approx(scores[seat]), f"breakdown of seat {seat}"


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_same_seed_same_game_and_replay_reproduces_it(name, n):
    game = get_game(name)
    for seed in SEEDS:
        bots = _random_bots(game, n)
        first = play_game(game, bots, seed, record=True)
        second = play_game(game, bots, seed, record=True)
        assert first == second
        assert not first.truncated, "random play hit the decision cap (a rules loop?)"
        final = replay(game, n, seed, first.actions)
        assert final.is_terminal() or first.truncated
        assert final.scores() == first.scores


def check_clone_is_independent(state, seed):
    """Playing a clone to the end leaves the original exactly as it was."""
    before = state.snapshot()
    copy = state.clone()
    assert copy.snapshot() == before
    play_on(copy, seed)
    assert state.snapshot() == before, "playing the clone changed the original"


def check_illegal_action_changes_nothing(state):
    before = state.snapshot()
    bad = max(state.legal_actions()) + 10_007
    with pytest.raises(IllegalActionError):
        state.apply_action(bad)
    assert state.snapshot() == before


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_clone_is_independent(name, n):
    game = get_game(name)
    for seed in SEEDS:
        check_clone_is_independent(random_midgame(game, n, seed), seed)


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_clone_with_rng_is_a_clone_that_takes_the_given_stream(name, n):
    """`clone_with_rng` (what the search uses) is `clone()` but for the chance stream: same
    position, the given generator itself, and nothing shared with the original."""
    game = get_game(name)
    for seed in SEEDS:
        state = random_midgame(game, n, seed)
        if state.is_terminal():
            continue
        stream = random.Random(seed)
        copy = state.clone_with_rng(stream)
        assert copy.rng is stream and state.rng is not stream
        ours, theirs = copy.snapshot(), state.clone().snapshot()
        ours.pop("rng", None)
        theirs.pop("rng", None)
        assert ours == theirs
        before = state.snapshot()
        copy.apply_action(copy.legal_actions()[0])
        assert state.snapshot() == before


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_illegal_action_raises_and_changes_nothing(name, n):
    check_illegal_action_changes_nothing(random_midgame(get_game(name), n, 3))


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_snapshot_is_a_deep_copy(name, n):
    """A snapshot does not move when a list of the state changes in place."""
    state = random_midgame(get_game(name), n, 1)
    before = state.snapshot()
    attr = _list_attributes(state)[0]
    _grow(getattr(state, attr))
    assert state.snapshot() != before
    assert before[attr] != state.snapshot()[attr]


# --- mutation checks: the two contract tests above fail on the bugs they are named after ---

def _list_attributes(state):
    """Names of the state's list attributes, and of its dicts of lists (a kit game's zones:
    `engines.gamekit`): the ones a careless clone could share."""
    return [name for name in state.snapshot()
            if type(getattr(state, name, None)) in (list, dict)]


def _grow(container) -> None:
    """Change a list attribute (or a dict of lists) in place."""
    if type(container) is dict:
        container["-1"] = -1
    else:
        container.append(-1)


def _contents(container):
    """What a list attribute holds now (a dict of lists: all of it), to see it change."""
    return list(container) if type(container) is list else deepcopy(container)


def _list_changed_in_place(game, n, seed):
    """A list attribute that a playout of a clone changes in place (same list object)."""
    state = random_midgame(game, n, seed)
    copy = state.clone()
    lists = {name: (getattr(copy, name), _contents(getattr(copy, name)))
             for name in _list_attributes(copy)}
    play_on(copy, seed)
    return [name for name, (obj, old) in lists.items()
            if getattr(copy, name) is obj and obj != old]


def _as_subclass(state, **methods):
    """`state` re-classed as a subclass of its own class that overrides `methods`."""
    namespace = {"__slots__": (), **methods}
    broken = types.new_class(f"Broken{type(state).__name__}", (type(state),),
                             {"overrides_contract": True}, lambda ns: ns.update(namespace))
    state.__class__ = broken
    return state


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_mutation_check_a_clone_sharing_a_list_fails_the_clone_test(name, n):
    game = get_game(name)
    seed = next(s for s in SEEDS if _list_changed_in_place(game, n, s))
    shared = _list_changed_in_place(game, n, seed)[0]
    base_clone = type(game.new_state(n, seed)).clone

    def clone(self):
        copy = base_clone(self)
        setattr(copy, shared, getattr(self, shared))  # the bug: one list not copied
        return copy

    state = _as_subclass(random_midgame(game, n, seed), clone=clone)
    with pytest.raises(AssertionError, match="changed the original"):
        check_clone_is_independent(state, seed)


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_mutation_check_an_illegal_action_that_mutates_fails_the_illegal_action_test(name, n):
    game = get_game(name)
    state = random_midgame(game, n, 3)
    target = _list_attributes(state)[0]
    base_apply = type(state).apply_action

    def apply_action(self, action):
        _grow(getattr(self, target))  # the bug: a change before the legality check
        base_apply(self, action)

    with pytest.raises(AssertionError):
        check_illegal_action_changes_nothing(_as_subclass(state, apply_action=apply_action))


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_observation_is_json_and_determinize_keeps_it(name, n):
    game = get_game(name)
    for seed in SEEDS:
        state = random_midgame(game, n, seed)
        if state.is_terminal():
            continue
        seat = state.current_player()
        seen = state.observation(seat)
        json.dumps(seen)
        world = state.determinize(seat, random.Random(99))
        assert world.observation(seat) == seen
        assert world.legal_actions() == state.legal_actions()
        assert world.rng.getstate() != state.rng.getstate(), "determinize must reseed the rng"
        # the original is untouched
        assert state.observation(seat) == seen


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_determinize_depends_only_on_the_information_set(name, n):
    """Two worlds the seat cannot tell apart, determinized with equal rngs, are the same world."""
    game = get_game(name)
    for seed in SEEDS:
        state = random_midgame(game, n, seed)
        if state.is_terminal():
            continue
        seat = state.current_player()
        world_a = state.determinize(seat, random.Random(1))
        world_b = state.determinize(seat, random.Random(2))
        again_a = world_a.determinize(seat, random.Random(7))
        again_b = world_b.determinize(seat, random.Random(7))
        assert again_a.snapshot() == again_b.snapshot()


def _peek_specs(game):
    """Every bot of the game; the search bots with small budgets (OpenSpiel's is slow)."""
    small = {"mcts": "mcts:iterations=30", "mcts:strong": "mcts:strong,iterations=30",
             "ismcts": "ismcts:simulations=2"}
    return [small.get(s, s) for s in bot_names(game)]


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_bots_do_not_peek_at_hidden_information(name, n):
    """A bot's choice must not change when only what its seat cannot see changes."""
    game = get_game(name)
    for spec in _peek_specs(game):
        bot = make_bot(spec, game)
        for seed in SEEDS:
            for fraction in (0.2, 0.6):
                state = random_midgame(game, n, seed, fraction)
                if state.is_terminal():
                    continue
                seat = state.current_player()
                world_a = state.determinize(seat, random.Random(100 + seed))
                world_b = state.determinize(seat, random.Random(200 + seed))
                choice_real = bot.choose(state, random.Random(seed))
                choice_a = bot.choose(world_a, random.Random(seed))
                choice_b = bot.choose(world_b, random.Random(seed))
                assert choice_real == choice_a == choice_b, f"{spec} peeks"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_has_a_heuristic_bot(name):
    game = get_game(name)
    assert "default" in game.heuristics


def check_playout_keeps_the_contract(game, n, seed, clone_at, new_state=None):
    """One random playout: a clone taken on the way does not move with the original, and
    replaying the actions rebuilds the final position."""
    rng = random.Random(seed)
    state = (new_state or game.new_state)(n, seed)
    history = []
    copy = None
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal
        action = legal[rng.randrange(len(legal))]
        if copy is None and rng.random() < clone_at * 0.05:
            copy = state.clone()
            copy_snapshot = copy.snapshot()
        state.apply_action(action)
        history.append(action)
        assert len(history) < 100_000
    if copy is not None:
        assert copy.snapshot() == copy_snapshot, "the clone moved with the original"
    assert replay(game, n, seed, history).snapshot() == state.snapshot()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_property_random_playouts_keep_the_contract(name):
    """Hypothesis over seeds, player counts and the clone point of a random playout."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    game = get_game(name)

    @settings(max_examples=15, deadline=None, database=None)
    @given(seed=st.integers(0, 2**40), n=st.integers(game.min_players, game.max_players),
           clone_at=st.floats(0.0, 1.0))
    def check(seed, n, clone_at):
        check_playout_keeps_the_contract(game, n, seed, clone_at)

    check()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_mutation_check_a_clone_sharing_a_list_fails_the_property_check(name):
    """The property check's clone test fails on a clone that shares one list with its
    original: the first list that the original's playout changes in place after the clone
    (found by a dry run with the game's own clone, which must pass; the first seed whose
    playout takes a clone, however few moves the game has)."""
    game = get_game(name)
    n = game.min_players
    base_clone = type(game.new_state(n, 1)).clone
    watched = {}

    def recording_clone(self):
        watched.update({attr: (self, getattr(self, attr), _contents(getattr(self, attr)))
                        for attr in _list_attributes(self)})
        return base_clone(self)

    def recording_state(n, seed):
        return _as_subclass(game.new_state(n, seed), clone=recording_clone)

    for seed in range(1, 100):
        watched.clear()
        check_playout_keeps_the_contract(game, n, seed, 1.0, recording_state)
        changed = [attr for attr, (orig, obj, old) in watched.items()
                   if getattr(orig, attr) is obj and obj != old]
        if changed:
            break
    assert changed, "no dry run took a clone, or no list changed in place after it"

    def sharing_clone(self):
        copy = base_clone(self)
        setattr(copy, changed[0], getattr(self, changed[0]))  # the bug: one list not copied
        return copy

    def broken_state(n, seed):
        return _as_subclass(game.new_state(n, seed), clone=sharing_clone)

    with pytest.raises(AssertionError, match="the clone moved with the original"):
        check_playout_keeps_the_contract(game, n, seed, 1.0, broken_state)


# --------------------------------------------------------------------------------------------
# Game systems: every game names its kinds of decision, and random play
# classifies every legal action into one of them and reaches each of them.
# --------------------------------------------------------------------------------------------

#: Random games played at most per game to reach every kind (stops as soon as all are reached).
KIND_GAMES = 1500


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_declares_its_action_kinds(name):
    from analysis.results.store import kind_columns

    kinds = get_game(name).action_kinds
    assert isinstance(kinds, tuple) and kinds, f"{name} declares no action_kinds"
    assert all(isinstance(k, str) and k.strip() for k in kinds)
    assert len(set(kinds)) == len(kinds), "two kinds share a name"
    columns = kind_columns(kinds)
    assert all(c.rstrip("_") == c for c in columns), f"kinds differ only in punctuation: {kinds}"


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_action_kind_indexes_every_legal_action_of_random_playouts(name, n):
    game = get_game(name)
    count = len(game.action_kinds)
    for seed in range(3):
        state = game.new_state(n, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            before = state.snapshot() if rng.random() < 0.05 else None
            for action in legal:
                kind = state.action_kind(action)
                assert isinstance(kind, int) and 0 <= kind < count, (
                    f"{state.action_to_str(action)} -> kind {kind!r}")
            if before is not None:
                assert state.snapshot() == before, "action_kind changed the state"
            state.apply_action(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_play_reaches_every_action_kind(name):
    """Seeded random games reach every declared kind: chosen, or at least legal (a few kinds
    need a position uniform play rarely builds and then rarely picks, e.g. a 7-point deed).
    A kind random play never reaches is unreachable or misclassified."""
    game = get_game(name)
    counts = range(game.min_players, game.max_players + 1)
    # rule sets besides the official rules, for kinds that only exist in a variant
    rule_sets = [{}, *declarations(name).tests.kind_variants]
    missing = set(range(len(game.action_kinds)))
    played = 0
    while missing and played < KIND_GAMES:
        n = counts[played % len(counts)]
        for state in playout(game, n, played, rules=rule_sets[played % len(rule_sets)]):
            missing.difference_update(map(state.action_kind, state.legal_actions()))
        played += 1
    assert not missing, (f"{played} random games never reached: "
                         f"{[game.action_kinds[k] for k in sorted(missing)]}")
@pytest.mark.parametrize("method", ["apply_action", "legal_actions"])
def test_core_holds_the_contract_no_engine_overrides_it(method):
    for game in GAMES.values():
        state_class = type(game.new_state(game.min_players, 0))
        # core's own function (compiled: the same method descriptor), inherited unchanged
        assert getattr(state_class, method) is getattr(State, method), \
            f"{game.name} defines {method}"
    with pytest.raises(TypeError, match=f"defines {method}: the contract is held"):
        type("Rogue", (State,), {method: lambda self, *args: None})


def test_registration_raises_on_a_missing_package():
    from engines import RegistrationError, _discover
    with pytest.raises(RegistrationError, match="engines.tabula_rasta.*does not exist"):
        _discover(("tabula_rasa", "tabula_rasta"))


def test_registration_raises_on_a_package_without_game():
    from engines import RegistrationError, _discover
    with pytest.raises(RegistrationError, match="engines.bots.*defines no GAME"):
        _discover(("bots",))


def test_every_builtin_package_is_registered():
    """Every folder of `engines/` with a rules module is a registered game: no list of games
    to keep, and none that failed to load (`engines.BROKEN`)."""
    from pathlib import Path

    import engines

    folders = {path.parent.name for path in Path(engines.__file__).parent.glob("*/rules.py")}
    registered = {game.Rules.__module__.split(".")[1] for game in GAMES.values()
                  if game.Rules.__module__.startswith("engines.")}
    assert not engines.BROKEN, engines.BROKEN
    assert folders and folders <= registered
    assert set(engines._game_packages()) == folders


# --- core's hooks for classes the build does not compile (new games, tests' toy games) ----

def test_forced_choices_hook_plays_the_sole_choices_of_an_interpreted_game():
    """Core's forced-choices hook (`_plays_forced_choices`) is a class setting that
    the compiled `State.apply_action` reads from the class at run time: a game the build does
    not compile (a new game, or here the toy Nim) gets it too, in both builds."""
    from tests.toy_games import NIM, NimState

    class ForcedNim(NimState):
        _plays_forced_choices = True

    rules = NIM.make_rules(pile=4, max_take=3)
    plain, forced = NimState(2, 0, rules), ForcedNim(2, 0, rules)
    plain.apply_action(3)  # one stone left: taking it is the sole legal action
    forced.apply_action(3)
    assert plain.pile == 1 and plain.legal_actions() == [1]
    assert forced.pile == 0 and forced.is_terminal() and forced.legal_actions() == []


def test_an_interpreted_state_that_lists_the_legal_cache_as_a_slot_shares_cores_field():
    """Compiled, `State` keeps `_legal_cache` in a C field: a slot of the same name in a
    Python subclass (a copy of a compiled game lists it) would be a second field, and the
    compiled contract would read a list the game never wrote.  `__init_subclass__` drops the
    slot, so what the game caches is what `legal_actions` returns, in both builds."""
    from tests.toy_games import NimRules, NimState

    class SlottedNim(NimState):
        __slots__ = ("_legal_cache", "extra")

        def __init__(self, *args):
            super().__init__(*args)
            self._legal_cache = None  # as the compiled games' constructors do

        def _apply(self, action):
            super()._apply(action)
            self._legal_cache = [1]  # the caching hook: the next legal list, left by _apply

    state = SlottedNim(2, 0, NimRules())
    state.apply_action(state.legal_actions()[0])
    assert state.legal_actions() == [1] and state._legal_cache == [1]
    state._legal_cache = None
    assert state.legal_actions() == state._legal_actions()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_copies_like_a_frozen_dataclass_in_both_builds(name):
    """`Game` stays a plain frozen dataclass in the compiled build: compiled as a native
    class, `copy.copy` failed (a frozen native class has no `__dict__` to restore)."""
    import copy
    import dataclasses

    game = get_game(name)
    assert copy.copy(game) == game
    assert dataclasses.replace(game, description="x").description == "x"
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.name = "other"
