"""Heuristic styles kept in files: a base heuristic and settings of its parameters.

`simulate tune` writes one; `heuristic:PATH.toml` plays it; a game ships its own in
`engines/<game>/styles/NAME.toml`, each registered as `heuristic:NAME`, and
`register_style(game, NAME, PATH)` registers any other file as a named style::

    game = "ninjato"
    base = "heuristic"              # the spec the settings apply to (heuristic[:STYLE])
    description = "found by simulate tune"
    [params]                        # heuristic options, as in heuristic:raid_weight=0.5
    raid_weight = 0.5
    [tune]                          # how it was found (command, budget, league, result)
    command = "simulate tune ninjato ..."

A file is read once per bot built (a style is built once per run per worker).
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Callable, Mapping, MutableMapping
from pathlib import Path
from typing import Any

from engines.bots import BotSpecError
from engines.bots.options import Param, typed_known
from engines.core import Bot, Game
from engines.user_files import read_user_file

__all__ = ["STYLE_SUFFIX", "Style", "load_style", "promote", "register_style",
           "shipped_styles", "style_text", "with_shipped"]

STYLE_SUFFIX = ".toml"
KEYS = {"game", "base", "description", "params", "tune"}


class Style:
    """A style file read and checked: `base` spec, `params` (option strings), `record`."""

    def __init__(self, path: Path, game: str, base: str, params: dict[str, str],
                 description: str, record: dict[str, Any]) -> None:
        self.path, self.game, self.base, self.params = path, game, base, params
        self.description, self.record = description, record

    def factory(self, styles: Mapping[str, Callable[..., Bot]],
                params: tuple[Param, ...] = ()) -> Callable[..., Bot]:
        """A heuristic factory: the base style with these settings (spec options override),
        each typed by its declaration in `params`."""
        name, _, variant = self.base.partition(":")
        key = variant or "default"
        if name != "heuristic" or key not in styles:
            raise BotSpecError(f"{self.path}: base must be heuristic or heuristic:STYLE of "
                               f"{self.game}, got {self.base!r}")
        make = styles[key]
        settings = typed_known(f"{self.game} style {self.path.name}", params, self.params)

        def build(**options: str) -> Bot:
            return make(**{**settings, **options})

        build.__doc__ = self.description or f"style file {self.path.name}"
        return build


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return str(value)
    raise BotSpecError(f"style parameter values are numbers, true/false or words, got "
                       f"{value!r}")


def load_style(path: str | Path, game: Game | None = None) -> Style:
    """Read a style file; anything malformed (or another game's file) raises BotSpecError."""
    path = Path(path)
    try:
        data = tomllib.loads(read_user_file(path, "style file", BotSpecError))
    except UnicodeDecodeError as exc:
        raise BotSpecError(f"cannot read style file {path}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise BotSpecError(f"style file {path} is not valid TOML: {exc}") from None
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise BotSpecError(f"style file {path}: unknown key {unknown[0]!r}; known: "
                           f"{', '.join(sorted(KEYS))}")
    name = data.get("game")
    if not isinstance(name, str) or (game is not None and name != game.name):
        raise BotSpecError(f"style file {path} is for game {name!r}"
                           + (f", not {game.name}" if game is not None else ""))
    base = data.get("base", "heuristic")
    params = data.get("params", {})
    record = data.get("tune", {})
    if not isinstance(base, str) or not isinstance(params, dict) or not isinstance(record, dict):
        raise BotSpecError(f"style file {path}: base is a string, [params] and [tune] tables")
    return Style(path, name, base, {k: _text(v) for k, v in params.items()},
                 str(data.get("description", "")), record)


def register_style(game: Game, name: str, path: str | Path) -> None:
    """Make `heuristic:NAME` play the style file at `path` (checked now, by building it)."""
    if not name.isidentifier():
        raise BotSpecError(f"a style name is a word, got {name!r}")
    styles = game.heuristics
    if not isinstance(styles, MutableMapping):
        raise BotSpecError(f"{game.name}'s heuristics cannot take new styles")
    factory = load_style(path, game).factory(styles, game.heuristic_params)
    factory()  # a bad parameter fails here, not in the first game
    styles[name] = factory


def shipped_styles(game: str, folder: Path, styles: Mapping[str, Callable[..., Bot]],
                   params: tuple[Param, ...] = ()) -> dict[str, Callable[..., Bot]]:
    """The style files a game ships (`folder/NAME.toml`), as factories keyed by NAME."""
    out = {}
    for path in sorted(folder.glob(f"*{STYLE_SUFFIX}")) if folder.is_dir() else ():
        style = load_style(path)
        if style.game != game:
            raise BotSpecError(f"{path} is a {style.game} style in {game}'s folder")
        out[path.stem] = style.factory(styles, params)
    return out


def with_shipped(game: str, package_file: str, styles: dict[str, Callable[..., Bot]],
                 params: tuple[Param, ...] = ()) -> dict[str, Callable[..., Bot]]:
    """`styles` plus the style files in the `styles` folder beside `package_file`."""
    styles.update(shipped_styles(game, Path(package_file).parent / "styles", styles, params))
    return styles


def promote(styles: dict[str, Callable[..., Bot]], style: str, previous: str,
            params: tuple[Param, ...], package_file: str
            ) -> tuple[dict[str, Callable[..., Bot]], tuple[Param, ...]]:
    """Make the shipped style `style` the default, keep the old default as `previous`, and
    return the parameters documented with the new default's values (what `heuristic`
    without options now plays)."""
    if previous in styles:
        raise BotSpecError(f"style {previous!r} exists already")
    path = Path(package_file).parent / "styles" / f"{style}{STYLE_SUFFIX}"
    chosen = load_style(path)
    if chosen.base != "heuristic":
        raise BotSpecError(f"{path}: a default must build on the default heuristic")
    styles[previous] = styles["default"]
    styles["default"] = chosen.factory({"default": styles[previous]}, params)
    styles[style] = styles["default"]
    by_name = {p.name: p for p in params}
    updated = tuple(dataclasses.replace(p, default=p.parse("heuristic", chosen.params[p.name]))
                    if p.name in chosen.params else p for p in by_name.values())
    return styles, updated


def style_text(game: str, base: str, params: Mapping[str, str], description: str,
               record: Mapping[str, Any]) -> str:
    """A style file's text (what `simulate tune` writes)."""

    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, (list, tuple)):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'

    lines = [f"game = {value(game)}", f"base = {value(base)}",
             f"description = {value(description)}", "", "[params]"]
    lines += [f"{k} = {value(_typed(v))}" for k, v in params.items()]
    lines += ["", "[tune]"]
    lines += [f"{k} = {value(v)}" for k, v in record.items()]
    return "\n".join(lines) + "\n"


def _typed(text: str) -> Any:
    """An option string as the TOML value it reads best as (number, true/false, word)."""
    if text in ("true", "false"):
        return text == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text
