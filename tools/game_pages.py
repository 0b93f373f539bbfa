"""Per-game reference tables for `docs/games/*.md`, generated from the engines' own declarations.

Each game page calls these from a cog block, so its rule options, data-set items, bots and
action kinds are what the installed engine declares, not a copy that drifts.
"""

from __future__ import annotations

import cog

from analysis.present.formats import seat_order
from engines import datasets, get_game
from engines.bots import bot_names
from engines.core import rule_options


def _cell(text: object) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def facts(name: str) -> None:
    """Players, data set, bots, MCTS defaults, who takes the first turn, systems (action
    kinds)."""
    game = get_game(name)
    rows = [("players", f"{game.min_players}–{game.max_players} (default {game.players_default})"),
            ("data set", f"`{game.dataset(game.make_rules())}`"),
            ("bots", ", ".join(f"`{b}`" for b in bot_names(game)))]
    if game.mcts_defaults:
        rows.append(("mcts defaults", ",".join(f"{k}={v}" for k, v in game.mcts_defaults.items())))
    order = seat_order(name, "", game.players_default)
    if game.starter.option:
        order += f"; `--rule {game.starter.option}=...` changes who starts"
    rows.append(("first turn (official rules)", order))
    rows.append(("systems (action kinds)", ", ".join(game.action_kinds)))
    cog.outl("| | |\n|---|---|")
    for key, value in rows:
        cog.outl(f"| {key} | {_cell(value)} |")


def rule_table(name: str) -> None:
    """Every rule option with its default (our ruling), its choices and the ruling it cites."""
    game = get_game(name)
    cog.outl("| option | default | choices | ruling |\n|---|---|---|---|")
    for option in rule_options(game.Rules):
        choices = ", ".join(f"`{c}`" for c in option["choices"]) if option["choices"] else ""
        cog.outl(f"| `{option['name']}` | `{_cell(option['default'])}` | {choices} | "
                 f"{_cell(option['help'])} |")


def data_items(name: str) -> None:
    """The reconstructed data set's items: shipped value, provenance, alternatives, source."""
    items = datasets.items_table(name)
    if not items:
        cog.outl("This game uses only official component data (data set `official`).")
        return
    cog.outl("| item | provenance | shipped value | alternatives | source |\n|---|---|---|---|---|")
    for item in items:
        alternatives = "; ".join(f"`{a}`" for a in item["plausible"])
        cog.outl(f"| `{item['item']}` | {item['provenance']} | `{_cell(item['value'])}` | "
                 f"{alternatives} | {_cell(item['source'])} |")
