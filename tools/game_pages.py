"""The documentation derived from the registered games, written by cog blocks.

Each game page calls `facts`, `rule_table` and `data_items`, so its rule options, data-set
items, bots and action kinds are what the installed engine declares, not a copy that drifts;
the README's games table (`games_table`), the game index (`index_table`) and the site
navigation (`nav`) list every registered game, with the title and notes its `game.toml`
declares.  A game without a page gets one from `page` (`python -m tools.generate`).
"""

from __future__ import annotations

from analysis.present.formats import seat_order
from engines import GAMES, datasets, get_game
from engines.bots import bot_names
from engines.core import Game, rule_options
from engines.declarations import declarations
from tools import rules_pages

#: Player counts in words, for "4 = two teams".
_COUNTS = ("no", "one", "two", "three", "four", "five", "six")


def _outl(text: str) -> None:
    import cog  # the cog module of the block running now (each cog run makes its own)

    cog.outl(text)


def _cell(text: object) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def players(game: Game) -> str:
    """The player counts, and the counts that play as teams: "2–4 (4 = two teams)"."""
    teams = "; ".join(f"{n} = {_COUNTS[len(t)] if len(t) < len(_COUNTS) else len(t)} teams"
                      for n, t in sorted(game.partnerships.items()))
    counts = (f"{game.min_players}–{game.max_players}" if game.max_players > game.min_players
              else f"{game.min_players}")
    return f"{counts} ({teams})" if teams else counts


def games_table() -> None:
    """The README's games table: name, players and the game file's notes."""
    _outl("| game | players | notes |\n|---|---|---|")
    for name in sorted(GAMES):
        _outl(f"| `{name}` | {players(GAMES[name])} | {_cell(declarations(name).notes)} |")


def index_table() -> None:
    """The table of `docs/games/index.md`: each game's page, engine name and players."""
    _outl("| game | engine name | players |\n|---|---|---|")
    for name in sorted(GAMES):
        _outl(f"| [{_cell(declarations(name).title)}]({name}.md) | `{name}` | "
              f"{players(GAMES[name])} |")


def nav() -> None:
    """The games' entries of the site navigation (`mkdocs.yml`)."""
    for name in sorted(GAMES):
        _outl(f"- {declarations(name).title}: games/{name}.md")


def page(name: str) -> str:
    """A first `docs/games/<name>.md` for a game that has none: its title and description,
    and the cog blocks of its tables (the prose around them is the designer's to write)."""
    game = get_game(name)
    block = '<!-- [[[cog from tools.game_pages import {0}; {0}("{1}") ]]] -->\n<!-- [[[end]]] -->'
    return "\n".join([
        f"# {declarations(name).title}", "",
        " ".join(filter(None, [f"Engine name `{name}`.", game.description])), "",
        "## At a glance", "", block.format("facts", name), "",
        "## Rule options and rulings", "",
        "Each default is the project's ruling; the help text cites it. Change one with",
        "`--rule KEY=VALUE` on any command that plays games.", "",
        block.format("rule_table", name), "",
        "## Component data", "", block.format("data_items", name), ""])


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
    _outl("| | |\n|---|---|")
    for key, value in rows:
        _outl(f"| {key} | {_cell(value)} |")


def rule_table(name: str) -> None:
    """Every rule option with its default (our ruling), its choices and the ruling it cites,
    linked to the ruling on the game's rules page."""
    game = get_game(name)
    _outl("| option | default | choices | ruling |\n|---|---|---|---|")
    for option in rule_options(game.Rules):
        choices = ", ".join(f"`{c}`" for c in option["choices"]) if option["choices"] else ""
        _outl(f"| `{option['name']}` | `{_cell(option['default'])}` | {choices} | "
              f"{rules_pages.link_rulings(name, _cell(option['help']))} |")


def data_items(name: str) -> None:
    """The reconstructed data set's items: shipped value, provenance, alternatives, source."""
    items = datasets.items_table(name)
    if not items:
        _outl("This game uses only official component data (data set `official`).")
        return
    _outl("| item | provenance | shipped value | alternatives | source |\n|---|---|---|---|---|")
    for item in items:
        alternatives = "; ".join(f"`{a}`" for a in item["plausible"])
        _outl(f"| `{item['item']}` | {item['provenance']} | `{_cell(item['value'])}` | "
                 f"{alternatives} | {_cell(item['source'])} |")
