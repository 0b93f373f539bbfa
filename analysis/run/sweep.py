"""Paired sweeps: the same deals played under several settings of rules or component data.

Every cell of a sweep is an ordinary run (its own directory, manifest and Parquet parts,
readable with `load_run`) with the **same run seed**, so game *i* of every cell is dealt
from the same game seed (common random numbers).  A difference between two cells is then
measured game by game, and its interval is narrower than that of two independent runs of
the same size (`Effect.se_independent` is what the independent runs would give).

Each statistic is written as a mean of one value per game (its influence value), so a
paired difference is the mean of per-game differences:

- `first_edge`: seat 1's win share minus the fair share;
- `seat_spread`: highest minus lowest seat win share (the per-game value is the difference
  of the two seats' wins, the seats being those of the cell's highest and lowest share);
- `share:SOURCE`: the source's share of all points counted absolute
  (`balance.absolute_points`), Σa/Σt (delta method: (a − r t) / mean t);
- `length`: decisions per game; `tie_rate`: games with a shared win.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd

from analysis.results import store
from analysis.run import tables, tournament
from analysis.run.study import MAX_CELLS, MAX_VALUES, StudySpec, check_count, check_total
from analysis.stats import balance, verdicts
from engines import datasets, get_game
from engines.errors import BadInput

DESIGNS = ("one-at-a-time", "grid")
SWEEP_FILE = "sweep.json"
#: Statistics measured in shares (effects read in points); `length` reads in decisions.
SHARE_STATS = ("first_edge", "seat_spread", "tie_rate")
#: A headline conclusion about game length changes when the mean moves by this much.
LENGTH_TOLERANCE = 0.10


# --------------------------------------------------------------------------------------------
# What to vary
# --------------------------------------------------------------------------------------------


def _item(game: str, key: str) -> datasets.Item | None:
    if not key.startswith(datasets.PREFIX):
        return None
    data_set = datasets.dataset_of(game)
    if data_set is None:
        raise BadInput(f"{game} uses only official component data: there is no data item "
                         f"{key[len(datasets.PREFIX):]!r} to vary")
    return data_set.item(key[len(datasets.PREFIX):], game)


def parse_values(game: str, key: str, text: str) -> tuple[Any, ...]:
    """`v1,v2,...`, an integer range `lo..hi` (or `lo..hi:step`), or for a data item that is
    itself a list, values separated by `;` (`2,4,6,8;2,4,6,8,10`)."""
    item = _item(game, key)
    text = text.strip()
    if ".." in text and item is None or (item is not None and item.kind == "int" and ".." in text):
        low, _, rest = text.partition("..")
        high, _, step = rest.partition(":")
        try:
            lo, hi, st = int(low), int(high), int(step or 1)
        except ValueError:
            raise BadInput(f"--vary {key}: a range is lo..hi or lo..hi:step with integers, "
                             f"got {text!r}") from None
        if st <= 0 or hi < lo:
            raise BadInput(f"--vary {key}: empty range {text!r}")
        check_count((hi - lo) // st + 1, MAX_VALUES, f"--vary {key}={text} lists too many values")
        return tuple(str(v) for v in range(lo, hi + 1, st))
    separator = ";" if item is not None and item.kind != "int" else ","
    values = tuple(v.strip() for v in text.split(separator) if v.strip())
    if not values:
        raise BadInput(f"--vary {key} needs at least one value")
    if len(set(values)) != len(values):
        raise BadInput(f"--vary {key} lists a value twice")
    return values


def parse_vary(game: str, pairs: Sequence[str]) -> tuple[tuple[str, tuple[Any, ...]], ...]:
    """`--vary KEY=VALUES` options as ((key, values), ...)."""
    out = []
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key.strip():
            raise BadInput(f"--vary expects KEY=v1,v2,..., got {pair!r}")
        out.append((key.strip(), parse_values(game, key.strip(), text)))
    keys = [k for k, _ in out]
    if len(set(keys)) != len(keys):
        raise BadInput("--vary names a key twice")
    if not out:
        raise BadInput("give at least one --vary KEY=v1,v2,...")
    return tuple(out)


def canonical(game: str, key: str, value: Any) -> str:
    """A value as it reads in columns and cell names (`2,4,6,8`, `12`, `free`)."""
    item = _item(game, key)
    if item is not None:
        return datasets.text_of(item.parse(value))
    return str(value).lower() if isinstance(value, bool) else str(value)


def base_value(game_name: str, rules: dict[str, Any], key: str) -> str:
    """The value `key` has under the base rules (the shipped data set for data items)."""
    game = get_game(game_name)
    made = game.make_rules(**rules)
    item = _item(game_name, key)
    if item is not None:
        data = datasets.full_data(game_name, getattr(made, "components", ""))
        return datasets.text_of(item.get(data))
    if not hasattr(made, key):
        game.make_rules(**{**rules, key: ""})  # raises the usual unknown-option error
    return canonical(game_name, key, getattr(made, key))


# --------------------------------------------------------------------------------------------
# The sweep and its cells
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """One setting of the varied keys; `settings` maps each varied key to its value text."""

    name: str
    settings: dict[str, str]
    rules: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class SweepSpec(StudySpec):
    """A paired sweep: `vary` = ((key, values), ...); every cell plays the same deals."""

    vary: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    design: str = "one-at-a-time"
    chunk_size: int = 0

    def base(self) -> dict[str, str]:
        return {key: base_value(self.game, self.rules, key) for key, _ in self.vary}

    def cells(self) -> list[Cell]:
        """Grid: every combination.  One at a time: the base setting, then each other value
        of one key with the rest at their base values."""
        if self.design not in DESIGNS:
            raise BadInput(f"design must be one of {', '.join(DESIGNS)}, got {self.design!r}")
        texts = {key: [canonical(self.game, key, v) for v in values]
                 for key, values in self.vary}
        raw = {key: dict(zip(texts[key], values)) for key, values in self.vary}
        base = self.base()
        if self.design == "grid":
            check_count(math.prod(len(v) for v in texts.values()), MAX_CELLS,
                        "the grid of the --vary values has too many cells (settings)")
            combos = [dict(zip(texts, combo)) for combo in itertools.product(*texts.values())]
        else:
            combos = [dict(base)]
            for key in texts:
                combos += [{**base, key: v} for v in texts[key] if v != base[key]]
        cells = []
        for combo in combos:
            changed = {k: v for k, v in combo.items() if v != base[k]}
            name = "base" if not changed else "+".join(f"{k}={v}" for k, v in changed.items())
            rules = dict(self.rules)
            for key, text in changed.items():
                rules[key] = raw[key].get(text, text)
            cells.append(Cell(_slug(name), combo, rules))
        return cells

    def run_spec(self, cell: Cell) -> tournament.RunSpec:
        return tournament.RunSpec(game=self.game, players=self.players, games=self.games,
                                  bots=self.bots, seed=self.seed, rules=dict(cell.rules),
                                  chunk_size=self.chunk_size)

    def to_json(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["vary"] = [[k, list(v)] for k, v in self.vary]
        out["bots"] = list(self.bots)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SweepSpec:
        try:
            return cls(game=data["game"], players=int(data["players"]),
                       games=int(data["games"]), bots=tuple(data["bots"]),
                       seed=int(data["seed"]),
                       vary=tuple((k, tuple(v)) for k, v in data["vary"]),
                       design=data.get("design", "one-at-a-time"),
                       rules=dict(data.get("rules", {})),
                       chunk_size=int(data.get("chunk_size", 0)))
        except (KeyError, TypeError, ValueError) as exc:
            raise store.RunError(f"{SWEEP_FILE} lacks a valid field: {exc}") from None


def _slug(text: str) -> str:
    text = "".join(ch for ch in text if ch not in "[]{}\"' ")
    keep = "".join(ch if ch.isalnum() or ch in "-_.=+," else "-" for ch in text)
    return keep[:120] or "base"


def validated_cells(spec: SweepSpec) -> list[tuple[Cell, tournament.RunSpec]]:
    """Every cell with its validated run spec: any bad value fails here, before any output."""
    cells = spec.cells()
    if len(cells) < 2:
        raise BadInput("--vary gives only one setting (the base); list at least one other "
                         "value to compare with")
    check_total(spec.games * len(cells), f"--games over {len(cells)} cells")
    return [(cell, spec.run_spec(cell).validated()) for cell in cells]


def check_out_dir(spec: SweepSpec, out: Path) -> bool:
    """A sweep directory must be new, empty, or hold this very sweep (to resume it);
    returns whether it holds it."""
    return store.check_study_dir(out, SWEEP_FILE, spec.to_json(), "sweep",
                          lambda data: SweepSpec.from_json(data).to_json())


def run_sweep(spec: SweepSpec, out_dir: str | Path, jobs: int = 1,
              progress: Callable[[int], None] | None = None, backend: str = "loky",
              scheduler: str | None = None,
              announce: Callable[[str], None] | None = None) -> pd.DataFrame:
    """Play (or finish) every cell under `out_dir`; returns the combined frame."""
    planned = validated_cells(spec)
    out = Path(out_dir)
    if not check_out_dir(spec, out):
        store.write_study_record(out, SWEEP_FILE, spec.to_json())
    for cell, run_spec in planned:
        if announce is not None:
            announce(f"cell {cell.name}")
        tournament.run_or_resume(run_spec, out / cell.name, jobs, progress, backend, scheduler)
    return load_sweep(out)[1]


def resume_sweep(out_dir: str | Path, jobs: int = 1,
                 progress: Callable[[int], None] | None = None, backend: str = "loky",
                 scheduler: str | None = None) -> tuple[SweepSpec, pd.DataFrame]:
    spec = read_spec(out_dir)
    return spec, run_sweep(spec, out_dir, jobs, progress, backend, scheduler)


def read_spec(out_dir: str | Path) -> SweepSpec:
    path = Path(out_dir) / SWEEP_FILE
    if not path.is_file():
        raise store.RunError(f"{out_dir} is not a sweep directory (no {SWEEP_FILE})")
    try:
        return SweepSpec.from_json(json.loads(path.read_text()))
    except json.JSONDecodeError as exc:
        raise store.RunError(f"{path} is corrupt: {exc}") from None


def load_sweep(out_dir: str | Path) -> tuple[SweepSpec, pd.DataFrame]:
    """The sweep's spec and all its cells in one frame, with one column per varied key
    (the value text) and a `cell` column."""
    spec = read_spec(out_dir)
    frames = []
    for cell in spec.cells():
        frame = store.load_run(Path(out_dir) / cell.name)
        frame["cell"] = cell.name
        for key, text in cell.settings.items():
            frame[key] = text
        frames.append(frame)
    return spec, pd.concat(frames, ignore_index=True)


# --------------------------------------------------------------------------------------------
# Paired statistics
# --------------------------------------------------------------------------------------------


def game_table(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per game (indexed by game seed): each seat's win, points per source and
    total points (counted absolute: `balance.absolute_points`), decisions and whether the
    win was shared."""
    wins = frame.pivot_table(index="seed", columns="seat", values="win_share", aggfunc="sum")
    wins.columns = [f"win_{int(s)}" for s in wins.columns]
    grouped = frame.groupby("seed")
    table = wins.join(grouped["decisions"].first().rename("length"))
    table["players"] = grouped["players"].first()
    table["tie"] = grouped["win_share"].apply(lambda w: float((w > 0).sum() > 1))
    sources = balance.source_columns(frame)
    sizes = balance.absolute_points(frame, sources).groupby("seed")
    for column in sources:
        table[column] = sizes[column].sum()
    table["points"] = table[sources].sum(axis=1) if sources else grouped["score"].sum()
    return table.sort_index()


def influence(table: pd.DataFrame) -> dict[str, tuple[float, np.ndarray]]:
    """Statistic -> (estimate, per-game influence values whose mean is the estimate)."""
    n = int(table["players"].iloc[0])
    seats = [f"win_{s}" for s in range(n)]
    out: dict[str, tuple[float, np.ndarray]] = {}
    first = table["win_0"].to_numpy() - 1.0 / n
    out["first_edge"] = (float(first.mean()), first)
    shares = table[seats].mean().to_numpy()
    top, bottom = seats[int(np.argmax(shares))], seats[int(np.argmin(shares))]
    spread = (table[top] - table[bottom]).to_numpy()
    out["seat_spread"] = (float(spread.mean()), spread)
    total = table["points"].to_numpy(dtype=float)
    mean_total = total.mean()
    for column in (c for c in table.columns if c.startswith("pts_")):
        points = table[column].to_numpy(dtype=float)
        ratio = points.sum() / total.sum() if total.sum() else float("nan")
        values = (points - ratio * total) / mean_total + ratio if mean_total else points * 0
        out[f"share:{column[4:]}"] = (float(ratio), values)
    length = table["length"].to_numpy(dtype=float)
    out["length"] = (float(length.mean()), length)
    tie = table["tie"].to_numpy(dtype=float)
    out["tie_rate"] = (float(tie.mean()), tie)
    return out


def paired_difference(reference: pd.DataFrame, other: pd.DataFrame,
                      confidence: float = 0.95) -> pd.DataFrame:
    """Effect of `other` against `reference` per statistic, paired by game seed, with the
    paired interval and the standard error two independent runs of this size would give."""
    if not reference.index.equals(other.index):  # the runner pairs them: a bug, not a typo
        raise RuntimeError("paired cells must have played the same game seeds")
    return _effects([(influence(reference), influence(other))], len(reference), confidence)


def _effects(pairs: list[tuple[dict, dict]], n: int, confidence: float) -> pd.DataFrame:
    """Average the paired per-game differences over `pairs` (one per combination of the
    other keys' values in a grid; one in a one-at-a-time sweep)."""
    z = balance._z(confidence)
    rows = []
    for name in pairs[0][0]:
        if not all(name in a and name in b for a, b in pairs):
            continue
        est_ref = float(np.mean([a[name][0] for a, _ in pairs]))
        est = float(np.mean([b[name][0] for _, b in pairs]))
        diffs = np.mean([b[name][1] - a[name][1] for a, b in pairs], axis=0)
        ref_values = np.mean([a[name][1] for a, _ in pairs], axis=0)
        new_values = np.mean([b[name][1] for _, b in pairs], axis=0)
        se = float(np.std(diffs, ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
        se_ind = float(math.sqrt((np.var(ref_values, ddof=1) + np.var(new_values, ddof=1)) / n)) \
            if n > 1 else float("nan")
        effect = est - est_ref
        p = balance.two_sided_p(effect / se) if se > 0 else (1.0 if effect == 0 else 0.0)
        rows.append({"statistic": name, "reference": est_ref, "estimate": est, "effect": effect,
                     "ci_low": effect - z * se, "ci_high": effect + z * se, "se": se,
                     "se_independent": se_ind, "p": p})
    return pd.DataFrame(rows)


def effects(spec: SweepSpec, frame: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Per varied key and value: the effect on every statistic against the key's reference
    value (its base value one at a time; its first listed value in a grid), paired by deal,
    with p-values adjusted over the whole table (Holm)."""
    tables = {cell: game_table(part) for cell, part in frame.groupby("cell")}
    cells = spec.cells()
    base = spec.base()
    keys = [k for k, _ in spec.vary]
    rows = []
    for key in keys:
        values = list(dict.fromkeys(c.settings[key] for c in cells))
        reference = base[key] if spec.design == "one-at-a-time" else values[0]
        for value in values:
            if value == reference:
                continue
            pairs = []
            for cell in cells:
                if cell.settings[key] != value:
                    continue
                others = {k: v for k, v in cell.settings.items() if k != key}
                ref_cell = next((c for c in cells if c.settings[key] == reference and
                                 {k: v for k, v in c.settings.items() if k != key} == others),
                                None)
                if ref_cell is None:
                    continue
                ref_table, table = tables[ref_cell.name], tables[cell.name]
                if not ref_table.index.equals(table.index):  # a bug, not a typo
                    raise RuntimeError(f"cells {ref_cell.name} and {cell.name} did not play "
                                       "the same deals")
                pairs.append((influence(ref_table), influence(table)))
            if not pairs:
                continue
            part = _effects(pairs, len(tables[cells[0].name]), confidence)
            part.insert(0, "setting", value)
            part.insert(0, "reference_value", reference)
            part.insert(0, "key", key)
            rows.append(part)
    if not rows:
        return pd.DataFrame()
    out = pd.concat(rows, ignore_index=True)
    out["p_adjusted"] = balance.adjust_pvalues(out["p"].to_numpy(), "holm")
    out["significant"] = out["p_adjusted"] < balance.ALPHA
    return out


def narrowing(table: pd.DataFrame) -> float:
    """Median ratio of independent-run to paired interval widths over the effects."""
    ratio = (table["se_independent"] / table["se"]).replace([np.inf, -np.inf], np.nan).dropna()
    return float(ratio.median()) if len(ratio) else float("nan")


def _name(statistic: str) -> str:
    name = statistic.replace("share:", "share of ").replace("_", " ")
    return {"first edge": "first-seat edge", "seat spread": "seat spread",
            "length": "game length", "tie rate": "tie rate"}.get(name, name)


def describe(row: pd.Series) -> str:
    """One effect in words, in the unit of its measure: `first-seat edge +1.2 points
    [−0.3, +2.7]`, `game length −3.5 decisions [−4.1, −2.9]` (never a percent)."""
    name = _name(row["statistic"])
    if row["statistic"] == "length":
        text = (f"{name} {row['effect']:+.1f} decisions "
                f"[{row['ci_low']:+.1f}, {row['ci_high']:+.1f}]")
    else:
        text = (f"{name} {row['effect'] * 100:+.1f} points "
                f"[{row['ci_low'] * 100:+.1f}, {row['ci_high'] * 100:+.1f}]")
    return text + (" (significant)" if row["significant"] else "")


def family_rows(tables: list[pd.DataFrame]) -> pd.DataFrame:
    """Every effect of several sweeps as members of an output's family (`findings.family`
    `extra`): kind "sweep", `sweep` and `row` locate the effect."""
    rows = [{"kind": "sweep", "subject": f"{r['key']}={r['setting']} {r['statistic']}",
             "sweep": i, "row": j, "p_value": r["p"]}
            for i, table in enumerate(tables) for j, (_, r) in enumerate(table.iterrows())]
    return pd.DataFrame(rows, columns=["kind", "subject", "sweep", "row", "p_value"])


def readjusted(tables: list[pd.DataFrame], tests: pd.DataFrame) -> list[pd.DataFrame]:
    """The sweeps' effect tables with `p_adjusted` / `significant` from the family `tests`."""
    out = []
    members = tests[tests["kind"] == "sweep"] if len(tests) else tests
    for i, table in enumerate(tables):
        mine = members[members["sweep"] == i].sort_values("row")
        table = table.copy()
        if len(mine) == len(table):
            table["p_adjusted"] = mine["p_adjusted"].to_numpy()
            table["significant"] = table["p_adjusted"] < balance.ALPHA
        out.append(table)
    return out


def ranking(table: pd.DataFrame) -> list[str]:
    """What matters most, in words: the significant effects (Holm over the table) ordered by
    magnitude in the unit of their measure (shares in points first, then game length in
    decisions), then one line naming every setting with no clear effect."""
    ordered, rest = verdicts.rank_effects(table)
    lines = [f"{rank}. {row['key']}={row['setting']}: {describe(row)}"
             for rank, row in enumerate(ordered, 1)]
    if rest:
        quiet: dict[str, list[str]] = {}
        for row in rest:
            quiet.setdefault(f"{row['key']}={row['setting']}", []).append(
                _name(row["statistic"]))
        lines.append("no clear effect: " + "; ".join(
            f"{setting} on {', '.join(names)}" for setting, names in quiet.items()))
    return lines


# --------------------------------------------------------------------------------------------
# Which conclusions of the base setting hold over every varied value
# --------------------------------------------------------------------------------------------


def _edge_class(estimate: float, low: float, high: float) -> str:
    if low > 0:
        return f"seat 1 ahead ({estimate * 100:+.1f} points)"
    if high < 0:
        return f"seat 1 behind ({estimate * 100:+.1f} points)"
    return f"no clear first-seat edge ({estimate * 100:+.1f} points)"


def conclusions(spec: SweepSpec, frame: pd.DataFrame, table: pd.DataFrame,
                confidence: float = 0.95) -> pd.DataFrame:
    """For each headline conclusion of the base cell (first-seat edge, dominant scoring
    source, game length): "holds over every varied value" or "depends on KEY: changes from X
    to Y" — a change counts only when it is significant after Holm (game length: also at
    least 10% of the mean); sources tied for the most points (overlapping intervals) are
    named as a tie, and a change of leader within a tie is no change."""
    z = balance._z(confidence)
    noun = balance.points_noun(balance.score_direction(spec.game))
    base_cell = next(c for c in spec.cells() if c.name == "base")
    tables = {cell: game_table(part) for cell, part in frame.groupby("cell")}
    cells = {c.name: c for c in spec.cells()}

    def leaders(cell_name: str) -> list[str]:
        """The sources tied for the most points (intervals overlapping the leader's)."""
        inf = influence(tables[cell_name])
        rows = []
        for k, (est, values) in inf.items():
            if k.startswith("share:"):
                half = z * np.std(values, ddof=1) / math.sqrt(len(values))
                rows.append({"source": k[6:], "share": est, "ci_low": est - half,
                             "ci_high": est + half})
        return list(verdicts.overlapping(pd.DataFrame(rows))["source"]) if rows else ["-"]

    def classes(cell_name: str) -> dict[str, str]:
        inf = influence(tables[cell_name])
        est, values = inf["first_edge"]
        half = z * np.std(values, ddof=1) / math.sqrt(len(values))
        shares = {k[6:]: v[0] for k, v in inf.items() if k.startswith("share:")}
        tied = leaders(cell_name)
        top = tied[0]
        source = (f"{top} ({shares.get(top, 0) * 100:.0f}% of {noun})" if len(tied) == 1 else
                  "tie: " + ", ".join(f"{s} ({shares[s] * 100:.0f}%)" for s in tied))
        return {"first-seat edge": _edge_class(est, est - half, est + half),
                "dominant scoring source": source,
                "game length": f"{inf['length'][0]:.0f} decisions"}

    base = classes(base_cell.name)
    base_leaders = leaders(base_cell.name)
    base_top = base_leaders[0]
    rows = []
    for conclusion, base_text in base.items():
        changes = []
        for name, cell in cells.items():
            if name == base_cell.name:
                continue
            key = next(k for k, v in cell.settings.items() if v != base_cell.settings[k])
            now = classes(name)
            hits = table[(table["key"] == key) & (table["setting"] == cell.settings[key])]
            if conclusion == "first-seat edge":
                moved = hits[hits["statistic"] == "first_edge"]
                changed = now[conclusion].split(" (")[0] != base_text.split(" (")[0]
            elif conclusion == "dominant scoring source":
                moved = hits[hits["statistic"] == f"share:{base_top}"]
                changed = not set(base_leaders) & set(leaders(name))  # a tie is no change
            else:
                moved = hits[hits["statistic"] == "length"]
                changed = bool(len(moved)) and abs(moved["effect"].iloc[0]) >= \
                    LENGTH_TOLERANCE * abs(moved["reference"].iloc[0])
            if changed and len(moved) and bool(moved["significant"].iloc[0]):
                changes.append(f"depends on {key}: changes from {base_text} to {now[conclusion]}"
                               f" at {cell.settings[key]}")
        rows.append({"conclusion": conclusion, "base": base_text,
                     "verdict": "; ".join(changes) if changes else
                     "holds over every varied value"})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------
# Sweeps in experiment files
# --------------------------------------------------------------------------------------------

#: The keys of a `[[sweep]]` table, with what each holds (`tables.check_table`).
SWEEP_KEYS: tables.Schema = {
    "label": ("a non-empty string", tables.Text), "game": ("one game's name", str),
    "players": ('a player count or "default"', int, Literal["default"]),
    "bots": ("a bot spec or a list of bot specs", tables.Text, list[tables.Text]),
    "games": ("a positive integer", int), "design": ("grid or one-at-a-time", str),
    "rules": ("a table of rule options", dict),
    "vary": ('"guesses" or a table of KEY = [values]', Literal["guesses"], dict),
}


def guessed_items(game: str) -> dict[str, list[Any]]:
    """Every GUESS / INFERRED data item with the alternatives its rules file names, as a
    `vary` table: the shipped value first, then the alternatives."""
    data_set = datasets.dataset_of(game)
    if data_set is None:
        raise BadInput(f"{game} uses only official component data: there are no guesses "
                         "to vary")
    data = dict(data_set.default_data)
    return {datasets.PREFIX + item.name: [item.get(data), *item.plausible]
            for item in data_set.items
            if item.provenance != "CONFIRMED" and item.plausible}


def from_table(table: Any, where: str, out_dir: Path, seed: int, default_games: int,
               override: int | None, scale: float) -> tuple[Path, SweepSpec]:
    """A `[[sweep]]` table of an experiment file as (directory, spec).

    `vary` is a table of KEY = [values] (data items as rule keys `components.ITEM`), or the
    string "guesses": every GUESS / INFERRED item over the alternatives its rules file names.
    """
    game_name = tables.table_game(table, where, SWEEP_KEYS)
    try:
        game = get_game(game_name)
        vary = table.get("vary")
        if vary == "guesses":
            vary = guessed_items(game_name)
        if not isinstance(vary, dict) or not vary or not all(
                isinstance(v, list) and v for v in vary.values()):
            raise BadInput("vary must be \"guesses\" or a table of KEY = [values]")
        players = table.get("players", game.players_default)
        if players == "default":
            players = game.players_default
        game.check_players(players)
        bots = table.get("bots", ["heuristic"])
        bots = [bots] if isinstance(bots, str) else list(bots)
        count = tables.positive_int(table.get("games", default_games), "games")
        count = override if override is not None else max(1, math.ceil(count * scale))
        rules = table.get("rules", {})
        spec = SweepSpec(game=game_name, players=players, games=count,
                         bots=tournament.fill_lineup(bots, players), seed=seed,
                         vary=tuple((k, tuple(v)) for k, v in vary.items()),
                         design=table.get("design", "one-at-a-time"), rules=dict(rules))
        validated_cells(spec)
    except ValueError as exc:
        raise BadInput(f"{where}: {exc}") from None
    label = table.get("label") or f"sweep-{game_name}-{players}p"
    return out_dir / _slug(label), spec
