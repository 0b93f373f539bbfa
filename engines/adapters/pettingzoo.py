"""Every registered game as a PettingZoo AEC environment, in the conventions of the classic envs.

    from engines.adapters.pettingzoo import env
    environment = env("ninjato", players=4, token_choice="lowest")
    environment.reset(seed=1)
    for agent in environment.agent_iter():
        observation, reward, termination, truncation, info = environment.last()
        if termination or truncation:
            action = None
        else:
            action = int(environment.np_random.choice(observation["action_mask"].nonzero()[0]))
        environment.step(action)

Agents are `player_0` ... `player_{n-1}` (our seats).  Whose turn it is follows the game
(out-of-turn decisions such as Ivanhoe's Ivanhoe card or Big Cheese's veto window included).

- **Observation** (`observe(agent)`): `{"observation": float32 vector in [0, 1], "action_mask":
  int8 vector}`, from that agent's own view.  The vector is `State.observation_tensor(seat)`
  (layout: `engines.tensor.schema_for(state.tensor_spec()).layout()`), each entry scaled by
  the range it takes in seeded random playouts of the same game, player count and rules
  (`Encoding`: `(value - low) / (high - low)`, clipped to [0, 1], so a value beyond what
  those playouts reached saturates; an entry that never changed is 0).  `raw_observation`
  gives the unscaled vector.  The mask marks the agent's legal actions (all 0 when it is not
  the agent's turn).
- **Illegal moves** (the classic envs' rule, `TerminateIllegalWrapper` in `env()`): the mover
  gets -1, every other agent 0, and the game ends.  `raw_env()` raises instead.
- **Rewards** at the end: the win share (1/k to each of k winners, else 0).  A game cut off
  at `max_cycles` decisions (default: the game's decision cap) ends in truncation with no
  reward.
- **Render**: what the seat to act sees (`State.render(seat)`); `render_seat=K` fixes the
  seat, `render_seat=-1` shows the whole table (for debugging: it shows every hand).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import engines
from engines.adapters import win_shares
from engines.core import Game, State
from engines.errors import BadInput

__all__ = ["TabletopEnv", "env", "raw_env", "Encoding", "encoding_for"]

#: Seeded random playouts whose observations give each entry's range.
ENCODING_PLAYOUTS = 4


@dataclass(frozen=True)
class Encoding:
    """Per-entry range of a game's observation tensor: `scaled = (raw - low) / (high - low)`."""

    low: np.ndarray
    high: np.ndarray

    def scale(self, raw: np.ndarray) -> np.ndarray:
        span = self.high - self.low
        scaled = np.divide(raw - self.low, span, out=np.zeros_like(raw), where=span > 0)
        return np.clip(scaled, 0.0, 1.0).astype(np.float32)


_ENCODINGS: dict[tuple[str, int, Any], Encoding] = {}


def encoding_for(game: Game, num_players: int, rules: Any) -> Encoding:
    """The ranges every seat's observation entries take in `ENCODING_PLAYOUTS` random games
    (measured once per game, player count and rules in a process)."""
    key = (game.name, num_players, rules)
    if key not in _ENCODINGS:
        _ENCODINGS[key] = _measure(game, num_players, rules)
    return _ENCODINGS[key]


def _measure(game: Game, num_players: int, rules: Any) -> Encoding:
    low: np.ndarray | None = None
    high: np.ndarray | None = None
    for seed in range(ENCODING_PLAYOUTS):
        state = game.create_state(num_players, seed, rules)
        rng = random.Random(seed)
        while True:
            for seat in range(num_players):
                vector = state.observation_tensor(seat)
                low = vector.copy() if low is None else np.minimum(low, vector)
                high = vector.copy() if high is None else np.maximum(high, vector)
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
    assert low is not None and high is not None
    return Encoding(low, high)


class TabletopEnv(AECEnv):
    """AEC environment for one game at one player count and rules."""

    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None, render_mode: str | None = None,
                 max_cycles: int | None = None, render_seat: int | None = None, **rules: Any):
        super().__init__()
        self.game = engines.get_game(game)
        self.num_seats = self.game.players_default if players is None else players
        self.rules = self.game.make_rules(**rules)
        self.game.check_players(self.num_seats)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise BadInput(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.metadata = {**self.metadata,
                         "name": f"tabletop_{self.game.name.replace('-', '_')}_v0"}
        self.possible_agents = [f"player_{seat}" for seat in range(self.num_seats)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        if render_seat is not None and not -1 <= render_seat < self.num_seats:
            raise BadInput(f"render_seat must be -1 or a seat from 0 to {self.num_seats - 1}")
        self.render_seat = render_seat
        self.encoding = encoding_for(self.game, self.num_seats, self.rules)
        size = len(self.encoding.low)
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.game.num_actions,), np.int8),
        })
        self._action_space = spaces.Discrete(self.game.num_actions)
        cap = self.game.max_decisions or self.game.max_game_length
        if max_cycles is not None and max_cycles < 1:
            raise BadInput("max_cycles must be at least 1")
        self.max_cycles = cap if max_cycles is None else max_cycles
        self._deals = random.Random()
        self.np_random = np.random.default_rng()
        self.game_state: State | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new deal; `seed` makes it (and the sequence of later deals) reproducible."""
        if seed is not None:
            self._deals.seed(seed)
            self.np_random = np.random.default_rng(seed)
        self.game_state = self.game.create_state(self.num_seats, self._deals.getrandbits(63),
                                            self.rules)
        self._decisions = 0
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game_state.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        mask = np.zeros(self.game.num_actions, np.int8)
        if self.game_state.current_player() == seat and not self._done():
            mask[self.game_state.legal_actions()] = 1
        return {"observation": self.encoding.scale(self.raw_observation(agent)),
                "action_mask": mask}

    def raw_observation(self, agent: str) -> np.ndarray:
        """The agent's `observation_tensor`, unscaled."""
        return self.game_state.observation_tensor(self._seat[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.game_state.apply_action(int(action))
        self._decisions += 1
        self.rewards = {a: 0.0 for a in self.agents}
        if self.game_state.is_terminal():
            shares = win_shares(list(self.game_state.winners()), self.num_seats)
            for seat, a in enumerate(self.possible_agents):
                self.rewards[a] = shares[seat]
                self.terminations[a] = True
        elif self._decisions >= self.max_cycles:
            for a in self.agents:
                self.truncations[a] = True
        if not self._done():
            self.agent_selection = self.possible_agents[self.game_state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _done(self) -> bool:
        return self.game_state.is_terminal() or self._decisions >= self.max_cycles

    def render(self) -> str | None:
        """What the seat to act sees, as text (`render_seat` fixes the seat; -1: the table)."""
        if self.render_mode is None or self.game_state is None:  # no mode, or closed
            return None
        seat = self.render_seat
        if seat is None:
            seat = self._seat[self.agent_selection]
        text = self.game_state.render(None if seat == -1 else seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.game_state = None


def raw_env(game: str, players: int | None = None, **kwargs: Any) -> TabletopEnv:
    """The environment without PettingZoo's wrappers."""
    return TabletopEnv(game, players, **kwargs)


def env(game: str, players: int | None = None, **kwargs: Any) -> AECEnv:
    """The environment in the classic envs' wrappers: an illegal move loses (-1) and ends the
    game, out-of-range actions raise, the AEC order is enforced."""
    from pettingzoo.utils import wrappers

    environment = raw_env(game, players, **kwargs)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)
