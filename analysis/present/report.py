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
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.present import coverage, plots, transcript
from analysis.present.formats import cell, context_label, percent, seat_order, seats_from_one
from analysis.stats import balance, findings, robustness, verdicts
from engines.core import AVAILABILITY_EVERY
from engines.errors import BadInput

MANIFEST_FIELDS = ["run_id", "game", "players", "games", "bots", "seed", "rules_str", "dataset",
                   "rotate", "package_version", "engine_build", "created"]
MAX_CONTEXT_CHARTS = 12


# --------------------------------------------------------------------------------------------
# Formatting
# --------------------------------------------------------------------------------------------


def table_html(frame: pd.DataFrame, caption: str = "", shares: Collection[str] = (),
               numbers: Collection[str] = ()) -> str:
    """A plain HTML table in its own box (a wide table scrolls sideways inside it instead of
    running off the page); shares as percentages (`formats.cell`: also `shares`, never
    `numbers`), seats numbered from 1."""
    if frame is None or frame.empty:
        return f"<p class='empty'>{html.escape(caption)}: no data.</p>"
    out = seats_from_one(frame.reset_index() if not isinstance(frame.index, pd.RangeIndex)
                         else frame)
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in out.columns)
    body = []
    for row in out.itertuples(index=False):
        cells = "".join(f"<td>{html.escape(cell(column, value, shares, numbers))}</td>"
                        for column, value in zip(out.columns, row))
        body.append(f"<tr>{cells}</tr>")
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


def tables_by_game(table: pd.DataFrame, caption: str | Callable[[str], str],
                   shape: Callable[[pd.DataFrame], pd.DataFrame] | None = None) -> str:
    """One table per game (captioned with it, without a game column), each `shape`d first: a
    table of many games' runs otherwise lists them all in one long run of rows.  `caption`
    may depend on the game (a function of its name)."""
    def text(game: str) -> str:
        return caption(game) if callable(caption) else caption

    if table is None or table.empty or "game" not in table:
        return table_html(shape(table) if shape and table is not None and len(table)
                          else table, text(""))
    parts = []
    for game, part in table.groupby("game", sort=True):
        part = part.drop(columns="game")
        parts.append(table_html(shape(part) if shape else part, f"{game}: {text(game)}"))
    return "".join(parts)


def _own_partners(table: pd.DataFrame) -> pd.DataFrame:
    """One game's seat table without the partnership column another game of the report
    brought in (empty for every seat of a game without partners)."""
    if "partnership" in table and not table["partnership"].astype(bool).any():
        return table.drop(columns="partnership")
    return table


def _units_tested(frame: pd.DataFrame, game: str) -> str:
    """What a game's seat tests test: each seat, or each team at the player counts where
    partners win together (`balance.teams_for`) — never "team" for a game without them."""
    part = frame[frame["game"] == game] if game and "game" in frame else frame
    counts = sorted(int(n) for n in part["players"].unique())
    teamed = [n for n in counts if any(len(t) > 1 for t in balance.teams_for(game, n))]
    if not teamed:
        return "each seat"
    if len(teamed) == len(counts):
        return "win share by team (partners win together): each team"
    return (f"each seat, and at {' and '.join(map(str, teamed))} players each team (partners "
            "win together)")


# --------------------------------------------------------------------------------------------
# Headline findings
# --------------------------------------------------------------------------------------------


def _select(table: pd.DataFrame, key: dict) -> pd.DataFrame:
    return table[np.logical_and.reduce([table[c] == v for c, v in key.items()])]


def _split_label(key: dict) -> str:
    label = context_label(key)
    return label + (f", line-up {key['lineup']}" if key.get("lineup") else "")


def headlines(frame: pd.DataFrame, tests: pd.DataFrame | None = None) -> list[str]:
    """Plain-language findings, the real ones first: a count of the significant tests; one
    line per game × player count (and line-up) whose balance verdict names a seat off the
    fair share (unbalanced first); one per bot of a mixed comparison (significant first);
    then one line per game (rules, line-up) folding its other player counts — balanced or
    undecided, each with its edges — so that many near-identical lines do not hide a finding.

    `tests` is the report's one family (`findings.family`, perhaps confirmed); every
    "significant" below is after its Holm adjustment, and a confirmed finding is quoted
    with its fresh estimate.
    """
    tests = findings.family(frame) if tests is None else tests
    lines: list[str] = []
    if not len(tests):
        return lines
    counted = tests[tests["kind"].isin(["seat", "bot"])]
    significant = counted[counted["significant"]]
    confirmed = significant["confirmed"]
    lines.append(
        f"{len(significant)} of {len(counted)} seat and bot tests are significant after Holm "
        f"over the report's {int(tests['tests'].iloc[0])} tests; "
        f"{int((confirmed == True).sum())} confirmed on fresh deals, "  # noqa: E712
        f"{int((confirmed == False).sum())} not confirmed, "  # noqa: E712
        f"{int(confirmed.isna().sum())} not replayed.")
    found: list[tuple[int, str]] = []
    quiet: dict[tuple, list[tuple[dict, verdicts.Verdict]]] = {}
    for key, verdict in findings.balance_verdicts(tests):
        category = verdicts.balance_category(verdict)
        if category in verdicts.FINDING_CATEGORIES:
            found.append((verdicts.FINDING_CATEGORIES.index(category),
                          f"{_split_label(key)}: {verdict.claim}."))
        else:
            group = tuple((c, v) for c, v in key.items() if c != "players")
            quiet.setdefault(group, []).append((key, verdict))
    lines += [line for _, line in sorted(found, key=lambda pair: pair[0])]
    ctx = [c for c in balance.CONTEXT + ["lineup"] if c in tests]
    bots = tests[tests["kind"] == "bot"]
    for _, row in bots.sort_values("significant", ascending=False, kind="stable").iterrows():
        label = _split_label({c: row[c] for c in ctx})
        lines.append(f"{label}: {row['subject']} wins {findings.verdict(row)} (interval "
                     "clustered by deal).")
    for group, members in quiet.items():
        if len(members) == 1:  # alone in its game: its own line, as found
            key, verdict = members[0]
            line = f"{_split_label(key)}: {verdict.claim}"
            if verdict.planning:
                line += f" (planning: {verdict.planning})"
            lines.append(line + ".")
            continue
        where = dict(group)
        label = f"{where.get('game', '')}, {where.get('rules') or 'official rules'}" + (
            f", line-up {where['lineup']}" if where.get("lineup") else "")
        lines.append(verdicts.no_finding_line(
            label, [(f"{int(key['players'])} players", verdict) for key, verdict in members])
            + ".")
    return lines


def tests_table(tests: pd.DataFrame) -> pd.DataFrame:
    """The family as the report shows it: raw and adjusted p, detectable effect, confirmation."""
    if tests.empty:
        return tests
    columns = [c for c in balance.CONTEXT + ["lineup"] if c in tests] + [
        "kind", "subject", "games", "share", "ci_low", "ci_high", "fair", "effect", "mde",
        "p_value", "p_adjusted", "significant", "confirm_games", "confirm_share", "confirm_p",
        "confirmed"]
    out = tests[[c for c in columns if c in tests]].copy()
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


def _sources_wide(table: pd.DataFrame) -> pd.DataFrame:
    """One game's mean points by source as rows of context and seat (or bot), a column per
    source, and the total."""
    rows = [c for c in table.columns if c not in ("source", "mean_points", "share")]
    wide = table.pivot_table(index=rows, columns="source", values="mean_points", sort=True)
    wide.columns.name = None
    wide["total"] = wide.sum(axis=1)
    return wide.reset_index()


def _descriptive_separation(frame: pd.DataFrame) -> pd.DataFrame:
    """Source separation as a description (effect size d, correlation): its t-tests are not
    in the report's family, so no p-value is shown that could read as "significant"."""
    table = balance.source_separation(frame)
    return table.drop(columns=["p_value"], errors="ignore")


def _skipped_warning(frame: pd.DataFrame, skipped: list | None = None) -> str:
    """A box under the title when some bot skipped an available system (legal at its own
    decisions, or reached by the reference's play in `skipped`): the figures below then
    describe a smaller game than the rules."""
    lines = [line for line in coverage.neglect_lines(frame, skipped=skipped)
             if "never used" in line]
    lines += [line for line, (_, verdict) in zip(coverage.reference_lines(skipped or []),
                                                 skipped or []) if verdict.items]
    if not lines:
        return ""
    return ("<div class='warning'><strong>These figures come from bots that skip part of the "
            "game.</strong><ul>" + "".join(f"<li>{html.escape(line)}</li>" for line in lines)
            + "</ul>See <a href='#game-systems-used'>Game systems used</a>.</div>")


def systems_section(frame: pd.DataFrame, skipped: list | None = None) -> str:
    """Section "Game systems used": which action kinds each bot chose, against availability
    at its own decisions and (`skipped`: `run.reference.skipped_against_reference`) against
    the reference's play."""
    lines = coverage.neglect_lines(frame, skipped=skipped) + coverage.reference_lines(
        skipped or [])
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


def robustness_section(frame: pd.DataFrame, tests: pd.DataFrame | None = None,
                       checks: pd.DataFrame | None = None) -> str:
    """Section "Does it hold with other bots?": seat and source shares per line-up, verdicts
    from the heterogeneity tests of the report's family (`checks`:
    `findings.robustness_verdicts`, computed here when not given)."""
    frame = robustness.with_lineups(frame)
    ctx = balance.context_columns(frame)
    checks = findings.robustness_verdicts(frame, tests) if checks is None else checks
    items = [f"{context_label(row)}: {row['verdict']}" for row in checks.to_dict("records")]
    seats, sources = robustness.seat_shares(frame), robustness.source_shares(frame)
    tables = []
    for key, group in frame.groupby(ctx, sort=True):
        if group["lineup"].nunique() < 2:
            continue
        key = key if isinstance(key, tuple) else (key,)
        where = dict(zip(ctx, key))
        label = context_label(where)

        def pick(table: pd.DataFrame, where=where) -> pd.DataFrame:
            mask = np.logical_and.reduce([table[c] == v for c, v in where.items()])
            return table[mask]

        tables += [f"<h3>{html.escape(label)}</h3>",
                   table_html(robustness.side_by_side(pick(seats), "seat"),
                              "Win share by seat under each line-up [95% Wilson interval]")]
        if len(sources):
            tables.append(table_html(robustness.side_by_side(pick(sources), "source"),
                                     "Share of all points (counted absolute) by scoring "
                                     "source under each "
                                     "line-up [95% interval, games as units]"))
    return _section(
        "Does it hold with other bots?",
        "<p class='note'>Each seat's share under every line-up of these runs (random, other "
        "heuristic styles, MCTS), compared by a heterogeneity test: χ² of line-up × win for "
        "the seat, Holm-adjusted in the report's one family. 'Holds under every line-up': "
        "the shares cannot be told apart; 'same direction everywhere, size depends on the "
        "bots': they differ (the largest gap is quoted with its 95% interval) but every "
        "line-up finds the edge; 'depends on the bots': some line-up reverses it or shows "
        "none, each line-up's edge read from its seat test in the same family. A line-up "
        "whose interval holds the fair share and is wider than the edge (MCTS plays fewer "
        "games) is listed as too few games to tell and never vetoes. Seat 1 is "
        "always shown, other seats when off the fair share or different between line-ups. "
        "The largest scoring source is a tie when intervals overlap.</p>",
        "<ul>" + "".join(f"<li>{html.escape(item)}</li>" for item in items) + "</ul>",
        charts_html(plots.seats_by_lineup, frame, "win share by seat under each line-up"),
        *tables)


#: The columns of the elements table a report shows, and their headings.
ELEMENT_COLUMNS = {
    "element": "element", "group": "group", "games": "restricted games",
    "offered_share": "offered in", "bit_share": "bit in",
    "restricted_share": "restricted share", "worth": "worth",
    "worth_low": "worth low", "worth_high": "worth high", "worth_p_adjusted": "worth adj. p",
    "played_share": "played in", "played_diff": "played vs not", "played_low": "low",
    "played_high": "high", "played_p_adjusted": "played adj. p",
    "removal_diff": "removed: winning score", "removal_low": "removal low",
    "removal_high": "removal high", "removal_p_adjusted": "removal adj. p",
    "verdict": "verdict",
}


def elements_section(table: pd.DataFrame, lines: Sequence[str], head: str) -> str:
    """Section "Elements: too strong or useless?" of an elements study (`simulate elements`):
    what it played (`head`), the designer lines (`verdicts.element_lines`) and the ranked
    table (`stats.elements.table`), shares and worths in points."""
    shown = table[[c for c in ELEMENT_COLUMNS if c in table]].copy()
    for column in ("worth", "worth_low", "worth_high", "played_diff", "played_low",
                   "played_high"):
        shown[column] = [verdicts.points(x) for x in shown[column]]
    for column in ("offered_share", "bit_share", "restricted_share", "played_share"):
        shown[column] = [percent(x) for x in shown[column]]
    shown = shown.rename(columns=ELEMENT_COLUMNS)
    return _section(
        "Elements: too strong or useless?",
        f"<p class='note'>{html.escape(head)}. Worth: the win share of an unrestricted seat "
        "minus that of a seat forbidden the element (restricted play), in points, paired by "
        "deal, 95% interval clustered by deal. Offered in: the restricted seat's games in "
        "which the element was a legal option beside others; bit in: those in which the "
        "restriction changed the bot's choice. 'Inconsequential' is an equivalence claim: the "
        "whole interval lies within the stated tolerance of zero. Played vs not compares the "
        "win share of the baseline seats that played the element with the others': a "
        "correlation, not a cause. Removed: the change of the winning score in the game "
        "without the element for every seat. All p-values are adjusted with Holm in one "
        "family.</p>",
        "<ul>" + "".join(f"<li>{html.escape(line)}</li>" for line in lines) + "</ul>",
        table_html(shown, "Elements, largest worth first"))


def _seat_orders(frame: pd.DataFrame) -> str:
    """Who takes the first turn in each game and rules of the frame (`formats.seat_order`):
    one clause when they all agree, else one per game (and rules)."""
    places = frame[[c for c in ("game", "rules") if c in frame]].drop_duplicates()
    orders = {}
    for place in places.to_dict("records"):
        order = seat_order(str(place.get("game", "")), place.get("rules", "") or "")
        if order:
            where = place.get("game", "") + (f" ({place['rules']})" if place.get("rules") else "")
            orders[where] = order
    if len(set(orders.values())) <= 1:
        return next(iter(orders.values()), "seat numbers are fixed table positions")
    return "; ".join(f"{where}: {order}" for where, order in sorted(orders.items()))


def _ladder_context(ladder: Any) -> dict[str, Any]:
    """A ladder's context, as the report's labels read it."""
    return {"game": ladder.game, "players": ladder.players, "rules": ladder.rules}


def ladder_section(ladders: Sequence[tuple[Any, Mapping[str, float]]]) -> str:
    """Section "Under stronger play: the skill ladder": per ladder (`stats.ladder.Ladder`,
    and each level's measured games/s) its headline at the strongest level, the edge of
    every seat at every level with its interval and trend verdict, what each level cost,
    and the seats' trend sentences."""
    from analysis.present import ladder as ladders_text

    parts = [f"<p class='note'>{html.escape(ladders_text.NOTE)}</p>"]
    for ladder, cost in ladders:
        label = context_label(_ladder_context(ladder))
        parts += [f"<h3>{html.escape(label)}</h3>",
                  f"<p><strong>{html.escape(ladder.headline())}</strong></p>",
                  table_html(ladders_text.wide(ladder), ladders_text.TABLE_TITLE),
                  f"<p class='note'>{html.escape(ladders_text.cost_text(ladder, cost))}</p>",
                  f"<p>{html.escape(ladders_text.sources_text(ladder))}</p>",
                  "<ul>" + "".join(f"<li>{html.escape(line)}</li>"
                                   for line in ladder.sentences()) + "</ul>"]
    return _section("Under stronger play: the skill ladder", *parts)


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
           extra: Sequence[str] = (), summary: pd.DataFrame | None = None,
           examples: Sequence[tuple[dict[str, Any], Any]] = (),
           example_runs: int | None = None,
           ladders: Sequence[tuple[Any, Mapping[str, float]]] = (),
           skipped: list | None = None, checks: pd.DataFrame | None = None) -> str:
    """The report's HTML text for an already loaded frame (`tests`: see `findings.family`;
    `extra`: further sections, such as what-if sweeps, placed before the manifests;
    `summary`: the designer summary, `designer.summary_table`, computed when not given;
    `skipped`: the systems each bot skipped against a reference
    (`run.reference.skipped_against_reference`; None: not checked); `checks`: the
    robustness verdicts (`findings.robustness_verdicts`), computed when not given;
    `examples`: the example games rebuilt per run (`run.rebuild.report_examples`, of the
    first `example_runs` runs, all by default); `ladders`: skill ladders (`stats.ladder.
    Ladder`, their trends adjusted in `tests`, and each level's games/s), shown right after
    the headline findings)."""
    from analysis.present import designer

    tests = findings.family(frame) if tests is None else tests
    summary = designer.summary_table(frame, tests, skipped=skipped) if summary is None \
        else summary
    ctx = balance.context_columns(frame)
    contexts = list(frame.groupby(ctx, sort=True)) if ctx else [((), frame)]
    multi_bot = frame["bot"].nunique() > 1
    title = title or "Balance report: " + ", ".join(sorted(frame["game"].unique()))
    parts = [f"<h1>{html.escape(title)}</h1>",
             f"<p class='note'>Generated {html.escape(time.strftime('%Y-%m-%d %H:%M'))} from "
             f"{len(manifests)} run(s), {frame.groupby(balance.GAME_KEY).ngroups:,} games. "
             f"Seats are numbered from 1; {html.escape(_seat_orders(frame))}. Intervals are "
             "95%. Win share counts 1/k for a k-way shared win; truncated games are left out "
             "of win shares.</p>"]
    parts += [f"<p class='note'><strong>{html.escape(m['incomplete'])}</strong></p>"
              for m in manifests if m.get("incomplete")]
    parts.append(_section(
        "Headline findings",
        f"<p class='note'>{html.escape(findings.describe_correction(tests))} Balanced within "
        f"×{verdicts.ratio(verdicts.TOLERANCE)} of fair means every seat's (team's) 95% "
        "interval lies between fair / tolerance and fair × tolerance (the same relative "
        "tolerance at every player count) and no seat is off the fair share after adjustment; "
        "a small real edge is a seat off the fair share whose interval is still inside; "
        "unbalanced means a seat's whole interval lies beyond; otherwise the report cannot "
        "tell. A significant "
        "finding is replayed on fresh deals (an independent seed branch, as many games) and "
        "quoted with the fresh estimate, confirmed or not; the detectable effect is a "
        "planning figure (an edge that size would have been seen 80% of the time), not a "
        "bound. See docs/reading-findings.md.</p>",
        "<ul>" + "".join(f"<li>{html.escape(line)}</li>"
                         for line in headlines(frame, tests) + [
                             f"{context_label(_ladder_context(ladder))}, skill ladder: "
                             f"{ladder.headline()}." for ladder, _ in ladders]) + "</ul>",
        table_html(tests_table(tests), "The report's family of tests: raw p and p adjusted "
                                       "with Holm over all of them, minimum detectable effect "
                                       "(mde, a planning figure), confirmation")))
    if ladders:
        parts.append(ladder_section(ladders))
    parts.insert(1, _skipped_warning(frame, skipped))
    parts.insert(1, designer.table_html(summary, designer.note(summary)))
    parts.append(systems_section(frame, skipped))
    if robustness.has_lineups(frame):
        parts.append(robustness_section(frame, tests, checks))
    parts.append(_section(
        "Balance table (per game and player count)",
        "<p class='note'>first edge: seat 1's win share minus the fair share; balance: 1 − "
        "(best − worst seat share), 100% = perfectly even (descriptive: the seat tests are "
        "in Headline findings); decisiveness: mean winning margin in points; rounds and lead "
        "changes come from the engine's metrics when it reports them.</p>",
        table_html(balance.balance_table(frame).drop(columns=["seat_p_value"]))))
    parts.append(_section(
        "Seat advantage", charts_html(plots.seat_advantage, frame, "win share by seat"),
        tables_by_game(tests_table(tests[tests["kind"] == "seat"]) if len(tests) else tests,
                       lambda game: _units_tested(frame, game)
                       + " against the fair share: p adjusted with Holm over the "
                       f"report's one family of {int(tests['tests'].iloc[0]) if len(tests) else 0}"
                       " tests; mde = the edge these games would detect 80% of the time (a "
                       "planning figure)"),
        tables_by_game(balance.seat_win_share(frame), "win share by seat", _own_partners)))
    mixed = findings.mixed_games(frame)
    if len(mixed):  # one bot in every seat wins exactly its fair share: nothing to compare
        bot_parts = [table_html(balance.win_share(mixed, ctx + ["bot"]),
                                "Win share by bot (games seating two or more bots)")]
        for _, group in contexts[:MAX_CONTEXT_CHARTS]:
            group = findings.mixed_games(group)
            if group.empty:
                continue
            label = context_label(group.iloc[0])
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
        bots = ", ".join(sorted(frame["bot"].unique())) if "bot" in frame else "–"
        level = (" The largest source at each level of the skill ladder is under 'Under "
                 "stronger play'." if ladders else " Under stronger play they may differ: a "
                 "skill ladder (simulate GAME --ladder, or a study's ladder) plays the same "
                 "deals at several strengths.")
        parts.append(_section(
            "Scoring balance",
            f"<p class='note'>Measured with the bots that played these runs: "
            f"{html.escape(bots)}.{html.escape(level)}</p>",
            charts_html(plots.scoring_sources, frame, "points by source per seat", "seat"),
            tables_by_game(_descriptive_separation(frame),
                           "how much each source separates winners from the others "
                           "(descriptive: effect size d and correlation)"),
            tables_by_game(balance.scoring_balance(frame, "bot" if multi_bot else "seat"),
                           "mean points by source", _sources_wide)))
    conv = charts_html(plots.convergence, frame, "convergence",
                       "bot" if multi_bot else "seat")
    shares = sorted({0.5, *[round(1 / p, 3) for p in frame["players"].unique()]})
    parts.append(_section(
        "Precision", conv,
        table_html(balance.games_needed([0.05, 0.02, 0.01, 0.005], shares),
                   "Seat-games needed for a 95% interval of ± half width")))
    parts.append(_section("Example games", transcript.report_section(
        examples, len(manifests), len(manifests) if example_runs is None else example_runs)))
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
