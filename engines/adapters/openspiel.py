"""Every registered game as an OpenSpiel Python game, and OpenSpiel's ISMCTS as our bot.

`register()` (run on import) registers `tabletop_<game>` for each game in `engines.GAMES`:

    import pyspiel, engines.adapters.openspiel  # noqa: F401  (registers the games)
    game = pyspiel.load_game("tabletop_ninjato", {"players": 4, "token_choice": "lowest"})

Conventions (OpenSpiel's, mapped onto our contract):

- sequential, imperfect information, general-sum, terminal rewards; chance is *sampled*
  (`SAMPLED_STOCHASTIC`): our engines roll dice and draw cards inside `apply_action` with the
  state's own generator, so there are no chance nodes.  Each `new_initial_state()` deals a new
  game: game seed `k` of the game parameter `seed` (reproducible).
- `current_player()` is OpenSpiel's `TERMINAL` (-4) at the end, where ours says -1.
- `returns()`: parameter `utility="win_share"` (default) gives 1/k to each of k winners and
  0 to the others, so utilities lie in [0, 1]; `utility="score"` gives each seat's score
  minus the mean, divided by the spread of the scores (in [-1, 1]).  A game cut off at the
  decision cap has no winner (all 0).
- `information_state_string(p)` and `observation_string(p)` are the canonical JSON of
  `observation(p)`: equal information gives equal strings.  Our observations carry the
  public record the rules let a player keep (discards, played cards, tracks), not a
  perfect-recall history of every observation.
- `resample_from_infostate(p, sampler)` is `determinize(p, rng)`, `rng` seeded from the
  sampler: everything `p` cannot see is resampled, including the future of the dice.
- Rule options are game parameters (strings, ints, bools as declared by the game's `Rules`;
  an unset optional option is the empty string).  `players` is the player count.
"""

from __future__ import annotations

import dataclasses
import json
import random
import typing
from typing import Any

import numpy as np
import pyspiel

import engines
from engines.adapters import openspiel_name, win_shares
from engines.core import Game, State, make_rules, rule_changes
from engines.errors import BadInput

__all__ = ["TabletopGame", "TabletopState", "register", "ISMCTSBot", "make_ismcts"]

UTILITIES = ("win_share", "score")


def _parameter_defaults(game: Game) -> dict[str, Any]:
    """OpenSpiel parameter specification: players, seed, utility, then every rule option."""
    params: dict[str, Any] = {
        "players": game.players_default,
        "seed": 0,
        "utility": UTILITIES[0],
    }
    hints = typing.get_type_hints(game.Rules)
    for fld in dataclasses.fields(game.Rules):
        default = fld.default
        if default is None or typing.get_args(hints[fld.name]):
            default = "" if default is None else default
        params[fld.name] = default
    return params


def _game_type(game: Game) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=openspiel_name(game.name),
        long_name=f"tabletop-sim {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_defaults(game),
    )


class TabletopGame(pyspiel.Game):
    """One of our games, for one player count, rules and utility (the game parameters)."""

    engine_game: Game  # set on the per-game subclass made by `register`

    def __init__(self, params: dict[str, Any] | None = None):
        params = dict(params or {})
        game = self.engine_game
        defaults = _parameter_defaults(game)
        unknown = sorted(set(params) - set(defaults))
        if unknown:
            raise BadInput(f"unknown parameter {unknown[0]!r} for {game.name}")
        merged = {**defaults, **params}
        self.num_seats = int(merged.pop("players"))
        game.check_players(self.num_seats)
        self.seed = int(merged.pop("seed"))
        self.utility = merged.pop("utility")
        if self.utility not in UTILITIES:
            raise BadInput(f"utility must be one of {', '.join(UTILITIES)}")
        options = {k: (None if v == "" else v) for k, v in merged.items()
                   if v != defaults[k]}
        self.rules = make_rules(game.Rules, options)
        self.rule_options = options
        cap = game.max_decisions or game.max_game_length
        low, high = (0.0, 1.0) if self.utility == "win_share" else (-1.0, 1.0)
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_actions,
            max_chance_outcomes=0,
            num_players=self.num_seats,
            min_utility=low,
            max_utility=high,
            utility_sum=None,
            max_game_length=cap,
        )
        super().__init__(_game_type(game), info, {**defaults, **params})
        self._deals = random.Random(self.seed)
        self._example = game.create_state(self.num_seats, 0, self.rules)

    def new_initial_state(self) -> TabletopState:
        """A new deal: the next game seed drawn from the `seed` parameter's sequence."""
        engine = self.engine_game.create_state(
            self.num_seats, self._deals.getrandbits(63), self.rules)
        return TabletopState(self, engine)

    def make_py_observer(self, iig_obs_type=None, params=None) -> Observer:
        if params:
            raise BadInput(f"observation parameters not supported; passed {params}")
        return Observer(self._example)


class TabletopState(pyspiel.State):
    """An OpenSpiel state wrapping one of our `State`s (the engine state does the rules)."""

    def __init__(self, game: TabletopGame, engine: State):
        super().__init__(game)
        self.engine = engine
        self._decisions = 0
        self._cap = game.max_game_length()

    # -- acting
    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.engine.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.engine.legal_actions())

    def _apply_action(self, action: int) -> None:
        self.engine.apply_action(action)
        self._decisions += 1

    def is_terminal(self) -> bool:
        return self.engine.is_terminal() or self._decisions >= self._cap

    def _action_to_string(self, player: int, action: int) -> str:
        return self.engine.action_to_str(action)

    # -- outcome
    def returns(self) -> list[float]:
        n = self.engine.num_players
        if not self.is_terminal():
            return [0.0] * n
        if not self.engine.is_terminal():  # cut off at the decision cap: no winner
            return [0.0] * n
        if self.get_game().utility == "win_share":
            return win_shares(list(self.engine.winners()), n)
        scores = [float(s) for s in self.engine.scores()]
        mean = sum(scores) / n
        spread = max(scores) - min(scores)
        return [0.0 if spread == 0 else (s - mean) / spread for s in scores]

    # -- information
    def information_state_string(self, player: int | None = None) -> str:
        return _observation_string(self.engine, self._player(player))

    def observation_string(self, player: int | None = None) -> str:
        return _observation_string(self.engine, self._player(player))

    def observation_tensor(self, player: int | None = None) -> list[float]:
        return self.engine.observation_tensor(self._player(player)).tolist()

    def _player(self, player: int | None) -> int:
        return self.engine.current_player() if player is None else player

    def resample_from_infostate(self, player_id: int, probability_sampler) -> TabletopState:
        """A world consistent with what `player_id` knows (`determinize`)."""
        return self.resample(player_id, random.Random(int(probability_sampler() * 2**53)))

    def resample(self, player_id: int, rng: random.Random) -> TabletopState:
        """`resample_from_infostate` with our generator (reproducible searches)."""
        world = TabletopState(self.get_game(), self.engine.determinize(player_id, rng))
        world._decisions = self._decisions
        return world

    def clone(self) -> TabletopState:
        copy = TabletopState(self.get_game(), self.engine.clone())
        copy._decisions = self._decisions
        return copy

    def __str__(self) -> str:
        return self.engine.render()


def _observation_string(engine: State, player: int) -> str:
    return json.dumps(engine.observation(player), sort_keys=True, separators=(",", ":"))


class Observer:
    """OpenSpiel's observer protocol: a flat tensor (our `observation_tensor`) and strings."""

    def __init__(self, example: State):
        from engines.tensor import schema_for

        schema = schema_for(example.tensor_spec())
        self.tensor = np.zeros(schema.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TabletopState, player: int) -> None:
        self.tensor[:] = state.engine.observation_tensor(player)

    def string_from(self, state: TabletopState, player: int) -> str:
        return _observation_string(state.engine, player)


_REGISTERED: dict[str, type[TabletopGame]] = {}


def register() -> dict[str, type[TabletopGame]]:
    """Register `tabletop_<game>` with OpenSpiel for every game in `engines.GAMES` (once)."""
    for game in engines.GAMES.values():
        name = openspiel_name(game.name)
        if name in _REGISTERED:
            continue
        cls = type(f"Tabletop_{name}", (TabletopGame,), {"engine_game": game})
        pyspiel.register_game(_game_type(game), cls)
        _REGISTERED[name] = cls
    return dict(_REGISTERED)


register()


# --------------------------------------------------------------------------------------------
# OpenSpiel's information-set MCTS as one of our bots (spec `ismcts`)
# --------------------------------------------------------------------------------------------


def _openspiel_game(game: Game, num_players: int, rules: Any) -> TabletopGame:
    """The OpenSpiel game of `game` at this player count with these rules."""
    cls = register()[openspiel_name(game.name)]
    params: dict[str, Any] = {"players": num_players}
    for name, value in rule_changes(rules).items():
        params[name] = "" if value is None else value
    return cls(params)


class ISMCTSBot:
    """OpenSpiel's `ISMCTSBot` (random rollouts, UCT) deciding for our seat.

    Each decision wraps a clone of the position in a `TabletopState`; the search samples
    root worlds through `resample_from_infostate`, i.e. our `determinize`, so it never sees
    hidden cards.  `simulations` counts tree simulations, each ending in `rollouts` random
    playouts: with `rollouts=1` a simulation is one playout, like one iteration of `mcts`.
    """

    name = "ismcts"

    def __init__(self, game: Game, simulations: int = 28, uct_c: float = 2.0,
                 rollouts: int = 1, final: str = "max_visit"):
        from open_spiel.python.algorithms import ismcts

        if simulations < 2:  # OpenSpiel's first simulation only expands the root
            raise BadInput("simulations must be at least 2")
        if rollouts < 1:
            raise BadInput("rollouts must be at least 1")
        policies = {"max_visit": ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                    "max_value": ismcts.ISMCTSFinalPolicyType.MAX_VALUE}
        if final not in policies:
            raise BadInput(f"final must be one of {', '.join(policies)}")
        self.game = game
        self.simulations = simulations
        self.uct_c = uct_c
        self.rollouts = rollouts
        self.final = policies[final]
        self._games: dict[tuple[int, Any], TabletopGame] = {}

    def choose(self, state: State, rng: random.Random) -> int:
        from open_spiel.python.algorithms import ismcts, mcts

        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        key = (state.num_players, state.rules)
        os_game = self._games.get(key)
        if os_game is None:
            os_game = self._games[key] = _openspiel_game(self.game, state.num_players,
                                                         state.rules)
        seed = rng.getrandbits(32)
        bot = ismcts.ISMCTSBot(
            os_game,
            mcts.RandomRolloutEvaluator(self.rollouts, np.random.RandomState(seed)),
            self.uct_c,
            self.simulations,
            random_state=np.random.RandomState(seed ^ 0x5A5A5A5A),
            final_policy_type=self.final,
            allow_inconsistent_action_sets=True,
        )
        # OpenSpiel's default resampler draws from a sampler of its own; ours keeps a
        # decision reproducible from the game seed, like every other bot.
        worlds = random.Random(seed)
        bot.set_resampler(lambda root, player: root.resample(player, worlds))
        return int(bot.step(TabletopState(os_game, state.clone())))


def make_ismcts(game: Game, variant: str | None, options: dict[str, str]) -> ISMCTSBot:
    """Bot factory for the spec `ismcts[:simulations=N,uct_c=C,rollouts=R,final=max_visit]`."""
    from engines.bots import BotSpecError
    from engines.bots.options import check_known, parse_float, parse_int

    if variant:
        raise BotSpecError(f"ismcts takes options, not a variant ({variant!r})")
    from engines.bots.mcts.options import MAX_ITERATIONS

    def count(bot: str, key: str, raw: str) -> int:  # the bot checks the least count
        return parse_int(bot, key, raw, maximum=MAX_ITERATIONS)

    parsers = {"simulations": count, "uct_c": parse_float, "rollouts": count,
               "final": lambda bot, key, raw: raw}
    check_known("ismcts", options, parsers)
    kwargs: dict[str, Any] = {key: parsers[key]("ismcts", key, raw) for key, raw in options.items()}
    try:
        return ISMCTSBot(game, **kwargs)
    except ValueError as exc:
        raise BotSpecError(f"ismcts: {exc}") from None
