"""Time Pirates' replaceable component data: the items a user may vary, with provenance.

The board is INFERRED (`components.DEFAULT_DATA`, data set `time-pirates-inferred-v1`); each
item names a piece of it, where the rules file says it comes from and the plausible
alternatives, so that `--rule components.ITEM=VALUE` and the what-if studies can set it
(`engines/datasets.py` reads and loads them).
"""

from __future__ import annotations

from engines.datasets import DataSet, Item, ints_check, numbers_check, range_check, table_key
from engines.errors import BadInput
from engines.time_pirates import components


def _spaces(d: dict) -> list[int]:
    return [int(e["spaces"]) for e in d["epochs"]]


def _set_spaces(d: dict, spaces: list[int]) -> None:
    if len(spaces) != len(d["epochs"]):
        raise BadInput(f"needs {len(d['epochs'])} entries (one per epoch), got {len(spaces)}")
    d["epochs"] = [{**e, "spaces": s} for e, s in zip(d["epochs"], spaces)]


def _lines(d: dict) -> list[list[int]]:
    return [[int(e["line1"]), int(e["line2"])] for e in d["epochs"]]


def _set_lines(d: dict, lines: list[list[int]]) -> None:
    if len(lines) != len(d["epochs"]) or not all(
            isinstance(p, list) and len(p) == 2 for p in lines):
        raise BadInput(f"needs one [line1, line2] pair per epoch ({len(d['epochs'])})")
    d["epochs"] = [{**e, "line1": a, "line2": b} for e, (a, b) in zip(d["epochs"], lines)]


_SHIPPED_SPACES = [4, 5, 6, 7, 5, 6, 3]
#: The most artifact spaces of one epoch (the board has 3-7).
SPACES_MOST = 50

ITEMS: tuple[Item, ...] = (
    Item("epochs", "INFERRED", "time_pirates.md 1d (no source for the board)", "json",
         *table_key("epochs"), numbers_check(SPACES_MOST)),
    Item("epoch_spaces", "INFERRED", "time_pirates.md 1d: 3..7 per epoch (T3), 36 in all",
         "ints", _spaces, _set_spaces, ints_check(low=1, high=SPACES_MOST),
         plausible=([min(7, s + 1) for s in _SHIPPED_SPACES],
                    [max(3, s - 1) for s in _SHIPPED_SPACES]), key="epochs"),
    Item("time_lines", "INFERRED", "time_pirates.md 1d: two lines out of each epoch", "json",
         _lines, _set_lines, numbers_check(components.MAX_EPOCHS - 1),
         plausible=([[1, 3], [2, 4], [3, 4], [4, 6], [5, 0], [6, 3], [0, 2]],),
         key="epochs"),
    Item("patrol_start", "CONFIRMED", "time_pirates.md 1d (T1, T2)", "int",
         *table_key("patrol_start"), range_check(0, components.MAX_EPOCHS - 1)),
    Item("artifacts_per_colour", "CONFIRMED",
         "time_pirates.md T2 (no token with both symbols: INFERRED)", "json",
         *table_key("artifacts_per_colour"), numbers_check(100)),
    Item("white_artifacts", "CONFIRMED", "time_pirates.md T2", "int", *table_key("white_artifacts"),
         range_check(0, 100)),
    Item("police_tokens", "CONFIRMED", "time_pirates.md T1", "json", *table_key("police_tokens"),
         numbers_check(100)),
    Item("coloured_deeds", "CONFIRMED", "time_pirates.md T1", "json", *table_key("coloured_deeds"),
         numbers_check(100)),
    Item("white_deeds", "CONFIRMED", "time_pirates.md T1", "json", *table_key("white_deeds"),
         numbers_check(100)),
    Item("police_per_year", "CONFIRMED", "time_pirates.md T1: the 8th draw ends the year",
         "int", *table_key("police_per_year"), range_check(1, 100)),
    Item("years", "CONFIRMED", "time_pirates.md T1", "int", *table_key("years"),
         range_check(1, 20)),
)

DATA_SET = DataSet(components.DEFAULT_DATA, ITEMS, "name", components.DATASET)
