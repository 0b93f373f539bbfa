"""The designer summary: one row per game × player count (× line-up) with the answers first.

Balanced or not (the equivalence verdict of the output's one family, and whether fresh deals
confirmed a seat finding), the seat edge with its interval, the largest scoring source (or
the sources tied for it), the systems the bots skipped against random play, and — when a
what-if sweep of that game ran — the variant worth testing and whether a conclusion rests
on guessed data.  Printed as a compact table by `simulate GAME` and `simulate run`, placed
at the top of every report and in the notebooks; the details follow below it.
"""

from __future__ import annotations

import html
from collections.abc import Mapping

import pandas as pd

from analysis.stats import balance, findings, robustness, verdicts

#: Skipped systems named per bot in the summary (most reached by the reference first).
SKIPPED_SHOWN = 4

COLUMNS = ["game", "players", "rules", "line-up", "games", "balanced", "fresh deals",
           "largest seat edge", "largest source", "bots skipped", "variant worth testing",
           "under stronger play"]


def _short_balance(verdict: verdicts.Verdict) -> str:
    numbers = verdict.numbers
    category = verdicts.balance_category(verdict)
    tolerance = f"×{verdicts.ratio(numbers.get('tolerance', verdicts.TOLERANCE))} of fair"
    named = verdict.items[0] if verdict.items else verdict.claim
    if category == "unbalanced":
        return f"no: {named}, beyond {tolerance}"
    if category == "small real edge":
        return f"within {tolerance}, but a small real edge: {named}"
    if category == "real edge":
        return f"a real edge: {named}; cannot tell yet if beyond {tolerance}"
    if category == "balanced":
        return f"yes, within {tolerance}"
    return (f"cannot tell: edges {verdicts.points(numbers['low'])} to "
            f"{verdicts.points(numbers['high'])} points")


def _fresh(verdict: verdicts.Verdict, tests: pd.DataFrame) -> str:
    refuted = [item.split("'s first-deal")[0] for item in verdict.items
               if "was not confirmed" in item]
    if refuted:
        named = [item for item in verdict.items if "was not confirmed" not in item]
        return ("confirmed; " if named and verdict.confirmed is not None else "") + \
            f"not confirmed: {', '.join(refuted)}"
    if not verdict.numbers.get("units_off"):
        return "–"
    return "not replayed" if verdict.confirmed is None else "confirmed"


def _largest_edge(seats: pd.DataFrame) -> str:
    if seats.empty:
        return "–"
    row = seats.loc[seats["effect"].abs().idxmax()]
    share, low, high = findings.holds_quote(row)
    fair = row["fair"]
    return (f"{row['subject']} {verdicts.points(share - fair)} "
            f"{verdicts.interval(low - fair, high - fair)}")


def largest_source(frame: pd.DataFrame) -> str:
    """The source with the largest share of all points counted absolute (or the sources tied
    for it), "of penalty points" where the lowest score wins; '–' without sources."""
    if not balance.source_columns(frame):
        return "–"
    shares = robustness.source_shares(frame)
    if shares.empty or shares["share"].isna().all():
        return "–"
    cells = verdicts.source_cells(verdicts.overlapping(shares), quote=False)
    cell = cells[0] if len(cells) == 1 else "tie: " + ", ".join(cells)
    direction = balance.frame_direction(frame)
    return cell + (f" of {balance.points_noun(direction)}" if direction == "lowest" else "")


#: The skipped-systems cell when no reference check ran (`summary_table(skipped=None)`).
NOT_CHECKED = "not checked"


def _skipped(found: list[tuple[dict, verdicts.Verdict]] | None, where: dict) -> str:
    """The bots' skipped systems in one place: 'none' only when the check ran there and named
    nothing; `NOT_CHECKED` without a check; '–' when it had no bot to judge (no action kinds
    recorded, or only the reference bot itself played)."""
    if found is None:
        return NOT_CHECKED
    parts, judged = [], False
    for place, verdict in found:
        if any(place.get(k) != where.get(k) for k in ("game", "players", "rules")):
            continue
        if where.get("lineup") and verdict.subject not in where["lineup"].split(" + "):
            continue
        judged = True
        if verdict.items:
            shown = list(verdict.items[:SKIPPED_SHOWN])
            more = len(verdict.items) - len(shown)
            parts.append(f"{verdict.subject}: {', '.join(shown)}"
                         + (f" and {more} more" if more > 0 else ""))
    return "; ".join(parts) if parts else "none" if judged else "–"


def summary_table(frame: pd.DataFrame, tests: pd.DataFrame | None = None,
                  variants: Mapping[tuple[str, int], str] | None = None,
                  skipped: list[tuple[dict, verdicts.Verdict]] | None = None,
                  stronger: Mapping[tuple[str, int, str], str] | None = None
                  ) -> pd.DataFrame:
    """One row per game × player count × rules (× line-up in a robustness study).

    `variants`: (game, players) -> the variant worth testing, from the what-if sweeps that
    ran (`analysis.run.experiments.sweep_variants`); the column is left out without them.
    `skipped`: the systems each bot skipped against a reference
    (`analysis.run.reference.skipped_against_reference`); without it (no check ran) the
    column says so, never "none".
    `stronger`: (game, players, rules string) -> how the largest seat edge changes under
    stronger play, from a skill ladder (`analysis.stats.ladder.Ladder.key` and
    `stronger_play`); left out without one.
    """
    tests = findings.family(frame) if tests is None else tests
    if len(tests) and "lineup" in tests and "bot" in frame:
        frame = robustness.with_lineups(frame)
    rows = []
    seats = tests[tests["kind"] == "seat"] if len(tests) else tests
    for where, verdict in findings.balance_verdicts(tests):
        mask = pd.Series(True, index=seats.index)
        for column, value in where.items():
            mask &= seats[column] == value
        part = frame
        for column, value in where.items():
            if column in part:
                part = part[part[column] == value]
        players = where.get("players")
        if isinstance(players, float) and players.is_integer():
            # a family with extra rows (sweep effects) holds players as floats
            players = int(players)
        rows.append({
            "game": where.get("game", ""), "players": players,
            "rules": where.get("rules") or "official", "line-up": where.get("lineup", ""),
            "games": int(seats.loc[mask, "games"].max()) if mask.any() else 0,
            "balanced": _short_balance(verdict), "fresh deals": _fresh(verdict, tests),
            "largest seat edge": _largest_edge(seats[mask]),
            "largest source": largest_source(part),
            "bots skipped": _skipped(skipped, where),
            "variant worth testing": (variants or {}).get(
                (where.get("game", ""), where.get("players")), "–"),
            "under stronger play": (stronger or {}).get(
                (where.get("game", ""), where.get("players"), where.get("rules") or ""), "–"),
        })
    out = pd.DataFrame(rows, columns=COLUMNS)
    if not out["line-up"].astype(bool).any():
        out = out.drop(columns=["line-up"])
    if not variants:
        out = out.drop(columns=["variant worth testing"])
    if not stronger:
        out = out.drop(columns=["under stronger play"])
    return out


def compact(table: pd.DataFrame) -> pd.DataFrame:
    """The summary with game, players, rules and line-up in one column and the fresh-deals
    status folded into the balance verdict: narrow enough for a terminal."""
    rows = []
    for row in table.to_dict("records"):
        name = f"{row['game']} {row['players']}p"
        if row.get("rules") and row["rules"] != "official":
            name += f" ({row['rules']})"
        if row.get("line-up"):
            name += f", {row['line-up']}"
        balanced = row["balanced"]
        if "not confirmed: " in row["fresh deals"]:
            refuted = row["fresh deals"].split("not confirmed: ")[1]
            balanced += f"; not confirmed on fresh deals: {refuted}"
        out = {"game": name, "games": f"{row['games']:,}", "balanced": balanced,
               "largest seat edge (points)": row["largest seat edge"],
               "largest source": row["largest source"]}
        if "bots skipped" in row:
            out["skipped (random play reaches)"] = row["bots skipped"]
        for column in ("variant worth testing", "under stronger play"):
            if column in row:
                out[column] = row[column]
        rows.append(out)
    return pd.DataFrame(rows)


def rich_table(table: pd.DataFrame, title: str = "Designer summary"):
    """The summary as a compact rich table for the terminal, one block per row where the
    console is too narrow for its columns (`terminal.fit`)."""
    from rich.table import Table

    from analysis.present.terminal import fit

    shown = compact(table)
    out = Table(title=title)
    for column in shown.columns:
        out.add_column(column, overflow="fold", justify="right" if column == "games" else "left",
                       no_wrap=column in ("game", "games"))
    for row in shown.itertuples(index=False):
        out.add_row(*[str(v) for v in row])
    return fit(out)


def table_html(table: pd.DataFrame, note: str = "") -> str:
    """The summary as the report's first table (left-aligned text cells)."""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in table.columns)
    body = "".join(
        "<tr>" + "".join(f"<td style='text-align:left'>{html.escape(str(v))}</td>" for v in row)
        + "</tr>" for row in table.itertuples(index=False))
    return (f"<div class='table-box'><table id='designer-summary'><caption>Designer summary: "
            f"one row per game and player count</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table></div>"
            + (f"<p class='note'>{html.escape(note)}</p>" if note else ""))


def note(table: pd.DataFrame) -> str:
    """How to read the summary's columns (only those it has)."""
    text = ("balanced: 'yes' only when every seat's (team's) 95% interval lies within "
            f"×{verdicts.ratio(verdicts.TOLERANCE)} of the fair share (between fair / "
            f"{verdicts.ratio(verdicts.TOLERANCE)} and fair × "
            f"{verdicts.ratio(verdicts.TOLERANCE)}) and no seat is off the fair share after "
            "the output's Holm adjustment; 'a small real edge' names a seat off the fair share "
            "whose interval is still inside; 'no' names a seat off the fair share whose whole "
            "interval lies beyond; 'a real edge' one not yet placed against the tolerance (each "
            "with its standing on fresh deals, quoted with the fresh estimate); otherwise "
            "'cannot tell'. largest source: a tie when intervals overlap. balanced, the seat "
            "edge and the largest source are measured with the bots that played the row's "
            "games, at their strength of play. skipped: systems a bot never or almost never "
            "played although random play reaches them in the same game, player count, rules "
            "and data set ('not checked': no reference play was compared).")
    if "variant worth testing" in table:
        text += (" variant worth testing: the significant sweep setting that moves the "
                 "first-seat edge or seat spread furthest towards balance.")
    if "under stronger play" in table:
        text += (" under stronger play: the skill ladder's verdict (a trend test of the "
                 "seat's edge across the levels, adjusted with the output's other tests) for "
                 "the seat with the largest edge at the strongest level; '–' where no ladder "
                 "was played.")
    return text
