"""Heuristic Ninjato bots: cheap rules of thumb, no cloning, no look-ahead.

They read only the acting seat's own hand and rumours plus public information (houses,
face-up rows, everyone's treasures, envoys and tiles).

- "default" (raider that plays the whole game): learns a Sensei skill when its
  worth (per round left to use it) beats the best raid on offer, and Disguise once it
  holds a masked envoy; plans raids with its ready skills and uses them (set-to-6/0 and
  +-2 on a cheap card, Boryaku, a switch of approach, Choho for a better treasure, a
  refresh); raids the richest house it can beat, turns treasure into envoys, and buys a
  rumour (or takes one as a scoring reward) by the points it can score at the end of the
  game given its elites, envoys, skill tiles and rumours.
- "collector": the same, but any rumour worth 1 or more comes before an envoy in every
  round, a free rumour counts half as much again against clan honour at the scoring
  phases, and it banzais more cautiously with treasure on its shuriken.
- "v1": an earlier default: never learns a skill (it looks at the
  Sensei only when it can beat no house with 3+ cards, i.e. almost never) and ranks
  rumours by set size alone.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from typing import Final

from engines.bots.options import Param, parse_flag, parse_int
from engines.ninjato import components as comp
from engines.ninjato.actions import (
    A_BANZAI,
    A_BASE,
    A_BOR2,
    A_BOR4,
    A_DECK,
    A_DISCARD,
    A_DISGUISE,
    A_GIVE_UP,
    A_HONOUR,
    A_HOUSE,
    A_KEEP,
    A_KI_MINUS,
    A_KI_PLUS,
    A_MINUS2,
    A_PALACE,
    A_PAVILION,
    A_PAY,
    A_PLUS2,
    A_PM1_MINUS,
    A_PM1_PLUS,
    A_REFRESH,
    A_RETREAT,
    A_RUMOUR,
    A_SENSEI,
    A_SIX,
    A_SKILLPAY,
    A_SWAP,
    A_SWITCH,
    A_TAKE,
    A_TOKEN,
    A_ZERO,
    PH_CHOICE,
    PH_DISCARD,
    PH_DISGUISE,
    PH_DRAW,
    PH_END,
    PH_FIGHT,
    PH_KEEP,
    PH_PAY,
    PH_PLACE,
    PH_REWARD1,
    PH_REWARD2,
    PH_SKILLPAY,
    PH_TOKEN,
)
from engines.ninjato.components import (
    E_BORYAKU,
    E_DISGUISE,
    E_MINUS2,
    E_PLUS2,
    E_PM1,
    E_REFRESH,
    E_SIX,
    E_SWAP,
    E_SWITCH,
    E_ZERO,
    R_KINDNESS,
    R_MASTER,
)
from engines.ninjato.raid import G_ELITE, fight_key
from engines.ninjato.scoring import clan_standing, influence, rank_clan, set_multiplier
from engines.ninjato.state import HAND_LIMIT, NinjatoState, row_key

# (Every constant and table is `Final`: compiled with mypyc, a number is inlined and a table
# is a native static; a plain module global would be a dictionary look-up at each use.  A
# table read at a variable index is a `tuple[int, ...]`: a fixed-length tuple type would be
# a C struct, boxed back into a Python tuple at every such read.)
# how much a card is worth keeping (index = value - 1): extremes and Ki are precious
KEEP_VALUE: Final[tuple[int, ...]] = (3, 1, 4, 1, 3)
# discard / pay / fight order: least useful first (ascending KEEP_VALUE, then value)
SPEND_ORDER: Final[tuple[int, ...]] = (1, 3, 0, 4, 2)
# dojo row preference (value -> rank, higher = take first; every face-up card beats the deck)
ROW_PREF: Final = {1: 3, 2: 1, 3: 4, 4: 1, 5: 3}
# (take action - A_TAKE) -> rank
_TAKE_PREF: Final[tuple[int, ...]] = tuple(ROW_PREF[v + 1] for v in range(5))
# face-up row (`row_key`) -> the draw to take
_DOJO_CHOICE: Final[dict[int, int]] = {}
TREASURE_KEEP: Final[tuple[int, ...]] = (2, 3, 4, 5, 6)  # gold is a joker: keep it first
# treasure worth for raid planning (gold counts as a jade)
TVAL: Final[tuple[int, ...]] = (2, 3, 4, 5, 5)
assert SPEND_ORDER == tuple(sorted(range(5), key=lambda v: (KEEP_VALUE[v], v)))
# honour a skill is worth per round left to use it (a guard beaten that a hand would lose to)
SKILL_WORTH: Final = {E_SIX: 2.0, E_ZERO: 2.0, E_PLUS2: 1.5, E_MINUS2: 1.5, E_BORYAKU: 1.5,
                      E_PM1: 1.0, E_SWAP: 0.7, E_SWITCH: 0.5, E_REFRESH: 0.5}
SKILL_MIN: Final = 6.0  # a Sensei visit must be worth this much
# a skill beats a raid whose doubled score times this is below its worth
RAID_WEIGHT: Final = 0.7
# the default draws blind when only cards ranked below this are face up
DECK_BELOW: Final = 2
DISGUISE_WORTH: Final = 4.0  # per scoring phase left, with a masked envoy to lift
RUMOUR_FIRST: Final = 5.0  # a rumour worth this much comes before an envoy ...
RUMOUR_FROM: Final = 5  # ... from this round on (earlier rounds gained nothing, 1,200 games)
RUMOUR_LATE: Final = 1.0  # from round 6 a rumour worth this much beats a dojo visit
# expected gains per round left, for what a rumour will count at the end of the game
ELITES_PER_ROUND: Final = 0.2
ENVOYS_PER_ROUND: Final = 0.6
RUMOURS_PER_ROUND: Final = 0.3
# round -> upper bound on a Sensei tile's worth before Master of Secret Arts (`best_skill`):
# rounds 1-4 a raid skill, 5-7 Disguise (worth nothing without a masked envoy)
SKILL_BOUND: Final[tuple[float, ...]] = (
    0.0, *(max(SKILL_WORTH.values()) * (8 - r) for r in range(1, 5)),
    2 * DISGUISE_WORTH, DISGUISE_WORTH, DISGUISE_WORTH)
SKILL_BOUND_NO_ENVOY: Final[tuple[float, ...]] = SKILL_BOUND[:5] + (0.0, 0.0, 0.0)
_HOUSE_FORCE: Final[tuple[int, ...]] = tuple(A_HOUSE + 2 * h for h in range(5))  # + 1: by stealth
# `fight_key` (stealth, guard value, hand) -> first play of a seat without skills (same
# for all styles)
_FIRST_PLAY: Final[dict[int, int]] = {}
# (approach, sentry value, hand) packed as `fight_key` -> `_after_sentry` (all styles)
_AFTER_SENTRY: Final[dict[int, tuple[float, int]]] = {}


Plan = tuple[tuple[int, int] | None, ...]


def at_risk(shuriken: list[int]) -> int:
    """What a failed raid loses from the treasures won so far: all but the best one."""
    if len(shuriken) < 2:
        return 0
    total = top = 0
    for t in shuriken:
        total += TVAL[t]
        if TVAL[t] > top:
            top = TVAL[t]
    return total - top


def stake(s: NinjatoState, clears: int = 0) -> int:
    """What a fight at the raided house plays for: the next treasure (plus `clears` when it
    is the house's last) and what a failure loses of the shuriken (`at_risk`)."""
    h = s.raid_house
    plain = s.house_plain[h]
    red = s.house_red[h]
    out = TVAL[plain[0] if plain else red[0]] + at_risk(s.raid_treasures)
    if clears and len(plain) + len(red) == 1:
        out += clears
    return out


class PlanTables:
    """The heuristic's memo tables for one data set (`plans(C)`; the engine's own caches are
    `Components.afford` and `payable`).  Each entry is a function of the data set and its
    key alone, so every style shares them; `tests/test_ninjato_fastpaths.py` checks each
    against the computation it saves on real playouts."""

    def __init__(self, C: comp.Components) -> None:
        #: rumour count -> its set multiplier (3.9)
        self.set_multipliers: tuple[int, ...] = tuple(
            set_multiplier(k, C.set_mult) for k in range(len(C.rum_type) + 2))
        bits = len(C.rum_type).bit_length()
        #: rumour id -> 1 << (bits * its type): counts per type packed in one int
        self.rumour_codes: tuple[int, ...] = tuple(1 << bits * t for t in C.rum_type)
        #: envoy id -> its payment options as (honour, *needs), best first
        self.ranked_envoy_options: tuple[list[tuple[int, int, int, int, int]], ...] = tuple(
            sorted(((sum(k * v for k, v in zip(o, C.tval)), *o) for o in opts), reverse=True)
            for opts in C.env_opts)
        #: holding (5 counts) -> `envoy_table`
        self.envoy_tables: dict[tuple[int, ...], tuple[int, ...]] = {}
        #: hand (5 counts) -> `raid_plan`
        self.raid_plans: dict[tuple[int, ...], Plan] = {}
        #: (*hand, ready set-6, set-0, +2, -2, +-1) -> `skill_plan`
        self.skill_plans: dict[tuple[int, ...], Plan] = {}
        #: (round, elites, envoys, tiles, no Sensei tile, packed rumour counts) -> worths
        self.rumour_worths: dict[tuple[int, ...], tuple[float, ...]] = {}


def plans(C: comp.Components) -> PlanTables:
    """The heuristic's tables for data set `C`, made on first use."""
    tables: PlanTables | None = C.plans
    if tables is None:
        tables = PlanTables(C)
        object.__setattr__(C, "plans", tables)  # a frozen dataclass: its one late field
    return tables


def set_multipliers(C: comp.Components) -> tuple[int, ...]:
    """Rumour count -> its set multiplier (3.9), built once per data set."""
    return plans(C).set_multipliers


def envoy_table(C: comp.Components, tr: list[int]) -> tuple[int, ...]:
    """Envoy id -> most honour holding `tr` could score on it (0: unaffordable).

    One table per holding (`PlanTables.envoy_tables`), so a placement does one lookup
    instead of one per envoy.  Payability does not change above `C.caps`: holdings share
    the capped holding's table.
    """
    cache = plans(C).envoy_tables
    out = cache.get((tr[0], tr[1], tr[2], tr[3], tr[4]))
    if out is None:
        capped = [x if x < c else c for x, c in zip(tr, C.caps)]
        key = tuple(capped)
        out = cache.get(key)
        if out is None:
            out = cache[key] = _envoy_points(C, capped)
        cache[tuple(tr)] = out
    return out


def raid_plan(C: comp.Components, hand: list[int]) -> tuple[tuple[int, int] | None, ...]:
    """Sentry id (-1: none, valued 3) -> (bonus, approach) of the hand's best raid, or None.

    Force needs the top reachable value (Ki +1 each) above the sentry, stealth the bottom one
    below it; the bonus (1 = half a point, scores are doubled) is for a single card that wins
    alone.  Stealth is taken only when its bonus is higher: on a tie force comes first.
    Kept in `PlanTables.raid_plans` (the hand key space is small).
    """
    cache = plans(C).raid_plans
    key = (hand[0], hand[1], hand[2], hand[3], hand[4])
    out = cache.get(key)
    if out is None:
        out = cache[key] = _raid_plan(C, hand)
    return out


def _raid_plan(C: comp.Components, hand: list[int]) -> tuple[tuple[int, int] | None, ...]:
    """`raid_plan` computed (cached there)."""
    h0, h1, ki, h3, h4 = hand
    lo = 1 if h0 else 2 if h1 else 3 if ki else 4 if h3 else 5
    hi = 5 if h4 else 4 if h3 else 3 if ki else 2 if h1 else 1
    top = hi + (ki - 1 if hi == 3 else ki)
    bottom = lo - (ki - 1 if lo == 3 else ki)
    plan = []
    for g in C.sentry_value:
        opt = None
        if top > g:
            opt = (1 if hi > g else 0, 0)
        if bottom < g and (opt is None or (lo < g and not hi > g)):
            opt = (1 if lo < g else 0, 1)
        plan.append(opt)
    return tuple(plan)


def skill_plan(C: comp.Components, hand: list[int], ready: list[int],
               boryaku: bool = False) -> tuple[tuple[int, int] | None, ...]:
    """`raid_plan` for a seat with ready skills: set-to-6/0 beats any sentry with any card,
    +-2 and +-1 stretch the hand's reach; with `boryaku` a ready Boryaku (a 4 by force, a 2
    by stealth: it beats any sentry alone) counts too.  Kept in `PlanTables.skill_plans`."""
    key = (*hand, ready[E_SIX], ready[E_ZERO], ready[E_PLUS2], ready[E_MINUS2], ready[E_PM1])
    if boryaku and ready[E_BORYAKU]:
        key = (*key, 1)
    else:
        boryaku = False
    cache = plans(C).skill_plans
    out = cache.get(key)
    if out is None:
        out = cache[key] = _skill_plan(C, hand, ready, boryaku)
    return out


def _skill_plan(C: comp.Components, hand: list[int], ready: list[int],
                boryaku: bool = False) -> tuple[tuple[int, int] | None, ...]:
    if not (hand[0] or hand[1] or hand[2] or hand[3] or hand[4]):
        # an empty hand raids on Boryaku alone (no card for the other skills to modify)
        return tuple((1, 0) if g < 4 else (1, 1) for g in C.sentry_value) if boryaku \
            else tuple(None for _g in C.sentry_value)
    plan = list(raid_plan(C, hand))
    h0, h1, ki, h3, h4 = hand
    lo = 1 if h0 else 2 if h1 else 3 if ki else 4 if h3 else 5
    hi = 5 if h4 else 4 if h3 else 3 if ki else 2 if h1 else 1
    top = 6 if ready[E_SIX] else (hi + (ki - 1 if hi == 3 else ki) + 2 * ready[E_PLUS2]
                                     + ready[E_PM1])
    bottom = 0 if ready[E_ZERO] else (lo - (ki - 1 if lo == 3 else ki)
                                         - 2 * ready[E_MINUS2] - ready[E_PM1])
    for i, g in enumerate(C.sentry_value):
        opt = plan[i]
        if boryaku and (opt is None or not opt[0]):
            plan[i] = (1, 0) if g < 4 else (1, 1)  # Boryaku wins alone, no card spent
        elif opt is None:
            if top > g:
                plan[i] = (0, 0)
            elif bottom < g:
                plan[i] = (0, 1)
    return tuple(plan)


def _envoy_points(C: comp.Components, tr: list[int]) -> tuple[int, ...]:
    """`envoy_table` computed: each envoy's options best-first, the first payable one wins.

    The options sorted by honour are built once per data set
    (`PlanTables.ranked_envoy_options`); the exact payment test is `can_pay` inlined (a
    table is ~130 option checks on a cold cache).
    """
    ranked = plans(C).ranked_envoy_options
    t0, t1, t2, t3, gold = tr
    out = []
    for opts in ranked:
        best = 0
        for pts, n0, n1, n2, n3 in opts:
            short = ((n0 - t0 if n0 > t0 else 0) + (n1 - t1 if n1 > t1 else 0)
                     + (n2 - t2 if n2 > t2 else 0) + (n3 - t3 if n3 > t3 else 0))
            if short <= gold:
                best = pts
                break
        out.append(best)
    return tuple(out)


def _after_sentry(stealth: int, g: int, hand: list[int]) -> tuple[float, int]:
    """(chance, cards): what `hand` has left after beating a sentry of value `g` by force
    (stealth) with the card the fight plays (the least precious that wins alone, else the
    highest (lowest) with the Ki it needs): the chance its highest (lowest) card and Ki
    beat a guard of uniform value 1-5, as `banzai_or_retreat` reckons it, and the cards
    left.  Kept in `_AFTER_SENTRY` by `scored_raid`."""
    h = list(hand)
    spent = -1
    for v in SPEND_ORDER:
        if h[v] and ((v + 1 < g) if stealth else (v + 1 > g)):
            spent = v
            break
    if spent >= 0:
        h[spent] -= 1
    else:
        held = [v for v in range(5) if h[v]]
        if held:
            v = held[0] if stealth else held[-1]
            h[v] -= 1
            need = (v + 1 - g + 1) if stealth else (g - v - 1 + 1)
            h[2] -= min(max(need, 0), h[2])
    h0, h1, ki, h3, h4 = h
    cards = h0 + h1 + ki + h3 + h4
    if stealth:
        lo = 1 if h0 else 2 if h1 else 3 if ki else 4 if h3 else 5 if h4 else 0
        if not lo:
            return 0.0, 0
        bottom = lo - (ki - 1 if lo == 3 else ki)
        return ((5 - bottom) / 5 if bottom > 0 else 1.0), cards
    hi = 5 if h4 else 4 if h3 else 3 if ki else 2 if h1 else 1 if h0 else 0
    if not hi:
        return 0.0, 0
    top = hi + (ki - 1 if hi == 3 else ki)
    return ((top - 1) / 5 if top < 6 else 1.0), cards


class Heuristic:
    """Rule-of-thumb bot; `style` is "default" (raider), "collector" or "v1" (old default)."""

    def __init__(self, style: str = "default", banzai_margin: float | str = 0.0,
                 raid_weight: float | str = RAID_WEIGHT, deck_below: int | str | None = None,
                 save_ki: bool | str = False,
                 choho_worth: float | str = SKILL_WORTH[E_SWAP],
                 overdraw: int | str = 0, deck_helps: bool | str | None = None,
                 skill_min: float | str = SKILL_MIN,
                 disguise_worth: float | str = DISGUISE_WORTH,
                 card_cost: float | str = 1.0, ki_cost: float | str = 0.0,
                 fight_cost: float | str = 0.0,
                 boryaku_worth: float | str = SKILL_WORTH[E_BORYAKU],
                 boryaku_first: int | str = 0, boryaku_raids: bool | str = False,
                 switch_worth: float | str = SKILL_WORTH[E_SWITCH],
                 refresh_worth: float | str = SKILL_WORTH[E_REFRESH],
                 raid_ahead: float | str = 0.0,
                 envoy_favour: float | str = 0.0, token_favour: bool | str = False) -> None:
        self.style = style
        self.collector = style == "collector"
        self.whole = style != "v1"  # plays skills, Disguise and rumours by their worth
        self.banzai_margin = float(banzai_margin)
        self.raid_weight = float(raid_weight)  # lower: more Sensei visits instead of raids
        # the dojo deck draw MCTS uses: draw blind when the best face-up
        # card ranks below `deck_below` in `ROW_PREF` (0: never; 2: only 2s and 4s face up,
        # below a blind card's average rank), and with `deck_helps` only when no face-up
        # card helps the raids planned: one that raises the hand's best raid
        # (`scored_raid`) or adds a value the hand lacks is still taken.  The default style
        # does both (`deck_below=0` = the default before); the others neither.
        default = style == "default"
        self.deck_below = (DECK_BELOW if default else 0) if deck_below is None \
            else parse_int("ninjato heuristic", "deck_below", deck_below, minimum=0)
        self.deck_helps = default if deck_helps is None else \
            parse_flag("ninjato heuristic", "deck_helps", deck_helps)
        # duplicate-format checks of kinds MCTS uses more (they lose or gain
        # nothing, README): give up a raid rather than open with a card that needs Ki to
        # win (when on, first plays bypass the shared first-play cache)
        self.save_ki = parse_flag("ninjato heuristic", "save_ki", save_ki)
        # ... and learn Choho more often (its worth per round left; at most the largest
        # SKILL_WORTH, which SKILL_BOUND assumes)
        self.skill_worth = {**SKILL_WORTH, E_SWAP: float(choho_worth),
                            E_BORYAKU: float(boryaku_worth), E_SWITCH: float(switch_worth),
                            E_REFRESH: float(refresh_worth)}
        # ... and the hand limit discard: with 4+ cards draw at the dojo (2 cards; over 7, discard
        # the least useful) instead of a raid whose doubled score is below this (0: never)
        self.overdraw = int(overdraw)
        # the Sensei and fight weights `simulate tune` searches (PARAMS): a tile must be worth
        # `skill_min`; Disguise is worth `disguise_worth` per scoring phase left; a tile paid
        # with a card costs `card_cost` x the card's keep value; and a first play that needs
        # Ki cards is given up when `ki_cost` per Ki card outweighs the treasure it wins
        # plus the shuriken a failure loses (0: never)
        self.skill_min = float(skill_min)
        self.disguise_worth = float(disguise_worth)
        self.card_cost = float(card_cost)
        self.ki_cost = float(ki_cost)
        # ... and after a banzai a revealed guard is given up when the cards the win spends,
        # at `fight_cost` x their keep value, outweigh what the win adds (0: never)
        self.fight_cost = float(fight_cost)
        # Boryaku (a 2 or 4 with no card, ready again each round): learnt at `boryaku_worth`
        # per round left (above); played at a first fight rather than a card that wins alone
        # whose keep value is at least `boryaku_first` (0: only when no card wins), so
        # the card stays in hand; with `boryaku_raids` a ready Boryaku counts in the raid
        # plan (it beats any sentry alone, an empty hand raids on it)
        self.boryaku_first = parse_int("ninjato heuristic", "boryaku_first", boryaku_first,
                                       minimum=0)
        self.boryaku_raids = parse_flag("ninjato heuristic", "boryaku_raids", boryaku_raids)
        # a raid is scored by the treasure it expects to carry home (lowest first, banzais
        # at the hand's odds), clearing the house worth `raid_ahead` x 3, rather than by all
        # the plain treasure in the house (0)
        self.raid_ahead = float(raid_ahead)
        # an envoy is bought by the honour paid plus `envoy_favour` x the clan favour its
        # influence wins at the scoring phases left (`favour_gain`; 0: by honour alone)
        self.envoy_favour = float(envoy_favour)
        # a cleared house's new clan token by the favour it shifts to this seat
        # (`favour_token`) rather than the most valuable on its strongest clan
        self.token_favour = parse_flag("ninjato heuristic", "token_favour", token_favour)
        top = max(self.skill_worth.values())
        #: effect -> its worth per round left (a tuple: read for each face-up tile)
        self.worth_by_effect: tuple[float, ...] = tuple(
            self.skill_worth.get(e, 0.0) for e in range(len(comp.EFFECTS)))
        self.skill_top = top
        dw = self.disguise_worth
        self.skill_bound: tuple[float, ...] = (
            0.0, *(top * (8 - r) for r in range(1, 5)), 2 * dw, dw, dw)
        self.skill_bound_no_envoy: tuple[float, ...] = self.skill_bound[:5] + (0.0, 0.0, 0.0)
        self.name = "heuristic" if style == "default" else f"heuristic:{style}"
        handlers = {
            PH_PLACE: self.place, PH_PAY: self.best_payment, PH_SKILLPAY: self._spend,
            PH_DISCARD: self._spend, PH_FIGHT: self.fight, PH_CHOICE: self.banzai_or_retreat,
            PH_KEEP: self._keep, PH_TOKEN: self.token, PH_REWARD1: self.reward,
            PH_REWARD2: self.pick_rumour, PH_DRAW: self.dojo_draw,
        }
        if self.whole:
            handlers[PH_PLACE] = self.place_whole
            handlers[PH_DISGUISE] = self.disguise
        # phase (PH_* index) -> handler(state, legal); other phases take the first action
        self._by_phase = tuple(handlers.get(ph, self._first) for ph in range(PH_END + 1))

    # ------------------------------------------------------------------ dispatch
    def choose(self, state: NinjatoState, rng: random.Random) -> int:
        """Dispatch on the phase; a skill-less first play vs a regular guard (a third of all
        decisions) is answered here from the first-play cache, without a handler call."""
        legal = state._legal_cache or state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        ph = state.phase
        if (ph == PH_FIGHT and state.play_base < 0 and state.guard_kind != G_ELITE
                and not self.save_ki):
            p = state.player
            if not state.tiles[p]:
                a = _FIRST_PLAY.get(fight_key(state.raid_approach,
                                                   state.C.gval[state.guard_id],
                                                   state.hands[p]), -1)
                if a >= 0 and (not self.ki_cost or a == A_GIVE_UP
                               or not self.ki_not_worth(state, a)) and not (
                        self.fight_cost and state.raid_wins and self.cards_not_worth(state, a)):
                    return a
        # an if-chain for the commonest phases: compiled, each is a direct call (the table of
        # bound methods, `_by_phase`, is a generic Python call: the rarer phases)
        if ph == PH_PLACE:
            return self.place_whole(state, legal) if self.whole else self.place(state, legal)
        if ph == PH_FIGHT:
            return self.fight(state, legal)
        if ph == PH_CHOICE:
            return self.banzai_or_retreat(state, legal)
        if ph == PH_DRAW:
            return self.dojo_draw(state, legal)
        return self._by_phase[ph](state, legal)

    def _spend(self, state: NinjatoState, legal: list[int]) -> int:
        """Pay a skill or discard: the least useful card value first."""
        base = A_SKILLPAY if state.phase == PH_SKILLPAY else A_DISCARD
        for v in SPEND_ORDER:
            if base + v in legal:
                return base + v
        return legal[0]

    def _keep(self, state: NinjatoState, legal: list[int]) -> int:
        if self.whole and legal[-1] >= A_SWAP:
            swap = self.best_swap(state, legal)
            if swap >= 0:
                return swap
        keeps = [a for a in legal if A_KEEP <= a < A_KEEP + 5]
        return max(keeps, key=lambda a: TREASURE_KEEP[a - A_KEEP])

    def _first(self, state: NinjatoState, legal: list[int]) -> int:
        return legal[0]

    # ------------------------------------------------------------------ placement
    def place(self, s: NinjatoState, legal: list[int]) -> int:
        """Envoy, raid, sensei (late), rumour (late), else the dojo.

        `legal` is ascending, so the palace and pavilion buys are its tail: they are read from
        the end (highest slot first, as the first of equal scores wins) without a copy.
        """
        p = s.player
        hand = s.hands[p]
        last = legal[-1]
        if last >= A_PALACE:
            if self.collector and last >= A_PAVILION:
                best = self.rumour_buy(s, legal)
                if best is not None:
                    return best
            i = len(legal) - 1
            while legal[i] >= A_PAVILION:
                i -= 1
            a = legal[i]
            if a >= A_PALACE:
                pts = envoy_table(s.C, s.treasures[p])
                palace = s.palace
                best, best_pts = a, pts[palace[a - A_PALACE]]
                a = legal[i - 1]
                while a >= A_PALACE:
                    v = pts[palace[a - A_PALACE]]
                    if v > best_pts:
                        best, best_pts = a, v
                    i -= 1
                    a = legal[i - 1]
                return best
        hn = hand[0] + hand[1] + hand[2] + hand[3] + hand[4]
        if hn:
            raid = self.best_raid(s, hand)
            if raid >= 0:
                return raid
            if hn >= 3 and (self.collector or s.round >= 5):
                for a in legal:
                    if a >= A_SENSEI:
                        if a < A_HOUSE:
                            return a
                        break
        if last >= A_PAVILION and s.round >= 6:
            best = self.rumour_buy(s, legal)
            if best is not None:
                return best
        return self.dojo_draw(s, legal)

    def place_whole(self, s: NinjatoState, legal: list[int]) -> int:
        """Rumour (when worth a lot), envoy, Sensei (when a skill is worth more than the
        best raid), raid, late rumour, else the dojo: `place` with the Sensei and the
        rumours valued.  `legal` is ascending: dojo draws, sensei, houses, palace, pavilion."""
        p = s.player
        last = legal[-1]
        rumour, worth = -1, 0.0
        if last >= A_PAVILION and (s.round >= RUMOUR_FROM or self.collector):
            rumour, worth = self.best_rumour(s, legal)
            if worth >= RUMOUR_FIRST or (self.collector and worth >= RUMOUR_LATE):
                return rumour
        if last >= A_PALACE:
            i = bisect_left(legal, A_PAVILION) - 1  # the last palace buy, if any
            if i >= 0 and legal[i] >= A_PALACE:
                pts = envoy_table(s.C, s.treasures[p])
                palace = s.palace
                favour = self.envoy_favour
                best, best_pts = -1, -1.0
                while legal[i] >= A_PALACE:
                    a = legal[i]
                    e = palace[a - A_PALACE]
                    v = float(pts[e])
                    if favour:
                        v += favour * self.favour_gain(s, e)
                    if v >= best_pts:  # the lowest slot of equal honour, as in `place`
                        best, best_pts = a, v
                    i -= 1
                return best
        hand = s.hands[p]
        if hand[0] or hand[1] or hand[2] or hand[3] or hand[4] or (
                self.boryaku_raids and s.ready[p][E_BORYAKU]):
            raid, raid_score = self.scored_raid(s, hand)
        else:
            raid, raid_score = -1, 0.0
        i = bisect_left(legal, A_SENSEI)  # is a Sensei tile affordable? (rarer: asked first)
        if i < len(legal) and legal[i] < A_HOUSE:
            beat = self.raid_weight * raid_score  # what a tile must be worth
            rnd = s.round
            if rnd <= 4:  # raid skills: the best face-up one's worth bounds every tile's
                top = 0.0
                effect = s.C.skill_effect
                worth_by_effect = self.worth_by_effect
                for t in s.sensei:
                    e = effect[t]
                    if e == E_DISGUISE:
                        top = self.skill_top  # not dealt before round 5: the round's bound
                        break
                    if worth_by_effect[e] > top:
                        top = worth_by_effect[e]
                bound = top * (8 - rnd)
            else:
                bound = (self.skill_bound if s.envoys[p] else self.skill_bound_no_envoy)[rnd]
            held = len(s.rumours[p])
            if held:  # the most a tile adds on Master of Secret Arts: every rumour one
                C = s.C
                bound += C.rum_points[R_MASTER] * plans(C).set_multipliers[held]
            if bound >= beat:
                skill, skill_worth = self.best_skill(s, legal)
                if skill >= 0 and skill_worth >= beat:
                    return skill
        if raid >= 0:
            if (self.overdraw and raid_score < self.overdraw and legal[0] < A_SENSEI
                    and sum(hand) >= HAND_LIMIT - 3):
                return self.dojo_draw(s, legal)
            return raid
        if rumour >= 0 and s.round >= 6 and worth >= RUMOUR_LATE:
            return rumour
        return self.dojo_draw(s, legal)

    def favour_gain(self, s: NinjatoState, e: int) -> float:
        """The clan favour envoy `e` would add to this seat at the scoring phases left, by
        the ranking now (3.8: first place the clan's tokens on houses, second half that; a
        tie goes to the oldest envoy; the Disguises declared last count)."""
        p = s.player
        C = s.C
        clan = C.env_clan[e]
        age = C.env_age
        mine, old = clan_standing(s.envoys[p], s.disguised[p], clan, C.env_clan, age)
        ahead_now = ahead_after = 0  # rivals ranked above this seat, now and with `e`
        new_old = age[e] if age[e] > old else old
        for q in range(s.n):
            if q == p:
                continue
            infl, q_old = clan_standing(s.envoys[q], s.disguised[q], clan, C.env_clan, age)
            if infl > mine or (infl == mine and q_old > old):
                ahead_now += 1
            if infl > mine + 1 or (infl == mine + 1 and q_old > new_old):
                ahead_after += 1
        before = 0.0 if not mine else 1.0 if ahead_now == 0 else 0.5 if ahead_now == 1 else 0.0
        after = 1.0 if ahead_after == 0 else 0.5 if ahead_after == 1 else 0.0
        phases = (s.round <= 3) + (s.round <= 5) + (s.round <= 7)
        return (after - before) * s.clan_honour(clan) * phases

    def best_skill(self, s: NinjatoState, legal: list[int]) -> tuple[int, float]:
        """The Sensei tile worth the most and its worth (-1, 0: none worth `SKILL_MIN`).

        A raid skill is worth `SKILL_WORTH` per round left to use it; Disguise
        `DISGUISE_WORTH` per scoring phase left once this seat holds a masked envoy it
        does not yet disguise; each tile also scores on this seat's Master of Secret Arts.
        A tile that costs a card (its school not yet known) costs that card's keep value.
        """
        p = s.player
        C = s.C
        masters = 0
        rt = C.rum_type
        for r in s.rumours[p]:
            if rt[r] == R_MASTER:
                masters += 1
        master = C.rum_points[R_MASTER] * set_multipliers(C)[masters]
        raid_left = 8 - s.round
        disguise = -1.0  # worked out at the first Disguise tile
        schools = s.schools[p]
        need = C.skill_need
        effect = C.skill_effect
        sensei = s.sensei
        skill_worth = self.skill_worth
        best, best_worth = -1, self.skill_min
        for i in range(bisect_left(legal, A_SENSEI), len(legal)):
            a = legal[i]
            if a >= A_HOUSE:
                break
            t = sensei[a - A_SENSEI]
            e = effect[t]
            if e == E_DISGUISE:
                if disguise < 0:
                    masks = 0
                    for v in s.envoys[p]:
                        if C.env_mask[v]:
                            masks += 1
                    disguise = (self.disguise_worth
                                * ((s.round <= 3) + (s.round <= 5) + (s.round <= 7))
                                if masks > s.owned[p][E_DISGUISE] else 0.0)
                worth = disguise + master
            else:
                worth = skill_worth[e] * raid_left + master
            school_bit, card = need[t]
            if not schools & school_bit:
                if card < 0:
                    hand = s.hands[p]
                    card = next(v for v in SPEND_ORDER if hand[v])
                worth -= self.card_cost * KEEP_VALUE[card]
            if worth >= best_worth:
                best, best_worth = a, worth
        return (best, best_worth) if best >= 0 else (-1, 0.0)

    def rumour_worth(self, s: NinjatoState, rumour: int) -> float:
        """Honour rumour card `rumour` should add to this seat's final scoring (3.9)."""
        return self.rumour_worths(s)[s.C.rum_type[rumour]]

    def rumour_worths(self, s: NinjatoState) -> tuple[float, ...]:
        """Per rumour type, the honour one more card should add to this seat's final score.

        What a type counts (elites, rumours, envoys, skill tiles) is projected to the end
        of the game from this seat's holdings plus an expected gain per round left; a card
        scores that count times the rise of its set's multiplier, and adds one item to
        every Kindness card held.  Shameful Enemy is valued as if one rival holds some.
        Kept in `PlanTables.rumour_worths` by (round, elites, envoys, tiles, no Sensei tile,
        counts per type packed in an int).
        """
        p = s.player
        C = s.C
        tables = plans(C)
        codes = tables.rumour_codes  # no count can carry over into the next type's bits
        packed = 0
        for r in s.rumours[p]:
            packed += codes[r]
        key = (s.round, len(s.elites[p]), len(s.envoys[p]), len(s.tiles[p]), int(not s.sensei),
               packed)
        cache = tables.rumour_worths
        out = cache.get(key)
        if out is None:
            out = cache[key] = self._rumour_worths(s)
        return out

    def _rumour_worths(self, s: NinjatoState) -> tuple[float, ...]:
        """`rumour_worths` computed from the counts per type held (cached there)."""
        C = s.C
        p = s.player
        mine = [0, 0, 0, 0, 0]
        rt = C.rum_type
        for r in s.rumours[p]:
            mine[rt[r]] += 1
        mult = set_multipliers(C)
        rounds_left = 7 - s.round
        pts = C.rum_points
        kind_now = mult[mine[R_KINDNESS]]
        items = (len(s.elites[p]) + ELITES_PER_ROUND * rounds_left,
                 len(s.rumours[p]) + 1 + RUMOURS_PER_ROUND * rounds_left,
                 len(s.envoys[p]) + ENVOYS_PER_ROUND * rounds_left,
                 len(s.tiles[p]) + (1 if s.sensei and s.round <= 4 else 0))
        out = []
        for t in range(4):
            k = mine[t]
            worth = pts[t] * items[t] * (mult[k + 1] - mult[k])
            out.append(worth + (pts[t] * kind_now if t == R_KINDNESS else kind_now))
        out.append(C.shameful[1] + kind_now)
        return tuple(out)

    def best_rumour(self, s: NinjatoState, legal: list[int]) -> tuple[int, float]:
        """The pavilion buy (legal's tail) whose card is worth the most at the end."""
        pavilion = s.pavilion
        worths = self.rumour_worths(s)
        rt = s.C.rum_type
        best, best_worth = -1, -1.0
        i = len(legal) - 1
        a = legal[i]
        while a >= A_PAVILION:
            worth = worths[rt[pavilion[a - A_PAVILION]]]
            if worth >= best_worth:
                best, best_worth = a, worth
            i -= 1
            a = legal[i]
        return best, best_worth

    def disguise(self, s: NinjatoState, legal: list[int]) -> int:
        """Lift the masked envoy whose clan's rank this +1 improves most, by clan honour.

        Reads only public information: envoys and Disguises already declared.
        """
        p = s.player
        C = s.C
        ec = C.env_clan
        best, best_gain = legal[0], -1.0
        for a in legal:
            clan = ec[a - A_DISGUISE]
            mine = influence(s.envoys[p], s.disguised[p], clan, ec)
            rival = max((influence(s.envoys[q], s.disguised[q], clan, ec) for q in range(s.n)
                         if q != p), default=0)
            honour = s.clan_honour(clan)
            if mine + 1 > rival >= mine:
                gain = honour + 1.0  # from second (or tied) to first
            elif mine + 1 == rival:
                gain = honour / 2  # level with the leader: the envoys' age decides
            else:
                gain = honour / 10
            if gain > best_gain:
                best, best_gain = a, gain
        return best

    def dojo_draw(self, s: NinjatoState, legal: list[int]) -> int:
        """Take the most useful face-up card (Ki, then 1s and 5s; ties: the lower value);
        the deck only when the row is empty, so the cards taken are the same as before
        the draws became one at a time.  `legal` starts with the draws, which
        depend only on the row (cached per row)."""
        row = s.row
        key = row_key(row)
        best = _DOJO_CHOICE.get(key, -1)
        if best < 0:
            best, best_rank = legal[0], 0
            for a in legal:
                if a >= A_DECK:
                    break
                rank = _TAKE_PREF[a - A_TAKE]
                if rank > best_rank:
                    best, best_rank = a, rank
            if row:  # an empty row leaves the deck (or no draw at all): not cached
                _DOJO_CHOICE[key] = best
        if self.deck_below and best < A_DECK and _TAKE_PREF[best - A_TAKE] < self.deck_below:
            i = bisect_left(legal, A_DECK)
            if i < len(legal) and legal[i] == A_DECK:
                if self.deck_helps:
                    take = self.raid_card(s, legal)
                    if take >= 0:
                        return take
                return A_DECK
        return best

    def raid_card(self, s: NinjatoState, legal: list[int]) -> int:
        """The face-up draw that raises this hand's best raid score most, else the first
        that adds a value the hand lacks (-1: every face-up card is one more of a value
        held that opens no better raid).  Only a lacking value or a Ki can raise it
        (`raid_plan` reads the hand's lowest and highest value and its Ki count), so the
        others are not tried, and a lone such card is taken without trying."""
        hand = s.hands[s.player]
        tries = []
        for a in legal:
            if a >= A_DECK:
                break
            v = a - A_TAKE
            if not hand[v] or v == 2:
                tries.append(a)
        if not tries:
            return -1
        if len(tries) == 1 and not hand[tries[0] - A_TAKE]:
            return tries[0]  # raises the raid or adds a missing value: taken either way
        best, best_score = -1, self.scored_raid(s, hand)[1]
        new_value = -1
        for a in tries:
            v = a - A_TAKE
            if new_value < 0 and not hand[v]:
                new_value = a
            hand[v] += 1  # try the card in hand (undone at once)
            score = self.scored_raid(s, hand)[1]
            hand[v] -= 1
            if score > best_score:
                best, best_score = a, score
        return best if best >= 0 else new_value

    def best_raid(self, s: NinjatoState, hand: list[int]) -> int:
        """The open house with the most treasure whose sentry this hand can beat (-1: none)."""
        return self.scored_raid(s, hand)[0]

    def scored_raid(self, s: NinjatoState, hand: list[int]) -> tuple[int, float]:
        """`best_raid` and its score: twice the house's worth (-1, 0: no house).

        A house is worth its plain treasures (TVAL: value, gold as a jade) plus 0.5 per red
        one; a sentry that one card beats alone (no Ki needed) adds 0.5.  Scores are kept
        doubled; the per-sentry approach and bonus come from the hand's raid plan, and the
        plain part is summed per house.  With `raid_ahead` a house is worth what the raid
        expects to carry home instead (`expected_haul`).
        """
        C = s.C
        p = s.player
        if self.whole and s.tiles[p]:
            plan = skill_plan(C, hand, s.ready[p], self.boryaku_raids)
        else:
            plan = raid_plan(C, hand)
        ahead = self.raid_ahead
        sure_force = sure_stealth = False
        hand_key = 0
        if ahead:
            hand_key = fight_key(0, 0, hand)
            ready = s.ready[p]
            sure_force = bool(ready[E_SIX] or ready[E_PLUS2])
            sure_stealth = bool(ready[E_ZERO] or ready[E_MINUS2])
        sentry_value = C.sentry_value
        best, best_score = -1, 0.0
        for act, closed, guard, plain, red in zip(_HOUSE_FORCE, s.house_closed, s.house_sentry,
                                                  s.house_plain, s.house_red):
            if closed:
                continue
            opt = plan[guard]
            if opt is None:
                continue
            worth = 0  # the plain treasures' TVAL sum, doubled below
            for t in plain:
                worth += TVAL[t]
            if ahead:
                stealth = opt[1]
                key = (stealth << 8 | sentry_value[guard]) << 40 | hand_key
                after = _AFTER_SENTRY.get(key)
                if after is None:
                    after = _AFTER_SENTRY[key] = _after_sentry(stealth, sentry_value[guard],
                                                               hand)
                win, cards = after
                if sure_stealth if stealth else sure_force:
                    win = 1.0
                # at most the first treasure plus the odds of the first banzai times the rest
                # (red ones as jades) and the clearing: skip a house that cannot beat the best
                first = TVAL[plain[0] if plain else red[0]]
                if cards <= 0 or len(plain) + len(red) == 1:
                    score = 2.0 * (first + (3.0 * ahead if len(plain) + len(red) == 1
                                            else 0.0)) + opt[0]
                elif 2.0 * (first + win * (worth - (first if plain else 0) + 5 * len(red)
                                           + 3.0 * ahead)) + opt[0] <= best_score:
                    continue
                else:
                    score = 2.0 * self.expected_haul(plain, red, win, cards) + opt[0]
            else:
                score = float(2 * worth + len(red) + opt[0])
            if score > best_score:
                best, best_score = act + opt[1], score
        return best, best_score

    def expected_haul(self, plain: list[int], red: list[int], win: float, cards: int) -> float:
        """What a raid past the sentry expects to carry home: the first treasure, then each
        banzai this bot would take (`banzai_or_retreat`'s rule) won at odds `win` (0.6 of
        it against an elite) while cards last; a failure keeps the best treasure, clearing
        the house adds `raid_ahead` x 3 (the clan token and a closed house)."""
        n_plain = len(plain)
        n = n_plain + len(red)
        top = TVAL[plain[0] if n_plain else red[0]]
        total = float(top) + (3.0 * self.raid_ahead if n == 1 else 0.0)
        alive = 1.0
        out = 0.0
        margin = self.banzai_margin
        k = 1
        while k < n and cards > 0:
            w = win if k < n_plain else 0.6 * win
            v = TVAL[plain[k] if k < n_plain else red[k - n_plain]]
            last = k == n - 1
            if w * (v + 3.0 if last else v) <= (1 - w) * (total - top) + margin:
                break
            out += alive * (1 - w) * top
            alive *= w
            total += v
            if v > top:
                top = v
            cards -= 1
            if last:
                total += 3.0 * self.raid_ahead
            k += 1
        return out + alive * total

    def envoy_points(self, s: NinjatoState, e: int) -> int:
        """Most honour this seat's treasure could score on envoy `e` (cached per holding)."""
        return envoy_table(s.C, s.treasures[s.player])[e]

    def rumour_buy(self, s: NinjatoState, legal: list[int]) -> int | None:
        """The pavilion buy (legal's tail, highest slot first) that best extends a set."""
        mine = [0] * 5
        rt = s.C.rum_type
        for r in s.rumours[s.player]:
            mine[rt[r]] += 1
        pavilion = s.pavilion
        best, best_score = None, -1
        for a in reversed(legal):
            if a < A_PAVILION:
                break
            t = rt[pavilion[a - A_PAVILION]]
            score = mine[t] % 3 + (1 if t == R_KINDNESS else 0)
            if score > best_score:
                best, best_score = a, score
        return best

    # ------------------------------------------------------------------ raids
    def fight(self, s: NinjatoState, legal: list[int]) -> int:
        p = s.player
        hand = s.hands[p]
        stealth = s.raid_approach
        cache = s.play_base < 0 and not s.tiles[p] and not self.save_ki
        g = s.guard_value()
        if s.double_elite():
            cache = False  # a double elite: the cards offered also keep its next guard
        if cache:
            # without skills the first play is a function of (approach, guard, hand) only
            key = fight_key(stealth, g, hand)
            a = _FIRST_PLAY.get(key, -1)
            if a < 0:
                a = _FIRST_PLAY[key] = self._fight(s, legal, hand, stealth, g)
        elif self.whole:
            a = self._fight_skills(s, legal, hand, stealth, g)
        else:
            a = self._fight(s, legal, hand, stealth, g)
        if self.ki_cost and s.play_base < 0 and a != A_GIVE_UP and self.ki_not_worth(s, a):
            return A_GIVE_UP
        if self.fight_cost and s.raid_wins and self.cards_not_worth(s, a):
            return A_GIVE_UP
        return a

    def cards_not_worth(self, s: NinjatoState, a: int) -> bool:
        """Give up a revealed guard (after a banzai) rather than win it with `a`: the cards
        the win spends, at `fight_cost` times their keep value, outweigh what it adds — the
        next treasure (3 more when it clears the house) plus what a failure would lose of
        the shuriken (all but its best treasure).  With one treasure won, giving up costs
        nothing but the next treasure, so a win that burns a Ki or an extreme card for a fan
        is not worth it.  Not at the sentry: the raid was chosen for that fight (and a win
        there opens a banzai that risks nothing)."""
        stealth = s.raid_approach
        g = s.guard_value()
        if s.play_base < 0:
            if a < A_BASE or a >= A_BOR2:
                return False  # Boryaku, a skill, a switch or a swap: no card spent
            v = a - A_BASE + 1
            need = v - g + 1 if stealth else g - v + 1
            cost = KEEP_VALUE[v - 1]
        elif a == A_KI_PLUS or a == A_KI_MINUS:
            v = s.play_value()
            need = v - g + 1 if stealth else g - v + 1
            cost = 0
        else:
            return False
        if need > 0 and not (self._ready_low(s) if stealth else self._ready_high(s)):
            cost += KEEP_VALUE[2] * (need - 1 if s.ready[s.player][E_PM1] else need)
        return self.fight_cost * cost > stake(s, 3)

    def ki_not_worth(self, s: NinjatoState, a: int) -> bool:
        """Give up a winnable fight: the first play `a` needs Ki cards to beat the guard
        (its own value is not enough, and no ready skill stands in), and `ki_cost` per Ki
        card is worth more than the treasure it wins plus what a failure loses from the
        shuriken (all but its best treasure)."""
        if a < A_BASE or a >= A_BOR2:
            return False
        v = a - A_BASE + 1
        g = s.guard_value()
        need = v - g + 1 if s.raid_approach else g - v + 1
        if need <= 0 or (self._ready_low(s) if s.raid_approach else self._ready_high(s)):
            return False
        return self.ki_cost * need > stake(s)

    def _fight_skills(self, s: NinjatoState, legal: list[int], hand: list[int], stealth: int,
                      g: int) -> int:
        """`_fight` for a seat with skills: set-to-6/0 on the cheapest card, the smallest
        modifiers that close the gap, a switch of approach or a refresh when they win, and
        Choho for a better treasure on the shuriken first."""
        if legal[-1] >= A_SWAP:
            swap = self.best_swap(s, legal)
            if swap >= 0:
                return swap
        ready = s.ready[s.player]
        if s.play_base < 0:
            if self.boryaku_first and ready[E_BORYAKU]:
                a = self._boryaku_first(legal, hand, stealth, g)
                if a >= 0:
                    return a
            cheap = -1
            if ready[E_ZERO if stealth else E_SIX]:
                cheap = next((v for v in SPEND_ORDER if hand[v]), -1)
            if cheap >= 0 and A_BASE + cheap in legal:
                alone = (cheap + 1 < g) if stealth else (cheap + 1 > g)
                if not alone and not any(hand[v] and ((v + 1 < g) if stealth else (v + 1 > g))
                                         for v in range(5)):
                    return A_BASE + cheap
            a = self._fight(s, legal, hand, stealth, g)
            if a == A_GIVE_UP and A_SWITCH in legal:
                other = s.guard_value_for(s.raid_approach ^ 1, s.elite_part)
                if any(hand[v] and ((v + 1 > other) if stealth else (v + 1 < other))
                       for v in range(5)):
                    return A_SWITCH
            return a
        v = s.play_value()
        skills = not s.boryaku_played or s.rules.boryaku_skills  # A18
        if stealth:
            need = v - g + 1  # how far down the play must go
            steps = ((A_MINUS2, 2, ready[E_MINUS2] and skills),
                     (A_PM1_MINUS, 1, ready[E_PM1] and skills),
                     (A_KI_MINUS, 1, hand[2]))
            setter = A_ZERO
        else:
            need = g - v + 1
            steps = ((A_PLUS2, 2, ready[E_PLUS2] and skills),
                     (A_PM1_PLUS, 1, ready[E_PM1] and skills),
                     (A_KI_PLUS, 1, hand[2]))
            setter = A_SIX
        reach = sum(step * n for _a, step, n in steps)
        if s.play_override < 0 and reach >= need:
            for a, step, n in steps:  # the biggest step that does not overshoot, else any
                if n and step <= need and a in legal:
                    return a
            for a, _step, n in steps:
                if n and a in legal:
                    return a
        if setter in legal:
            return setter
        if A_SWITCH in legal:
            other = s.guard_value_for(s.raid_approach ^ 1, s.elite_part)
            if (v > other) if stealth else (v < other):
                return A_SWITCH
        for e in (E_SIX, E_ZERO, E_PLUS2, E_MINUS2, E_PM1):
            if A_REFRESH + e in legal:
                return A_REFRESH + e
        return A_GIVE_UP

    def _boryaku_first(self, legal: list[int], hand: list[int], stealth: int, g: int) -> int:
        """Boryaku (-1: not this) when it wins alone and every card that wins alone is worth
        keeping (keep value `boryaku_first` or more), or none does: a card of the hand
        spent for nothing but the fight would be lost, Boryaku is ready again next round."""
        if stealth:
            a = A_BOR2 if A_BOR2 in legal and 2 < g else A_BOR4 if A_BOR4 in legal and 4 < g \
                else -1
        else:
            a = A_BOR4 if A_BOR4 in legal and 4 > g else A_BOR2 if A_BOR2 in legal and 2 > g \
                else -1
        if a < 0:
            return -1
        for v in range(5):
            if hand[v] and ((v + 1 < g) if stealth else (v + 1 > g)) \
                    and KEEP_VALUE[v] < self.boryaku_first:
                return -1  # a cheap card wins alone: spend it, keep Boryaku for later
        return a

    def best_swap(self, s: NinjatoState, legal: list[int]) -> int:
        """Choho: the swap that raises the shuriken's worth most (-1: none raises it)."""
        best, best_gain = -1, 0
        for a in legal:
            if a < A_SWAP or a >= A_TOKEN:
                continue
            give, rest = divmod(a - A_SWAP, 10)
            gain = TVAL[rest >> 1] - TVAL[give]
            if gain > best_gain:
                best, best_gain = a, gain
        return best

    def _fight(self, s: NinjatoState, legal: list[int], hand: list[int], stealth: int,
               g: int) -> int:
        ki = hand[2]
        if s.play_base < 0:
            # a base card that wins alone: the least precious one (index v = value - 1);
            # offered unless the next guard of a double elite needs it
            double = s.double_elite()
            if stealth:
                for v in SPEND_ORDER:
                    if hand[v] and v + 1 < g and (not double or A_BASE + v in legal):
                        return A_BASE + v
            else:
                for v in SPEND_ORDER:
                    if hand[v] and v + 1 > g and (not double or A_BASE + v in legal):
                        return A_BASE + v
            if A_BOR2 in legal and (2 < g if stealth else 2 > g):
                return A_BOR2
            if A_BOR4 in legal and (4 < g if stealth else 4 > g):
                return A_BOR4
            if self.save_ki and not self._ready_low(s) and not self._ready_high(s):
                return A_GIVE_UP  # keep the cards rather than spend Ki on this guard
            # a base that Ki cards (+-1 each) and a ready Taijutsu (+-1) can push past the
            # guard
            pm1 = 1 if s.ready[s.player][E_PM1] else 0
            if stealth:
                v = next((v for v in range(5) if hand[v]), -1)
                if v >= 0:
                    spare = ki - (1 if v == 2 else 0) + pm1
                    if (v + 1 - spare < g or self._ready_low(s)) and A_BASE + v in legal:
                        return A_BASE + v
            else:
                v = next((v for v in range(4, -1, -1) if hand[v]), -1)
                if v >= 0:
                    spare = ki - (1 if v == 2 else 0) + pm1
                    if (v + 1 + spare > g or self._ready_high(s)) and A_BASE + v in legal:
                        return A_BASE + v
            return A_GIVE_UP
        gap = s.play_value() - g
        if stealth:
            for a in (A_ZERO, A_MINUS2, A_PM1_MINUS, A_KI_MINUS):
                if a in legal and (a == A_ZERO or a != A_MINUS2 or gap >= 1):
                    return a
        else:
            for a in (A_PLUS2, A_SIX, A_PM1_PLUS, A_KI_PLUS):
                if a in legal and (a != A_SIX or gap <= -2):
                    return a
        return A_GIVE_UP

    @staticmethod
    def _ready_low(s: NinjatoState) -> bool:
        """A set-to-0 or -2 ready, or used and a refresh ready to restore it."""
        r = s.ready[s.player]
        if r[E_ZERO] or r[E_MINUS2]:
            return True
        o = s.owned[s.player]
        return bool(r[E_REFRESH] and (o[E_ZERO] > r[E_ZERO] or o[E_MINUS2] > r[E_MINUS2]))

    @staticmethod
    def _ready_high(s: NinjatoState) -> bool:
        """A set-to-6 or +2 ready, or used and a refresh ready to restore it."""
        r = s.ready[s.player]
        if r[E_SIX] or r[E_PLUS2]:
            return True
        o = s.owned[s.player]
        return bool(r[E_REFRESH] and (o[E_SIX] > r[E_SIX] or o[E_PLUS2] > r[E_PLUS2]))

    def banzai_or_retreat(self, s: NinjatoState, legal: list[int] | None = None) -> int:
        """Banzai when P(beat a U{1..5} guard) x next treasure outweighs the treasure at risk."""
        if self.whole and legal is not None and len(legal) > 2:
            swap = self.best_swap(s, legal)
            if swap >= 0:
                return swap
        p = s.player
        h0, h1, ki, h3, h4 = s.hands[p]
        h = s.raid_house
        plain = s.house_plain[h]
        ready = s.ready[p]
        if s.raid_approach:
            if ready[E_ZERO] or ready[E_MINUS2]:
                if not (h0 or h1 or ki or h3 or h4):
                    return A_RETREAT
                win = 1.0
            else:
                lo = 1 if h0 else 2 if h1 else 3 if ki else 4 if h3 else 5 if h4 else 0
                if not lo:
                    return A_RETREAT
                best = lo - (ki - 1 if lo == 3 else ki)
                win = (5 - best) / 5 if best > 0 else 1.0
        else:
            if ready[E_SIX] or ready[E_PLUS2]:
                if not (h0 or h1 or ki or h3 or h4):
                    return A_RETREAT
                win = 1.0
            else:
                hi = 5 if h4 else 4 if h3 else 3 if ki else 2 if h1 else 1 if h0 else 0
                if not hi:
                    return A_RETREAT
                best = hi + (ki - 1 if hi == 3 else ki)
                win = (best - 1) / 5 if best < 6 else 1.0
        if plain:
            nxt = plain[0]
            left = len(plain) + len(s.house_red[h])
        else:
            win *= 0.6  # elites: harder (split and double guards)
            red = s.house_red[h]
            nxt = red[0]
            left = len(red)
        gain = TVAL[nxt] + (3.0 if left == 1 else 0.0)
        shur = s.raid_treasures
        loss = 0.0
        if len(shur) > 1:  # a failure keeps the best treasure: a single one is not at risk
            top = 0
            for t in shur:
                v = TVAL[t]
                loss += v
                if v > top:
                    top = v
            loss -= top
            if self.collector:
                loss *= 1.5
        return A_BANZAI if win * gain > (1 - win) * loss + self.banzai_margin else A_RETREAT

    def token(self, s: NinjatoState, legal: list[int]) -> int:
        """Put the most valuable token on the clan where this seat has the most envoys (with
        `token_favour`: the token that most raises this seat's clan favour over its best
        rival's, by the ranking now)."""
        if self.token_favour:
            return self.favour_token(s, legal)
        mine = [0, 0, 0]
        ec = s.C.env_clan
        for e in s.envoys[s.player]:
            mine[ec[e]] += 1
        # max() by (envoys of the clan, value index): the first of the best
        best, best_m, best_v = legal[0], -1, -1
        for a in legal:
            c, v = divmod(a - A_TOKEN, 5)
            m = mine[c]
            if m > best_m or (m == best_m and v > best_v):
                best, best_m, best_v = a, m, v
        return best

    def favour_token(self, s: NinjatoState, legal: list[int]) -> int:
        """The token (clan, value) whose value x (this seat's share of the clan's favour -
        the best rival's) is highest: first place a share of 1, second 1/2 (3.8.4); ties:
        the first of the best, so between equal gains the lower value of the clan."""
        p = s.player
        C = s.C
        edge = [0.0, 0.0, 0.0]
        for c in range(3):
            first, second = rank_clan(s.envoys, s.disguised, c, C.env_clan, C.env_age)
            if first == p:
                edge[c] = 1.0 if second < 0 else 0.5
            elif second == p:
                edge[c] = -0.5
            elif first >= 0:
                edge[c] = -1.0
        tv = C.token_values
        best, best_gain = legal[0], -1e9
        for a in legal:
            c, v = divmod(a - A_TOKEN, 5)
            gain = edge[c] * tv[v]
            if gain > best_gain:
                best, best_gain = a, gain
        return best

    # ------------------------------------------------------------------ payments, scoring
    def best_payment(self, s: NinjatoState, legal: list[int]) -> int:
        """The payment worth the most honour (the first of the best, like max())."""
        kind, card = divmod(s.pending, 100)
        opts = s.C.env_opts[card] if kind == 0 else s.C.rum_opts[card]
        t0, t1, t2, t3 = s.C.tval
        best, best_pts = legal[0], -1
        for a in legal:
            o = opts[a - A_PAY]
            pts = o[0] * t0 + o[1] * t1 + o[2] * t2 + o[3] * t3
            if pts > best_pts:
                best, best_pts = a, pts
        return best

    def reward(self, s: NinjatoState, legal: list[int]) -> int:
        clan = s.scoring_queue[s.scoring_step][2]
        if self.whole and len(legal) > 1:
            a, worth = self.best_free_rumour(s, legal)
            if self.collector:
                worth *= 1.5
            return a if worth > s.clan_honour(clan) else A_HONOUR
        if len(legal) == 1 or s.clan_honour(clan) >= (12 if self.collector else 6):
            return A_HONOUR
        return self.pick_rumour(s, legal)

    def best_free_rumour(self, s: NinjatoState, legal: list[int]) -> tuple[int, float]:
        """The free face-up rumour worth the most at the end (ties: the lowest slot), and
        its worth; `legal` may hold the honour too."""
        worths = self.rumour_worths(s)
        rt = s.C.rum_type
        pavilion = s.pavilion
        best, best_worth = -1, -1.0
        for a in legal:
            if a != A_HONOUR:
                worth = worths[rt[pavilion[a - A_RUMOUR]]]
                if worth > best_worth:
                    best, best_worth = a, worth
        return best, best_worth

    def pick_rumour(self, s: NinjatoState, legal: list[int]) -> int:
        """The face-up rumour that best extends a set (ties: the lowest slot); not the honour.

        The whole-game styles rank by `rumour_worth` instead of set size alone."""
        if self.whole:
            return self.best_free_rumour(s, legal)[0]
        mine = [0] * 5
        rt = s.C.rum_type
        for r in s.rumours[s.player]:
            mine[rt[r]] += 1
        pavilion = s.pavilion
        best, best_score = -1, -1
        for a in legal:
            if a == A_HONOUR:
                continue
            score = mine[rt[pavilion[a - A_RUMOUR]]] % 3
            if score > best_score or (score == best_score and a < best):
                best, best_score = a, score
        return best


HEURISTICS = {
    "default": lambda **kw: Heuristic("default", **kw),
    "collector": lambda **kw: Heuristic("collector", **kw),
    "v1": lambda **kw: Heuristic("v1", **kw),
}

#: The default's weights and switches (`simulate list`, `simulate tune`).
PARAMS: tuple[Param, ...] = (
    Param("banzai_margin", "float", 0.0, "honour a banzai must be worth over retreating",
          -3.0, 3.0),
    Param("raid_weight", "float", RAID_WEIGHT, "a Sensei skill beats a raid whose doubled "
          "score times this is below its worth (lower: more Sensei visits)", 0.0, 2.0),
    Param("deck_below", "int", DECK_BELOW, "draw blind at the dojo when the best face-up card "
          "ranks below this (0: never)", 0, 5),
    Param("deck_helps", "bool", True, "still take a face-up card that helps the planned raids"),
    Param("save_ki", "bool", False, "give up a raid rather than open with a card that needs "
          "Ki"),
    Param("choho_worth", "float", SKILL_WORTH[E_SWAP], "worth of the Choho skill per round "
          "left", 0.0, 2.0),
    Param("overdraw", "int", 0, "with 4+ cards draw at the dojo instead of a raid scoring "
          "below this (0: never)", 0, 12),
    Param("skill_min", "float", SKILL_MIN, "honour a Sensei tile must be worth to be learnt",
          0.0, 12.0),
    Param("disguise_worth", "float", DISGUISE_WORTH, "worth of Disguise per scoring phase "
          "left, with a masked envoy to lift", 0.0, 10.0),
    Param("card_cost", "float", 1.0, "cost of a card paid for a tile, times its keep value",
          0.0, 2.0),
    Param("ki_cost", "float", 0.0, "give up a fight when Ki cards x this outweigh the "
          "treasure won plus the shuriken at risk (0: never)", 0.0, 4.0),
    Param("fight_cost", "float", 0.0, "after a banzai, give up a guard when the cards the win "
          "spends, x this times their keep value, outweigh the treasure won plus the shuriken "
          "at risk (0: never)", 0.0, 2.0),
    Param("boryaku_worth", "float", SKILL_WORTH[E_BORYAKU], "worth of the Boryaku skill per "
          "round left", 0.0, 6.0),
    Param("boryaku_first", "int", 0, "play a ready Boryaku rather than a card that wins alone "
          "whose keep value (2s and 4s 1, 1s and 5s 3, Ki 4) is at least this (0: only when no "
          "card wins)", 0, 4),
    Param("boryaku_raids", "bool", False, "count a ready Boryaku in raid plans (it beats any "
          "sentry alone; an empty hand raids on it)"),
    Param("switch_worth", "float", SKILL_WORTH[E_SWITCH], "worth of the Seishin-teki kyoyo "
          "skill (a switch of approach mid-fight) per round left", 0.0, 6.0),
    Param("refresh_worth", "float", SKILL_WORTH[E_REFRESH], "worth of the Tenmon skill (turn "
          "a used skill face up) per round left", 0.0, 6.0),
    Param("raid_ahead", "float", 0.0, "score a raid by the treasure it expects to carry home "
          "(lowest first, then the banzais the hand's odds justify), a cleared house worth "
          "this x 3 (0: by all the plain treasure in the house)", 0.0, 3.0),
    Param("envoy_favour", "float", 0.0, "weight of the clan favour an envoy's influence wins "
          "at the scoring phases left, added to the honour it pays (0: by honour alone)",
          0.0, 2.0),
    Param("token_favour", "bool", False, "a cleared house takes the clan token that most "
          "raises this seat's clan favour over its best rival's (false: the most valuable "
          "on the clan of its most envoys)"),
)
