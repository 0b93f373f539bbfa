"""Component data sets as things a user can read and vary: named items with provenance.

Two games run on reconstructed data (Ninjato, Time Pirates).  Each names, in its own folder
(`engines/<package>/data_set.py`, given to its `Game` as `replaceable_data`), the items of its
data set that a user may want to change, each with its provenance (CONFIRMED / INFERRED /
GUESS, from ../shared/rules/*.md) and the plausible alternatives the rules files name (or one
step either side).  This module lets a rule key set one item without writing a file:
`--rule components.token_values=2,4,6,8`.

Such keys are folded into the game's one `components` rule option as an inline source,
`data:{"file": PATH, "set": {ITEM: VALUE}}` (`fold`).  `load` is the one loader of every
game's replaceable components (defaults, a file, or an inline source): it labels the data set
by content (a file's label carries the hash of its bytes) and caches what it built by that
label, and the label says exactly what changed (`ninjato-reconstructed-v1+token_values=2,4,6,8`).
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from engines import component_file
from engines.errors import BadInput

INLINE = "data:"
PREFIX = "components."
PROVENANCES = ("CONFIRMED", "INFERRED", "GUESS")
T = TypeVar("T")


@dataclass(frozen=True)
class Item:
    """One addressable piece of a data set.

    `get`/`put` read and write it in the plain data table (a derived item such as
    `alarm_guards` rewrites the table it lives in); `kind` is how a rule value is read:
    `int`, `ints` (comma-separated) or `json`; `check` refuses values the engine cannot play
    and bounds every number to a sane range (`range_check`, `ints_check`, `numbers_check`:
    every item declares one, so `10**20` dojo cards never reach the engine);
    `plausible` are the alternatives the rules file names, for sensitivity studies.
    """

    name: str
    provenance: str
    source: str
    kind: str
    get: Callable[[dict], Any]
    put: Callable[[dict, Any], None]
    check: Callable[[Any], str | None]
    plausible: tuple = ()
    key: str = ""  # the data-table key this item lives in ('' = its own name)

    def parse(self, raw: Any) -> Any:
        """A rule value (CLI text, or a typed value from an experiment file) as data."""
        value = raw
        if isinstance(raw, str):
            text = raw.strip()
            try:
                if self.kind == "int":
                    value = int(text)
                elif self.kind == "ints":
                    value = [int(v) for v in text.strip("[]").split(",") if v.strip()]
                else:
                    value = json.loads(text)
            except ValueError:
                want = {"int": "an integer", "ints": "comma-separated integers",
                        "json": "a JSON value"}[self.kind]
                raise BadInput(f"data item {self.name!r} expects {want}, got {raw!r}") \
                    from None
        if self.kind == "int" and (not isinstance(value, int) or isinstance(value, bool)):
            raise BadInput(f"data item {self.name!r} expects an integer, got {raw!r}")
        if self.kind == "ints" and (not isinstance(value, list) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value)):
            raise BadInput(f"data item {self.name!r} expects a list of integers, got {raw!r}")
        problem = self.check(value)
        if problem:
            raise BadInput(f"data item {self.name}={text_of(value)}: {problem}")
        return value


def text_of(value: Any) -> str:
    """How a value reads in labels and cell names: `2,4,6,8`, `12`, or compact JSON."""
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        return ",".join(map(str, value))
    if isinstance(value, int | str):
        return str(value)
    return json.dumps(value, separators=(",", ":"))


def table_key(name: str) -> tuple[Callable, Callable]:
    """`get`/`put` of an item that is one key of the data table, copied both ways."""
    return (lambda d: copy.deepcopy(d[name]),
            lambda d, v: d.__setitem__(name, copy.deepcopy(v)))


def ints_check(width: int | None = None, low: int = 0, *, high: int, total_min: int = 1,
               distinct: bool = False) -> Callable[[Any], str | None]:
    """`check` of a list-of-ints item: length, bounds of each entry, least total,
    distinctness."""
    def check(value: list[int]) -> str | None:
        if width is not None and len(value) != width:
            return f"needs {width} entries, got {len(value)}"
        if any(v < low for v in value):
            return f"every entry must be >= {low}"
        if any(v > high for v in value):
            return f"every entry must be at most {high}"
        if sum(value) < total_min:
            return f"the entries must add up to at least {total_min}"
        if distinct and len(set(value)) != len(value):
            return "entries must be distinct"
        return None
    return check


def range_check(low: int, high: int) -> Callable[[Any], str | None]:
    """`check` of an integer item that must lie in low..high."""
    return lambda v: None if low <= v <= high else f"must be {low}..{high}"


def checked_by_builder(value: Any) -> str | None:
    """`check` of an item whose every number the game's builder already bounds (Ninjato's
    guards: value 1-5, alarm 0 or 1), so the builder's message is the one the user reads."""
    return None


def numbers_check(high: int, low: int = 0) -> Callable[[Any], str | None]:
    """`check` of a table item (`json`): every number in it, at any depth, in low..high (the
    counts, values and indices of a data table; the game's builder checks the rest)."""
    def check(value: Any) -> str | None:
        for number in _numbers(value):
            if not low <= number <= high:
                return f"every number in it must be {low}..{high}, got {number}"
        return None
    return check


def _numbers(value: Any) -> list[int | float]:
    if isinstance(value, dict):
        return [n for v in value.values() for n in _numbers(v)]
    if isinstance(value, list | tuple):
        return [n for v in value for n in _numbers(v)]
    return [value] if isinstance(value, int | float) else []


@dataclass(frozen=True)
class DataSet:
    """A game's replaceable data: defaults, items, and the loader that builds it."""

    default_data: Mapping[str, Any]
    items: tuple[Item, ...]
    label_key: str  # the data key holding the data set's name
    official_label: str

    def item(self, name: str, game: str) -> Item:
        for item in self.items:
            if item.name == name:
                return item
        known = ", ".join(i.name for i in self.items)
        raise BadInput(f"unknown data item {name!r} for {game}; known items: {known}")


def dataset_of(game: str) -> DataSet | None:
    """The game's replaceable data set (`Game.replaceable_data`, defined in the game's own
    folder), or None for games whose components are all official."""
    from engines import GAMES  # engines imports the game packages, which import this module

    registered = GAMES.get(game)
    return None if registered is None else registered.replaceable_data


def split(source: str) -> tuple[str, dict[str, Any]]:
    """(file path or '', {item: value}) of a `components` rule value."""
    if not source.startswith(INLINE):
        return source, {}
    try:
        spec = json.loads(source[len(INLINE):])
        return str(spec.get("file", "")), dict(spec.get("set", {}))
    except (ValueError, AttributeError):
        raise BadInput(f"components value {source!r} is not a valid inline data set") from None


def fold(game: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """Rule options with every `components.ITEM` key folded into the `components` option.

    Unknown items, values of the wrong shape and values the engine cannot play raise one
    ValueError (the CLI's `error:` line) before anything is written.
    """
    dotted = {k[len(PREFIX):]: v for k, v in options.items() if k.startswith(PREFIX)}
    if not dotted:
        return dict(options)
    data_set = dataset_of(game)
    if data_set is None:
        raise BadInput(f"{game} uses only official component data: there is no data item "
                         f"{next(iter(dotted))!r} to set")
    path, changes = split(str(options.get("components", "")))
    for name, raw in dotted.items():
        changes[name] = data_set.item(name, game).parse(raw)
    folded = {k: v for k, v in options.items() if not k.startswith(PREFIX)}
    folded["components"] = INLINE + json.dumps({"file": path, "set": changes},
                                               sort_keys=True, separators=(",", ":"))
    what = ", ".join(f"{k}={text_of(v) if not isinstance(v, str) else v}"
                     for k, v in dotted.items())
    check_playable(game, folded, f"data {what}")
    return folded


#: (game, data set label) pairs already played through by `check_playable`.
_PLAYABLE: set[tuple[str, str]] = set()


def check_playable(game_name: str, options: Mapping[str, Any], what: str) -> None:
    """Build the data set and play one random game per player count: a value the engine
    cannot play (a deck too small to deal, an envoy of a clan that does not exist ...) fails
    here with one `BadInput` naming `what`, not in a worker.  The same check serves
    `--rule components.ITEM=VALUE` and a components file."""
    from engines import get_game, play_game
    from engines.bots import make_bot

    game = get_game(game_name)
    try:
        rules = game.make_rules(**options)
        key = (game_name, str(game.dataset(rules)))  # the label names the content
        if key in _PLAYABLE:
            return
        bot = make_bot("random", game)
        for players in range(game.min_players, game.max_players + 1):
            play_game(game, [bot] * players, 1, players, options)
    except ValueError as exc:
        message = str(exc).replace("components file ", "data set ")
        raise BadInput(message if message.startswith(("data item", "data set"))
                       else f"{what}: {message}") from None
    except (IndexError, KeyError, TypeError, ZeroDivisionError, AssertionError,
            RecursionError, AttributeError, OverflowError) as exc:
        raise BadInput(f"{what}: the engine cannot play this data set "
                       f"({type(exc).__name__}: {exc})") from None
    if len(_PLAYABLE) >= 256:
        _PLAYABLE.clear()
    _PLAYABLE.add(key)


def check_items(game: str, path: str, data: dict[str, Any], keys: Collection[str]) -> None:
    """Give every item a components file sets (directly, or through the table key it is
    derived from) the check `--rule components.ITEM=VALUE` gives it: the same types, ranges
    and refusals whichever way a value comes in."""
    data_set = dataset_of(game)
    assert data_set is not None
    for item in data_set.items:
        if (item.key or item.name) not in keys:
            continue
        try:
            value = item.get(data)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError):
            continue  # a misshapen table: the game's builder names what is wrong with it
        try:
            item.parse(value)
        except BadInput as exc:
            raise BadInput(f"components file {path}: {exc}") from None


def resolve(game: str, source: str) -> tuple[dict[str, Any], str]:
    """The one component loader: (full data table, label) of a `components` rule value.

    The value is '' (the shipped data set), a TOML/JSON file path, or an inline source
    (`fold`: a file or the defaults with items set).  The table is the defaults updated by the
    file, then the set items; its label key holds the label.  A file's label is its own data
    set name (the label key, if the file sets it; else `file:PATH`) followed by `#` and the
    first 8 hex digits of the SHA-256 of its bytes, so an edited file is a new label in every
    manifest; set items follow as `+ITEM=VALUE`.
    """
    data_set = dataset_of(game)
    assert data_set is not None
    path, changes = split(source)
    data = copy.deepcopy(dict(data_set.default_data))
    if path:
        raw = component_file.read(path)
        read = component_file.parse(path, raw, data_set.default_data)
        data.update(read)
        check_items(game, path, data, read)
        name = read.get(data_set.label_key)
        base = (str(name) if name else f"file:{path}") + "#" + \
            hashlib.sha256(raw).hexdigest()[:8]
    else:
        base = data_set.official_label
    for name in sorted(changes):
        try:
            data_set.item(name, game).put(data, changes[name])
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            raise BadInput(f"data item {name}={text_of(changes[name])}: {exc}") from None
    label = base + "".join(f"+{name}={text_of(changes[name])}" for name in sorted(changes))
    data[data_set.label_key] = label
    return data, label


#: Built data sets by (game, label, build options): the label names the content (a file's
#: label holds its hash), so an edited file is built afresh and an unchanged one only once.
_BUILT: dict[tuple, Any] = {}


def load(game: str, source: str, build: Callable[..., T], *options: Any) -> T:
    """The game's components for a `components` rule value: `resolve`, then
    `build(data, label, *options)` (the game's validating constructor), cached by content.
    What `build` raises on a misshapen table becomes one ValueError naming the source."""
    data, label = resolve(game, source)
    key = (game, label, options)
    built = _BUILT.get(key)
    if built is None:
        if len(_BUILT) >= 64:
            _BUILT.clear()
        with component_file.wrong_shape(split(source)[0] or label):
            built = _BUILT[key] = build(data, label, *options)
    return built


def full_data(game: str, source: str) -> dict[str, Any] | None:
    """The whole data table a `components` rule value stands for (None: official data)."""
    if dataset_of(game) is None:
        return None
    return resolve(game, source)[0]


def provenance_of(data_set: DataSet, key: str) -> tuple[str, str]:
    """(provenance, source) of a data-table key, from the item that is that key."""
    for item in data_set.items:
        if item.name == key:
            return item.provenance, item.source
    return "", ""


def to_toml(game: str, source: str = "") -> str:
    """The data set as the TOML its loader reads, each key preceded by its provenance."""
    data_set = dataset_of(game)
    if data_set is None:
        raise BadInput(f"{game} uses only official component data")
    data = full_data(game, source)
    assert data is not None
    lines = [f"# Component data set of {game}, as `--rule components=FILE` reads it.",
             "# Edit any value; a key left out keeps the shipped default.",
             "# Provenance per item: CONFIRMED (a source states it), INFERRED (our reading),",
             "# GUESS (no source).  Derived items you can also set with --rule components.ITEM:"]
    for item in data_set.items:
        if item.key:
            lines.append(f"#   {item.name} = {text_of(item.get(data))}  [{item.provenance}] "
                         f"{item.source}")
    lines.append("")
    for key, value in data.items():
        provenance, source_note = provenance_of(data_set, key)
        if provenance:
            lines.append(f"# {provenance}: {source_note}")
        lines.append(f"{key} = {_toml_value(value, top=True)}")
        lines.append("")
    return "\n".join(lines)


def _toml_value(value: Any, top: bool = False) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {_toml_value(v)}"
                               for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        if top and any(isinstance(v, dict | list) for v in value) and len(value) > 4:
            per_line = 8 if all(isinstance(v, list) for v in value) else 1
            rows = [value[i:i + per_line] for i in range(0, len(value), per_line)]
            return "[\n" + "".join("  " + " ".join(f"{_toml_value(v)}," for v in row) + "\n"
                                   for row in rows) + "]"
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def items_table(game: str) -> list[dict[str, Any]]:
    """Every item of the game's data set with its shipped value, provenance and alternatives."""
    data_set = dataset_of(game)
    if data_set is None:
        return []
    data = copy.deepcopy(dict(data_set.default_data))
    return [{"item": i.name, "provenance": i.provenance, "value": text_of(i.get(data)),
             "plausible": [text_of(v) for v in i.plausible], "source": i.source}
            for i in data_set.items]

