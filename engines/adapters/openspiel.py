"""Every registered game as an OpenSpiel Python game, and OpenSpiel's ISMCTS as our bot.

`register()` (run on import) registers `tabletop_<game>` for each game in `engines.GAMES`:

    import pyspiel, engines.adapters.openspiel  # noqa: F401  (registers the games)
    game = pyspiel.load_game("tabletop_ninjato", {"players": 4, "token_choice": "lowest"})

Conventions (OpenSpiel's, mapped onto our contract), each one true of the game type:

- Sequential, imperfect information, general-sum, terminal rewards, **explicit chance**:
  a new state starts with `DEAL_BYTES` chance nodes of 256 equally likely outcomes each,
  which together pick the deal (the engine's game seed).  Every later chance event (dice,
  draws) is a function of that seed and hidden from every player until it happens, which is
  the same game as drawing it at that moment.  So a state is a pure function of its
  history: `new_initial_state()` holds no hidden generator, deals are reproducible from the
  chance outcomes, and game and state serialize (`pyspiel.serialize_game_and_state`,
  `pickle`, `copy.deepcopy`).
- `current_player()` is OpenSpiel's `CHANCE` while dealing and `TERMINAL` at the end.
- `returns()`: parameter `utility="win_share"` (default) gives 1/k to each of k winners and
  0 to the others, so utilities lie in [0, 1]; `utility="score"` gives each seat's score
  minus the mean, divided by the spread of the scores (in [-1, 1]).  A game cut off at the
  decision cap has no winner (all 0).
- Observations come from `make_py_observer`, as OpenSpiel's own Python games do:
  - the information state (perfect recall) is a digest of everything the player has
    observed, step by step, and of its own actions, followed by its current observation:
    two histories the player can tell apart give two different strings.  No information
    state tensor is provided (the game type says so; asking for one raises).
  - the observation (string and tensor) is `observation(player)`: what the player sees now.
  - the public observation (`private_info=NONE`) keeps only the parts of the observation
    that every seat sees alike (`public_keys`), with no player's private information.
- `resample_from_infostate(p, sampler)` is `determinize(p, rng)`, `rng` seeded from the
  sampler: everything `p` cannot see is resampled, including the future of the dice.  The
  world keeps the history and `p`'s information state; the other players' information
  states restart from what they see in that world (their real ones would leak).
- Rule options are game parameters (strings, ints, bools as declared by the game's `Rules`;
  an unset optional option is the empty string).  `players` is the player count.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
import typing
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts as mcts_algorithms

import engines
from engines.adapters import openspiel_name, win_shares
from engines.core import Game, State, make_rules, rule_changes
from engines.errors import BadInput

__all__ = ["TabletopGame", "TabletopState", "register", "ISMCTSBot", "make_ismcts",
           "DEAL_BYTES", "public_keys"]

UTILITIES = ("win_share", "score")
#: Chance nodes at the start of a game, each one byte of the deal's seed (2**32 deals).
DEAL_BYTES = 4


def _parameter_defaults(game: Game) -> dict[str, Any]:
    """OpenSpiel parameter specification: players, utility, then every rule option."""
    params: dict[str, Any] = {
        "players": game.players_default,
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
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
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


def public_keys(game: Game, num_players: int, rules: Any, playouts: int = 3) -> tuple[str, ...]:
    """Keys of `observation(seat)` that every seat sees alike in random playouts.

    The engines do not yet declare visibility per attribute, so the public part of an
    observation is measured: a key is public when, at every position of `playouts` seeded
    random games, all seats' observations hold the same value under it.
    """
    keys: set[str] | None = None
    for seed in range(playouts):
        state = game.create_state(num_players, seed, rules)
        rng = random.Random(seed)
        while True:
            seen = [state.observation(seat) for seat in range(num_players)]
            alike = {k for k, v in seen[0].items() if all(o.get(k) == v for o in seen[1:])}
            keys = alike if keys is None else keys & alike
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
    order = list(game.create_state(num_players, 0, rules).observation(0))
    return tuple(k for k in order if k in (keys or set()))


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
            max_chance_outcomes=256,
            num_players=self.num_seats,
            min_utility=low,
            max_utility=high,
            utility_sum=None,
            max_game_length=cap,
        )
        super().__init__(_game_type(game), info, {**defaults, **params})
        self._example = game.create_state(self.num_seats, 0, self.rules)
        self._public_keys: tuple[str, ...] | None = None

    def new_initial_state(self) -> TabletopState:
        """A game about to be dealt: `DEAL_BYTES` chance nodes pick the deal."""
        return TabletopState(self)

    def max_chance_nodes_in_history(self) -> int:
        return DEAL_BYTES

    def public_keys(self) -> tuple[str, ...]:
        """The observation keys every seat sees alike (measured once per game object)."""
        if self._public_keys is None:
            self._public_keys = public_keys(self.engine_game, self.num_seats, self.rules)
        return self._public_keys

    def make_py_observer(self, iig_obs_type=None, params=None) -> Observer:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        private = (pyspiel.PrivateInfoType.SINGLE_PLAYER if iig_obs_type is None
                   else iig_obs_type.private_info)
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        if iig_obs_type is not None and not iig_obs_type.public_info:
            raise ValueError("observations without public information are not provided")
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("observations with every player's private information are not "
                             "provided")
        public_only = private == pyspiel.PrivateInfoType.NONE
        if recall and public_only:
            raise ValueError("a perfect-recall public observation is not provided")
        if recall:
            return RecallObserver()
        return Observer(self._example, self.public_keys() if public_only else None)


def _final_returns(engine: State, n: int, utility: str) -> list[float]:
    """`returns()` of a finished game under the game's `utility` parameter."""
    if utility == "win_share":
        return win_shares(list(engine.winners()), n)
    scores = [float(s) for s in engine.scores()]
    mean = sum(scores) / n
    spread = max(scores) - min(scores)
    return [0.0 if spread == 0 else (s - mean) / spread for s in scores]


def _digest(*parts: str) -> str:
    return hashlib.blake2b("\x1f".join(parts).encode(), digest_size=16).hexdigest()


def _observation_string(engine: State, player: int, keys: tuple[str, ...] | None = None) -> str:
    observation = engine.observation(player)
    if keys is not None:
        observation = {k: observation[k] for k in keys}
    return json.dumps(observation, sort_keys=True, separators=(",", ":"))


class TabletopState(pyspiel.State):
    """An OpenSpiel state wrapping one of our `State`s (the engine state does the rules).

    While dealing, `engine` is None and `deal` collects the chance outcomes.  `recall` holds
    each player's perfect-recall digest once an information state has been asked for (it is
    then kept up to date move by move; before that it costs nothing).
    """

    def __init__(self, game: TabletopGame, engine: State | None = None):
        super().__init__(game)
        #: False in the ISMCTS bot's search states: its tree keys on observations.
        self.perfect_recall = True
        self.engine = engine
        self.deal: list[int] = []
        self.moves: list[int] = []
        self.recall: list[str] | None = None
        self.world = False  # a resampled world: its recall cannot be replayed from the deal
        self._cap = game.max_game_length()

    # -- chance
    def is_chance_node(self) -> bool:
        return self.engine is None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(outcome, 1 / 256) for outcome in range(256)]

    def seed(self) -> int:
        """The engine's game seed, from the chance outcomes of the deal."""
        return int.from_bytes(bytes(self.deal), "big")

    # -- acting
    def current_player(self) -> int:
        if self.engine is None:
            return pyspiel.PlayerId.CHANCE
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.engine.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.engine.legal_actions())

    def _apply_action(self, action: int) -> None:
        if self.engine is None:
            self.deal.append(action)
            if len(self.deal) == DEAL_BYTES:
                game = self.get_game()
                self.engine = game.engine_game.create_state(game.num_seats, self.seed(),
                                                            game.rules)
            return
        actor = self.engine.current_player()
        self.engine.apply_action(action)
        self.moves.append(action)
        if self.recall is not None:
            self._observe(actor, action)

    def is_terminal(self) -> bool:
        return self.engine is not None and (self.engine.is_terminal()
                                            or len(self.moves) >= self._cap)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal byte {action}"
        return self.engine.action_to_str(action)

    # -- outcome
    def returns(self) -> list[float]:
        n = self.get_game().num_seats
        if not self.is_terminal() or not self.engine.is_terminal():
            return [0.0] * n  # not over, or cut off at the decision cap: no winner
        return _final_returns(self.engine, n, self.get_game().utility)

    # -- perfect recall
    def _observe(self, actor: int, action: int) -> None:
        """Extend every player's digest by what it sees now (and its own action)."""
        assert self.recall is not None
        for player in range(len(self.recall)):
            own = str(action) if player == actor else "-"
            self.recall[player] = _digest(self.recall[player], own,
                                          _observation_string(self.engine, player))

    def _start_recall(self, label: str) -> None:
        self.recall = [_digest(label, _observation_string(self.engine, p))
                       for p in range(self.get_game().num_seats)]

    def information_digest(self, player: int) -> str:
        """The player's perfect-recall digest (replayed from the deal the first time)."""
        if self.recall is None:
            if self.world:
                raise RuntimeError("a resampled world has its recall set when made")
            game = self.get_game()
            replay = TabletopState(game, game.engine_game.create_state(
                game.num_seats, self.seed(), game.rules))
            replay._start_recall("deal")
            for action in self.moves:
                replay._apply_action(action)
            self.recall = replay.recall
        return self.recall[player]

    # -- worlds
    def resample_from_infostate(self, player_id: int, probability_sampler) -> TabletopState:
        """A world consistent with what `player_id` knows (`determinize`)."""
        return self.resample(player_id, random.Random(int(probability_sampler() * 2**53)))

    def resample(self, player_id: int, rng: random.Random) -> TabletopState:
        """`resample_from_infostate` with our generator (reproducible searches)."""
        world = self.clone()
        if self.engine is None:
            return world
        mine = self.information_digest(player_id) if self.perfect_recall else ""
        world.engine = self.engine.determinize(player_id, rng)
        world.world = True
        if self.perfect_recall:
            world._start_recall(f"world of {player_id}")
            world.recall[player_id] = mine
        return world

    def __str__(self) -> str:
        if self.engine is None:
            return f"dealing: {len(self.deal)} of {DEAL_BYTES} chance outcomes"
        return self.engine.render()


class Observer:
    """OpenSpiel's observer protocol for observations: a flat tensor and a string.

    With `keys`, only those keys of the observation (the public ones): the tensor holds
    their slices of `observation_tensor`, the string their values.
    """

    def __init__(self, example: State, keys: tuple[str, ...] | None = None):
        from engines.tensor import schema_for

        self.schema = schema_for(example.tensor_spec())
        self.keys = keys
        if keys is None:
            self.slices = [(0, self.schema.size)]
        else:
            self.slices = [self.schema.offsets[k] for k in keys if k in self.schema.offsets]
        size = sum(length for _, length in self.slices)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TabletopState, player: int) -> None:
        if state.engine is None:
            self.tensor[:] = 0.0
            return
        full = state.engine.observation_tensor(player)
        at = 0
        for start, length in self.slices:
            self.tensor[at:at + length] = full[start:start + length]
            at += length

    def string_from(self, state: TabletopState, player: int) -> str:
        if state.engine is None:
            return str(state)
        return _observation_string(state.engine, player, self.keys)


class RecallObserver:
    """The information state: perfect recall as a digest, then the current observation."""

    def __init__(self):
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, np.ndarray] = {}

    def set_from(self, state: TabletopState, player: int) -> None:
        raise ValueError("no information state tensor is provided (the game type says so); "
                         "use observation_tensor")

    def string_from(self, state: TabletopState, player: int) -> str:
        if state.engine is None:
            return str(state)
        observation = _observation_string(state.engine, player)
        if not state.perfect_recall:
            return observation
        return f"recall {state.information_digest(player)} {observation}"


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


class _SearchState(TabletopState):
    """A position handed to OpenSpiel's ISMCTS: its tree keys on the players' observations.

    (The search starts mid-game from a copy of our position, with no deal to replay, and
    tracking perfect recall at every rollout move would multiply its cost.)
    """

    def __init__(self, game: TabletopGame, engine: State | None = None):
        super().__init__(game, engine)
        self.perfect_recall = False  # an instance attribute: clones copy it


class _EngineRollouts(mcts_algorithms.RandomRolloutEvaluator):
    """OpenSpiel's random-rollout evaluator, played on the engine state directly.

    Same evaluation as `RandomRolloutEvaluator`: from a copy of the position, a uniformly
    random legal action until the game ends (or reaches the decision cap: no winner), and
    the mean of `returns()` over `n_rollouts` playouts.  Stepping the engine rather than the
    OpenSpiel state skips a pybind round trip per move, most of ISMCTS's time in our games.
    """

    def __init__(self, n_rollouts: int, rng: random.Random):
        super().__init__(n_rollouts)
        self._rng = rng

    def evaluate(self, state: TabletopState) -> np.ndarray:
        if state.engine is None:
            return super().evaluate(state)
        game = state.get_game()
        n, cap, draw = game.num_seats, state._cap, self._rng.random
        total = np.zeros(n)
        for _ in range(self.n_rollouts):
            engine = state.engine.clone()
            moves = len(state.moves)
            while not engine.is_terminal() and moves < cap:
                legal = engine.legal_actions()
                engine.apply_action(legal[int(draw() * len(legal))])
                moves += 1
            if engine.is_terminal():
                total += _final_returns(engine, n, game.utility)
        return total / self.n_rollouts


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
        from open_spiel.python.algorithms import ismcts

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
            _EngineRollouts(self.rollouts, random.Random(seed)),
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
        return int(bot.step(_SearchState(os_game, state.clone())))


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
