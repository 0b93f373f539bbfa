"""Every registered game as a PettingZoo AEC environment.

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
An observation is `{"observation": float32 vector, "action_mask": int8 vector}`: the vector is
`State.observation_tensor(seat)` (fixed length per game, player count and rules; layout:
`engines.tensor.schema_for(state.tensor_spec()).layout()`), the mask marks the legal actions
of the `num_actions` ids.  Rewards are paid at the end: the win share (1/k to each of k
winners, else 0); a game cut off at the decision cap ends in truncation with no reward.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import engines
from engines.adapters import win_shares
from engines.core import State
from engines.errors import BadInput

__all__ = ["TabletopEnv", "env", "raw_env"]


class TabletopEnv(AECEnv):
    """AEC environment for one game at one player count and rules."""

    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None, render_mode: str | None = None,
                 **rules: Any):
        super().__init__()
        self.game = engines.get_game(game)
        self.num_seats = self.game.players_default if players is None else players
        self.rules = self.game.make_rules(**rules)
        self.game.check_players(self.num_seats)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise BadInput(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"tabletop_{self.game.name}_v0"}
        self.possible_agents = [f"player_{seat}" for seat in range(self.num_seats)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        example = self.game.create_state(self.num_seats, 0, self.rules)
        size = len(example.observation_tensor(0))
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.game.num_actions,), np.int8),
        })
        self._action_space = spaces.Discrete(self.game.num_actions)
        self._cap = self.game.max_decisions or self.game.max_game_length
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
        return {"observation": self.game_state.observation_tensor(seat), "action_mask": mask}

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
        elif self._decisions >= self._cap:
            for a in self.agents:
                self.truncations[a] = True
        if not self._done():
            self.agent_selection = self.possible_agents[self.game_state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _done(self) -> bool:
        return self.game_state.is_terminal() or self._decisions >= self._cap

    def render(self) -> str | None:
        """The whole table as text (`State.render()`)."""
        if self.render_mode is None:
            return None
        text = self.game_state.render()
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
    """The environment in PettingZoo's usual wrappers (illegal actions raise, order enforced)."""
    from pettingzoo.utils import wrappers

    environment = raw_env(game, players, **kwargs)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)
