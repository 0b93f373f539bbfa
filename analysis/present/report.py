"""One self-contained HTML report for one or more runs: charts as base64 PNG, tables, manifests.

The file needs no network and no scripts: it opens the same in any browser, offline, and can
be mailed around.  A path may be a run directory, or a directory holding runs (a duplicate
comparison or an experiment), which are then all included.
"""

from __future__ import annotations

import base64
import html
import os
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.present import coverage, plots
from analysis.present.formats import percent, seats_from_one
from analysis.results import store
from analysis.stats import balance, findings, robustness
from engines.core import AVAILABILITY_EVERY
from engines.errors import BadInput

PERCENT_COLUMNS = {
    "used_share", "available_share", "used_when_available",
    "win_share", "ci_low", "ci_high", "fair", "first_share", "first_edge", "edge_low",
    "edge_high", "best_share", "worst_share", "first_edge_low", "first_edge_high", "balance",
    "tie_rate", "truncated_rate", "zero_margin", "share", "half_width", "first_mde", "mde",
    "effect", "confirm_share",
}
MANIFEST_FIELDS = ["run_id", "game", "players", "games", "bots", "seed", "rules_str", "dataset",
                   "rotate", "package_version", "engine_build", "created"]
MAX_CONTEXT_CHARTS = 12


def find_runs(paths: Sequence[str | os.PathLike]) -> list[Path]:
    """Run directories named by `paths`: each a run, or a directory with runs below it."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if not path.is_dir():
            raise store.RunError(f"{path} is not a directory")
        if (path / store.MANIFEST).is_file():
            found.append(path)
            continue
        below = sorted(p.parent for p in path.rglob(store.MANIFEST))
        if not below:
            raise store.RunError(f"{path} is not a results run (no {store.MANIFEST}) "
                                   "and holds no runs")
        found.extend(below)
    return list(dict.fromkeys(found))


def load(paths: Sequence[str | os.PathLike], allow_incomplete: bool = False,
         ) -> tuple[pd.DataFrame, list[dict[str, Any]]]:
    """The stacked frame of every run found, and their manifests (in the same order).

    Confirmation runs (fresh deals beside a run, `findings.confirm`) are not runs of their
    own: they are left out here and read back when findings are confirmed.  A run with a
    missing or bad part raises `RunError` unless `allow_incomplete`; then its manifest
    carries the warning (`incomplete`), which the report shows.
    """
    run_dirs = [d for d in find_runs(paths)
                if not findings.is_confirmation(store.read_manifest(d))]
    if not run_dirs:
        raise store.RunError("only confirmation runs found; name the original runs")
    frames = [store.load_run(d, allow_incomplete=allow_incomplete) for d in run_dirs]
    manifests = [f.attrs["manifest"] | {"path": str(d), "incomplete": f.attrs["incomplete"]}
                 for f, d in zip(frames, run_dirs)]
    # copy(): runs of different games have different k_ columns; the stacked frame comes out
    # in many blocks, and every later column added to it warned (PerformanceWarning)
    frame = pd.concat(frames, ignore_index=True).copy()
    frame.attrs = {}
    return frame, manifests


# --------------------------------------------------------------------------------------------
# Formatting
# --------------------------------------------------------------------------------------------


def _num(x: Any) -> str:
    if isinstance(x, (bool, np.bool_)):
        return "yes" if x else "no"
    if isinstance(x, (int, np.integer)):
        return f"{x:,}"
    if isinstance(x, (float, np.floating)):
        if pd.isna(x):
            return "–"
        if abs(x) >= 1000:
            return f"{x:,.0f}"
        return f"{x:.3g}" if abs(x) < 0.01 else f"{x:.2f}"
    return str(x)


def _context_label(row: pd.Series | dict) -> str:
    rules = row.get("rules", "") or "official rules"
    return f"{row.get('game', '')}, {row.get('players')} players, {rules}"


def table_html(frame: pd.DataFrame, caption: str = "") -> str:
    """A plain HTML table in its own box (a wide table scrolls sideways inside it instead of
    running off the page); shares as percentages, seats numbered from 1."""
    if frame is None or frame.empty:
        return f"<p class='empty'>{html.escape(caption)}: no data.</p>"
    out = seats_from_one(frame.reset_index() if not isinstance(frame.index, pd.RangeIndex)
                         else frame)
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in out.columns)
    body = []
    for row in out.itertuples(index=False):
        cells = []
        for column, value in zip(out.columns, row):
            if column in PERCENT_COLUMNS or column.startswith("share"):
                text = percent(value) if isinstance(value, (float, np.floating)) else _num(value)
            elif column == "rules" and not value:
                text = "official"
            else:
                text = _num(value)
            cells.append(f"<td>{html.escape(text)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return (f"<div class='table-box'><table>{cap}<thead><tr>{head}</tr></thead><tbody>"
            + "".join(body) + "</tbody></table></div>")


def image_html(fig, alt: str) -> str:
    data = base64.b64encode(plots.to_png(fig)).decode("ascii")
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def charts_html(chart: Callable[..., Any], frame: pd.DataFrame, alt: str, *args: Any,
                panels: int = plots.MAX_PANELS) -> str:
    """`chart(part, *args)` for each game of the frame (`plots.per_game`): one image per game,
    its alt text naming the game when there are several."""
    parts = plots.per_game(frame, panels)
    return "".join(image_html(chart(part, *args), f"{alt}: {label}" if len(parts) > 1 else alt)
                   for label, part in parts)


def tables_by_game(table: pd.DataFrame, caption: str,
                   shape: Callable[[pd.DataFrame], pd.DataFrame] | None = None) -> str:
    """One table per game (captioned with it, without a game column), each `shape`d first: a
    table of many games' runs otherwise lists them all in one long run of rows."""
    if table is None or table.empty or "game" not in table:
        return table_html(shape(table) if shape and table is not None and len(table)
                          else table, caption)
    parts = []
    for game, part in table.groupby("game", sort=True):
        part = part.drop(columns="game")
        parts.append(table_html(shape(part) if shape else part, f"{game}: {caption}"))
    return "".join(parts)


# --------------------------------------------------------------------------------------------
# Headline findings
# --------------------------------------------------------------------------------------------


def _select(table: pd.DataFrame, key: dict) -> pd.DataFrame:
    return table[np.logical_and.reduce([table[c] == v for c, v in key.items()])]


def headlines(frame: pd.DataFrame, tests: pd.DataFrame | None = None) -> list[str]:
    """Plain-language findings, one context at a time (seat 1 moves first).

    `tests` is the adjusted (and perhaps confirmed) family from `findings`; every "significant"
    below is after adjustment, and a finding refuted on fresh deals is said to be chance.
    """
    tests = findings.family(frame) if tests is None else tests
    lines: list[str] = []
    if len(tests):
        significant = tests[tests["significant"]]
        confirmed = significant["confirmed"]
        lines.append(
            f"{len(significant)} of {len(tests)} tests are significant after "
            f"{balance.ADJUST_METHODS[findings.FAMILY_METHOD]} adjustment; "
            f"{int((confirmed == True).sum())} confirmed on fresh deals, "  # noqa: E712
            f"{int((confirmed == False).sum())} not confirmed, "  # noqa: E712
            f"{int(confirmed.isna().sum())} not replayed.")
    margin = balance.margins(frame)
    separation = balance.source_separation(frame)
    ctx = balance.context_columns(frame)
    for _, row in tests[tests["kind"] == "seat"].iterrows() if len(tests) else []:
        key = {c: row[c] for c in ctx}
        label = _context_label(key)
        teams = balance.teams_for(str(key.get("game", "")), int(key["players"]))
        first = "seat 1 (first to move)"
        if row["subject"] == "team":
            partners = " vs ".join(balance.team_label(teams, t).removeprefix("team of ")
                                   for t in range(len(teams)))
            first = f"the partnership of seat 1 (first to move; teams {partners})"
        lines.append(
            f"{label}: {first} wins {percent(row['share'])} ± {percent(row['half_width'])} against "
            f"a fair {percent(row['fair'])} over {row['games']:,} games (χ² p = "
            f"{row['p_value']:.3g}); {findings.verdict(row)}.")
        if findings.holds(row):
            best = balance.team_label(teams, next(i for i, t in enumerate(teams)
                                                if row["best_seat"] in t))
            worst = balance.team_label(teams, next(i for i, t in enumerate(teams)
                                                 if row["worst_seat"] in t))
            lines.append(f"{label}: {best} does best ({percent(row['best_share'])}), {worst} "
                         f"worst ({percent(row['worst_share'])}).")
        m = _select(margin, key)
        if len(m):
            m = m.iloc[0]
            if len(teams) < int(key["players"]):
                lines.append(f"{label}: partners share every win of their team (no tie); "
                             f"{percent(m['tie_rate'])} of games end in a win shared between "
                             f"teams; the winning team leads by {m['mean_margin']:.2f} points "
                             "on average.")
            else:
                lines.append(f"{label}: {percent(m['tie_rate'])} of games end in a shared win; "
                             f"the winner leads the runner-up by {m['mean_margin']:.2f} points "
                             "on average.")
        sep = _select(separation, key)
        sep = sep[sep["source"] != "score"].dropna(subset=["effect"])
        if len(sep):
            top = sep.loc[sep["effect"].abs().idxmax()]
            lines.append(f"{label}: '{top['source']}' points separate winners most "
                         f"(winners {top['winners_mean']:.2f} vs others "
                         f"{top['others_mean']:.2f} a game; effect size d = {top['effect']:.2f}).")
    for _, row in tests[tests["kind"] == "bot"].iterrows() if len(tests) else []:
        label = _context_label({c: row[c] for c in ctx})
        lines.append(f"{label}: {row['subject']} wins {percent(row['share'])} ± "
                     f"{percent(row['half_width'])} of its seat-games "
                     f"(fair {percent(row['fair'])}; "
                     f"interval clustered by deal); {findings.verdict(row)}.")
    return lines


def tests_table(tests: pd.DataFrame) -> pd.DataFrame:
    """The family as the report shows it: raw and adjusted p, detectable effect, confirmation."""
    if tests.empty:
        return tests
    columns = [c for c in balance.CONTEXT if c in tests] + [
        "kind", "subject", "games", "share", "fair", "effect", "mde", "p_value", "p_adjusted",
        "significant", "confirm_games", "confirm_share", "confirm_p", "confirmed"]
    out = tests[columns].copy()
    out["confirm_games"] = pd.Series([int(g) if g == g else np.nan for g in out["confirm_games"]],
                                     index=out.index, dtype=object)
    out["confirmed"] = out["confirmed"].map(
        lambda v: "–" if v is None or v is np.nan else ("yes" if v else "no"))
    return out


# --------------------------------------------------------------------------------------------
# The document
# --------------------------------------------------------------------------------------------

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; padding-bottom: .2em; }
.table-box { max-width: 100%; overflow-x: auto; margin: .8em 0 1.6em; }
table { border-collapse: collapse; font-size: .85em; }
th, td { border: 1px solid #ddd; padding: .25em .6em; text-align: right; }
th { background: #f3f3f3; } caption { text-align: left; font-weight: bold; padding: .3em 0; }
img { max-width: 100%; display: block; margin: .6em 0 1.2em; }
.note { color: #555; font-size: .9em; } li { margin: .25em 0; }
.warning { border: 2px solid #C44E52; background: #fdf1f1; padding: .6em 1em; margin: 1em 0; }
"""


def _with_adjusted(table: pd.DataFrame, seat_p: pd.DataFrame | None,
                   name: str) -> pd.DataFrame:
    """A per-context table with the family's adjusted seat p-value beside the raw one."""
    if seat_p is None or seat_p.empty or table.empty:
        return table
    ctx = [c for c in balance.CONTEXT if c in table and c in seat_p]
    return table.merge(seat_p.rename(columns={"p_adjusted": name}), on=ctx, how="left")


def _sources_wide(table: pd.DataFrame) -> pd.DataFrame:
    """One game's mean points by source as rows of context and seat (or bot), a column per
    source, and the total."""
    rows = [c for c in table.columns if c not in ("source", "mean_points", "share")]
    wide = table.pivot_table(index=rows, columns="source", values="mean_points", sort=True)
    wide.columns.name = None
    wide["total"] = wide.sum(axis=1)
    return wide.reset_index()


def _adjusted_separation(frame: pd.DataFrame) -> pd.DataFrame:
    table = balance.source_separation(frame)
    if len(table) and "p_value" in table:
        table["p_adjusted"] = balance.adjust_pvalues(table["p_value"], "bh")
    return table


def _skipped_warning(frame: pd.DataFrame) -> str:
    """A box under the title when some bot skipped an available system: the figures below
    then describe a smaller game than the rules (issue 15)."""
    lines = [line for line in coverage.neglect_lines(frame) if "never used" in line]
    if not lines:
        return ""
    return ("<div class='warning'><strong>These figures come from bots that skip part of the "
            "game.</strong><ul>" + "".join(f"<li>{html.escape(line)}</li>" for line in lines)
            + "</ul>See <a href='#game-systems-used'>Game systems used</a>.</div>")


def systems_section(frame: pd.DataFrame) -> str:
    """Section "Game systems used": which action kinds each bot chose, against availability."""
    lines = coverage.neglect_lines(frame)
    if not lines:
        return _section("Game systems used", "<p class='note'>These runs recorded no action "
                        "kinds (made before kinds were recorded, or the game declares none).</p>")
    return _section(
        "Game systems used",
        "<p class='note'>Every decision is classified by the game's action kinds (its "
        "systems). used: share of the bot's games in which it chose the kind at least once; "
        "available: share in which the kind was legal at one of the bot's decisions, "
        f"measured in every {AVAILABILITY_EVERY}th game of a run (measured games). A kind "
        f"used in under {coverage.RARELY:.0%} of the games although available in at least "
        f"{coverage.OFFERED:.0%} is named below: figures from such bots describe a game "
        "without that system.</p>",
        "<ul>" + "".join(f"<li>{html.escape(line)}</li>" for line in lines) + "</ul>",
        charts_html(plots.systems_used, frame, "game systems used per bot", panels=4),
        tables_by_game(balance.coverage(frame), "action kinds (rows) per player count: share "
                       "of the bot's games in which the kind was used, and available",
                       coverage.by_kind))


def robustness_section(frame: pd.DataFrame) -> str:
    """Section "Does it hold with other bots?": seat and source shares per line-up, verdicts."""
    frame = robustness.with_lineups(frame)
    ctx = balance.context_columns(frame)
    checks = robustness.verdicts(frame)
    items = [f"{_context_label(row)}: {row['verdict']} ({row['details']})"
             for row in checks.to_dict("records")]
    seats, sources = robustness.seat_shares(frame), robustness.source_shares(frame)
    tables = []
    for key, group in frame.groupby(ctx, sort=True):
        if group["lineup"].nunique() < 2:
            continue
        key = key if isinstance(key, tuple) else (key,)
        where = dict(zip(ctx, key))
        label = _context_label(where)

        def pick(table: pd.DataFrame, where=where) -> pd.DataFrame:
            mask = np.logical_and.reduce([table[c] == v for c, v in where.items()])
            return table[mask]

        tables += [f"<h3>{html.escape(label)}</h3>",
                   table_html(robustness.side_by_side(pick(seats), "seat"),
                              "Win share by seat under each line-up [95% Wilson interval]")]
        if len(sources):
            tables.append(table_html(robustness.side_by_side(pick(sources), "source"),
                                     "Share of all points by scoring source under each "
                                     "line-up [95% interval, games as units]"))
    return _section(
        "Does it hold with other bots?",
        "<p class='note'>Each headline conclusion of the default heuristic line-up, checked "
        "under every other line-up of these runs (random, other heuristic styles, MCTS — "
        "MCTS runs have fewer games, so wider intervals). Significant: seat win share off "
        "the fair share with p < 0.05 after Benjamini–Hochberg adjustment over every seat "
        "of every line-up shown here.</p>",
        "<ul>" + "".join(f"<li>{html.escape(item)}</li>" for item in items) + "</ul>",
        charts_html(plots.seats_by_lineup, frame, "win share by seat under each line-up"),
        *tables)


def _section(title: str, *parts: str) -> str:
    anchor = "".join(c if c.isalnum() else "-" for c in title.lower()).strip("-")
    return f"<section id='{anchor}'><h2>{html.escape(title)}</h2>{''.join(parts)}</section>"


def _manifest_table(manifests: list[dict[str, Any]]) -> pd.DataFrame:
    rows = []
    for m in manifests:
        row = {k: m.get(k, "") for k in MANIFEST_FIELDS}
        row["bots"] = ", ".join(m.get("bots", []))
        row["rules_str"] = row["rules_str"] or "official"
        row["path"] = m.get("path", "")
        rows.append(row)
    return pd.DataFrame(rows).rename(columns={"rules_str": "rules", "dataset": "data set"})


def page(title: str, body: str) -> str:
    """A whole HTML page around `body`, in the report's style."""
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>"
            f"<h1>{html.escape(title)}</h1>{body}</body></html>")


def render(frame: pd.DataFrame, manifests: list[dict[str, Any]], title: str = "",
           bootstrap: int = 100, tests: pd.DataFrame | None = None,
           extra: Sequence[str] = ()) -> str:
    """The report's HTML text for an already loaded frame (`tests`: see `findings.family`;
    `extra`: further sections, such as what-if sweeps, placed before the manifests)."""
    tests = findings.family(frame) if tests is None else tests
    seat_p = (tests[tests["kind"] == "seat"][balance.context_columns(frame) + ["p_adjusted"]]
              if len(tests) else None)
    ctx = balance.context_columns(frame)
    contexts = list(frame.groupby(ctx, sort=True)) if ctx else [((), frame)]
    multi_bot = frame["bot"].nunique() > 1
    title = title or "Balance report: " + ", ".join(sorted(frame["game"].unique()))
    parts = [f"<h1>{html.escape(title)}</h1>",
             f"<p class='note'>Generated {html.escape(time.strftime('%Y-%m-%d %H:%M'))} from "
             f"{len(manifests)} run(s), {frame.groupby(balance.GAME_KEY).ngroups:,} games. "
             "Seats are numbered from 1; seat 1 moves first. Intervals are 95%. Win share "
             "counts 1/k for a k-way shared win; truncated games are left out of win shares.</p>"]
    parts += [f"<p class='note'><strong>{html.escape(m['incomplete'])}</strong></p>"
              for m in manifests if m.get("incomplete")]
    parts.append(_section(
        "Headline findings",
        f"<p class='note'>{html.escape(findings.describe_correction(tests))} A significant "
        "finding is replayed on fresh deals (an independent seed branch, as many games) and "
        "reported confirmed or not; the detectable effect is the smallest edge these games "
        "find with 80% power. See docs/reading-findings.md.</p>",
        "<ul>" + "".join(f"<li>{html.escape(line)}</li>"
                         for line in headlines(frame, tests)) + "</ul>",
        table_html(tests_table(tests), "The tests behind the findings: raw and adjusted p, "
                                       "minimum detectable effect (mde), confirmation")))
    parts.insert(1, _skipped_warning(frame))
    parts.append(systems_section(frame))
    if robustness.has_lineups(frame):
        parts.append(robustness_section(frame))
    parts.append(_section(
        "Balance table (per game and player count)",
        "<p class='note'>first edge: seat 1's win share minus the fair share; balance: 1 − "
        "(best − worst seat share), 100% = perfectly even; seat p: chi-square test of seat "
        "wins against the fair share (teams in partnership games), seat p adjusted: the same "
        "after Benjamini–Hochberg over the report's tests; decisiveness: mean winning margin "
        "in points; rounds and lead changes come from the engine's metrics when it reports "
        "them.</p>",
        table_html(_with_adjusted(balance.balance_table(frame), seat_p, "seat_p_adjusted"))))
    parts.append(_section(
        "Seat advantage", charts_html(plots.seat_advantage, frame, "win share by seat"),
        table_html(_with_adjusted(balance.seat_advantage(frame), seat_p, "p_adjusted"),
                   "Chi-square test (teams in partnership games) and first-seat edge; "
                   "p adjusted over the report's tests"),
        table_html(balance.seat_tests(frame),
                   ("Win share by team (partners win together) and each seat or team"
                    if balance.has_teams(frame) else "Each seat") +
                   " against the fair share: p adjusted with Holm over the units of each game "
                   "and player count; mde = smallest deviation these games detect with 80% "
                   "power"),
        tables_by_game(balance.seat_win_share(frame), "win share by seat")))
    if multi_bot:
        bot_parts = [table_html(balance.win_share(frame, ctx + ["bot"]), "Win share by bot")]
        for _, group in contexts[:MAX_CONTEXT_CHARTS]:
            if group["bot"].nunique() < 2:
                continue
            label = _context_label(group.iloc[0])
            table = balance.ratings(group, bootstrap=bootstrap)
            bot_parts += [
                f"<h3>{html.escape(label)}</h3>",
                table_html(balance.clustered_win_share(group),
                           "Win share by bot, interval clustered by deal (duplicate-aware)"),
                image_html(plots.rating_ladder(table), f"rating ladder {label}"),
                table_html(table, "Plackett-Luce ratings (openskill), 95% bootstrap interval"),
                table_html(balance.pairwise_matrix(group).map(percent),
                           "Pairwise: share of meetings the row bot finishes ahead of the "
                           "column bot"),
            ]
        parts.append(_section("Bots", *bot_parts))
    parts.append(_section(
        "Scores", charts_html(plots.score_distributions, frame, "score distributions",
                              "bot" if multi_bot else "seat"),
        tables_by_game(balance.score_distribution(frame, "seat"), "score by seat"),
        table_html(balance.margins(frame), "Winning margins and ties")))
    if balance.source_columns(frame):
        parts.append(_section(
            "Scoring balance",
            charts_html(plots.scoring_sources, frame, "points by source per seat", "seat"),
            tables_by_game(_adjusted_separation(frame),
                           "how much each source separates winners from the others (Welch "
                           "t-test; p adjusted with Benjamini–Hochberg over the tests of "
                           "every game's table)"),
            tables_by_game(balance.scoring_balance(frame, "bot" if multi_bot else "seat"),
                           "mean points by source", _sources_wide)))
    conv = charts_html(plots.convergence, frame, "convergence",
                       "bot" if multi_bot else "seat")
    shares = sorted({0.5, *[round(1 / p, 3) for p in frame["players"].unique()]})
    parts.append(_section(
        "Precision", conv,
        table_html(balance.games_needed([0.05, 0.02, 0.01, 0.005], shares),
                   "Seat-games needed for a 95% interval of ± half width")))
    from analysis.present.transcript import report_section  # replays games: only when reporting

    parts.append(_section("Example games", report_section(manifests)))
    parts.extend(extra)
    parts.append(_section("Runs (manifests)", table_html(_manifest_table(manifests))))
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>"
            + "".join(parts) + "</body></html>")


def check_report_path(out: str | os.PathLike, option: str = "--out",
                      made: str | os.PathLike | None = None, html_only: bool = False) -> Path:
    """Refuse a report path that cannot be written, before any game is played: a directory,
    a missing or unwritable parent directory (unless it is `made`, the results directory
    the command creates first), or with `html_only` a name without .html/.htm."""
    out = Path(out)
    if html_only and out.suffix.lower() not in (".html", ".htm"):
        raise BadInput(f"{option} {out} must be an .html file")
    if out.is_dir():
        raise BadInput(f"{option} {out} is a directory; give a file name such as report.html")
    parent = out.parent
    if made is not None and parent.resolve() == Path(made).resolve() and not parent.exists():
        return out
    if not parent.is_dir():
        raise BadInput(f"cannot write {option} {out}: directory {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise BadInput(f"cannot write {option} {out}: directory {parent} is not writable")
    return out


def write_report(paths: Sequence[str | os.PathLike], out: str | os.PathLike,
                 title: str = "", bootstrap: int = 100, confirm: bool = False,
                 confirm_games: int | None = None, jobs: int = 1,
                 announce: Callable[[str], None] | None = None, backend: str = "loky",
                 scheduler: str | None = None, extra: Sequence[str] = (),
                 allow_incomplete: bool = False) -> Path:
    """Load the runs under `paths` and write the report to `out` (atomically).

    With `confirm`, every finding significant after adjustment is first replayed on fresh
    deals beside its runs (`findings.confirm`; at least `confirm_games` games each).
    `allow_incomplete` reports the games on disk of a run with missing or bad parts, with a
    warning line (to `announce`, or as a Python warning) and in the report.
    """
    out = check_report_path(out)
    if confirm_games is not None and confirm_games <= 0:
        raise BadInput(f"--confirm-games must be positive, got {confirm_games}")
    frame, manifests = load(paths, allow_incomplete)
    for manifest in manifests:
        if manifest.get("incomplete"):
            (announce or warnings.warn)(manifest["incomplete"])
    tests = findings.family(frame)
    if confirm:
        tests = findings.confirm(tests, manifests, confirm_games, jobs, announce, backend,
                                 scheduler)
    text = render(frame, manifests, title, bootstrap, tests, extra)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, out)
    return out
