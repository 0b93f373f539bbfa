"""Ninjato component data: one named, versioned, replaceable data set.

Almost every per-card list of Ninjato is reconstructed (see ../shared/rules/ninjato.md,
sections 1-2 and "Project rulings on the guessed data").  The tables below are that
reconstruction, labelled `DATASET`; a user who owns the game can replace any of them
with `--rule components=PATH` (a TOML or JSON file with the same keys as `DEFAULT_DATA`;
missing keys keep the defaults).  `Components` turns the plain tables into the flat
tuples of ints the engine uses.

Provenance per table (C = confirmed, D = derived, G = guess):
- treasure values fan 2 / scroll 3 / vase 4 / jade 5 (D); counts: ruling "alternative B" (G)
- dojo 10/10/12 Ki/10/10 (G; the 3s being Ki is C); guards 8 per value, 2 alarms each (G)
- elites: table 1.4 (G; the kinds split/double/1-2 honour are C)
- clan tokens 2,4,6,8,10 per clan (2-8 C, 10 G); setup tokens T2 T4 M2 M4 G6 (C)
- skill tiles: table 1.7 proposal (effects C; copies, schools, costs mostly G)
- envoys and rumours: concrete lists written here (G), round-track orders (R3 C, R5 I, R7 G)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, Final

from engines import datasets
from engines.errors import BadInput

DATASET = "ninjato-reconstructed-v1"

# --- fixed vocabularies (not data: the engine's own indices) ----------------------------
TREASURE_NAMES = ("fan", "scroll", "vase", "jade", "gold")
GOLD: Final = 4
CLAN_NAMES = ("Taira", "Minamoto", "Go-Shirakawa")
# the indices are `Final`: compiled code inlines them (no global look-up at each use)
TAIRA: Final = 0
MINAMOTO: Final = 1
GOSHIRAKAWA: Final = 2
SCHOOLS = ("none", "snake", "tiger", "crane")
# skill effects, in the order of the engine's per-effect arrays
EFFECTS = ("minus2", "zero", "boryaku", "plus2", "six", "plusminus1", "swap", "switch",
           "refresh", "disguise")
E_MINUS2: Final = 0
E_ZERO: Final = 1
E_BORYAKU: Final = 2
E_PLUS2: Final = 3
E_SIX: Final = 4
E_PM1: Final = 5
E_SWAP: Final = 6
E_SWITCH: Final = 7
E_REFRESH: Final = 8
E_DISGUISE: Final = 9
RUMOUR_TYPES = ("greatest_swordsman", "kindness", "powerful_friends", "master_of_secret_arts",
                "shameful_enemy")
R_SWORDSMAN: Final = 0
R_KINDNESS: Final = 1
R_FRIENDS: Final = 2
R_MASTER: Final = 3
R_SHAMEFUL: Final = 4

DEFAULT_DATA: dict[str, Any] = {
    "dataset": DATASET,
    # values of fan, scroll, vase, jade (gold is a joker)
    "treasure_values": [2, 3, 4, 5],
    # counts of fan, scroll, vase, jade, gold: ruling "alternative B"
    "treasure_counts": [20, 20, 20, 20, 10],
    # alternative A (18 of each type), selectable with --rule treasure_mix=A
    "treasure_counts_alt_a": [18, 18, 18, 18, 18],
    # dojo card counts of values 1..5 (every 3 is a Ki card)
    "dojo_counts": [10, 10, 12, 10, 10],
    # guard cards: [value, alarm]
    "guards": [[v, 1 if k < 2 else 0] for v in range(1, 6) for k in range(8)],
    # elite guards: force values, stealth values (one entry per guard shown), honour
    "elites": [
        {"name": "elite-1a", "force": [1], "stealth": [1], "honour": 1},
        {"name": "elite-1b", "force": [1], "stealth": [1], "honour": 1},
        {"name": "elite-2a", "force": [2], "stealth": [2], "honour": 1},
        {"name": "elite-2b", "force": [2], "stealth": [2], "honour": 1},
        {"name": "Tsubasa", "force": [3], "stealth": [3], "honour": 1},
        {"name": "elite-3b", "force": [3], "stealth": [3], "honour": 1},
        {"name": "elite-3c", "force": [3], "stealth": [3], "honour": 1},
        {"name": "elite-4a", "force": [4], "stealth": [4], "honour": 1},
        {"name": "elite-4b", "force": [4], "stealth": [4], "honour": 1},
        {"name": "elite-5a", "force": [5], "stealth": [5], "honour": 1},
        {"name": "elite-5b", "force": [5], "stealth": [5], "honour": 1},
        {"name": "split-5/1", "force": [5], "stealth": [1], "honour": 2},
        {"name": "split-4/1", "force": [4], "stealth": [1], "honour": 2},
        {"name": "split-5/2", "force": [5], "stealth": [2], "honour": 2},
        {"name": "split-4/2", "force": [4], "stealth": [2], "honour": 2},
        {"name": "double-3+5", "force": [3, 5], "stealth": [3, 5], "honour": 2},
        {"name": "double-1+3", "force": [1, 3], "stealth": [1, 3], "honour": 2},
        {"name": "double-2+4", "force": [2, 4], "stealth": [2, 4], "honour": 2},
        {"name": "double-1+5", "force": [1, 5], "stealth": [1, 5], "honour": 2},
        {"name": "double-2+3/3+4", "force": [2, 3], "stealth": [3, 4], "honour": 2},
    ],
    # clan token values (each clan has one token of each value)
    "token_values": [2, 4, 6, 8, 10],
    # setup tokens [clan, value] dealt at random to the five houses
    "setup_tokens": [[TAIRA, 2], [TAIRA, 4], [MINAMOTO, 2], [MINAMOTO, 4], [GOSHIRAKAWA, 6]],
    # skill tiles; cost = dojo card value to discard, 0 = any card ("?")
    "skills": [
        {"name": "Shinobi-iri", "effect": "minus2", "school": "snake", "cost": 1, "copies": 2},
        {"name": "Inton-jutsu", "effect": "zero", "school": "snake", "cost": 2, "copies": 2},
        {"name": "Boryaku", "effect": "boryaku", "school": "crane", "cost": 0, "copies": 2},
        {"name": "Kenjutsu", "effect": "plus2", "school": "tiger", "cost": 5, "copies": 2},
        {"name": "Kayaku-jutsu", "effect": "six", "school": "tiger", "cost": 4, "copies": 2},
        {"name": "Taijutsu", "effect": "plusminus1", "school": "crane", "cost": 3, "copies": 2},
        {"name": "Choho", "effect": "swap", "school": "snake", "cost": 0, "copies": 2},
        {"name": "Seishin-teki kyoyo", "effect": "switch", "school": "crane", "cost": 0,
         "copies": 1},
        {"name": "Tenmon", "effect": "refresh", "school": "crane", "cost": 0, "copies": 1},
        {"name": "Hensojutsu", "effect": "disguise", "school": "none", "cost": 0, "copies": 3},
    ],
    # envoys: clan, age (unique), mask, cost.  Cost is "same" (1-4 of one type),
    # "three_plus_one" (3 of one type + 1 of any), or a list of named treasures.
    "envoys": [
        {"clan": TAIRA, "age": 25, "mask": 1, "cost": ["fan", "jade"]},
        {"clan": MINAMOTO, "age": 28, "mask": 0, "cost": ["fan", "vase"]},
        {"clan": GOSHIRAKAWA, "age": 31, "mask": 1, "cost": "same"},
        {"clan": TAIRA, "age": 34, "mask": 0, "cost": "same"},
        {"clan": MINAMOTO, "age": 37, "mask": 1, "cost": ["scroll", "jade"]},
        {"clan": GOSHIRAKAWA, "age": 40, "mask": 0, "cost": ["vase", "jade"]},
        {"clan": TAIRA, "age": 43, "mask": 0, "cost": ["scroll", "vase"]},
        {"clan": MINAMOTO, "age": 46, "mask": 0, "cost": "three_plus_one"},
        {"clan": GOSHIRAKAWA, "age": 49, "mask": 0, "cost": ["fan", "scroll"]},
        {"clan": TAIRA, "age": 52, "mask": 1, "cost": "three_plus_one"},
        {"clan": MINAMOTO, "age": 55, "mask": 0, "cost": "same"},
        {"clan": GOSHIRAKAWA, "age": 58, "mask": 1, "cost": "three_plus_one"},
        {"clan": TAIRA, "age": 61, "mask": 0, "cost": ["vase", "jade"]},
        {"clan": MINAMOTO, "age": 64, "mask": 1, "cost": ["fan", "fan"]},
        {"clan": GOSHIRAKAWA, "age": 67, "mask": 0, "cost": ["scroll", "scroll"]},
        {"clan": TAIRA, "age": 70, "mask": 1, "cost": ["fan", "scroll"]},
        {"clan": MINAMOTO, "age": 73, "mask": 0, "cost": ["vase", "vase"]},
        {"clan": GOSHIRAKAWA, "age": 76, "mask": 0, "cost": "same"},
        {"clan": TAIRA, "age": 79, "mask": 0, "cost": ["jade", "jade"]},
        {"clan": MINAMOTO, "age": 82, "mask": 0, "cost": ["scroll", "vase"]},
        {"clan": GOSHIRAKAWA, "age": 85, "mask": 0, "cost": ["fan", "jade"]},
    ],
    # rumours: type, cost = list of named treasures, or "any" (one treasure of any type)
    "rumours": [
        {"type": t, "cost": c}
        for t, costs in (
            ("greatest_swordsman", ["jade", "vase", "scroll", "any", "any", "vase+jade"]),
            ("kindness", ["fan", "scroll", "jade", "any", "fan+fan", "scroll+vase"]),
            ("powerful_friends", ["scroll", "vase", "fan", "any", "any", "jade+jade"]),
            ("master_of_secret_arts", ["vase", "fan", "jade", "any", "scroll+scroll",
                                       "fan+vase"]),
            ("shameful_enemy", ["jade", "scroll", "fan", "vase", "any", "any"]),
        )
        for c in costs
    ],
    # points per counted item of each rumour type (shameful enemy has its own rule)
    "rumour_points": [1, 1, 1, 1, 0],
    # shameful enemy points per card when 1 / 2 / 3+ players hold any
    "shameful_points": [6, 4, 2],
    # rumour set multipliers for a group of 1, 2, 3 cards
    "set_multipliers": [1, 2, 4],
    # round-track clan order of the scoring phases after rounds 3, 5, 7
    "round_orders": {"3": [GOSHIRAKAWA, TAIRA, MINAMOTO], "5": [TAIRA, MINAMOTO, GOSHIRAKAWA],
                     "7": [MINAMOTO, GOSHIRAKAWA, TAIRA]},
}


def _need(names: list[str]) -> tuple[int, int, int, int]:
    need = [0, 0, 0, 0]
    for name in names:
        t = TREASURE_NAMES.index(name)
        if t == GOLD:
            raise BadInput("a cost cannot name gold (gold is the joker)")
        need[t] += 1
    return tuple(need)  # type: ignore[return-value]


def envoy_options(cost: Any) -> tuple[tuple[int, int, int, int], ...]:
    """Every distinct payment (counts of fan, scroll, vase, jade) an envoy's cost accepts."""
    if cost == "same":
        opts = [tuple(k if i == t else 0 for i in range(4)) for t in range(4) for k in (1, 2, 3, 4)]
    elif cost == "three_plus_one":
        opts = []
        for t in range(4):
            for u in range(4):
                need = [0, 0, 0, 0]
                need[t] += 3
                need[u] += 1
                if tuple(need) not in opts:
                    opts.append(tuple(need))
    else:
        opts = [_need(list(cost))]
    return tuple(opts)  # type: ignore[arg-type]


def rumour_options(cost: str) -> tuple[tuple[int, int, int, int], ...]:
    """Payments a rumour accepts: `any` = one treasure of a chosen type."""
    if cost == "any":
        return tuple(tuple(1 if i == t else 0 for i in range(4)) for t in range(4))  # type: ignore[misc]
    return (_need(cost.split("+")),)


@dataclass(frozen=True)
class Components:
    """The data set as flat tuples of ints (what the engine reads on the hot path)."""

    label: str
    tval: tuple[int, ...]            # value of treasure types 0..3
    tcounts: tuple[int, ...]         # counts of types 0..4
    dojo: tuple[int, ...]            # counts of card values 1..5
    gval: tuple[int, ...]            # guard id -> value
    galarm: tuple[int, ...]          # guard id -> 1 if alarm
    eforce: tuple[tuple[int, ...], ...]
    estealth: tuple[tuple[int, ...], ...]
    ehonour: tuple[int, ...]
    enames: tuple[str, ...]
    token_values: tuple[int, ...]
    setup_tokens: tuple[tuple[int, int], ...]  # (clan, value index)
    skill_effect: tuple[int, ...]    # tile id -> effect index
    skill_school: tuple[int, ...]    # tile id -> school index (0 = none)
    skill_cost: tuple[int, ...]      # tile id -> card value, 0 = any
    skill_names: tuple[str, ...]
    env_clan: tuple[int, ...]
    env_age: tuple[int, ...]
    env_mask: tuple[int, ...]
    env_opts: tuple[tuple[tuple[int, int, int, int], ...], ...]
    env_min: tuple[int, ...]         # fewest treasures any payment needs
    rum_type: tuple[int, ...]
    rum_opts: tuple[tuple[tuple[int, int, int, int], ...], ...]
    rum_points: tuple[int, ...]
    shameful: tuple[int, int, int]
    set_mult: tuple[int, int, int]
    round_orders: dict[int, tuple[int, ...]]
    # Memo tables, derived from the rest (not compared).  The engine's (`state.affordable`,
    # `state.payable`; `tests/test_ninjato_fastpaths.py` checks them against `can_pay`):
    # `holding_key(holding)` -> (bit set of the envoys, of the rumours it can pay for)
    afford: dict[int, tuple[int, int]] = field(default_factory=dict, compare=False, repr=False)
    # `pend << 40 | holding_key(holding)` (pend = kind*100 + card) -> its payment options
    # (indices) that the holding covers
    payable: dict[int, tuple[int, ...]] = field(default_factory=dict, compare=False,
                                                 repr=False)
    # the heuristic's own tables (`bots.PlanTables`), made by `bots.plans` on first use
    plans: Any = field(default=None, compare=False, repr=False)

    @cached_property
    def skill_need(self) -> tuple[tuple[int, int], ...]:
        """Tile id -> (school bit, 0 for no school; card index to pay, -1 for any card).

        A tile is free when its school bit is in the learner's schools (3.5).
        """
        return tuple((1 << sc if sc else 0, cost - 1)
                     for sc, cost in zip(self.skill_school, self.skill_cost))

    @cached_property
    def sentry_value(self) -> tuple[int, ...]:
        """Guard id -> value, with index -1 (no sentry) -> 3 (the heuristic's estimate)."""
        return (*self.gval, 3)

    @cached_property
    def caps(self) -> tuple[int, ...]:
        """Most of each treasure type any payment needs (gold: the most treasures in all).

        Payability (`can_pay`) of a holding does not change above these counts.
        """
        opts = [o for group in self.env_opts + self.rum_opts for o in group]
        return (*(max(o[t] for o in opts) for t in range(4)), max(sum(o) for o in opts))

    @property
    def disguise_tiles(self) -> tuple[int, ...]:
        return tuple(i for i, e in enumerate(self.skill_effect) if e == E_DISGUISE)


#: Tables with one entry per fixed thing (treasure type, dojo value, rumour type, ...).
_WIDTHS = {"treasure_values": 4, "treasure_counts": 5, "treasure_counts_alt_a": 5,
           "dojo_counts": 5, "rumour_points": len(RUMOUR_TYPES), "shameful_points": 3,
           "set_multipliers": 3}


def build(data: dict[str, Any], treasure_mix: str = "B") -> Components:
    """Validate a data dict (defaults filled in) into `Components`."""
    d = dict(DEFAULT_DATA)
    d.update(data)
    for key, width in _WIDTHS.items():
        if len(d[key]) != width:
            raise BadInput(f"{key} needs {width} entries, got {len(d[key])}")
    effect, school, cost, names = [], [], [], []
    for s in d["skills"]:
        for _ in range(int(s["copies"])):
            effect.append(EFFECTS.index(s["effect"]))
            school.append(SCHOOLS.index(s["school"]))
            cost.append(int(s["cost"]))
            names.append(s["name"])
    if sum(1 for e in effect if e == E_DISGUISE) < 3:
        raise BadInput("the data set needs 3 disguise tiles (one per round 5-7)")
    clans = range(len(CLAN_NAMES))
    if not d["guards"] or any(int(v) not in range(1, 6) or int(a) not in (0, 1)
                              for v, a in d["guards"]):
        raise BadInput("guards must be a non-empty list of [value 1-5, alarm 0 or 1]")
    if not d["envoys"] or any(int(e["clan"]) not in clans or int(e["mask"]) not in (0, 1)
                              for e in d["envoys"]):
        raise BadInput(f"every envoy needs a clan 0-{len(clans) - 1} and a mask 0 or 1")
    if any(int(c) not in clans for c, _ in d["setup_tokens"]):
        raise BadInput(f"every setup token needs a clan 0-{len(clans) - 1}")
    ages = [int(e["age"]) for e in d["envoys"]]
    if len(set(ages)) != len(ages):
        raise BadInput("envoy ages must be unique (ruling A13)")
    env_opts = tuple(envoy_options(e["cost"]) for e in d["envoys"])
    rum_opts = tuple(rumour_options(r["cost"]) for r in d["rumours"])
    counts = d["treasure_counts"] if treasure_mix == "B" else d["treasure_counts_alt_a"]
    label = str(d.get("dataset", DATASET))
    if treasure_mix != "B":
        label += f"+treasure-{treasure_mix}"
    return Components(
        label=label,
        tval=tuple(int(v) for v in d["treasure_values"]),
        tcounts=tuple(int(c) for c in counts),
        dojo=tuple(int(c) for c in d["dojo_counts"]),
        gval=tuple(int(g[0]) for g in d["guards"]),
        galarm=tuple(int(g[1]) for g in d["guards"]),
        eforce=tuple(tuple(int(v) for v in e["force"]) for e in d["elites"]),
        estealth=tuple(tuple(int(v) for v in e["stealth"]) for e in d["elites"]),
        ehonour=tuple(int(e["honour"]) for e in d["elites"]),
        enames=tuple(str(e["name"]) for e in d["elites"]),
        token_values=tuple(int(v) for v in d["token_values"]),
        setup_tokens=tuple((int(c), list(d["token_values"]).index(int(v)))
                           for c, v in d["setup_tokens"]),
        skill_effect=tuple(effect),
        skill_school=tuple(school),
        skill_cost=tuple(cost),
        skill_names=tuple(names),
        env_clan=tuple(int(e["clan"]) for e in d["envoys"]),
        env_age=tuple(ages),
        env_mask=tuple(int(e["mask"]) for e in d["envoys"]),
        env_opts=env_opts,
        env_min=tuple(min(sum(o) for o in opts) for opts in env_opts),
        rum_type=tuple(RUMOUR_TYPES.index(r["type"]) for r in d["rumours"]),
        rum_opts=rum_opts,
        rum_points=tuple(int(v) for v in d["rumour_points"]),
        shameful=tuple(int(v) for v in d["shameful_points"]),  # type: ignore[arg-type]
        set_mult=tuple(int(v) for v in d["set_multipliers"]),  # type: ignore[arg-type]
        round_orders={int(k): tuple(int(c) for c in v) for k, v in d["round_orders"].items()},
    )


@lru_cache(maxsize=4)
def _shipped(treasure_mix: str) -> Components:
    return build({}, treasure_mix)


def _labelled(data: dict[str, Any], label: str, treasure_mix: str) -> Components:
    return build(data, treasure_mix)  # the label is in data["dataset"]


def load(source: str = "", treasure_mix: str = "B") -> Components:
    """The shipped data set, or the one a `components` rule value names (a TOML/JSON file, or
    items set inline), through the one loader `engines.datasets.load` (labelled and cached by
    content); a missing, unreadable or misshapen file raises one ValueError naming it."""
    if not source:
        return _shipped(treasure_mix)
    return datasets.load("ninjato", source, _labelled, treasure_mix)
