"""Which game systems the bots skipped: the plain-words lines of the CLI summary and report.

A balance figure only describes the game the bots actually played; a bot that never takes a
system of the rules (a Sensei skill, an atomic jump) measures a smaller game.  These lines
name, per bot, every action kind it (almost) never chose although it was available.
"""

from __future__ import annotations

import pandas as pd

from analysis.present.formats import percent
from analysis.stats import balance, verdicts
from analysis.stats.systems import RARELY

#: A kind counts as "almost never" used below `RARELY` of the bot's seat-games when it was
#: available in at least this share of them.
OFFERED = 0.10


def neglected(table: pd.DataFrame, rarely: float = RARELY,
              offered: float = OFFERED) -> pd.DataFrame:
    """Rows of a `balance.coverage` table used in under `rarely` of the seat-games although
    available in at least `offered` of them, most available first."""
    mask = (table["used_share"] < rarely) & (table["available_share"] >= offered)  # NaN: no
    return table[mask].sort_values("available_share", ascending=False, kind="stable")


def _skipping(found: list[tuple[dict, verdicts.Verdict]] | None) -> set[tuple]:
    """(game, players, rules, bot) of every bot a reference check found skipping a system."""
    return {(where.get("game"), int(where.get("players", 0)), where.get("rules") or "",
             verdict.subject) for where, verdict in found or () if verdict.items}


def neglect_lines(frame: pd.DataFrame, rarely: float = RARELY, offered: float = OFFERED,
                  with_context: bool | None = None,
                  skipped: list[tuple[dict, verdicts.Verdict]] | None = None) -> list[str]:
    """One line per bot (and context): the systems it never or almost never used.

    "heuristic never used: sensei skill (available in 100% of games); almost never (under 1%
    of games): atomic jump (used in 0.4%, available in 95%)".  A bot that used every system
    legal at its own decisions gets a line saying so, unless `skipped` (the reference check,
    `run.reference.skipped_against_reference`) names a system it skipped: a system the bot
    never unlocks is never legal for it, and "used every system" would contradict that
    check's line.  Empty when the frame records no action kinds.
    """
    table = balance.coverage(frame)
    if table.empty:
        return []
    ctx = balance.context_columns(frame)
    if with_context is None:
        with_context = frame.groupby(ctx).ngroups > 1 if ctx else False
    skipping = _skipping(skipped)
    lines = []
    for key, group in table.groupby(ctx + ["bot"], sort=True):
        key = key if isinstance(key, tuple) else (key,)
        bot = key[-1]
        values = dict(zip(ctx, key))
        prefix = ""
        if with_context:
            prefix = (f"{values.get('game', '')}, {values.get('players')} players, "
                      f"{values.get('rules') or 'official rules'}: ")
        rows = neglected(group, rarely, offered)
        never = rows[rows["used_share"] == 0]
        seldom = rows[rows["used_share"] > 0]
        parts = []
        if len(never):
            parts.append(f"{bot} never used: " + ", ".join(
                f"{r.kind} (available in {percent(r.available_share, None)} of games)"
                for r in never.itertuples()))
        if len(seldom):
            text = ", ".join(f"{r.kind} (used in {percent(r.used_share, None)}, available "
                             f"in {percent(r.available_share, None)} of games)"
                             for r in seldom.itertuples())
            under = percent(rarely, None)
            parts.append(f"almost never (in under {under} of its games): {text}"
                         if parts else f"{bot} almost never used (in under {under} of "
                         f"its games): {text}")
        if not parts:
            if (values.get("game"), int(values.get("players", 0)), values.get("rules") or "",
                    bot) in skipping:
                continue  # the reference check's line names what it skipped
            parts.append(f"{bot} used every system that was legal at its own decisions (each "
                         f"in at least {percent(rarely, None)} of its games)")
        lines.append(prefix + "; ".join(parts))
    return lines


def reference_lines(found: list[tuple[dict, verdicts.Verdict]],
                    with_context: bool | None = None) -> list[str]:
    """The systems skipped against a reference (`run.reference.skipped_against_reference`)
    as one line per bot (and configuration)."""
    if with_context is None:
        with_context = len({tuple(w.values()) for w, _ in found}) > 1
    lines = []
    for where, verdict in found:
        prefix = (f"{where['game']}, {where['players']} players, "
                  f"{where['rules'] or 'official rules'}: ") if with_context else ""
        lines.append(f"{prefix}{verdict.subject} {verdict.claim}")
    return lines


def by_kind(table: pd.DataFrame) -> pd.DataFrame:
    """One game's `balance.coverage` rows as a kind × context table: per player count (and
    rules, and bot when several) the share of games the kind was used and was available,
    written as percentages; kinds in the game's order.  Lets a reader scan one game's
    systems down a column instead of through a row per run and kind."""
    ctx = [c for c in balance.CONTEXT if c in table and c != "game"]
    several_bots = table["bot"].nunique() > 1

    def label(row) -> str:
        parts = [f"{row['players']}p" if c == "players" else str(row[c] or "official")
                 for c in ctx if c != "rules" or table["rules"].nunique() > 1]
        return " ".join(parts + ([str(row["bot"])] if several_bots else []))

    labelled = table.assign(column=[label(r) for r in table.to_dict("records")])
    kinds = list(dict.fromkeys(labelled["kind"]))
    out = pd.DataFrame({"kind": kinds})
    for column, part in labelled.groupby("column", sort=False):
        part = part.set_index("kind").reindex(kinds)
        out[f"{column} used"] = [percent(v) for v in part["used_share"]]
        out[f"{column} available"] = [percent(v) for v in part["available_share"]]
    return out
