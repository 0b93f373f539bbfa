"""Experiment files: a TOML list of studies, each expanded into runs and one combined report.

```toml
name = "seat-advantage"          # optional; default the file name
description = "..."
seed = 1                         # run seed of every run (deals are reproducible)
games = 2000                     # default games per run

[[study]]
game = "all"                     # a name, a list of names, or "all" (every registered game)
players = "all"                  # a count, a list, "all" (whole range), "min", "max", "default"
bots = ["heuristic"]             # one line-up (filled like the runner: last bot repeats);
                                 # "heuristic:*" = the default and every heuristic style
format = "rotation"              # rotation | duplicate (bots permuted over seats per deal)
                                 # | each (one run per bot, that bot in every seat)
fill = "last"                    # duplicate only: last | alternate
games = 500                      # optional per-study override
variants = [{}, {castle_rule = "two_consecutive"}]   # rule options, one run each
```

Every study also plays a skill ladder in each game, player count and variant it covers: the
same deals with every seat `random`, then `heuristic`, `mcts:iterations=20` and `mcts`
(`analysis.run.ladder`), so that its balance verdicts say how each seat's edge changes under
stronger play.  A study picks its own levels or none:

```toml
ladder = ["random", "heuristic", "mcts:iterations=20"]   # weakest first; false = no ladder
ladder_games = [2000, 2000, 200]   # one count, or one per level (default: the study's
                                   # games, a fifth of them at mcts and ismcts levels)
```

A level that is a run of the experiment anyway (that bot in every seat, as many games) is
played once.  With `format = "duplicate"` and more bots than players, every combination of
`players` bots is compared (a round robin of bots).  `[[sweep]]` tables are what-if sweeps
(`analysis.run.sweep.from_table`), `[[tune]]` tables tune a heuristic's parameters
(`analysis.run.tune.from_table`), `[[landscape]]` tables play a strategy landscape
(`analysis.run.landscape.from_table`), `[[elements]]` tables an elements study
(`analysis.run.elements.from_table`).  Results go to `OUT/NAME/GAME/Np/LABEL/`, and the
combined report to `OUT/NAME/report.html`.  Existing runs are resumed, not replayed.
"""

from __future__ import annotations

import itertools
import math
import os
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pandas as pd

from analysis.run import compare, ladder, tables, tournament
from analysis.run.study import MAX_GAMES, StudySpec, check_total
from analysis.run.tables import Text
from engines import GAMES, get_game
from engines.bots import make_bot
from engines.core import rules_to_str
from engines.errors import BadInput
from engines.user_files import read_user_file

FORMATS = ("rotation", "duplicate", "each")
#: The keys of an experiment file and of its `[[study]]` tables, with what each holds
#: (`tables.check_table`: a value of another shape is one line naming the key).
TOP_KEYS: tables.Schema = {
    "name": ("a non-empty string", Text), "description": ("a string", str),
    "seed": ("a non-negative integer", int), "games": ("a positive integer", int),
    "study": ("a list of [[study]] tables", list[dict]),
    "sweep": ("a list of [[sweep]] tables", list[dict]),
    "tune": ("a list of [[tune]] tables", list[dict]),
    "landscape": ("a list of [[landscape]] tables", list[dict]),
    "elements": ("a list of [[elements]] tables", list[dict]),
    "backend": ("loky or dask", str),
    "scheduler": ("an address string such as 'tcp://host:8786'", Text),
}
STUDY_KEYS: tables.Schema = {
    "label": ("a non-empty string", Text),
    "game": ('a game\'s name, a list of names or "all"', str, list[str]),
    "players": ('a player count, a list of counts, or "all", "min", "max" or "default"', int,
                list[int], Literal["all", "min", "max", "default"]),
    "bots": ("a bot spec or a list of bot specs", Text, list[Text]),
    "format": (f"one of {', '.join(FORMATS)}", str), "fill": ("last or alternate", str),
    "games": ("a positive integer", int),
    "variants": ("a list of tables of rule options", list[dict]),
    "rules": ("a table of rule options", dict),
    "ladder": ("true, false or a list of bot specs (weakest first)", bool, list),
    "ladder_games": ("a positive integer or a list of them", int, list[int]),
}
#: In `bots`, every named heuristic style of the game (and its default).
ALL_STYLES = "heuristic:*"


@dataclass(frozen=True, kw_only=True)
class PlannedRun(StudySpec):
    """One run (rotation) or one duplicate comparison of an experiment, played into `path`."""

    path: Path = Path()
    format: str = "rotation"
    fill: str = "last"


@dataclass(frozen=True)
class PlannedLadder:
    """A study's skill ladder in one game, player count and variant, played into `path`;
    `level_dirs`: the levels that are runs of the experiment anyway, and where."""

    path: Path
    spec: ladder.LadderSpec
    level_dirs: dict[str, Path] = field(default_factory=dict)

    def games(self) -> int:
        """Games the ladder plays beyond the experiment's runs."""
        return sum(n for level, n in zip(self.spec.levels, self.spec.games)
                   if level not in self.level_dirs)


@dataclass
class Experiment:
    name: str
    description: str
    runs: list[PlannedRun]
    out_dir: Path
    backend: str = "loky"
    scheduler: str | None = None
    sweeps: list = field(default_factory=list)  # (directory, sweep.SweepSpec): what-if sweeps
    tunes: list = field(default_factory=list)  # (directory, tune.TuneSpec): heuristic tuning
    ladders: list[PlannedLadder] = field(default_factory=list)  # skill ladders of the studies
    #: (directory, landscape.LandscapeSpec): strategy landscapes
    landscapes: list = field(default_factory=list)
    #: (directory, elements.ElementsSpec): elements studies
    elements: list = field(default_factory=list)


def _fail(where: str, message: str) -> None:
    raise BadInput(f"{where}: {message}")


def _as_list(value: Any) -> list:
    """One value or a list of them (their shapes checked by the table's schema) as a list."""
    return value if isinstance(value, list) else [value]


def _games_count(value: Any, where: str, key: str = "games") -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        _fail(where, f"{key} must be a positive integer, got {value!r}")
    if value > MAX_GAMES:
        _fail(where, f"{key} must be at most {MAX_GAMES:,}, got {value:,}")
    return value


def _slug(text: str) -> str:
    keep = "".join(ch if ch.isalnum() or ch in "-_.=" else "-" for ch in text)
    return keep.strip("-") or "official"


def load(path: str | os.PathLike, out_root: str | os.PathLike = "results",
         games: int | None = None, scale: float = 1.0) -> Experiment:
    """Parse and validate an experiment file into its planned runs (nothing is played)."""
    path = Path(path)
    where = str(path)
    try:
        data = tomllib.loads(read_user_file(path, "experiment file"))
    except UnicodeDecodeError as exc:
        raise BadInput(f"cannot read {path}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise BadInput(f"{path} is not valid TOML: {exc}") from None
    tables.check_table(data, where, TOP_KEYS)
    if games is not None and not 0 < games <= MAX_GAMES:
        raise BadInput(f"--games must be positive and at most {MAX_GAMES:,}, "
                       f"got {games:,}")
    if not (math.isfinite(scale) and scale > 0):
        raise BadInput(f"--scale must be a positive finite number, got {scale}")
    name = data.get("name", path.stem)
    seed = data.get("seed", 1)
    if seed < 0:
        _fail(where, f"seed must be a non-negative integer, got {seed!r}")
    default_games = _games_count(data.get("games", 1000), where)
    studies = data.get("study", [])
    sweep_tables = data.get("sweep", [])
    tune_tables = data.get("tune", [])
    landscape_tables = data.get("landscape", [])
    element_tables = data.get("elements", [])
    if not (studies or sweep_tables or tune_tables or landscape_tables or element_tables):
        _fail(where, "needs at least one [[study]], [[sweep]], [[tune]], [[landscape]] or "
                     "[[elements]] table")
    out_dir = Path(out_root) / _slug(name)
    runs: list[PlannedRun] = []
    ladders: list[PlannedLadder] = []
    for number, study in enumerate(studies, 1):
        study_runs, study_ladders = _expand(study, f"{where} [[study]] {number}", out_dir, seed,
                                            default_games, games, scale)
        runs.extend(study_runs)
        ladders.extend(study_ladders)
    ladders = _shared_levels(_one_ladder_each(ladders, where), runs)
    from analysis.run import sweep

    sweeps = [sweep.from_table(table, f"{where} [[sweep]] {number}", out_dir, seed,
                               default_games, games, scale)
              for number, table in enumerate(sweep_tables, 1)]
    if len({p for p, _ in sweeps}) != len(sweeps):
        _fail(where, "two sweeps write the same directory; give them distinct labels")
    from analysis.run import tune

    tunes = [tune.from_table(table, f"{where} [[tune]] {number}", out_dir, seed, scale)
             for number, table in enumerate(tune_tables, 1)]
    if len({p for p, _ in tunes}) != len(tunes):
        _fail(where, "two tunes write the same directory; give them distinct labels")
    from analysis.run import landscape

    landscapes = [landscape.from_table(table, f"{where} [[landscape]] {number}", out_dir, seed,
                                       default_games, games, scale)
                  for number, table in enumerate(landscape_tables, 1)]
    if len({p for p, _ in landscapes}) != len(landscapes):
        _fail(where, "two landscapes write the same directory; give them distinct labels")
    from analysis.run import elements

    studied = [elements.from_table(table, f"{where} [[elements]] {number}", out_dir, seed,
                                   default_games, games, scale)
               for number, table in enumerate(element_tables, 1)]
    if len({p for p, _ in studied}) != len(studied):
        _fail(where, "two elements studies write the same directory; give them distinct "
                     "labels")
    paths = [r.path for r in runs] + [planned.path for planned in ladders]
    if len(set(paths)) != len(paths):
        _fail(where, "two studies write the same run directory; give them distinct labels")
    backend = data.get("backend", "loky")
    scheduler = data.get("scheduler")
    if backend not in ("loky", "dask"):
        _fail(where, f"backend must be loky or dask, got {backend!r}")
    experiment = Experiment(name, str(data.get("description", "")), runs, out_dir, backend,
                            scheduler, sweeps, tunes, ladders, landscapes, studied)
    check_total(total_games(experiment), f"{where}: the experiment")
    return experiment


def _ladder_levels(study: dict, where: str) -> tuple[str, ...] | None:
    """The study's ladder levels, weakest first (`ladder`: true, the default, or a list), or
    None for `ladder = false`."""
    value = study.get("ladder", True)
    if value is True:
        return ladder.DEFAULT_LEVELS
    if value is False:
        if "ladder_games" in study:
            _fail(where, "ladder_games needs a ladder; drop it or set ladder")
        return None
    if not all(isinstance(v, str) for v in value):
        _fail(where, "ladder must be true, false or a list of bot specs (weakest first), got "
                     f"{value!r}")
    if len(value) < 2:
        _fail(where, f"ladder needs at least two levels (weakest first), got {len(value)}")
    if len(set(value)) != len(value):
        _fail(where, "ladder names a bot twice")
    return tuple(value)


def _ladder_games(study: dict, where: str, levels: tuple[str, ...], count: int,
                  override: int | None, scale: float) -> tuple[int, ...]:
    """Games per ladder level: `--games` at every level, else `ladder_games` (scaled), else
    the study's count (scaled already) with fewer at search levels (`ladder.default_games`)."""
    if override is not None:
        return (override,) * len(levels)
    value = study.get("ladder_games")
    if value is None:
        return ladder.default_games(levels, count)
    values = [_games_count(v, where, "ladder_games")
              for v in (value if isinstance(value, list) else [value])]
    if len(values) == 1:
        values = values * len(levels)
    if len(values) != len(levels):
        _fail(where, f"ladder_games gives {len(values)} counts for {len(levels)} levels; give "
                     "one count, or one per level")
    return tuple(max(1, math.ceil(v * scale)) for v in values)


def _one_ladder_each(ladders: list[PlannedLadder], where: str) -> list[PlannedLadder]:
    """One ladder per game, player count and variant: studies that cover the same one ask for
    the same ladder or say `ladder = false`."""
    kept: dict[Path, PlannedLadder] = {}
    for planned in ladders:
        other = kept.setdefault(planned.path, planned)
        if other.spec != planned.spec:
            spec = planned.spec
            _fail(where, f"two studies ask for different skill ladders of {spec.game} "
                         f"{spec.players}p; give them the same ladder and ladder_games, or "
                         "ladder = false in one")
    return list(kept.values())


def _shared_levels(ladders: list[PlannedLadder], runs: list[PlannedRun]) -> list[PlannedLadder]:
    """Each ladder with the levels that are runs of the experiment anyway (that bot in every
    seat, as many games, same seed and rules) read from those runs."""
    out = []
    for planned in ladders:
        spec = planned.spec
        shared = {}
        for level, games in zip(spec.levels, spec.games):
            for run in runs:
                if (run.format != "duplicate" and run.game == spec.game
                        and run.players == spec.players and run.bots == (level,) * spec.players
                        and run.games == games and run.seed == spec.seed
                        and run.rules == spec.rules):
                    shared[level] = run.path
                    break
        out.append(PlannedLadder(planned.path, spec, shared))
    return out


def _expand(study: Any, where: str, out_dir: Path, seed: int, default_games: int,
            override: int | None, scale: float) -> tuple[list[PlannedRun], list[PlannedLadder]]:
    tables.check_table(study, where, STUDY_KEYS)
    if "rules" in study and "variants" in study:
        _fail(where, "give either rules or variants, not both")
    names = study.get("game", "all")
    names = sorted(GAMES) if names == "all" else _as_list(names)
    fmt = study.get("format", "rotation")
    if fmt not in FORMATS:
        _fail(where, f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    fill = study.get("fill", "last")
    if fill not in compare.FILLS:
        _fail(where, f"fill must be one of {', '.join(compare.FILLS)}, got {fill!r}")
    bots = _as_list(study.get("bots", ["heuristic"]))
    variants = study.get("variants", [study.get("rules", {})])
    count = study.get("games")
    count = default_games if count is None else _games_count(count, where)
    count = override if override is not None else max(1, math.ceil(count * scale))
    if count > MAX_GAMES:
        _fail(where, f"games x --scale {scale:g} is {count:,}; at most {MAX_GAMES:,}")
    label = study.get("label")
    levels = _ladder_levels(study, where)
    ladder_games = (_ladder_games(study, where, levels, count, override, scale)
                    if levels else ())
    runs = []
    ladders = []
    for game_name in names:
        try:
            game = get_game(game_name)
        except KeyError as exc:
            _fail(where, str(exc))
        players_value = study.get("players", "all")
        named = {"all": list(range(game.min_players, game.max_players + 1)),
                 "min": [game.min_players], "max": [game.max_players],
                 "default": [game.players_default]}
        players = (named[players_value] if isinstance(players_value, str)
                   and players_value in named
                   else _as_list(players_value))
        game_bots = expand_styles(bots, game)
        for spec in game_bots:
            try:
                make_bot(spec, game)
            except ValueError as exc:
                _fail(where, f"{game_name}: {exc}")
        for n in players:
            try:
                game.check_players(n)
            except ValueError as exc:
                _fail(where, str(exc))
            for rules in variants:
                try:
                    rules_str = rules_to_str(game.checked_rules(**rules))
                except ValueError as exc:
                    _fail(where, f"{game_name}: {exc}")
                runs.extend(_runs_for(game_name, n, game_bots, rules, rules_str, fmt, fill,
                                      count, seed, out_dir, label, where))
                if levels:
                    spec = ladder.LadderSpec(game=game_name, players=n, levels=levels,
                                             games=ladder_games, seed=seed, rules=dict(rules))
                    try:
                        spec.runs()
                    except ValueError as exc:
                        _fail(where, f"{game_name} ladder: {exc}")
                    tag = _slug(rules_str) if rules_str else "official"
                    ladders.append(PlannedLadder(
                        out_dir / _slug(game_name) / f"{n}p" / f"{tag}-ladder", spec))
    return runs, ladders


def expand_styles(bots: list[str], game) -> list[str]:
    """`heuristic:*` stands for the default heuristic and every named style of the game but
    those that are the default itself (a tuned style promoted to default): one line-up each."""
    out: list[str] = []
    for spec in bots:
        if spec == ALL_STYLES:
            default = game.heuristics.get("default")
            out += ["heuristic" if key == "default" else f"heuristic:{key}"
                    for key, factory in game.heuristics.items()
                    if key == "default" or factory is not default]
        else:
            out.append(spec)
    return list(dict.fromkeys(out))


def _runs_for(game: str, players: int, bots: list[str], rules: dict, rules_str: str, fmt: str,
              fill: str, games: int, seed: int, out_dir: Path, label: str | None,
              where: str) -> list[PlannedRun]:
    base = out_dir / _slug(game) / f"{players}p"
    tag = _slug(rules_str) if rules_str else "official"
    if fmt == "each":  # one run per bot, that bot in every seat (a line-up per bot)
        return [PlannedRun(game=game, players=players, games=games, bots=(bot,) * players,
                           seed=seed, rules=dict(rules),
                           path=base / f"{label or tag}-{_slug(bot)}") for bot in bots]
    if fmt == "rotation":
        if len(bots) > players:
            _fail(where, f"{len(bots)} bots for {players} players; use format = \"duplicate\" "
                         "for a round robin")
        lineup = tournament.fill_lineup(bots, players)
        name = label or f"{tag}-{_slug('_'.join(bots))}"
        return [PlannedRun(game=game, players=players, games=games, bots=lineup, seed=seed,
                           rules=dict(rules), path=base / name)]
    if len(set(bots)) < 2:
        _fail(where, "format = \"duplicate\" needs at least two different bots")
    size = min(players, len(bots))
    runs = []
    for table in itertools.combinations(bots, size):
        name = f"{label or tag}-{_slug('-vs-'.join(table))}"
        runs.append(PlannedRun(game=game, players=players, games=games, bots=tuple(table),
                               seed=seed, rules=dict(rules),
                               path=base / name, format="duplicate", fill=fill))
    return runs


@dataclass
class Played:
    """What an experiment's sweeps, tunes, ladders and landscapes produced, for its report:
    (spec, frame, effects) per sweep, (spec, result, best style file) per tune, a
    `LadderResult` per ladder, one `landscape.Analysis` per landscape."""

    sweeps: list[tuple] = field(default_factory=list)
    tunes: list[tuple] = field(default_factory=list)
    ladders: list[ladder.LadderResult] = field(default_factory=list)
    landscapes: list = field(default_factory=list)
    elements: list = field(default_factory=list)  # one `elements.ElementsResult` per study


def play(experiment: Experiment, jobs: int = -1,
         progress: Callable[[PlannedRun | None, int], None] | None = None,
         backend: str | None = None, scheduler: str | None = None,
         announce: Callable[[str], None] | None = None) -> Played:
    """Play (or resume) every planned run, ladder, sweep and tune of the experiment.

    The ladders play first, so that a level which is also a run of the experiment is timed
    while it plays (its games/s is what the ladder states as that level's cost).
    `backend`/`scheduler` override the file's own `backend`/`scheduler` keys.  The combined
    report is written by the caller (`analysis.cli.reporting.run_experiment`).
    """
    backend = backend or experiment.backend
    scheduler = scheduler or experiment.scheduler
    experiment.out_dir.mkdir(parents=True, exist_ok=True)
    callback = (lambda g: progress(None, g)) if progress else None
    ladders = [ladder.run_ladder(planned.spec, planned.path, jobs, callback, backend, scheduler,
                                 planned.level_dirs) for planned in experiment.ladders]
    for run in experiment.runs:
        callback = (lambda g, r=run: progress(r, g)) if progress else None
        if run.format == "duplicate":
            spec = compare.CompareSpec(game=run.game, players=run.players, games=run.games,
                                       bots=run.bots, seed=run.seed, rules=run.rules,
                                       fill=run.fill)
            compare.run_duplicate(spec, run.path, jobs, callback, backend, scheduler)
            continue
        spec = tournament.RunSpec(game=run.game, players=run.players, games=run.games,
                                  bots=run.bots, seed=run.seed, rules=dict(run.rules))
        tournament.run_or_resume(spec, run.path, jobs, callback, backend, scheduler)
    sweeps = _run_sweeps(experiment, jobs, progress, backend, scheduler, announce)
    tunes = _run_tunes(experiment, jobs, progress, backend, scheduler)
    return Played(sweeps, tunes, ladders,
                  _run_landscapes(experiment, jobs, progress, backend, scheduler),
                  _run_elements(experiment, jobs, progress, backend, scheduler))


def _run_sweeps(experiment: Experiment, jobs: int, progress: Callable | None, backend: str,
                scheduler: str | None, announce: Callable[[str], None] | None) -> list[tuple]:
    """Play (or resume) the experiment's what-if sweeps: (spec, frame, effects) each."""
    from analysis.run import sweep

    out = []
    for path, spec in experiment.sweeps:
        callback = (lambda g: progress(None, g)) if progress else None
        frame = sweep.run_sweep(spec, path, jobs, callback, backend, scheduler, announce)
        out.append((spec, frame, sweep.effects(spec, frame)))
    return out


def sweep_family(sweeps: list[tuple]) -> pd.DataFrame:
    """The sweeps' effects as members of the report's one family."""
    from analysis.run import sweep

    return sweep.family_rows([table for _, _, table in sweeps])


def sweep_variants(sweeps: list[tuple], tests: pd.DataFrame) -> dict[tuple[str, int], str]:
    """(game, players) -> the variant worth testing: the setting significant in the report's
    family that moves the first-seat edge or seat spread furthest towards balance, and which
    guessed data items (`components.*`) such a conclusion rests on."""
    from analysis.run import sweep

    if not sweeps:
        return {}
    tables = sweep.readjusted([table for _, _, table in sweeps], tests)
    out: dict[tuple[str, int], str] = {}
    for (spec, _, _), table in zip(sweeps, tables):
        key = (spec.game, spec.players)
        best, gain = None, 0.0
        guessed = set()
        for _, row in table[table["significant"]].iterrows():
            if row["statistic"] not in ("first_edge", "seat_spread"):
                continue
            if str(row["key"]).startswith("components."):
                guessed.add(str(row["key"]))
            moved = abs(row["reference"]) - abs(row["reference"] + row["effect"])
            if moved > gain:
                best, gain = row, moved
        text = "none significant" if best is None else (
            f"{best['key']}={best['setting']}: "
            f"{sweep.describe(best).replace(' (significant)', '')}")
        if guessed:
            text += "; balance rests on guessed data: " + ", ".join(sorted(guessed))
        out[key] = text if key not in out else f"{out[key]}; {text}"
    return out


def _run_tunes(experiment: Experiment, jobs: int, progress: Callable | None, backend: str,
               scheduler: str | None) -> list[tuple]:
    """Play (or resume) the experiment's tuning searches; write each best style file beside
    its runs: (spec, result, style file) each."""
    from analysis.run import tune

    out = []
    for path, spec in experiment.tunes:
        callback = (lambda g: progress(None, g)) if progress else None
        result = tune.run_tune(spec, path, jobs, callback, backend, scheduler)
        style = path / "best.toml"
        tmp = style.with_name(style.name + ".tmp")
        tmp.write_text(tune.style_file_text(spec, result), encoding="utf-8")
        os.replace(tmp, style)
        out.append((spec, result, style))
    return out


def _run_landscapes(experiment: Experiment, jobs: int, progress: Callable | None, backend: str,
                    scheduler: str | None) -> list:
    """Play (or resume) the experiment's strategy landscapes and read each (its cells' p
    adjusted over its own cells until the report's family readjusts them)."""
    from analysis.run import landscape

    out = []
    for path, spec in experiment.landscapes:
        callback = (lambda g: progress(None, g)) if progress else None
        out.append(landscape.analyse(landscape.run_landscape(spec, path, jobs, callback,
                                                             backend, scheduler)))
    return out


def _run_elements(experiment: Experiment, jobs: int, progress: Callable | None, backend: str,
                  scheduler: str | None) -> list:
    """Play (or resume) the experiment's elements studies: one `ElementsResult` each."""
    from analysis.run import elements

    callback = (lambda g: progress(None, g)) if progress else None
    return [elements.run_elements(spec, path, jobs, callback, backend, scheduler)
            for path, spec in experiment.elements]


def total_games(experiment: Experiment) -> int:
    """Games the experiment plays (duplicate runs round up to whole deals; a ladder level
    that is one of its runs counts once)."""
    total = 0
    for run in experiment.runs:
        if run.format == "duplicate":
            spec = compare.CompareSpec(game=run.game, players=run.players, games=run.games,
                                       bots=run.bots, seed=run.seed, rules=run.rules,
                                       fill=run.fill)
            total += spec.deals * len(spec.seatings)
        else:
            total += run.games
    return (total + sum(spec.games * len(spec.cells()) for _, spec in experiment.sweeps)
            + sum(spec.budget for _, spec in experiment.tunes)
            + sum(planned.games() for planned in experiment.ladders)
            + sum(spec.total_games() for _, spec in experiment.landscapes)
            + sum(spec.total_games() for _, spec in experiment.elements))
