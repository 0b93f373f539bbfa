"""Tuning a heuristic's parameters: successive halving over duplicate-format matches.

Each candidate is the heuristic with one setting of the varied parameters (a bot spec such
as `heuristic:raid_weight=0.5,deck_below=2`).  In round r every surviving candidate plays a
duplicate comparison (`analysis.run.compare`, one candidate seat against a table of the
opponent, every seat permutation of each deal) against each bot of the league, on the
deals of seed branch `TUNE_BRANCH + r` — the same deals for every candidate, so two
candidates are compared deal by deal.  The racing is `search.race` (the balance search's
successive halving): after each round the worse half by win share drops out.

Why successive halving and not an optimiser library (optuna, nevergrad) or NTBEA: every
candidate of a round plays the same deals, and the comparison that matters — a candidate
against the best — is a paired difference on shared deals; an optimiser that proposes one
point at a time plays each on its own deals and throws that pairing away.  The grids are
small (a few documented parameters with a handful of values each), so an exhaustive
candidate list raced on shared deals spends the budget where it tells candidates apart.

The statistic is the candidate's win share (ties shared), one value per deal and opponent
(the mean over the deal's seatings); its interval and the paired differences use the
spread of those values.  Fair is 1 / players.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pandas as pd

from analysis.results import store
from analysis.run import compare, exploit, search, tables
from analysis.run.study import MAX_CELLS, MAX_VALUES, check_count
from analysis.stats import balance, verdicts
from engines import get_game
from engines.bots import BotSpecError, make_bot, parse_spec
from engines.bots.options import Param, param
from engines.errors import BadInput

#: Seed branches of tuning rounds (search uses 100 + r; confirmations 1).
TUNE_BRANCH = 200
TUNE_FILE = "tune.json"
OBJECTIVES = ("win_share",)
#: How a candidate is seated against each league bot: `lone` (one candidate seat, the rest
#: the league bot), `table` (the league bot in one seat, the candidate in the rest: a
#: candidate a lone league bot exploits scores low) or `both` (half its games each way).
SEATINGS = ("both", "lone", "table")


def default_league(game_name: str) -> tuple[str, ...]:
    """The default heuristic and, where the game keeps one, its previous default `v1`."""
    game = get_game(game_name)
    return ("heuristic",) + (("heuristic:v1",) if "v1" in game.heuristics else ())


def parse_vary(game_name: str, pairs: Sequence[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """`--vary NAME=v1,v2`, `NAME=lo..hi[:step]` or a bare `NAME` (its documented grid), every
    value checked against the parameter's type and range."""
    params = get_game(game_name).heuristic_params
    if not params:
        raise BadInput(f"{game_name}'s heuristic documents no parameters to tune")
    out = []
    for pair in pairs:
        name, sep, text = pair.partition("=")
        p = param(params, name.strip())
        values = _values(p, text.strip()) if sep else p.values()
        canon = tuple(p.canonical(v) for v in values)
        if len(set(canon)) != len(canon):
            raise BadInput(f"--vary {p.name} lists a value twice")
        out.append((p.name, canon))
    if not out:
        raise BadInput("give at least one --vary PARAM=v1,v2,... (or a bare --vary PARAM "
                         "for its documented range)")
    if len({k for k, _ in out}) != len(out):
        raise BadInput("--vary names a parameter twice")
    return tuple(out)


def _values(p: Param, text: str) -> tuple[str, ...]:
    if ".." in text and p.kind in ("int", "float"):
        low, _, rest = text.partition("..")
        high, _, step = rest.partition(":")
        kind = int if p.kind == "int" else float
        try:
            lo, hi = kind(low), kind(high)
            st = kind(step) if step else (1 if p.kind == "int" else (hi - lo) / 4)
        except ValueError:
            raise BadInput(f"--vary {p.name}: a range is lo..hi or lo..hi:step, got "
                             f"{text!r}") from None
        if not all(map(math.isfinite, (lo, hi, st))):
            raise BadInput(f"--vary {p.name}: a range needs finite numbers, got {text!r}")
        if hi < lo or st <= 0:
            raise BadInput(f"--vary {p.name}: empty range {text!r}")
        count = int(math.floor((hi - lo) / st + 1e-9)) + 1
        check_count(count, MAX_VALUES, f"--vary {p.name}={text} lists too many values")
        return tuple(str(round(lo + i * st, 6)) for i in range(count))
    values = tuple(v.strip() for v in text.split(",") if v.strip())
    if not values:
        raise BadInput(f"--vary {p.name} needs at least one value")
    return values


@dataclass(frozen=True)
class Candidate:
    name: str  # "raid_weight=0.5+deck_below=2"
    settings: dict[str, str]
    spec: str  # the bot spec that plays it


@dataclass(frozen=True)
class TuneSpec:
    """What to tune: `bot` (heuristic[:STYLE] or a style file), the grid, the league."""

    game: str
    players: int
    bot: str
    vary: tuple[tuple[str, tuple[str, ...]], ...]
    against: tuple[str, ...]
    budget: int
    seed: int
    objective: str = "win_share"
    rules: dict[str, Any] = field(default_factory=dict)
    seating: str = "both"

    @property
    def arrangements(self) -> tuple[bool, ...]:
        """Per comparison against one league bot: whether the candidate holds the table (at
        two players both arrangements are the same games: played once)."""
        if self.players == 2:
            return (False,)
        return {"lone": (False,), "table": (True,), "both": (False, True)}[self.seating]

    def candidates(self) -> list[Candidate]:
        """Every combination of the varied values, as bot specs built on `bot`."""
        names = [k for k, _ in self.vary]
        check_count(math.prod(len(v) for _, v in self.vary), MAX_CELLS,
                    "the grid of the --vary values has too many candidates")
        out = []
        for combo in itertools.product(*(v for _, v in self.vary)):
            settings = dict(zip(names, combo))
            options = ",".join(f"{k}={v}" for k, v in settings.items())
            joiner = "," if ":" in self.bot else ":"
            out.append(Candidate("+".join(f"{k}={v}" for k, v in settings.items()),
                                 settings, f"{self.bot}{joiner}{options}"))
        return out

    def default_candidate(self) -> str | None:
        """The candidate that plays as the game's shipped default heuristic: every varied
        parameter at its documented default.  None when `bot` is another style or carries
        options of its own (no candidate is the shipped default then), or when the grid
        does not hold every default value."""
        game = get_game(self.game)
        _, variant, options = parse_spec(self.bot)
        styles = game.heuristics
        if options or (variant is not None and styles.get(variant) is not styles.get("default")):
            return None
        params = {p.name: p for p in game.heuristic_params}
        defaults = {k: params[k].canonical(str(params[k].default)) for k, _ in self.vary}
        return next((c.name for c in self.candidates() if c.settings == defaults), None)

    @property
    def seatings(self) -> int:
        """Seat permutations of one candidate against a table of one opponent."""
        return self.players

    def rounds(self) -> list[int]:
        """New games per surviving candidate per round (whole deals for every opponent)."""
        return search.halving_plan(len(self.candidates()), self.budget,
                                   max(search.MIN_ROUND_GAMES,
                                       len(self.against) * len(self.arrangements)
                                       * self.seatings))

    def deals(self, games: int) -> int:
        """Deals per opponent and arrangement for a candidate's `games` of one round."""
        return max(1, games // (len(self.against) * len(self.arrangements) * self.seatings))

    def validate(self) -> None:
        """Everything a round could trip over, before anything is played or written."""
        game = get_game(self.game)
        game.check_players(self.players)
        if self.objective not in OBJECTIVES:
            raise BadInput(f"--objective must be {' or '.join(OBJECTIVES)}, got "
                             f"{self.objective!r}")
        if self.budget <= 0:
            raise BadInput(f"--budget must be positive, got {self.budget}")
        if self.seed < 0:
            raise BadInput(f"--seed must be >= 0, got {self.seed}")
        if self.seating not in SEATINGS:
            raise BadInput(f"--seating must be one of {', '.join(SEATINGS)}, got "
                           f"{self.seating!r}")
        name, _, _ = parse_spec(self.bot)
        if name != "heuristic":
            raise BadInput(f"--bot must be heuristic or heuristic:STYLE, got {self.bot!r}")
        if not self.against:
            raise BadInput("--against needs at least one bot")
        if len(set(self.against)) != len(self.against):
            raise BadInput("--against lists a bot twice")
        self.rounds()
        for spec in self.against:
            make_bot(spec, game)
        for candidate in self.candidates():
            if candidate.spec in self.against:
                raise BadInput(f"candidate {candidate.spec} is also in the league; "
                                 "leave it out of --against")
            try:
                make_bot(candidate.spec, game)
            except BotSpecError as exc:
                raise BadInput(f"--bot {self.bot} with {candidate.name}: {exc}") from None
        game.checked_rules(**self.rules)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "bot": self.bot,
                "vary": [[k, list(v)] for k, v in self.vary], "against": list(self.against),
                "budget": self.budget, "seed": self.seed, "objective": self.objective,
                "rules": self.rules, "seating": self.seating}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TuneSpec:
        """The spec of a tuning record (KeyError, TypeError or ValueError when it is not
        one)."""
        return cls(data["game"], int(data["players"]), data["bot"],
                   tuple((k, tuple(v)) for k, v in data["vary"]), tuple(data["against"]),
                   int(data["budget"]), int(data["seed"]), data["objective"],
                   dict(data.get("rules", {})), data.get("seating", "lone"))

    def command(self) -> str:
        """The `simulate tune` line that plays this search."""
        parts = [f"simulate tune {self.game} --bot {self.bot}"]
        parts += [f"--vary {k}={','.join(v)}" for k, v in self.vary]
        parts += [f"--against {','.join(self.against)}", f"--players {self.players}",
                  f"--budget {self.budget}", f"--seed {self.seed}",
                  f"--seating {self.seating}"]
        parts += [f"--rule {k}={v}" for k, v in self.rules.items()]
        return " ".join(parts)


@dataclass
class TuneResult:
    table: pd.DataFrame  # per candidate: games, win share, interval, difference from the best
    best: str
    tied: list[str]
    games_spent: int
    units: dict[str, pd.DataFrame]  # per candidate: round, opponent, seed, value
    #: The tie rule's verdict (`verdicts.ties_with_best`): its family, the other candidates,
    #: is the one the printed tie line names.
    tie_verdict: verdicts.Verdict


def _models_candidate(spec: TuneSpec, opponent: str) -> bool:
    """Does a lone `opponent` seat need the candidate's style to model its table?  An mcts
    league bot without rollout= does: as a lone seat among candidates it rolls out with the
    candidate, as the default mcts rolls out with the default once a candidate is promoted.
    Otherwise it would score candidates against a search that mistakes them for the
    default."""
    return True in spec.arrangements and exploit.plain_search(opponent)


def candidate_style(spec: TuneSpec, cand: Candidate) -> tuple[str, dict[str, str]]:
    """The candidate as a style file's (base, params): `--bot`'s own style file and
    options first, the candidate's settings over them."""
    from engines.bots.styles import load_style

    _, variant, options = parse_spec(spec.bot)
    if variant is not None and variant.endswith(".toml"):
        style = load_style(variant, get_game(spec.game))
        return style.base, {**style.params, **options, **cand.settings}
    base = "heuristic" if variant is None else f"heuristic:{variant}"
    return base, {**options, **cand.settings}


def write_candidate_styles(spec: TuneSpec, out: Path) -> dict[str, str]:
    """Per candidate, the heuristic spec of its style file under `out/candidates` (what a
    modelling mcts rolls out with); empty when no league bot models the table."""
    from engines.bots.styles import style_text

    if not any(_models_candidate(spec, o) for o in spec.against):
        return {}
    folder = out / "candidates"
    folder.mkdir(parents=True, exist_ok=True)
    specs = {}
    for cand in spec.candidates():
        base, params = candidate_style(spec, cand)
        path = folder / f"{_slug(cand.name).replace('=', '-')}.toml"  # '=' would split it
        path.write_text(style_text(spec.game, base, params,
                                   f"candidate {cand.name} of a tuning run", {}))
        specs[cand.name] = f"heuristic:{path.resolve()}"
    return specs


def check_model_dir(spec: TuneSpec, out: Path) -> None:
    """A modelling mcts names a candidate's style file inside its own spec, where a comma
    or '=' in the path would split it."""
    if any(_models_candidate(spec, o) for o in spec.against):
        text = str(out.resolve())
        if "," in text or "=" in text:
            raise BadInput(f"--out {out}: with mcts in --against the directory's path may "
                           "not contain ',' or '=' (each candidate's style file is named "
                           "in the search's bot spec)")


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=+-]+", "-", text).strip("-") or "x"


def run_tune(spec: TuneSpec, out_dir: str | Path, jobs: int = 1,
             progress: Callable[[int], None] | None = None, backend: str = "loky",
             scheduler: str | None = None, confidence: float = 0.95) -> TuneResult:
    """Race the candidates (resuming any finished comparisons in `out_dir`)."""
    spec.validate()
    out = Path(out_dir)
    check_model_dir(spec, out)
    plan = spec.rounds()
    if not store.check_study_dir(out, TUNE_FILE, spec.to_json(), "tuning run",
                                 lambda data: TuneSpec.from_json(data).to_json()):
        store.write_study_record(out, TUNE_FILE, spec.to_json())
    candidates = {c.name: c for c in spec.candidates()}
    styles = write_candidate_styles(spec, out)
    parts: dict[str, list[pd.DataFrame]] = {name: [] for name in candidates}

    def play(name: str, number: int, games: int) -> int:
        cand = candidates[name]
        played = 0
        for opponent in spec.against:
            for table in spec.arrangements:
                lone = opponent
                if table and _models_candidate(spec, opponent):
                    lone = exploit.modelling(opponent, styles[name])
                # the candidate's mean share over its seats: fair 1 / players either way
                cmp = compare.CompareSpec(game=spec.game, players=spec.players,
                                          games=spec.deals(games) * spec.seatings,
                                          bots=(lone, cand.spec) if table
                                          else (cand.spec, opponent), seed=spec.seed,
                                          rules=dict(spec.rules), fill="last",
                                          seed_branch=TUNE_BRANCH + number)
                where = _slug(opponent) + ("-table" if table else "")
                result = compare.run_duplicate(
                    cmp, out / f"round-{number}" / _slug(name) / where, jobs,
                    progress, backend, scheduler)
                mine = result.frame[result.frame["bot"] == cand.spec]
                per_deal = mine.groupby("seed", sort=True)["win_share"].mean()
                label = f"{opponent} (lone)" if table else opponent
                parts[name].append(pd.DataFrame({"round": number, "opponent": label,
                                                 "seed": per_deal.index,
                                                 "value": per_deal.to_numpy()}))
                played += cmp.deals * len(cmp.seatings)
        return played

    def score(name: str) -> float:
        return -float(pd.concat(parts[name])["value"].mean())

    alive, spent = search.race(list(candidates), plan, play, score)
    units = {name: pd.concat(p, ignore_index=True) for name, p in parts.items() if p}
    return read_units(spec, units, alive[0], spent, confidence)


def read_units(spec: TuneSpec, units: dict[str, pd.DataFrame], best: str, spent: int,
               confidence: float = 0.95) -> TuneResult:
    """The race's per-deal values read as a result: each candidate's win share with its
    interval, its paired difference from `best` on the deals both played, and the candidates
    tied with the best by the verdict layer's rule (`verdicts.ties_with_best`: the paired
    difference is not significant after Holm over the other candidates)."""
    candidates = {c.name: c for c in spec.candidates()}
    rows, differences = [], []
    for name, frame in units.items():
        mean, low, high, _ = balance.mean_interval(frame["value"], confidence)
        row = {"candidate": name, **candidates[name].settings,
               "games": len(frame) * spec.seatings, "win_share": mean,
               "ci_low": low, "ci_high": high,
               "difference": 0.0, "diff_low": 0.0, "diff_high": 0.0, "p": float("nan")}
        if name != best:
            d, d_low, d_high, p = _paired(frame, units[best], confidence)
            row.update(difference=d, diff_low=d_low, diff_high=d_high, p=p)
            differences.append({"candidate": name, "effect": d, "ci_low": d_low,
                                "ci_high": d_high, "p": p})
        rows.append(row)
    table = pd.DataFrame(rows).sort_values(["games", "win_share"], ascending=[False, False])
    tied, verdict = verdicts.ties_with_best(
        pd.DataFrame(differences, columns=["candidate", "effect", "ci_low", "ci_high", "p"]),
        best)
    tied.sort(key=lambda n: -float(units[n]["value"].mean()))
    return TuneResult(table.reset_index(drop=True), best, tied, spent, units, verdict)


def _paired(frame: pd.DataFrame, best: pd.DataFrame, confidence: float
            ) -> tuple[float, float, float, float]:
    """Candidate minus best on the deals both played (same round, opponent and deal):
    (mean, low, high, p)."""
    both = frame.merge(best, on=["round", "opponent", "seed"], suffixes=("", "_best"))
    return balance.mean_interval((both["value"] - both["value_best"]).to_numpy(), confidence)


def _pct(x: float) -> str:
    return f"{x * 100:.1f}%"


def summary_lines(spec: TuneSpec, result: TuneResult) -> list[str]:
    """The result in words (printed by the CLI, used by the notebook and experiment files)."""
    table = result.table.set_index("candidate")
    row = table.loc[result.best]
    fair = 1 / spec.players
    verdict = ("above fair" if row["ci_low"] > fair else
               "below fair" if row["ci_high"] < fair else "not distinguishable from fair")
    # "best" only with its ties: with candidates tied, the best is an estimate among them
    head = "best estimate" if result.tied else "best setting"
    lines = [f"{head}: {result.best} — win share {_pct(row['win_share'])} "
             f"[{_pct(row['ci_low'])}, {_pct(row['ci_high'])}] over {int(row['games']):,} "
             f"games against {', '.join(spec.against)}, {_seating_words(spec.seating)} "
             f"(fair {_pct(fair)}: {verdict})"]
    others = result.tie_verdict.family_size
    family = f"Holm over the {others} other candidate{'s' if others != 1 else ''}"
    if result.tied:
        parts = [f"{name} ({table.loc[name, 'difference'] * 100:+.1f} points "
                 f"[{table.loc[name, 'diff_low'] * 100:+.1f}, "
                 f"{table.loc[name, 'diff_high'] * 100:+.1f}] unadjusted 95%, "
                 f"{int(table.loc[name, 'games']):,} games)" for name in result.tied]
        lines.append("tied with the best: " + "; ".join(parts) + " (paired difference from "
                     f"the best not significant after {family})")
    elif others:
        lines.append("tied with the best: none (every other candidate's paired difference "
                     f"from the best is significant after {family})")
    default = spec.default_candidate()
    if default is not None:
        lines.append(_default_line(default, result, table, family))
    modelling = [o for o in spec.against if _models_candidate(spec, o)]
    if modelling:
        lines.append(f"{', '.join(modelling)}, alone against a table of a candidate, rolls out "
                     f"with that candidate (as it rolls out with the default once a candidate "
                     f"is promoted)")
    lines.append(f"games spent: {result.games_spent:,} of a budget of {spec.budget:,} "
                 f"({len(spec.candidates())} candidates; rounds of "
                 f"{', '.join(map(str, spec.rounds()))} games per survivor)")
    return lines


def _default_line(default: str, result: TuneResult, table: pd.DataFrame, family: str) -> str:
    """Where the shipped default stands: as good as anything found when it is the best or
    tied with it, else how far below the best (its paired difference)."""
    name = f"the shipped default {default}"
    if default == result.best and not result.tied:
        return (f"{name} is the best setting found (every other candidate's paired "
                f"difference from it is significant after {family})")
    if default == result.best:
        return (f"{name} is the best estimate, tied with {', '.join(result.tied)}: the default "
                "is as good as anything found")
    if default in result.tied:
        return (f"{name} is tied with the best: the default is as good as anything found "
                f"(its paired difference from the best is not significant after {family})")
    row = table.loc[default]
    return (f"{name} is below the best: {row['difference'] * 100:+.1f} points "
            f"[{row['diff_low'] * 100:+.1f}, {row['diff_high'] * 100:+.1f}] unadjusted 95%, "
            f"significant after {family}")


def _seating_words(seating: str) -> str:
    return {"lone": "one candidate seat against a table of each",
            "table": "each alone against a table of the candidate",
            "both": "half as one candidate seat against a table of each, half with each "
                    "alone against a table of the candidate"}[seating]


def style_record(spec: TuneSpec, result: TuneResult) -> dict[str, Any]:
    """What a style file keeps of the search that found it."""
    row = result.table.set_index("candidate").loc[result.best]
    return {"command": spec.command(), "budget": spec.budget,
            "games_spent": result.games_spent, "league": list(spec.against),
            "players": spec.players, "seed": spec.seed, "objective": spec.objective,
            "seating": spec.seating, "win_share": round(float(row["win_share"]), 4),
            "ci": [round(float(row["ci_low"]), 4), round(float(row["ci_high"]), 4)],
            "tied": list(result.tied)}


def style_file_text(spec: TuneSpec, result: TuneResult) -> str:
    """The best setting as a style file (`heuristic:FILE.toml`; see engines.bots.styles)."""
    from engines.bots.styles import style_text

    best = next(c for c in spec.candidates() if c.name == result.best)
    return style_text(spec.game, spec.bot, best.settings,
                      f"{spec.bot} tuned by simulate tune ({spec.objective} against "
                      f"{', '.join(spec.against)}, {spec.players} players)",
                      style_record(spec, result))


def check_style_path(path: Path) -> None:
    """A style file must be a .toml file in an existing, writable directory (checked before
    play)."""
    if path.suffix.lower() != ".toml":
        raise BadInput(f"--style-out {path} must be a .toml file")
    if path.is_dir():
        raise BadInput(f"--style-out {path} is a directory")
    if not path.parent.exists():
        raise BadInput(f"cannot write {path}: directory {path.parent} does not exist")
    if not os.access(path.parent, os.W_OK | os.X_OK):  # found now, not after the whole tune
        raise BadInput(f"cannot write {path}: directory {path.parent} is not writable")


def load_tune(out_dir: str | Path) -> TuneSpec:
    """The spec recorded in a tuning directory (for notebooks and resuming)."""
    path = Path(out_dir) / TUNE_FILE
    try:
        return TuneSpec.from_json(json.loads(path.read_text()))
    except FileNotFoundError:
        raise BadInput(f"{out_dir} holds no tuning run ({TUNE_FILE} missing)") from None
    except (OSError, KeyError, TypeError, ValueError) as exc:
        raise BadInput(f"{path} is unreadable or corrupt: {exc}") from None


#: The keys of a `[[tune]]` table, with what each holds (`tables.check_table`).
TUNE_KEYS: tables.Schema = {
    "label": ("a non-empty string", tables.Text), "game": ("one game's name", str),
    "players": ('a player count or "default"', int, Literal["default"]),
    "bot": ("a heuristic spec", tables.Text),
    "vary": ('a table of PARAM = [values] or "lo..hi[:step]", or a list of parameter names',
             dict, list[str]),
    "against": ("a bot spec or a list of bot specs", tables.Text, list[tables.Text]),
    "budget": ("a positive integer", int), "objective": ("a string", str),
    "rules": ("a table of rule options", dict), "seating": ("lone, table or both", str),
}


def from_table(table: Any, where: str, out_dir: Path, seed: int, scale: float = 1.0
               ) -> tuple[Path, TuneSpec]:
    """A `[[tune]]` table of an experiment file as (directory, spec)::

        [[tune]]
        game = "tabula-rasa"
        players = 3
        bot = "heuristic"                      # heuristic[:STYLE]
        vary = {spread = "0.2..1.0:0.2", castle_weight = [2, 4, 6]}   # or ["spread", ...]
        against = ["heuristic", "heuristic:v1"]   # default: heuristic (+ heuristic:v1)
        budget = 4000                          # scaled by --scale
        seating = "both"                       # lone, table or both (SEATINGS)

    The best setting is written beside the runs as DIRECTORY/best.toml."""
    game_name = tables.table_game(table, where, TUNE_KEYS)
    try:
        game = get_game(game_name)
        players = table.get("players", game.players_default)
        players = game.players_default if players == "default" else players
        vary = table.get("vary")
        if isinstance(vary, dict):
            pairs = [k if v is True else
                     f"{k}={','.join(map(_value_text, v)) if isinstance(v, list) else v}"
                     for k, v in vary.items()]
        elif isinstance(vary, list) and all(isinstance(v, str) for v in vary):
            pairs = list(vary)
        else:
            raise BadInput("vary must be a table of PARAM = [values] or \"lo..hi[:step]\", "
                             "or a list of parameter names")
        against = table.get("against")
        league = (tune_league(against) if against is not None
                  else default_league(game_name))
        budget = tables.positive_int(table.get("budget", 4000), "budget")
        rules = table.get("rules", {})
        spec = TuneSpec(game_name, players, str(table.get("bot", "heuristic")),
                        parse_vary(game_name, pairs), league,
                        max(1, math.ceil(budget * scale)), seed,
                        str(table.get("objective", "win_share")), dict(rules),
                        str(table.get("seating", "both")))
        spec.validate()
    except (ValueError, BotSpecError) as exc:
        raise BadInput(f"{where}: {exc}") from None
    label = table.get("label") or f"tune-{game_name}-{players}p"
    path = out_dir / _slug(str(label))
    try:
        check_model_dir(spec, path)
    except ValueError as exc:
        raise BadInput(f"{where}: {exc}") from None
    return path, spec


def _value_text(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def tune_league(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadInput("against must be a list of bot specs")
    return tuple(value)
