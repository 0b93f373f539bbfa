"""A kit game's registry entry and its parts: `kit_game` builds the `Game` from the state's
layout, `KitRules` holds the options every game has, `heuristic` makes a bot of a function.

The facts a game declares are declared once, where the project reads them: players, score
direction and bounds, teams and caps are `Game` fields (passed through `kit_game`), what is
hidden is the layout, and what the project needs outside the folder is `game.toml`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engines.bots.options import Param, check_known, typed_known
from engines.core import Game, Starter, lever_option, seat_bonus_option
from engines.gamekit.table import KitState
from engines.kit import FIRST_SEAT_CHOICES, parse_seat_bonus


@dataclass(frozen=True)
class KitRules:
    """The options every game has: who plays first (a seat lever that `simulate explain`
    replays) and the `seat_bonus` compensation (`simulate compensate`).  A game's `Rules`
    extends it with its own options, and may redeclare `seat_bonus` in its own unit."""

    starting_player: str = lever_option(
        "first", FIRST_SEAT_CHOICES,
        "seat lever: who plays first; first = seat 1 (default), last = the last seat, "
        "random = a seat drawn per deal (the deal is the same)")
    seat_bonus: str = seat_bonus_option("points", "points each seat is given",
                                        most=1000)  # a game redeclares what it allows

    def __post_init__(self) -> None:
        parse_seat_bonus(self.seat_bonus)


class _Create:
    """`Game.create_state` of a kit game: the state, told the game's score direction."""

    def __init__(self, state: type[KitState], lowest_wins: bool) -> None:
        self.state = state
        self.lowest_wins = lowest_wins

    def __call__(self, num_players: int, seed: int, rules: Any) -> KitState:
        state = self.state(num_players, seed, rules)
        state.lowest_wins = self.lowest_wins
        return state


def kit_game(state: type[KitState], rules: type, **game: Any) -> Game:
    """The `Game` of a kit state: `Game(**game)` with what the layout already says filled in
    (`create_state`, `num_actions`, `action_kinds`), and who starts from `KitRules`' lever."""
    actions = state.layout.actions
    lowest = game.get("score_direction", "highest") == "lowest"
    if issubclass(rules, KitRules):  # the lever of `KitRules` decides who starts
        game.setdefault("starter", Starter("starting_player",
                                           {choice: choice for choice in FIRST_SEAT_CHOICES}))
    return Game(Rules=rules, create_state=_Create(state, lowest), num_actions=actions.count,
                action_kinds=actions.names, **game)


class _FunctionBot:
    """A heuristic bot made of a function `choose(state, rng, **weights) -> action`."""

    name = "heuristic"

    def __init__(self, choose: Callable[..., int], weights: dict[str, Any],
                 uses_rng: bool) -> None:
        self._choose = choose
        self.weights = weights
        self.uses_rng = uses_rng

    def choose(self, state: Any, rng: random.Random) -> int:
        return self._choose(state, rng, **self.weights)


def heuristic(choose: Callable[..., int], params: tuple[Param, ...] = (),
              uses_rng: bool = True) -> Callable[..., _FunctionBot]:
    """A bot factory for `Game.heuristics` from a plain function: its keyword arguments are
    the documented weights `params` (the `heuristic:NAME=VALUE` options, `simulate tune`'s
    search space; give the same to `Game.heuristic_params`).  `uses_rng=False` promises that
    `choose` never draws from `rng` (the search then reuses one stream for its rollouts)."""
    defaults = {p.name: p.default for p in params}

    def make(**options: Any) -> _FunctionBot:
        check_known("heuristic", options, defaults)
        typed = typed_known("heuristic", params, options)
        return _FunctionBot(choose, {**defaults, **typed}, uses_rng)

    return make
