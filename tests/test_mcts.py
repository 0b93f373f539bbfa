"""The MCTS bot: finds known best moves, honours its budget, is reproducible, rejects bad specs."""

from __future__ import annotations

import dataclasses
import itertools
import random
import time
from math import comb

import pytest

from analysis.bench import bench_bot
from engines import GAMES, play_game
from engines.bots import BotSpecError, make_bot
from engines.bots.mcts import DEFAULT_ITERATIONS, MCTSBot, make_mcts
from engines.bots.mcts import search as search_module
from engines.bots.mcts.rewards import REWARD_FUNCS, normalized_scores
from tests.playouts import random_midgame
from tests.toy_games import CALL, FOLD, NIM, SHOWDOWN, nim_position, showdown_position


def _mcts(game, **options) -> MCTSBot:
    return make_mcts(game, None, {k: str(v) for k, v in options.items()})


def _uct(game, **options) -> MCTSBot:
    """The tree search with random rollouts (the default is the paired flat search)."""
    return _mcts(game, **{"search": "uct", "rollout": "random", **options})


# --- known best moves ---------------------------------------------------------------------


@pytest.mark.parametrize("pile,best", [(5, 1), (6, 2), (7, 3), (9, 1), (10, 2)])
def test_two_player_nim_leaves_a_multiple_of_four(pile, best):
    bot = _uct(NIM, iterations=1500)
    assert bot.choose(nim_position(2, pile), random.Random(pile)) == best


@pytest.mark.parametrize("n", range(2, 7))
def test_any_player_count_takes_the_last_stones(n):
    bot = _uct(NIM, iterations=300)
    seat = n - 1
    assert bot.choose(nim_position(n, 3, to_move=seat), random.Random(n)) == 3


@pytest.mark.parametrize("seat", [0, 1])
def test_teams_play_for_the_partnership(seat):
    """4 players, seats 0+2 vs 1+3: the mover must leave 4 so that its partner wins."""
    bot = _uct(NIM, iterations=1500)
    state = nim_position(4, 6, to_move=seat, teams="true")
    assert bot.choose(state, random.Random(seat)) == 2


def test_teams_share_the_win_when_the_partner_takes_the_last_stone():
    state = nim_position(4, 6, teams="true")
    for action in (2, 1, 3):  # seat 0 leaves 4, seat 1 leaves 3, seat 2 takes all
        state.apply_action(action)
    assert state.is_terminal()
    assert state.winners() == [0, 2]


@pytest.mark.parametrize("reward", ["win", "score", "mix"])
@pytest.mark.parametrize("own,other,best", [(8, 9, CALL), (7, 0, CALL), (1, 0, FOLD)])
def test_hidden_card_decision_uses_only_the_own_card(reward, own, other, best):
    """Card 8 of 0..9 wins 8 times in 9, so call even when the opponent really holds the 9."""
    bot = _mcts(SHOWDOWN, iterations=400, reward=reward)
    assert bot.choose(showdown_position(2, own, [other]), random.Random(own)) == best


@pytest.mark.parametrize("n", range(2, 7))
def test_hidden_card_call_threshold_for_every_player_count(n):
    """Calling wins with probability C(card, n-1)/C(9, n-1); folding shares the win 1/n."""
    bot = _mcts(SHOWDOWN, iterations=600)
    others = list(range(n - 1))
    for card in (9, n - 1):
        p_win = comb(card, n - 1) / comb(9, n - 1)
        if abs(p_win - 1 / n) < 0.15:
            continue
        expected = CALL if p_win > 1 / n else FOLD
        if card in others:
            continue
        state = showdown_position(n, card, others)
        assert bot.choose(state, random.Random(card)) == expected, (n, card)


def test_choice_is_the_same_on_every_determinization():
    bot = make_bot("mcts:iterations=30", SHOWDOWN)
    for own in range(10):
        for other in range(10):
            if other == own:
                continue
            state = showdown_position(2, own, [other])
            worlds = [state] + [state.determinize(0, random.Random(k)) for k in range(3)]
            choices = {bot.choose(w, random.Random(own)) for w in worlds}
            assert len(choices) == 1


# --- options -------------------------------------------------------------------------------


def test_iteration_budget_is_exact():
    bot = _uct(NIM, iterations=137)
    bot.choose(nim_position(3, 10), random.Random(0))
    assert bot.last_iterations == 137
    # the paired search spends its whole budget while the candidates' rewards differ
    paired = _mcts(SHOWDOWN, iterations=137)
    paired.choose(showdown_position(2, 5, [7]), random.Random(0))
    assert paired.last_iterations == 137
    default = make_bot("mcts", SHOWDOWN)
    default.choose(showdown_position(2, 5, [7]), random.Random(0))
    assert default.last_iterations == DEFAULT_ITERATIONS


def stepping_clock(monkeypatch) -> list[int]:
    """Make `time.perf_counter` advance 1 ms per reading, so a time budget is a count of
    readings (no machine's speed enters); returns [readings so far]."""
    readings = itertools.count(1)
    read = [0]

    def clock() -> float:
        read[0] = next(readings)
        return read[0] * 0.001

    monkeypatch.setattr(time, "perf_counter", clock)
    return read


def test_time_budget_stops_the_search_at_the_deadline(monkeypatch):
    """The clock is read between rollouts and the search stops at the first reading past
    the deadline. On the stepping clock 50 ms allow some rollouts, at most a round of
    candidates per reading, and no reading after the 50th past the start (uct spends them
    all; the paired search may stop earlier when the decision is clear). An iteration cap
    reached first ends the search long before a 5 s deadline's 5000 readings."""
    read = stepping_clock(monkeypatch)
    for search in ("paired", "uct"):
        start = read[0]
        bot = _mcts(NIM, time=0.05, search=search, rollout="random")
        bot.choose(nim_position(2, 40, max_take=5), random.Random(0))
        taken = read[0] - start  # the start reading, the loop's checks, the final account
        assert 0 < bot.last_iterations <= 5 * taken
        assert taken <= 50 + 2
        assert taken >= 50 or search == "paired"
    start = read[0]
    capped = _mcts(NIM, time=5, iterations=50, search="uct")
    capped.choose(nim_position(2, 40, max_take=5), random.Random(0))
    assert capped.last_iterations == 50 and read[0] - start < 100


def test_single_legal_action_is_returned_without_search():
    bot = _mcts(NIM, iterations=100)
    assert bot.choose(nim_position(2, 1), random.Random(0)) == 1
    assert bot.last_iterations == 0


def _choices(bot, seed):
    positions = [nim_position(n, pile, max_take=4) for n in (2, 3, 5) for pile in range(6, 14)]
    return [bot.choose(p, random.Random(seed)) for p in positions]


def test_deterministic_for_a_fixed_rng():
    bot = _uct(NIM, iterations=8)
    assert _choices(bot, 1) == _choices(bot, 1)
    assert _choices(_uct(NIM, iterations=8), 1) == _choices(bot, 1)
    # the rng matters, so the equality above is not trivial
    assert any(_choices(bot, s) != _choices(bot, 1) for s in range(2, 6))


@pytest.mark.parametrize(
    "options",
    [
        {"rollout": "heuristic"},
        {"rollout_depth": 2},
        {"determinizations": 3},
        {"reward": "score"},
        {"reward": "mix", "c": 1.2},
    ],
)
def test_every_option_still_finds_the_winning_move(options):
    bot = _uct(NIM, iterations=1500, **options)
    assert bot.choose(nim_position(2, 7), random.Random(3)) == 3
    assert bot.last_iterations == 1500


def test_heuristic_rollouts_call_the_default_heuristic():
    calls = []

    class Spy:
        name = "spy"

        def choose(self, state, rng):
            calls.append(state.pile)
            return 1

    game = dataclasses.replace(NIM, heuristics={"default": lambda: Spy()})
    bot = _mcts(game, iterations=20, rollout="heuristic", search="uct")
    bot.choose(nim_position(2, 8), random.Random(0))
    assert calls and all(pile < 8 for pile in calls)


def test_rollout_rounds_stop_at_the_end_of_a_round_and_score_it_with_the_evaluation():
    """`rollout_rounds=1`: an Ivanhoe rollout ends when the tournament does (`round_label`),
    scored by the game's win chances; with 2 it plays one more tournament."""
    game = GAMES["ivanhoe"]
    state = random_midgame(game, 4, 7, 0.4)
    before = state.tournaments
    for rounds in (1, 2):
        world = state.clone()
        values = _mcts(game, rollout_rounds=rounds).rollout(world, random.Random(1))
        if world.is_terminal():
            continue
        assert world.tournaments == before + rounds
        assert values == pytest.approx(game.mcts_evaluation(world))


@pytest.mark.parametrize(
    "spec,message",
    [
        ("mcts:depth=3", "unknown mcts option 'depth'"),
        ("mcts:iterations=lots", "iterations= expects an integer"),
        ("mcts:iterations=0", "iterations= must be >= 1"),
        ("mcts:time=0", "time= must be a finite number > 0"),
        ("mcts:time=soon", "time= expects a number"),
        ("mcts:c=-1", "c= must be a finite number >= 0"),
        ("mcts:rollout=smart", "rollout= must be one of random|heuristic"),
        ("mcts:reward=points", "reward= must be one of win|score|mix"),
        ("mcts:determinizations=-2", "determinizations= must be >= 0"),
        ("mcts:rollout_depth=0", "rollout_depth= must be >= 1"),
        ("mcts:prior=-1", "prior= must be a finite number >= 0"),
        ("mcts:fast", "unknown mcts preset 'fast'"),
        ("mcts:search=tree", "search= must be one of paired|uct"),
        ("mcts:confidence=-1", "confidence= must be a finite number >= 0"),
        ("mcts:evaluation=points", "evaluation= must be one of game|scores"),
        ("mcts:rollout_rounds=-1", "rollout_rounds= must be >= 0"),
    ],
)
def test_bad_options_raise_bot_spec_error(spec, message):
    with pytest.raises(BotSpecError, match=message):
        make_bot(spec, NIM)


def test_strong_preset_takes_the_games_own_options_and_explicit_ones_win():
    bot = make_bot("mcts:strong", NIM)
    assert (bot.config.rollout, bot.config.reward) == ("heuristic", "mix")
    nim = dataclasses.replace(NIM, mcts_defaults={"iterations": "61", "confidence": "2.5"},
                              mcts_presets={"strong": {"iterations": "90", "rollout_depth": "4"}})
    strong = make_bot("mcts:strong", nim).config
    assert (strong.iterations, strong.rollout_depth, strong.confidence) == (90, 4, 2.5)
    assert make_bot("mcts:strong,iterations=7", nim).config.iterations == 7
    assert make_bot("mcts", nim).config.iterations == 61


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_games_strong_preset_applies_within_budget_and_reproducibly(name):
    game = GAMES[name]
    bot = make_bot("mcts:strong", game)
    for key, raw in game.mcts_presets.get("strong", {}).items():
        value = str(getattr(bot.config, key))
        assert value == raw or value == str(float(raw))  # words (reward=win) or numbers
    state = random_midgame(game, game.players_default, 4, 0.5)
    first = bot.choose(state.clone(), random.Random(3))
    assert 0 <= bot.last_iterations <= bot.config.iterations
    assert make_bot("mcts:strong", game).choose(state.clone(), random.Random(3)) == first


def test_a_games_mcts_defaults_apply_and_presets_and_options_override_them():
    assert NIM.mcts_defaults == {}
    nim = dataclasses.replace(NIM, mcts_defaults={"iterations": "61", "confidence": "2.5"})
    bot = make_bot("mcts", nim)
    assert (bot.config.iterations, bot.config.confidence) == (61, 2.5)
    showdown = dataclasses.replace(SHOWDOWN, mcts_defaults={"iterations": "61"})
    paired = make_bot("mcts", showdown)
    paired.choose(showdown_position(2, 5, [7]), random.Random(0))
    assert paired.last_iterations == 61  # the budget the game asked for
    assert make_bot("mcts:iterations=9", nim).config.iterations == 9
    assert make_bot("mcts:strong,iterations=150", nim).config.iterations == 150
    timed = make_bot("mcts:time=0.5", nim).config  # a time budget alone is not capped
    assert (timed.time, timed.iterations, timed.confidence) == (0.5, None, 2.5)
    with pytest.raises(BotSpecError, match="unknown mcts option"):
        make_bot("mcts", dataclasses.replace(NIM, mcts_defaults={"budget": "3"}))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_games_mcts_defaults_apply_within_budget_and_reproducibly(name):
    game = GAMES[name]
    defaults = game.mcts_defaults
    bot = make_bot("mcts", game)
    for key, raw in defaults.items():
        value = str(getattr(bot.config, key))
        assert value == raw or value == str(float(raw))  # words (reward=win) or numbers
    state = random_midgame(game, game.players_default, 3, 0.3)
    first = bot.choose(state.clone(), random.Random(9))
    assert 0 <= bot.last_iterations <= bot.config.iterations
    assert make_bot("mcts", game).choose(state.clone(), random.Random(9)) == first


def test_a_cut_rollout_is_scored_by_the_games_evaluation_unless_told_scores():
    """`Game.mcts_evaluation` scores a rollout cut at `rollout_depth`; a finished one keeps
    the terminal reward, and `evaluation=scores` falls back to normalized scores."""
    seen = []

    def evaluation(state):
        seen.append(state.pile)
        return [0.25] * state.num_players

    nim = dataclasses.replace(NIM, mcts_evaluation=evaluation)
    cut = make_bot("mcts:rollout=random,rollout_depth=1", nim)
    assert cut.rollout(nim_position(2, 9), random.Random(0)) == [0.25, 0.25]
    assert len(seen) == 1 and 6 <= seen[0] <= 8  # one action taken, then evaluated
    finished = cut.rollout(nim_position(2, 1), random.Random(0))
    assert finished == [1.0, 0.0] and len(seen) == 1
    plain = make_bot("mcts:rollout=random,rollout_depth=1,evaluation=scores", nim)
    assert plain.rollout(nim_position(2, 9), random.Random(0)) == [0.5, 0.5]
    assert len(seen) == 1
    # heuristic rollouts (take-max) are cut alike: two moves, 9 - 3 - 3, then evaluated;
    # a game without an evaluation scores the cut by normalized scores (all 0 in Nim)
    assert _mcts(nim, rollout_depth=2).rollout(nim_position(2, 9), random.Random(0)) == [
        0.25, 0.25]
    assert seen[-1] == 3
    del seen[1:]
    assert _mcts(NIM, rollout_depth=2).rollout(nim_position(2, 9), random.Random(0)) == [0.5, 0.5]
    # the whole search backs the evaluation up, reproducibly
    searched = make_bot("mcts:rollout_depth=1,iterations=12", nim)
    first = searched.choose(nim_position(2, 9), random.Random(4))
    assert seen[1:] and make_bot("mcts:rollout_depth=1,iterations=12", nim).choose(
        nim_position(2, 9), random.Random(4)) == first


def test_prior_tries_the_heuristic_move_first_and_favours_it():
    """Nim with 6 stones: the take-max heuristic says 3; a tiny budget then visits 3 most."""
    state = nim_position(2, 6)
    plain = _uct(NIM, iterations=6)
    biased = _uct(NIM, iterations=6, prior=5)
    assert biased.choose(state, random.Random(0)) == 3
    stats = biased.root_stats(0, state.legal_actions())
    assert stats[3][0] > stats[1][0] and stats[3][0] > stats[2][0]
    # with a real budget the search overrides the heuristic's (losing) move
    assert _uct(NIM, iterations=1500, prior=1).choose(state, random.Random(0)) == 2
    assert plain.config.prior == 0


def test_heuristic_rollout_needs_a_heuristic():
    game = dataclasses.replace(NIM, heuristics={})
    with pytest.raises(BotSpecError, match="no default heuristic"):
        make_bot("mcts:rollout=heuristic", game)


def test_simulate_bench_reports_the_search_speed():
    """The mcts benchmark is `simulate bench` (`analysis.bench.bench_bot`, the project's one
    play loop); it reads the bot's iteration counter."""
    figures = bench_bot(NIM, "mcts:iterations=50", 3, seconds=0.2)
    assert figures["games"] >= 1 and figures["decisions"] > 0
    assert 0 < figures["iterations"] <= 50 * figures["decisions"]
    assert figures["extra"] == f"{figures['iterations'] / figures['seconds']:,.0f} iterations/s"
    bot = _uct(NIM, iterations=30)
    bot.choose(nim_position(2, 9), random.Random(0))
    bot.choose(nim_position(2, 8), random.Random(0))
    assert bot.iterations_done == 60


def test_root_stats_show_the_search():
    bot = _uct(NIM, iterations=400)
    state = nim_position(2, 6)
    choice = bot.choose(state, random.Random(0))
    stats = bot.root_stats(0, state.legal_actions())
    assert sum(v for v, _ in stats.values()) == 400
    assert max(stats, key=lambda a: stats[a][0]) == choice == 2
    assert stats[2][1] > stats[1][1] and stats[2][1] > stats[3][1]


# --- registered games ------------------------------------------------------------------------

REAL = sorted(GAMES)


@pytest.mark.parametrize("name", REAL)
def test_real_games_legal_and_reproducible(name):
    game = GAMES[name]
    n = game.min_players
    state = random_midgame(game, n, 1, 0.3)
    bot = make_bot("mcts:iterations=20", game)
    first = bot.choose(state, random.Random(5))
    assert first in state.legal_actions()
    assert bot.choose(state.clone(), random.Random(5)) == first


@pytest.mark.slow
@pytest.mark.parametrize("name", REAL)
def test_real_games_mcts_beats_random(name):
    game = GAMES[name]
    n = game.min_players
    share = 0.0
    games = 12
    for g in range(games):
        seat = g % n
        bots = [make_bot("random", game) for _ in range(n)]
        bots[seat] = make_bot("mcts:iterations=100", game)
        record = play_game(game, bots, 1000 + g)
        if seat in record.winners:
            share += 1 / len(record.winners)
    assert share / games > 1 / n


# --- the paired flat search (the default) ---------------------------------------------------


def test_paired_search_corrects_the_heuristics_losing_move():
    """Nim, 6 stones: take-max (the heuristic) takes 3 and loses; taking 1 or 2 wins
    against take-max replies, and the paired comparison sees it with a tiny budget."""
    bot = make_bot("mcts", NIM)
    state = nim_position(2, 6)
    assert bot.choose(state, random.Random(0)) in (1, 2)
    assert bot.last_incumbent == 3
    stats = bot.root_stats(0, state.legal_actions())
    assert stats[3][1] < stats[1][1] and stats[3][1] < stats[2][1]


def test_paired_search_keeps_the_heuristics_move_on_a_tie_and_stops_early():
    """Nim, 8 stones: taking 3 (the heuristic) and taking 2 both win against take-max;
    nothing is clearly better, so the heuristic's move stays, without the whole budget."""
    bot = _mcts(NIM, iterations=200)
    assert bot.choose(nim_position(2, 8), random.Random(0)) == 3
    assert bot.last_iterations < 200


@pytest.mark.parametrize("seat", [0, 1])
def test_paired_search_plays_for_the_partnership(seat):
    """4 players in two teams, 6 stones: taking 3 lets an opponent take the rest."""
    bot = make_bot("mcts", NIM)
    state = nim_position(4, 6, to_move=seat, teams="true")
    assert bot.choose(state, random.Random(seat)) in (1, 2)


def test_paired_search_needs_evidence_to_leave_the_heuristic():
    """Card 3 of 0..9 against one hidden card: calling (the heuristic) wins 3 times in 9,
    folding shares the win; with confidence=0 the search follows the better mean, with a
    huge confidence it never leaves the heuristic's move."""
    state = showdown_position(2, 3, [9])
    assert _mcts(SHOWDOWN, iterations=400, confidence=0).choose(state, random.Random(1)) == FOLD
    assert _mcts(SHOWDOWN, iterations=400, confidence=50).choose(state, random.Random(1)) == CALL


def test_paired_search_is_deterministic_for_a_fixed_rng_and_depends_on_it():
    state = showdown_position(3, 6, [2, 8])
    bot = _mcts(SHOWDOWN, iterations=40)
    runs = []
    for seed in (1, 1, 2, 3):
        bot.choose(state, random.Random(seed))
        runs.append(bot.root_stats(0, state.legal_actions()))
    assert runs[0] == runs[1]
    assert runs[2] != runs[0] or runs[3] != runs[0]


@pytest.mark.parametrize("options", [{"time": 0.05}, {"determinizations": 3}, {"reward": "margin"},
                                     {"rollout": "random"}, {"rollout_depth": 1}])
def test_paired_search_options(options, monkeypatch):
    read = stepping_clock(monkeypatch)  # `time=0.05`: 50 readings, whatever the machine
    bot = _mcts(SHOWDOWN, **options)
    assert bot.choose(showdown_position(2, 9, [3]), random.Random(0)) == CALL
    assert bot.last_iterations > 0
    assert read[0] <= 50 + 2 or "time" not in options


def test_a_cut_rollout_plays_exactly_depth_actions_and_scores_the_placements():
    """`rollout_depth=D`: D actions of the rollout policy, then the normalized current
    scores; a rollout that reaches the end first gets the terminal reward."""
    game = GAMES["tabula-rasa"]
    bot = make_bot("mcts:rollout_depth=5", game)
    world = random_midgame(game, 3, 1, 0.2)
    ply = world.ply
    value = bot.rollout(world, random.Random(0))
    assert world.ply == ply + 5 and not world.is_terminal()
    assert value == normalized_scores(world)
    late = random_midgame(game, 3, 1, 0.95)
    assert late.total_plies - late.ply < 5
    value = bot.rollout(late, random.Random(0))
    assert late.is_terminal() and value == REWARD_FUNCS["mix"](late)


def test_tabula_rasa_mcts_cuts_rollouts_and_a_whole_game_depth_never_cuts():
    """The default cuts rollouts at 12 cards; `rollout_depth=48` (every card in play) plays
    them to the end."""
    game = GAMES["tabula-rasa"]
    assert make_bot("mcts", game).config.rollout_depth == 12
    whole = make_bot("mcts:rollout_depth=48", game)
    for players in (2, 3, 4):
        world = game.create_state(players, 7, game.Rules())
        assert world.total_plies == 48
        world.apply_action(world.legal_actions()[0])  # the searched move comes first
        whole.rollout(world, random.Random(1))
        assert world.is_terminal()


def test_paired_search_stops_once_the_challenger_clearly_trails():
    """Card 9 of 0..9: calling (the heuristic) always wins, folding shares the win; the
    confirming test sees folding trail on every world and stops after a few of them."""
    bot = _mcts(SHOWDOWN, iterations=200)
    assert bot.choose(showdown_position(2, 9, [3]), random.Random(0)) == CALL
    assert 0 < bot.last_iterations <= 2 * 6


def test_paired_search_stops_after_screening_when_no_challenger_does_better():
    """Nim, 7 stones, take 1-3: take-max (3) leaves 4 and wins; no other move does better on
    the screening worlds, so the search returns it without a confirming test."""
    bot = _mcts(NIM, iterations=200)
    assert bot.choose(nim_position(2, 7), random.Random(0)) == 3
    visited = bot.root_stats(0, [1, 2, 3])
    assert bot.last_iterations < 200 and all(n <= 6 for n, _ in visited.values())



@pytest.mark.parametrize("diffs, futile", [
    ([0.0, 0.0, 0.0, 0.0], True),  # no difference in any world: nothing to confirm
    ([-0.1, -0.1, -0.1, -0.1], True),  # trails alike everywhere
    ([-0.2, -0.3, -0.1, -0.25, -0.2], True),  # trails clearly
    ([-0.5, 0.4, -0.3, 0.2, -0.1, 0.35], False),  # noisy, near zero
    ([0.3, -0.1, 0.2, 0.4], False),  # ahead: never futile
    ([-0.1, -0.2, -0.3], False),  # too few worlds to judge
])
def test_the_confirming_tests_running_summary_agrees_with_a_direct_computation(diffs, futile):
    """The futility check keeps running sums (each world costs the same however many came
    before); it decides as the two-pass mean and variance of all the paired gains do, and
    as each case's expected verdict says."""
    gains = search_module._Gains()
    for d in diffs:
        gains.add(d)
    n = len(diffs)
    mean = sum(diffs) / n
    direct = False
    if n >= search_module.MIN_CONFIRM_WORLDS and mean <= 0:
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        direct = mean < -search_module.FUTILITY_Z * (var / n) ** 0.5 or var < 1e-12
    assert gains.futile() == direct == futile
    assert gains.n == n and gains.total == pytest.approx(sum(diffs))



class _NoDraws(random.Random):
    """An rng that fails when anything is drawn from it."""

    def random(self) -> float:
        raise AssertionError("drew from the rng")

    def getrandbits(self, k: int) -> int:
        raise AssertionError("drew from the rng")


def _styles_without_rng(game) -> list[str]:
    return [style for style, make in game.heuristics.items()
            if not getattr(make(), "uses_rng", True)]


def test_some_default_heuristic_declares_no_rng_use():
    """The check below is not vacuous: at least one game's default heuristic declares it."""
    assert any("default" in _styles_without_rng(game) for game in GAMES.values())


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_heuristic_that_declares_no_rng_use_plays_whole_games_without_drawing(name):
    """`uses_rng = False` lets the search hand the rollout policy one spare stream instead
    of seeding one per rollout; that is only the same play if the policy never draws."""
    game = GAMES[name]
    for style in _styles_without_rng(game):
        for players in (game.min_players, game.players_default):
            state = game.create_state(players, 3, game.Rules())
            bots = [game.heuristics[style]() for _ in range(players)]
            while not state.is_terminal():
                state.apply_action(bots[state.current_player()].choose(state, _NoDraws(0)))


# --- positions where the search finds the winning move the heuristic misses ----------------


def _heuristic_position(game, seed, decisions):
    """The position after `decisions` moves of default heuristics in every seat (game `seed`,
    bot stream `random.Random(seed)`), at the game's default player count."""
    state = game.create_state(game.players_default, seed, game.Rules())
    bots = [make_bot("heuristic", game) for _ in range(game.players_default)]
    rng = random.Random(seed)
    for _ in range(decisions):
        state.apply_action(bots[state.current_player()].choose(state, rng))
    return state


def _win_share_after(game, state, seat, action, worlds):
    """The seat's win share when it plays `action` and heuristics play on, over sampled
    worlds of what it can see."""
    policy = make_bot("heuristic", game)
    total = 0.0
    for w in range(worlds):
        rng = random.Random(10_000 + w)
        world = state.determinize(seat, rng)
        world.apply_action(action)
        while not world.is_terminal():
            world.apply_action(policy.choose(world, rng))
        total += 1 / len(world.winners()) if seat in world.winners() else 0.0
    return total / worlds


#: (game, seed, decisions played, the heuristic's move, the search's move): positions of
#: all-heuristic games where default `mcts` leaves the heuristic's move for a winning one.
WINNING_MOVES = [
    ("ninjato", 1, 132, 24, 22),
    ("time-pirates", 6, 245, 87, 82),
    ("big-cheese", 3, 6, 9, 1),
    ("tabula-rasa", 60, 36, 46, 6),
    ("ivanhoe", 18, 297, 51, 28),
]


@pytest.mark.parametrize("name,seed,decisions,heuristic_move,search_move", WINNING_MOVES)
def test_search_finds_the_winning_move_the_heuristic_misses(
        name, seed, decisions, heuristic_move, search_move):
    game = GAMES[name]
    state = _heuristic_position(game, seed, decisions)
    bot = make_bot("mcts", game)
    assert bot.choose(state.clone(), random.Random(0)) == search_move
    assert bot.last_incumbent == heuristic_move
    assert make_bot("mcts", game).choose(state.clone(), random.Random(0)) == search_move


@pytest.mark.slow
@pytest.mark.parametrize("name,seed,decisions,heuristic_move,search_move", WINNING_MOVES)
def test_the_searchs_move_wins_more_often_than_the_heuristics(
        name, seed, decisions, heuristic_move, search_move):
    game = GAMES[name]
    state = _heuristic_position(game, seed, decisions)
    seat = state.current_player()
    found = _win_share_after(game, state, seat, search_move, 150)
    missed = _win_share_after(game, state, seat, heuristic_move, 150)
    assert found >= missed + 0.15


def test_score_rewards_follow_the_games_score_direction():
    """Where the fewest points win, the lowest score earns the largest score reward."""
    import random

    from engines import get_game
    from engines.bots.mcts import rewards

    lowest_games = [g for g in GAMES.values() if g.score_direction == "lowest"]
    assert lowest_games, "no game declares that the fewest points win"
    for game in lowest_games:
        state = game.new_state(game.min_players, seed=3)
        rng = random.Random(3)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        scores = state.scores()
        assert len(set(scores)) > 1
        normal = rewards.normalized_scores(state)
        assert normal[scores.index(min(scores))] == 1.0
        assert normal[scores.index(max(scores))] == 0.0
        margins = rewards.margins(state)
        assert margins[scores.index(min(scores))] == max(margins)
    highest = get_game("tabula-rasa").new_state(3, seed=3)
    rng = random.Random(3)
    while not highest.is_terminal():
        highest.apply_action(rng.choice(highest.legal_actions()))
    scores = highest.scores()
    assert rewards.normalized_scores(highest)[scores.index(max(scores))] == 1.0


def test_a_style_rollout_plays_that_style_in_rollouts_and_as_the_incumbent():
    """`rollout=heuristic:v1`: the search models every seat as playing v1 (its rollouts) and
    improves on v1's move (the paired search's incumbent), not on the default's."""
    game = GAMES["tabula-rasa"]
    v1, default = make_bot("heuristic:v1", game), make_bot("heuristic", game)
    bot = make_bot("mcts:rollout=heuristic:v1,iterations=8", game)
    differ = 0
    for seed in range(40):
        state = random_midgame(game, 3, seed, 0.3)
        # every move each style may pick (ties are broken at random)
        mine = {v1.choose(state.clone(), random.Random(r)) for r in range(8)}
        differ += not mine & {default.choose(state.clone(), random.Random(r)) for r in range(8)}
        bot.choose(state, random.Random(seed))
        assert bot.last_incumbent in mine
        world, played = state.clone(), state.clone()
        bot.rollout(world, random.Random(5))
        rng = random.Random(5)
        for _ in range(12):  # the game's rollout_depth
            if played.is_terminal():
                break
            played.apply_action(v1.choose(played, rng))
        assert world.history == played.history
    assert differ  # the two styles disagree somewhere, so the test tells them apart


@pytest.mark.parametrize("spec,message", [
    ("mcts:rollout=heuristic:nope", "rollout=heuristic:nope: unknown heuristic 'nope'"),
    ("mcts:rollout=heuristic:spread=wide", "spread= expects a number"),
    ("mcts:rollout=smart", r"random\|heuristic\|heuristic:STYLE, got 'smart'"),
])
def test_a_bad_rollout_style_is_a_bot_spec_error(spec, message):
    with pytest.raises(BotSpecError, match=message):
        make_bot(spec, GAMES["tabula-rasa"])
