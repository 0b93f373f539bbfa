"""Component data sets as things a user can read and vary: named items with provenance.

Two games run on reconstructed data (Ninjato, Time Pirates).  This module names the items of
their data sets that a user may want to change (`ITEMS`), each with its provenance
(CONFIRMED / INFERRED / GUESS, from ../shared/rules/*.md) and the plausible alternatives the
rules files name (or one step either side), and lets a rule key set one item without writing
a file: `--rule components.token_values=2,4,6,8`.

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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from engines import component_file

INLINE = "data:"
PREFIX = "components."
PROVENANCES = ("CONFIRMED", "INFERRED", "GUESS")
T = TypeVar("T")


@dataclass(frozen=True)
class Item:
    """One addressable piece of a data set.

    `get`/`put` read and write it in the plain data table (a derived item such as
    `alarm_guards` rewrites the table it lives in); `kind` is how a rule value is read:
    `int`, `ints` (comma-separated) or `json`; `check` refuses values the engine cannot play;
    `plausible` are the alternatives the rules file names, for sensitivity studies.
    """

    name: str
    provenance: str
    source: str
    kind: str
    get: Callable[[dict], Any]
    put: Callable[[dict, Any], None]
    check: Callable[[Any], str | None] = lambda value: None
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
                raise ValueError(f"data item {self.name!r} expects {want}, got {raw!r}") \
                    from None
        if self.kind == "int" and (not isinstance(value, int) or isinstance(value, bool)):
            raise ValueError(f"data item {self.name!r} expects an integer, got {raw!r}")
        if self.kind == "ints" and (not isinstance(value, list) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value)):
            raise ValueError(f"data item {self.name!r} expects a list of integers, got {raw!r}")
        problem = self.check(value)
        if problem:
            raise ValueError(f"data item {self.name}={text_of(value)}: {problem}")
        return value


def text_of(value: Any) -> str:
    """How a value reads in labels and cell names: `2,4,6,8`, `12`, or compact JSON."""
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        return ",".join(map(str, value))
    if isinstance(value, int | str):
        return str(value)
    return json.dumps(value, separators=(",", ":"))


def _key(name: str) -> tuple[Callable, Callable]:
    return (lambda d: copy.deepcopy(d[name]),
            lambda d, v: d.__setitem__(name, copy.deepcopy(v)))


def _ints(width: int | None = None, low: int = 0, total_min: int = 1,
          distinct: bool = False) -> Callable[[Any], str | None]:
    def check(value: list[int]) -> str | None:
        if width is not None and len(value) != width:
            return f"needs {width} entries, got {len(value)}"
        if any(v < low for v in value):
            return f"every entry must be >= {low}"
        if sum(value) < total_min:
            return f"the entries must add up to at least {total_min}"
        if distinct and len(set(value)) != len(value):
            return "entries must be distinct"
        return None
    return check


def _between(low: int, high: int) -> Callable[[Any], str | None]:
    return lambda v: None if low <= v <= high else f"must be {low}..{high}"


# --- Ninjato --------------------------------------------------------------------------------

def _guards_per_value(d: dict) -> int:
    return len(d["guards"]) // 5


def _alarms(d: dict) -> int:
    return sum(int(g[1]) for g in d["guards"])


def _guard_table(per_value: int, alarms: int) -> list[list[int]]:
    """`per_value` guards of each value 1-5; alarms spread evenly, extra ones on low values."""
    if alarms > 5 * per_value:
        raise ValueError(f"{alarms} alarm guards but only {5 * per_value} guards")
    table = []
    for v in range(1, 6):
        marked = alarms // 5 + (1 if v - 1 < alarms % 5 else 0)
        table += [[v, 1 if k < marked else 0] for k in range(per_value)]
    return table


def _set_guards_per_value(d: dict, n: int) -> None:
    d["guards"] = _guard_table(n, _alarms(d))


def _set_alarms(d: dict, n: int) -> None:
    d["guards"] = _guard_table(_guards_per_value(d), n)


def _rumour_points_item(index: int) -> tuple[Callable, Callable]:
    def put(d: dict, v: int) -> None:
        points = list(d["rumour_points"])
        points[index] = v
        d["rumour_points"] = points
    return (lambda d: int(d["rumour_points"][index])), put


def _round7(d: dict) -> list[int]:
    return list(d["round_orders"]["7"])


def _set_round7(d: dict, order: list[int]) -> None:
    d["round_orders"] = {**d["round_orders"], "7": list(order)}


def _multi_honour(d: dict) -> int:
    return max(int(e["honour"]) for e in d["elites"])


def _set_multi_honour(d: dict, honour: int) -> None:
    """Honour of the split and double elites (the single-value ones keep theirs)."""
    d["elites"] = [{**e, "honour": honour if len(e["force"]) > 1 or e["force"] != e["stealth"]
                    else e["honour"]} for e in d["elites"]]


def _token_check(values: list[int]) -> str | None:
    if not 3 <= len(values) <= 5:
        return f"needs 3-5 values per clan (the engine's token actions), got {len(values)}"
    if any(v < 0 for v in values) or len(set(values)) != len(values):
        return "values must be distinct and >= 0"
    if not {2, 4, 6} <= set(values):
        return "the setup tokens 2, 4 and 6 must be among the values (CONFIRMED setup)"
    return None


def _order_check(order: list[int]) -> str | None:
    return None if sorted(order) == [0, 1, 2] else "must list the clans 0, 1, 2 once each"


NINJATO_ITEMS: tuple[Item, ...] = (
    Item("treasure_values", "CONFIRMED", "ninjato.md 1.5 (derived from SEED examples)", "ints",
         *_key("treasure_values"), _ints(4, low=1)),
    Item("treasure_counts", "GUESS", "ninjato.md 1.5: alternatives A 18x5, B 20x4+10 gold",
         "ints", *_key("treasure_counts"), _ints(5, total_min=30),
         plausible=([18, 18, 18, 18, 18],)),
    Item("treasure_counts_alt_a", "GUESS", "ninjato.md 1.5 (used with treasure_mix=A)", "ints",
         *_key("treasure_counts_alt_a"), _ints(5, total_min=30)),
    Item("dojo_counts", "GUESS", "ninjato.md 1.2: 10/10/12 Ki/10/10, alternative 11/10/10/10/11",
         "ints", *_key("dojo_counts"), _ints(5, total_min=24),
         plausible=([11, 10, 10, 10, 11],)),
    Item("guards_per_value", "GUESS", "ninjato.md 1.3: 8 of each value 1-5", "int",
         _guards_per_value, _set_guards_per_value, _between(2, 20), plausible=(7, 9),
         key="guards"),
    Item("alarm_guards", "GUESS", "ninjato.md 1.3: 10 alarms, 2 per value (configurable)",
         "int", _alarms, _set_alarms, _between(0, 100), plausible=(5, 15), key="guards"),
    Item("guards", "GUESS", "ninjato.md 1.3 ([value, alarm] per card)", "json", *_key("guards")),
    Item("elites", "GUESS", "ninjato.md 1.4 (the kinds are CONFIRMED)", "json",
         *_key("elites")),
    Item("multi_elite_honour", "GUESS",
         "ninjato.md 1.4: split and double elites worth 2 honour (rule of thumb)", "int",
         _multi_honour, _set_multi_honour, _between(0, 10), plausible=(1, 3), key="elites"),
    Item("token_values", "GUESS", "ninjato.md 1.6: 2,4,6,8 CONFIRMED, the fifth (10) a GUESS",
         "ints", *_key("token_values"), _token_check, plausible=([2, 4, 6, 8, 12],
                                                                 [2, 4, 6, 8])),
    Item("setup_tokens", "CONFIRMED", "ninjato.md 1.6 (UH, SEED)", "json",
         *_key("setup_tokens")),
    Item("skills", "GUESS", "ninjato.md 1.7: effects CONFIRMED; copies, schools, costs GUESS",
         "json", *_key("skills")),
    Item("envoys", "GUESS", "ninjato.md 1.8: 7 per clan, generated", "json", *_key("envoys")),
    Item("rumours", "GUESS", "ninjato.md 1.9: 6 per type, costs guessed", "json",
         *_key("rumours")),
    Item("rumour_points", "GUESS",
         "ninjato.md 1.9: Kindness and Master 1 DERIVED; Swordsman, Friends 1 GUESS", "ints",
         *_key("rumour_points"), _ints(5, total_min=0)),
    Item("swordsman_points", "GUESS", "ninjato.md 1.9: Greatest Swordsman 1 (maybe 2)", "int",
         *_rumour_points_item(0), _between(0, 10), plausible=(2,), key="rumour_points"),
    Item("friends_points", "GUESS", "ninjato.md 1.9: Powerful Friends 1", "int",
         *_rumour_points_item(2), _between(0, 10), plausible=(0, 2), key="rumour_points"),
    Item("shameful_points", "CONFIRMED", "ninjato.md 3.8: 6 / 4 / 2", "ints",
         *_key("shameful_points"), _ints(3, total_min=0)),
    Item("set_multipliers", "CONFIRMED", "ninjato.md 1.9 (DERIVED from SEED examples)", "ints",
         *_key("set_multipliers"), _ints(3, total_min=0)),
    Item("round_orders", "GUESS", "ninjato.md 1.10: R3 CONFIRMED, R5 INFERRED, R7 GUESS",
         "json", *_key("round_orders")),
    Item("round7_order", "GUESS", "ninjato.md 1.10: M, G, T continues the rotation", "ints",
         _round7, _set_round7, _order_check, plausible=([2, 0, 1],), key="round_orders"),
)

# --- Time Pirates ---------------------------------------------------------------------------


def _spaces(d: dict) -> list[int]:
    return [int(e["spaces"]) for e in d["epochs"]]


def _set_spaces(d: dict, spaces: list[int]) -> None:
    if len(spaces) != len(d["epochs"]):
        raise ValueError(f"needs {len(d['epochs'])} entries (one per epoch), got {len(spaces)}")
    d["epochs"] = [{**e, "spaces": s} for e, s in zip(d["epochs"], spaces)]


def _lines(d: dict) -> list[list[int]]:
    return [[int(e["line1"]), int(e["line2"])] for e in d["epochs"]]


def _set_lines(d: dict, lines: list[list[int]]) -> None:
    if len(lines) != len(d["epochs"]) or not all(
            isinstance(p, list) and len(p) == 2 for p in lines):
        raise ValueError(f"needs one [line1, line2] pair per epoch ({len(d['epochs'])})")
    d["epochs"] = [{**e, "line1": a, "line2": b} for e, (a, b) in zip(d["epochs"], lines)]


_SHIPPED_SPACES = [4, 5, 6, 7, 5, 6, 3]

TIME_PIRATES_ITEMS: tuple[Item, ...] = (
    Item("epochs", "INFERRED", "time_pirates.md 1d (no source for the board)", "json",
         *_key("epochs")),
    Item("epoch_spaces", "INFERRED", "time_pirates.md 1d: 3..7 per epoch (T3), 36 in all",
         "ints", _spaces, _set_spaces, _ints(low=1),
         plausible=([min(7, s + 1) for s in _SHIPPED_SPACES],
                    [max(3, s - 1) for s in _SHIPPED_SPACES]), key="epochs"),
    Item("time_lines", "INFERRED", "time_pirates.md 1d: two lines out of each epoch", "json",
         _lines, _set_lines,
         plausible=([[1, 3], [2, 4], [3, 4], [4, 6], [5, 0], [6, 3], [0, 2]],),
         key="epochs"),
    Item("patrol_start", "CONFIRMED", "time_pirates.md 1d (T1, T2)", "int",
         *_key("patrol_start")),
    Item("artifacts_per_colour", "CONFIRMED",
         "time_pirates.md T2 (no token with both symbols: INFERRED)", "json",
         *_key("artifacts_per_colour")),
    Item("white_artifacts", "CONFIRMED", "time_pirates.md T2", "int", *_key("white_artifacts"),
         _between(0, 100)),
    Item("police_tokens", "CONFIRMED", "time_pirates.md T1", "json", *_key("police_tokens")),
    Item("coloured_deeds", "CONFIRMED", "time_pirates.md T1", "json", *_key("coloured_deeds")),
    Item("white_deeds", "CONFIRMED", "time_pirates.md T1", "json", *_key("white_deeds")),
    Item("police_per_year", "CONFIRMED", "time_pirates.md T1: the 8th draw ends the year",
         "int", *_key("police_per_year"), _between(1, 100)),
    Item("years", "CONFIRMED", "time_pirates.md T1", "int", *_key("years"), _between(1, 20)),
)


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
        raise ValueError(f"unknown data item {name!r} for {game}; known items: {known}")


def dataset_of(game: str) -> DataSet | None:
    """The game's replaceable data set, or None for games whose components are all official."""
    if game == "ninjato":
        from engines.ninjato import components as nc
        return DataSet(nc.DEFAULT_DATA, NINJATO_ITEMS, "dataset", nc.DATASET)
    if game == "time-pirates":
        from engines.time_pirates import components as tc
        return DataSet(tc.DEFAULT_DATA, TIME_PIRATES_ITEMS, "name", tc.DATASET)
    return None


def split(source: str) -> tuple[str, dict[str, Any]]:
    """(file path or '', {item: value}) of a `components` rule value."""
    if not source.startswith(INLINE):
        return source, {}
    try:
        spec = json.loads(source[len(INLINE):])
        return str(spec.get("file", "")), dict(spec.get("set", {}))
    except (ValueError, AttributeError):
        raise ValueError(f"components value {source!r} is not a valid inline data set") from None


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
        raise ValueError(f"{game} uses only official component data: there is no data item "
                         f"{next(iter(dotted))!r} to set")
    path, changes = split(str(options.get("components", "")))
    for name, raw in dotted.items():
        changes[name] = data_set.item(name, game).parse(raw)
    folded = {k: v for k, v in options.items() if not k.startswith(PREFIX)}
    folded["components"] = INLINE + json.dumps({"file": path, "set": changes},
                                               sort_keys=True, separators=(",", ":"))
    _check_playable(game, folded, dotted)
    return folded


def _check_playable(game_name: str, options: Mapping[str, Any], dotted: Mapping) -> None:
    """Build the data set and play one random game per player count: a value the engine
    cannot play (a deck too small to deal ...) fails here, not in a worker."""
    from engines import get_game, play_game
    from engines.bots import make_bot

    game = get_game(game_name)
    what = ", ".join(f"{k}={text_of(v) if not isinstance(v, str) else v}"
                     for k, v in dotted.items())
    try:
        rules = game.make_rules(**options)
        game.dataset(rules)
        bot = make_bot("random", game)
        for players in range(game.min_players, game.max_players + 1):
            play_game(game, [bot] * players, 1, players, options)
    except ValueError as exc:
        message = str(exc).replace("components file ", "data set ")
        raise ValueError(message if message.startswith("data item")
                         else f"data {what}: {message}") from None
    except (IndexError, KeyError, TypeError, ZeroDivisionError, AssertionError,
            RecursionError, AttributeError) as exc:
        raise ValueError(f"data {what}: the engine cannot play this data set "
                         f"({type(exc).__name__}: {exc})") from None


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
        name = read.get(data_set.label_key)
        base = (str(name) if name else f"file:{path}") + "#" + \
            hashlib.sha256(raw).hexdigest()[:8]
    else:
        base = data_set.official_label
    for name in sorted(changes):
        try:
            data_set.item(name, game).put(data, changes[name])
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            raise ValueError(f"data item {name}={text_of(changes[name])}: {exc}") from None
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
        raise ValueError(f"{game} uses only official component data")
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

