"""The RL adapters: OpenSpiel's and PettingZoo's own conformance checks on every game and
player count, observation tensors that depend on the observation alone, and OpenSpiel's
ISMCTS playing whole games through the adapter.

The `rl` extra is part of the README's test install, so these run in CI (no skip there).
"""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

import engines
from engines.bots import BotSpecError, make_bot
from engines.core import IllegalActionError
from engines.tensor import TensorSchema, schema_for
from tests.playouts import playout, positions

pyspiel = pytest.importorskip("pyspiel")
pettingzoo_test = pytest.importorskip("pettingzoo.test")

from engines.adapters import openspiel as os_adapter  # noqa: E402
from engines.adapters import pettingzoo as pz_adapter  # noqa: E402

GAME_COUNTS = [(name, n) for name, game in sorted(engines.GAMES.items())
               for n in range(game.min_players, game.max_players + 1)]


# --- OpenSpiel ------------------------------------------------------------------------------

@pytest.mark.parametrize("name,players", GAME_COUNTS)
def test_openspiel_random_sim_test_every_game_and_player_count(name, players):
    game = pyspiel.load_game(os_adapter.openspiel_name(name), {"players": players})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_openspiel_game_type_and_info_follow_the_engine():
    game = pyspiel.load_game("tabletop_ninjato", {"players": 3})
    game_type = game.get_type()
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game_type.provides_information_state_string
    assert not game_type.provides_information_state_tensor
    assert game.max_chance_outcomes() == 256
    assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game_type.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.num_distinct_actions() == engines.get_game("ninjato").num_actions
    assert game.max_game_length() == engines.get_game("ninjato").max_decisions
    assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)


def test_openspiel_rule_options_are_game_parameters():
    game = pyspiel.load_game("tabletop_tabula_rasa",
                             {"players": 2, "castle_rule": "two_consecutive"})
    state = _dealt(game, 0)
    assert state.engine.rules.castle_rule == "two_consecutive"
    with pytest.raises(Exception, match="castle_rule"):
        pyspiel.load_game("tabletop_tabula_rasa", {"castle_rule": "no_such_rule"})


def test_openspiel_terminal_player_and_win_share_returns():
    game = pyspiel.load_game("tabletop_big_cheese", {"players": 3})
    state = _dealt(game, 5)
    rng = random.Random(5)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    winners = state.engine.winners()
    assert state.returns() == [1 / len(winners) if s in winners else 0.0 for s in range(3)]


def test_openspiel_score_utility_is_centred_and_scaled():
    game = pyspiel.load_game("tabletop_tabula_rasa", {"players": 3, "utility": "score"})
    state = _dealt(game, 2)
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    scores = state.engine.scores()
    returns = state.returns()
    spread = max(scores) - min(scores)
    mean = sum(scores) / 3
    assert returns == pytest.approx([(s - mean) / spread for s in scores])


def _dealt(game, seed: int):
    """A new state of `game` after its deal's chance nodes, outcomes drawn from `seed`."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        outcomes, probabilities = zip(*state.chance_outcomes())
        assert sum(probabilities) == pytest.approx(1.0)
        state.apply_action(rng.choice(outcomes))
    return state


def test_openspiel_deals_are_chance_nodes_and_reproducible_from_the_history():
    game = pyspiel.load_game("tabletop_ivanhoe")
    first = game.new_initial_state()
    assert first.is_chance_node() and first.current_player() == pyspiel.PlayerId.CHANCE
    assert len(first.chance_outcomes()) == 256
    a, again = _dealt(game, 9), _dealt(game, 9)
    assert a.history() == again.history() and str(a) == str(again)
    assert str(_dealt(game, 10)) != str(a)
    # a new initial state draws nothing from the game: asking for extra ones changes no deal
    game.new_initial_state()
    assert str(_dealt(game, 9)) == str(a)


@pytest.mark.parametrize("name", sorted(engines.GAMES))
def test_openspiel_game_and_state_serialize_pickle_and_deepcopy(name):
    import copy
    import pickle

    game = pyspiel.load_game(os_adapter.openspiel_name(name))
    state = _dealt(game, 3)
    rng = random.Random(3)
    for _ in range(7):
        state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and str(state2) == str(state)
    assert state2.history() == state.history()
    for copied in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), state.clone()):
        assert str(copied) == str(state) and copied.history() == state.history()
        assert copied.information_state_string(1) == state.information_state_string(1)
        action = rng.choice(state.legal_actions())
        copied.apply_action(action)  # a copy is independent of the original
        assert copied.history() != state.history()


@pytest.mark.parametrize("name", sorted(engines.GAMES))
def test_openspiel_information_state_has_perfect_recall(name):
    """Two histories the player can tell apart give two information state strings, even
    where its current observation is the same (moves in either order, say)."""
    game = pyspiel.load_game(os_adapter.openspiel_name(name), {"players": 2}
                             if engines.get_game(name).min_players == 2 else {})
    state = _dealt(game, 1)
    rng = random.Random(1)
    seen: dict[tuple[int, str], list[int]] = {}
    for _ in range(60):
        if state.is_terminal():
            break
        for player in range(game.num_players()):
            key = (player, state.information_state_string(player))
            history = state.history()
            assert seen.setdefault(key, history) == history, "two histories, one string"
        state.apply_action(rng.choice(state.legal_actions()))


def test_openspiel_recall_tells_apart_two_orders_of_the_same_plays():
    """Ivanhoe: two cards played in either order leave the same table, not the same memory."""
    game = pyspiel.load_game("tabletop_ivanhoe", {"players": 2})
    for seed in range(200):
        state = _dealt(game, seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 6)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        player = state.current_player()
        for a in state.legal_actions():
            for b in state.legal_actions():
                if a >= b:
                    continue
                ab, ba = state.clone(), state.clone()
                for first, second, copy_ in ((a, b, ab), (b, a, ba)):
                    copy_.apply_action(first)
                    if copy_.is_terminal() or copy_.current_player() != player \
                            or second not in copy_.legal_actions():
                        break
                    copy_.apply_action(second)
                else:
                    if ab.observation_string(player) == ba.observation_string(player):
                        assert ab.information_state_string(player) != \
                            ba.information_state_string(player)
                        return
    pytest.fail("no position with two plays in either order found")


def test_openspiel_public_observation_holds_no_private_information():
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("tabletop_tabula_rasa", {"players": 3})
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    private = make_observation(game)
    assert "hand" not in game.public_keys() and "history" in game.public_keys()
    state = _dealt(game, 4)
    assert len({public.string_from(state, p) for p in range(3)}) == 1
    assert len({private.string_from(state, p) for p in range(3)}) == 3
    public.set_from(state, 0)
    assert public.tensor.size < private.tensor.size


@pytest.mark.parametrize("name,players", [(name, game.min_players)
                                          for name, game in sorted(engines.GAMES.items())])
def test_openspiel_ismcts_completes_a_game_through_the_adapter(name, players):
    game = engines.get_game(name)
    bots = [make_bot("ismcts:simulations=2", game)]
    bots += [make_bot("random", game)] * (players - 1)
    record = engines.play_game(game, bots, seed=1)
    assert not record.truncated and record.winners


def _mid_game(name: str, players: int, moves: int = 6):
    """An OpenSpiel state of `name` dealt and `moves` random actions in."""
    game = pyspiel.load_game(os_adapter.openspiel_name(name), {"players": players})
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(rng.randrange(256))
    for _ in range(moves):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", sorted(engines.GAMES))
def test_engine_rollouts_replay_through_the_openspiel_state(name):
    """The ISMCTS bot's evaluator steps the engine directly; the same draws played through
    the OpenSpiel state (its legality checks, decision cap and `returns()`) score alike."""
    game = engines.get_game(name)
    state = _mid_game(name, game.min_players)
    for seed in range(3):
        value = os_adapter._EngineRollouts(1, random.Random(seed)).evaluate(state)
        replay, draw = state.clone(), random.Random(seed).random
        while not replay.is_terminal():
            legal = replay.engine.legal_actions()
            action = legal[int(draw() * len(legal))]
            assert action in replay.legal_actions()
            replay.apply_action(action)
        assert list(value) == replay.returns()


def test_engine_rollouts_cut_at_the_decision_cap_score_nothing():
    state = _mid_game("tabula-rasa", 2)
    state._cap = len(state.moves) + 3
    value = os_adapter._EngineRollouts(2, random.Random(0)).evaluate(state)
    assert list(value) == [0.0, 0.0]


def test_engine_rollouts_estimate_what_openspiel_s_rollouts_estimate():
    """Same playout distribution: the means of 300 rollouts each agree within 4 standard
    errors (a biased policy, e.g. only the first or last legal action, fails this)."""
    state = _mid_game("tabula-rasa", 2, moves=20)
    from open_spiel.python.algorithms import mcts

    ours = [os_adapter._EngineRollouts(1, random.Random(s)).evaluate(state)[0]
            for s in range(300)]
    theirs = mcts.RandomRolloutEvaluator(300, np.random.RandomState(0)).evaluate(state)[0]
    spread = np.std(ours) * np.sqrt(2 / 300)
    assert abs(np.mean(ours) - theirs) <= 4 * spread + 1e-9


def test_ismcts_bot_bad_options_are_spec_errors():
    game = engines.get_game("tabula-rasa")
    with pytest.raises(BotSpecError, match="unknown ismcts option"):
        make_bot("ismcts:iterations=4", game)
    with pytest.raises(BotSpecError, match="at least 2"):
        make_bot("ismcts:simulations=1", game)
    # the option parser every bot shares (engines.bots.options)
    with pytest.raises(BotSpecError, match="ismcts option rollouts= expects an integer"):
        make_bot("ismcts:rollouts=many", game)
    with pytest.raises(BotSpecError, match="ismcts option uct_c= must be a finite number >= 0"):
        make_bot("ismcts:uct_c=-1", game)


# --- PettingZoo -----------------------------------------------------------------------------

@pytest.mark.parametrize("name,players", GAME_COUNTS)
def test_pettingzoo_api_test_every_game_and_player_count(name, players):
    env = pz_adapter.env(name, players=players)
    agent = env.possible_agents[0]
    env.action_space(agent).seed(players)  # api_test samples actions: make them reproducible
    env.observation_space(agent).seed(players)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns about dict observations (masks)
        pettingzoo_test.api_test(env, num_cycles=300)


@pytest.mark.parametrize("name", sorted(engines.GAMES))
def test_pettingzoo_render_and_seed_tests(name):
    from pettingzoo.test import render_test, seed_test

    render_test(lambda render_mode=None: pz_adapter.env(name, render_mode=render_mode))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: pz_adapter.env(name), num_cycles=30)


def test_pettingzoo_plays_a_whole_game_with_masks_and_win_share_rewards():
    env = pz_adapter.env("tabula-rasa", players=3)
    env.reset(seed=3)
    totals = {agent: 0.0 for agent in env.possible_agents}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        assert list(legal) == sorted(env.unwrapped.game_state.legal_actions())
        env.step(int(legal[0]))
    assert sum(totals.values()) == pytest.approx(1.0)


def test_pettingzoo_reset_with_seed_is_reproducible():
    env = pz_adapter.env("big-cheese", players=4)
    env.reset(seed=11)
    first = env.observe(env.agent_selection)["observation"]
    env.reset(seed=11)
    assert np.array_equal(first, env.observe(env.agent_selection)["observation"])


# --- observation tensors ------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(engines.GAMES))
def test_observation_tensor_is_fixed_length_and_a_function_of_the_observation(name):
    """Equal observations give equal tensors: the seat's tensor of every determinization of
    the position (which keeps exactly what the seat knows) equals its real one."""
    game = engines.get_game(name)
    for players in (game.min_players, game.max_players):
        size = None
        for step, state in enumerate(playout(game, players, seed=players)):
            if step % 7 and not state.is_terminal():
                continue
            for seat in range(players):
                tensor = state.observation_tensor(seat)
                assert tensor.dtype == np.float32
                size = size or len(tensor)
                assert len(tensor) == size
                world = state.determinize(seat, random.Random(seat))
                assert world.observation(seat) == state.observation(seat)
                assert np.array_equal(world.observation_tensor(seat), tensor)


def test_tensor_schema_encodes_by_the_documented_layout():
    schema = TensorSchema([("phase", ("enum", ("bid", "roll"))), ("top", "int"),
                           ("hands", (2, 3)), ("secret", (2, 2))])
    vector = schema.encode({"phase": "roll", "top": None, "hands": [[4, 5], [6]],
                            "secret": [[1, 2], 3]})
    assert [entry[:3] for entry in schema.layout()] == [
        ("phase", 0, 2), ("top", 2, 1), ("hands", 3, 9), ("secret", 12, 7)]
    assert vector.tolist() == [0, 1, -1,
                               2, 2, 4, 5, 0, 1, 6, 0, 0,
                               2, 2, 1, 2, 3, 0, 0]


def test_tensor_schema_refuses_what_it_cannot_hold():
    schema = schema_for((("hand", (2,)),))
    with pytest.raises(ValueError, match="schema allows 2"):
        schema.encode({"hand": [1, 2, 3]})
    with pytest.raises(ValueError, match="not in the tensor schema"):
        schema.encode({"hand": [], "peek": 1})


def test_action_ids_stay_below_num_actions():
    """Every game, and Big Cheese's exact-30 variant, whose order choices have the top ids."""
    cases = [(game, {}) for game in engines.GAMES.values()]
    cases.append((engines.get_game("big-cheese"), {"exact": 30, "dice": "polyhedral"}))
    for game, rules in cases:
        assert game.num_actions > 0, game.name
        for state in positions(game, game.max_players, range(8), rules=rules):
            assert all(0 <= a < game.num_actions for a in state.legal_actions()), game.name


# --- the CLI ---------------------------------------------------------------------------------

def test_bench_against_times_the_search_bot_in_one_seat(capsys):
    from analysis.cli import main

    code = main(["bench", "tabula-rasa", "--players", "2", "--seconds", "0.1",
                 "--bots", "ismcts:simulations=2", "--against", "random"])
    out = capsys.readouterr().out
    assert code == 0 and "against random" in out and "ismcts" in out


def test_bench_against_a_bad_spec_is_a_one_line_error(capsys):
    from analysis.cli import main

    assert main(["bench", "tabula-rasa", "--against", "nobot"]) == 2
    assert capsys.readouterr().err.startswith("error: unknown bot 'nobot'")


def test_list_names_the_ismcts_bot(capsys):
    from analysis.cli import main

    assert main(["list"]) == 0
    assert "ismcts" in capsys.readouterr().out


def test_ismcts_searches_the_game_with_the_position_s_rules():
    """The bot's OpenSpiel game carries the rule options of the state it decides for."""
    game = engines.get_game("tabula-rasa")
    bot = make_bot("ismcts:simulations=2", game)
    state = game.new_state(2, 5, castle_rule="two_consecutive")
    bot.choose(state, random.Random(0))
    (os_game,) = bot._games.values()
    assert os_game.rules == state.rules and os_game.rules.castle_rule == "two_consecutive"


def test_pettingzoo_render_shows_the_seat_to_act_and_not_the_other_hands():
    env = pz_adapter.env("tabula-rasa", players=3, render_mode="ansi")
    env.reset(seed=2)
    state = env.unwrapped.game_state
    seat = state.current_player()
    assert env.render() == state.render(seat)
    assert env.render() != state.render()  # the full view shows every hand
    full = pz_adapter.env("tabula-rasa", players=3, render_mode="ansi", render_seat=-1)
    full.reset(seed=2)
    assert full.render() == full.unwrapped.game_state.render()


def test_pettingzoo_render_after_close_returns_nothing():
    env = pz_adapter.env("big-cheese", players=3, render_mode="ansi")
    env.reset(seed=2)
    env.close()
    assert env.render() is None


def test_pettingzoo_names_have_no_hyphens():
    for name in engines.GAMES:
        assert "-" not in pz_adapter.env(name).metadata["name"]


@pytest.mark.parametrize("name", sorted(engines.GAMES))
def test_pettingzoo_observations_are_bounded_and_match_the_raw_tensor(name):
    env = pz_adapter.env(name)
    space = env.observation_space(env.possible_agents[0])["observation"]
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    assert (space.low == 0).all() and (space.high == 1).all()
    env.reset(seed=5)
    encoding = env.unwrapped.encoding
    rng = random.Random(5)
    for step, agent in enumerate(env.agent_iter()):
        observation, _, termination, truncation, _ = env.last()
        assert space.contains(observation["observation"])
        if step % 17 == 0:  # the scaling is the documented one, and it keeps the information
            raw = env.unwrapped.raw_observation(agent)
            inside = (raw >= encoding.low) & (raw <= encoding.high)
            span = encoding.high - encoding.low
            expected = np.where(span > 0, (raw - encoding.low) / np.where(span > 0, span, 1), 0)
            assert np.allclose(observation["observation"][inside], expected[inside], atol=1e-6)
        if termination or truncation:
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))


def test_pettingzoo_illegal_move_loses_and_ends_the_game():
    env = pz_adapter.env("tabula-rasa", players=3)
    env.reset(seed=1)
    mover = env.agent_selection
    observation = env.observe(mover)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the wrapper warns that the move was illegal
        env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[mover] == -1 and all(r == 0 for a, r in env.rewards.items() if a != mover)
    raw = pz_adapter.raw_env("tabula-rasa", players=3)
    raw.reset(seed=1)
    with pytest.raises(IllegalActionError):  # without the wrappers an illegal move raises
        raw.step(illegal)


def test_pettingzoo_max_cycles_truncates_without_reward():
    env = pz_adapter.env("ninjato", players=2, max_cycles=10)
    env.reset(seed=1)
    steps = 0
    for _ in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            assert truncation and not termination and reward == 0
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        steps += 1
    assert steps == 10
    with pytest.raises(ValueError, match="max_cycles"):
        pz_adapter.env("ninjato", max_cycles=0)


def test_win_shares_split_a_shared_win_and_give_nothing_without_a_winner():
    from engines.adapters import win_shares

    assert win_shares([0, 2], 3) == [0.5, 0.0, 0.5]
    assert win_shares([1], 2) == [0.0, 1.0]
    assert win_shares([], 4) == [0.0] * 4  # a game cut off at the decision cap
