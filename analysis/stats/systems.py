"""Which game systems a bot skipped against a reference: a system counts as offered when a
reference line-up (random play by default) reaches it in the same game, player count, rules
and data set, and as skipped when the bot never or almost never chose it.  Pure functions of
the run's frame and the reference's frames (`run.reference` plays and caches those)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from analysis.stats import balance, verdicts

#: A kind counts as "almost never" used below this share of the bot's seat-games ...
RARELY = 0.01
#: Against a reference: a kind counts as offered when the reference chose it in at least this
#: share of its seat-games.
REFERENCE_OFFERED = 0.05


def configuration(manifest: dict[str, Any]) -> tuple:
    """What a reference is played for: (game, players, rules, data set) of a run."""
    return (manifest["game"], int(manifest["players"]), manifest.get("rules_str", ""),
            manifest.get("dataset", ""))


def reference_use(reference: pd.DataFrame) -> dict[str, float]:
    """Kind -> share of the reference's seat-games in which it was chosen at least once."""
    table = balance.coverage(reference)
    if table.empty:
        return {}
    used = (table["used_share"] * table["seat_games"]).groupby(table["kind"], sort=False).sum()
    seats = table["seat_games"].groupby(table["kind"], sort=False).sum()
    return {str(k): float(used[k] / seats[k]) for k in used.index}


def skipped_against_reference(frame: pd.DataFrame, manifests: list[dict],
                              references: Mapping[tuple, pd.DataFrame], bot: str
                              ) -> list[tuple[dict, verdicts.Verdict]]:
    """Per configuration and bot: the systems it never or almost never chose although the
    reference bot `bot` reaches them (`references`: `configuration` -> the reference's
    games)."""
    if not balance.kind_columns(frame):
        return []
    out = []
    seen = set()
    for manifest in manifests:
        config = configuration(manifest)
        if config in seen:
            continue
        seen.add(config)
        ref_use = reference_use(references[config])
        mine = frame[(frame["game"] == config[0]) & (frame["players"] == config[1])
                     & (frame["rules"] == config[2] if "rules" in frame else True)]
        table = balance.coverage(mine)
        where = {"game": config[0], "players": config[1], "rules": config[2]}
        name = "random play" if bot == "random" else bot
        for player, part in table.groupby("bot", sort=True):
            if player == bot:
                continue
            use = dict(zip(part["kind"], part["used_share"]))
            verdict = verdicts.skipped_systems(use, ref_use, str(player), name, RARELY,
                                               REFERENCE_OFFERED)
            out.append((where, verdict))
    return out
