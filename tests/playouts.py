"""Seeded playouts for tests: the one way the suite plays games to collect positions to check.

    for state in playout(game, 4, seed=3):                  # uniform random moves
        check(state)
    for state in positions("ninjato", 3, range(6), "heuristic:collector"):
        ...

A test that checks a property on every position it reaches states which games it plays
(game, players, seeds, rules, bots); the same arguments always give the same positions,
so a test whose coverage depends on its seeds keeps it.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from engines import get_game
from engines.bots import make_bot
from engines.core import Bot, Game, State

#: What plays the moves: None (uniform random, `legal[rng.randrange(len(legal))]`), a bot
#: spec for every seat (`"heuristic"`, `"random"`: the registered bots, one per seat), one
#: bot object for every seat, or one bot object per seat.
Bots = str | Bot | Sequence[Bot] | None


def _seat_bots(game: Game, players: int, bots: Bots) -> Sequence[Bot] | None:
    if bots is None:
        return None
    if isinstance(bots, str):
        return [make_bot(bots, game) for _ in range(players)]
    if isinstance(bots, Sequence):
        return list(bots)
    return [bots] * players


def playout(game: Game | str, players: int, seed: int, bots: Bots = None, *,
            rules: Mapping[str, Any] | None = None, max_moves: int | None = None,
            on_move: Callable[[State, int], None] | None = None) -> Iterator[State]:
    """Every position of one seeded game, the final one last.

    The live state is yielded before each move (the move is chosen only after the caller
    has looked, so what it inspects is the position as the mover finds it); `on_move(state,
    action)` sees each chosen move just before it is applied. Moves come from `bots` with
    the stream `random.Random(seed)`; `max_moves` stops after that many moves (the last
    position yielded is then not terminal).
    """
    if isinstance(game, str):
        game = get_game(game)
    state = game.new_state(players, seed, **dict(rules or {}))
    yield from _play(state, seed, _seat_bots(game, players, bots), max_moves, on_move)


def play_on(state: State, seed: int, bots: Sequence[Bot] | None = None) -> State:
    """`state` itself, played on to the end with the stream `random.Random(seed)` (uniform
    random moves, or one bot per seat): a position's future, e.g. a clone's."""
    return deque(_play(state, seed, bots, None, None), maxlen=1)[0]


def _play(state: State, seed: int, seat_bots: Sequence[Bot] | None, max_moves: int | None,
          on_move: Callable[[State, int], None] | None) -> Iterator[State]:
    rng = random.Random(seed)
    moves = 0
    while True:
        yield state
        if state.is_terminal() or (max_moves is not None and moves >= max_moves):
            return
        if seat_bots is None:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        else:
            action = seat_bots[state.current_player()].choose(state, rng)
        if on_move is not None:
            on_move(state, action)
        state.apply_action(action)
        moves += 1


def positions(game: Game | str, players: int, seeds: Iterable[int], bots: Bots = None,
              **options: Any) -> Iterator[State]:
    """Every position of one playout per seed (fresh bots for each game when `bots` is a
    spec); `options` as for `playout`."""
    for seed in seeds:
        yield from playout(game, players, seed, bots, **options)


def final(game: Game | str, players: int, seed: int, bots: Bots = None, **kwargs) -> State:
    """The last position of `playout(...)` (the end of the game unless `max_moves` cut it)."""
    return deque(playout(game, players, seed, bots, **kwargs), maxlen=1)[0]


def random_midgame(game: Game, players: int, seed: int, fraction: float = 0.4) -> State:
    """A position reached by uniform random play, roughly `fraction` of the way through the
    game (capped at 5000 moves for a game that would not end)."""
    length = sum(1 for _ in playout(game, players, seed, max_moves=5000)) - 1
    return final(game, players, seed, max_moves=int(length * fraction))
