"""Information-set Monte Carlo search, the `mcts[:options]` bot.

- `search.py`: the bot and its default search, a paired flat search on top of the game's
  default heuristic (why: see there),
- `ismcts.py`: single-observer ISMCTS, one tree over the seat's information set
  (`search=uct`),
- `options.py`: the options, presets and per-game defaults, and their parsing,
- `rewards.py`: the terminal rewards.

Both searches back up each player's own reward, with partners both in `winners()`, so they
work for 2-6 players and for teams.  User guide and measured strength: `docs/bots.md`.
"""

from __future__ import annotations

from engines.bots.mcts.options import DEFAULT_ITERATIONS, MCTSConfig, merged_options
from engines.bots.mcts.search import MCTSBot
from engines.core import Game

__all__ = ["DEFAULT_ITERATIONS", "MCTSBot", "MCTSConfig", "make_mcts"]


def make_mcts(game: Game, variant: str | None, options: dict[str, str]) -> MCTSBot:
    """Factory behind the spec `mcts[:options]`: the game's `mcts_defaults`, then the preset,
    then the explicit options."""
    return MCTSBot(game, merged_options(game, variant, options))
