"""Ninjato's replaceable component data: the items a user may vary, with provenance.

Each item names a piece of the reconstructed data set (`components.DEFAULT_DATA`), where the
rules file says it comes from (CONFIRMED / INFERRED / GUESS) and the plausible alternatives
it names, so that `--rule components.ITEM=VALUE` and the what-if studies can set it
(`engines/datasets.py` reads and loads them).
"""

from __future__ import annotations

from collections.abc import Callable

from engines.datasets import (
    DataSet,
    Item,
    checked_by_builder,
    ints_check,
    numbers_check,
    range_check,
    table_key,
)
from engines.errors import BadInput
from engines.ninjato import components


def _guards_per_value(d: dict) -> int:
    return len(d["guards"]) // 5


def _alarms(d: dict) -> int:
    return sum(int(g[1]) for g in d["guards"])


def _guard_table(per_value: int, alarms: int) -> list[list[int]]:
    """`per_value` guards of each value 1-5; alarms spread evenly, extra ones on low values."""
    if alarms > 5 * per_value:
        raise BadInput(f"{alarms} alarm guards but only {5 * per_value} guards")
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


#: The largest clan token value (the printed tokens are 2-10).
TOKEN_MOST = 100


def _token_check(values: list[int]) -> str | None:
    if not 3 <= len(values) <= 5:
        return f"needs 3-5 values per clan (the engine's token actions), got {len(values)}"
    if any(not 0 <= v <= TOKEN_MOST for v in values) or len(set(values)) != len(values):
        return f"values must be distinct and 0..{TOKEN_MOST}"
    if not {2, 4, 6} <= set(values):
        return "the setup tokens 2, 4 and 6 must be among the values (CONFIRMED setup)"
    return None


def _order_check(order: list[int]) -> str | None:
    return None if sorted(order) == [0, 1, 2] else "must list the clans 0, 1, 2 once each"


ITEMS: tuple[Item, ...] = (
    Item("treasure_values", "CONFIRMED", "ninjato.md 1.5 (derived from SEED examples)", "ints",
         *table_key("treasure_values"), ints_check(4, low=1, high=20)),
    Item("treasure_counts", "GUESS", "ninjato.md 1.5: alternatives A 18x5, B 20x4+10 gold",
         "ints", *table_key("treasure_counts"), ints_check(5, high=100, total_min=30),
         plausible=([18, 18, 18, 18, 18],)),
    Item("treasure_counts_alt_a", "GUESS", "ninjato.md 1.5 (used with treasure_mix=A)", "ints",
         *table_key("treasure_counts_alt_a"), ints_check(5, high=100, total_min=30)),
    Item("dojo_counts", "GUESS", "ninjato.md 1.2: 10/10/12 Ki/10/10, alternative 11/10/10/10/11",
         "ints", *table_key("dojo_counts"), ints_check(5, high=100, total_min=24),
         plausible=([11, 10, 10, 10, 11],)),
    Item("guards_per_value", "GUESS", "ninjato.md 1.3: 8 of each value 1-5", "int",
         _guards_per_value, _set_guards_per_value, range_check(2, 20), plausible=(7, 9),
         key="guards"),
    Item("alarm_guards", "GUESS", "ninjato.md 1.3: 10 alarms, 2 per value (configurable)",
         "int", _alarms, _set_alarms, range_check(0, 100), plausible=(5, 15), key="guards"),
    Item("guards", "GUESS", "ninjato.md 1.3 ([value, alarm] per card)", "json",
         *table_key("guards"), checked_by_builder),
    Item("elites", "GUESS", "ninjato.md 1.4 (the kinds are CONFIRMED)", "json",
         *table_key("elites"), numbers_check(10)),
    Item("multi_elite_honour", "GUESS",
         "ninjato.md 1.4: split and double elites worth 2 honour (rule of thumb)", "int",
         _multi_honour, _set_multi_honour, range_check(0, 10), plausible=(1, 3), key="elites"),
    Item("token_values", "GUESS", "ninjato.md 1.6: 2,4,6,8 CONFIRMED, the fifth (10) a GUESS",
         "ints", *table_key("token_values"), _token_check, plausible=([2, 4, 6, 8, 12],
                                                                 [2, 4, 6, 8])),
    Item("setup_tokens", "CONFIRMED", "ninjato.md 1.6 (UH, SEED)", "json",
         *table_key("setup_tokens"), numbers_check(TOKEN_MOST)),
    Item("skills", "GUESS", "ninjato.md 1.7: effects CONFIRMED; copies, schools, costs GUESS",
         "json", *table_key("skills"), numbers_check(10)),
    Item("envoys", "GUESS", "ninjato.md 1.8: 7 per clan, generated", "json", *table_key("envoys"),
         numbers_check(1000)),  # ages (unique) 25-85
    Item("rumours", "GUESS", "ninjato.md 1.9: 6 per type, costs guessed", "json",
         *table_key("rumours"), checked_by_builder),  # types and costs: words
    Item("rumour_points", "GUESS",
         "ninjato.md 1.9: Kindness and Master 1 DERIVED; Swordsman, Friends 1 GUESS", "ints",
         *table_key("rumour_points"), ints_check(5, high=10, total_min=0)),
    Item("swordsman_points", "GUESS", "ninjato.md 1.9: Greatest Swordsman 1 (maybe 2)", "int",
         *_rumour_points_item(0), range_check(0, 10), plausible=(2,), key="rumour_points"),
    Item("friends_points", "GUESS", "ninjato.md 1.9: Powerful Friends 1", "int",
         *_rumour_points_item(2), range_check(0, 10), plausible=(0, 2), key="rumour_points"),
    Item("shameful_points", "CONFIRMED", "ninjato.md 3.8: 6 / 4 / 2", "ints",
         *table_key("shameful_points"), ints_check(3, high=20, total_min=0)),
    Item("set_multipliers", "CONFIRMED", "ninjato.md 1.9 (DERIVED from SEED examples)", "ints",
         *table_key("set_multipliers"), ints_check(3, high=20, total_min=0)),
    Item("round_orders", "GUESS", "ninjato.md 1.10: R3 CONFIRMED, R5 INFERRED, R7 GUESS",
         "json", *table_key("round_orders"), numbers_check(len(components.CLAN_NAMES) - 1)),
    Item("round7_order", "GUESS", "ninjato.md 1.10: M, G, T continues the rotation", "ints",
         _round7, _set_round7, _order_check, plausible=([2, 0, 1],), key="round_orders"),
)

DATA_SET = DataSet(components.DEFAULT_DATA, ITEMS, "dataset", components.DATASET)
