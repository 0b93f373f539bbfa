"""Bot registry: specs like `random`, `heuristic`, `heuristic:greedy`, `mcts:iterations=400,c=0.7`.

A spec is `NAME[:ARGS]`; ARGS is a comma-separated list of `key=value` options and at most
one bare word (the variant, e.g. the heuristic's style, or a style file `heuristic:FILE.toml`
written by `simulate tune`, see `engines.bots.styles`).  Every bot takes the option
`forbid=ELEMENT` (an element of the game, `engines.elements`): it then plays restricted,
never taking what the element forbids while it has another move (`engines.bots.restricted`).
`BOTS` maps NAME to a factory `factory(game, variant, options) -> Bot`; third-party bots
register through the `tabletop.bots` entry-point group.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import math
from collections.abc import Callable

from engines.bots.random_bot import RandomBot
from engines.core import Bot, Game
from engines.errors import BadInput

__all__ = [
    "BOTS", "BotSpecError", "RandomBot", "bot_names", "make_bot", "parse_spec",
    "restricted_spec", "split_specs",
]


class BotSpecError(BadInput):
    """A bot spec that names no bot, an unknown variant or a malformed option."""


BotFactory = Callable[[Game, "str | None", dict[str, str]], Bot]


def parse_spec(spec: str) -> tuple[str, str | None, dict[str, str]]:
    """`'mcts:iterations=400,c=0.7'` -> `('mcts', None, {'iterations': '400', 'c': '0.7'})`."""
    name, colon, args = spec.strip().partition(":")
    variant: str | None = None
    options: dict[str, str] = {}
    if colon and not args.strip():  # `heuristic:` would silently be the default
        raise BotSpecError(f"bot spec {spec!r} ends in ':' with no style or options after it "
                           f"(drop the ':' for the default)")
    for part in [p.strip() for p in args.split(",")] if colon else []:
        if not part:
            raise BotSpecError(f"empty option in bot spec {spec!r} (two commas, or a comma "
                               "at an end)")
        if "=" in part:
            key, _, value = part.partition("=")
            if not key.strip() or not value.strip():
                raise BotSpecError(f"malformed bot option {part!r} in {spec!r}")
            options[key.strip()] = value.strip()
        elif variant is None:
            variant = part
        else:
            raise BotSpecError(f"bot spec {spec!r} names two variants ({variant!r}, {part!r})")
    if not name:
        raise BotSpecError(f"empty bot spec {spec!r}")
    return name, variant, options


def split_specs(text: str) -> list[str]:
    """Split a CLI line-up `'mcts:iterations=50,c=1,random'` into one spec per bot.

    A comma-separated piece with `=` but no `:` continues the previous spec's options.
    """
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            raise BotSpecError(f"empty bot spec in {text!r}")
        if "=" in piece and ":" not in piece and specs:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def _random(game: Game, variant: str | None, options: dict[str, str]) -> Bot:
    if variant or options:
        raise BotSpecError("the random bot takes no options")
    return RandomBot()


def _heuristic(game: Game, variant: str | None, options: dict[str, str]) -> Bot:
    styles = game.heuristics
    if not styles:
        raise BotSpecError(f"{game.name} has no heuristic bot yet")
    key = variant or "default"
    if key.endswith(".toml"):  # a style file (`simulate tune` writes them)
        from engines.bots.options import typed_known
        from engines.bots.styles import load_style

        params = tuple(game.heuristic_params)
        make = load_style(key, game).factory(styles, params)
        try:
            return make(**typed_known(f"{game.name} heuristic", params, options))
        except TypeError as exc:
            raise BotSpecError(f"bad options for heuristic:{key}: {exc}") from None
    if key not in styles:
        raise BotSpecError(
            f"unknown heuristic {key!r} for {game.name}; known: {', '.join(sorted(styles))}"
        )
    for option, raw in options.items():  # inf and nan read as numbers, but play as nonsense
        try:
            number = float(raw)
        except ValueError:
            continue
        if not math.isfinite(number):
            raise BotSpecError(f"{game.name} heuristic option {option}= must be a finite "
                               f"number, got {raw!r}")
    from engines.bots.options import typed_known

    try:
        bot = styles[key](**typed_known(f"{game.name} heuristic", game.heuristic_params,
                                        options))
    except (TypeError, ValueError) as exc:
        if not options:  # no option of the user's to blame: a bug
            raise
        raise BotSpecError(f"bad options for heuristic:{key}: {exc}") from None
    return bot


def _mcts(game: Game, variant: str | None, options: dict[str, str]) -> Bot:
    if importlib.util.find_spec("engines.bots.mcts") is None:
        raise BotSpecError("the mcts bot is not available yet")
    from engines.bots.mcts import make_mcts

    return make_mcts(game, variant, options)


def _ismcts(game: Game, variant: str | None, options: dict[str, str]) -> Bot:
    if importlib.util.find_spec("pyspiel") is None:
        raise BotSpecError("the ismcts bot is OpenSpiel's: install it with pip install -e '.[rl]'")
    from engines.adapters.openspiel import make_ismcts

    return make_ismcts(game, variant, options)


BOTS: dict[str, BotFactory] = {
    "random": _random, "heuristic": _heuristic, "mcts": _mcts, "ismcts": _ismcts,
}
for _entry in importlib.metadata.entry_points(group="tabletop.bots"):
    BOTS[_entry.name] = _entry.load()


def bot_names(game: Game) -> list[str]:
    """Every spec a user can write for `game` without options (for `simulate list`)."""
    names = ["random"]
    for key in game.heuristics:
        names.append("heuristic" if key == "default" else f"heuristic:{key}")
    if importlib.util.find_spec("engines.bots.mcts") is not None:
        from engines.bots.mcts.options import PRESETS

        names.append("mcts")
        names.extend(f"mcts:{preset}" for preset in PRESETS)
    if importlib.util.find_spec("pyspiel") is not None:
        names.append("ismcts")
    names.extend(n for n in BOTS if n not in ("random", "heuristic", "mcts", "ismcts"))
    return names


def make_bot(spec: str, game: Game) -> Bot:
    """Build the bot named by `spec` for `game`; bad specs raise `BotSpecError`."""
    name, variant, options = parse_spec(spec)
    factory = BOTS.get(name)
    if factory is None:
        raise BotSpecError(f"unknown bot {name!r}; known bots: {', '.join(BOTS)}")
    forbid = options.pop("forbid", None)
    element = None
    if forbid is not None:
        from engines.elements import find

        try:
            element = find(game, forbid)
        except BadInput as exc:
            raise BotSpecError(f"{spec.strip()}: {exc}") from None
    bot = factory(game, variant, options)
    if element is not None:
        from engines.bots.restricted import RestrictedBot

        bot = RestrictedBot(bot, element)
    bot.name = spec.strip()
    return bot


def restricted_spec(spec: str, element_id: str) -> str:
    """`spec` with `forbid=element_id` added: the same bot, restricted."""
    return f"{spec},forbid={element_id}" if ":" in spec else f"{spec}:forbid={element_id}"
