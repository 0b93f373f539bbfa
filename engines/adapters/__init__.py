"""Adapters that expose every registered game to the reinforcement-learning ecosystem.

- `engines.adapters.openspiel`: each game as an OpenSpiel Python game (`tabletop_<game>`),
  plus `ismcts`, OpenSpiel's information-set MCTS bot as one of our bots.
- `engines.adapters.pettingzoo`: each game as a PettingZoo AEC environment.

Both need the optional extra `rl` (`pip install -e '.[rl]'`); the engines do not.
"""

from __future__ import annotations

__all__ = ["openspiel_name", "win_shares"]


def openspiel_name(game_name: str) -> str:
    """`tabula-rasa` -> `tabletop_tabula_rasa` (OpenSpiel short names use underscores)."""
    return "tabletop_" + game_name.replace("-", "_")


def win_shares(winners: list[int], num_players: int) -> list[float]:
    """1/k to each of k winners, 0 to the others (no winner, e.g. a truncated game: all 0)."""
    shares = [0.0] * num_players
    for seat in winners:
        shares[seat] = 1.0 / len(winners)
    return shares
