"""The speed shortcuts of the Ninjato engine and heuristic agree with the plain rules code.

Each shortcut (skill-less fight actions, per-holding envoy tables, one-pass winners/ranks,
the tie-only leader tie-break) is checked against the general computation on the positions
of real playouts, so a later speed change cannot silently change a rules outcome.
"""

from __future__ import annotations

import itertools
import random

import pytest

from engines.core import State, play_game
from engines.ninjato import GAME, scoring
from engines.ninjato.actions import (
    A_DECK,
    A_HOUSE,
    A_PALACE,
    A_TAKE,
    PH_DRAW,
    PH_FIGHT,
    PH_PLACE,
)
from engines.ninjato.bots import (
    _AFTER_SENTRY,
    ROW_PREF,
    Heuristic,
    _after_sentry,
    _raid_plan,
    _skill_plan,
    envoy_table,
    plans,
    raid_plan,
    skill_plan,
)
from engines.ninjato.components import E_BORYAKU, E_MINUS2, E_PLUS2, E_PM1, E_SIX, E_ZERO
from engines.ninjato.state import affordable, can_pay, payable
from tests.playouts import playout


@pytest.mark.parametrize("bot", ["default", "collector", "random"])
def test_fight_fast_path_equals_general_rules(bot: str) -> None:
    fights = 0
    for seed in range(6):
        for s in playout(GAME, 4, seed, None if bot == "random" else f"heuristic:{bot}"):
            if s.phase == PH_FIGHT:
                assert s.legal_fight() == s.legal_fight_general()
                fights += 1
    assert fights > 50


def test_card_reach_equals_can_still_win_for_every_card() -> None:
    """`card_reach` (solved once per fight) gives `can_still_win`'s verdict for every dojo
    card value and Ki count, at the fights of seats holding skills (the default learns
    them often) and without."""
    checked = skilled = 0
    for seed in range(4):
        for s in playout(GAME, 4, seed, "heuristic"):
            if s.phase != PH_FIGHT or s.play_base >= 0:
                continue
            always, above, below = s.card_reach(s.elite_part)
            for base in range(1, 6):
                for kis in range(4):
                    assert (always or base + kis > above or base - kis < below) == \
                        s.can_still_win(base, kis, False, s.elite_part)
            checked += 1
            skilled += bool(s.tiles[s.player])
    assert checked > 100 and skilled > 20, (checked, skilled)


def test_envoy_table_is_best_exact_payment() -> None:
    checked = 0
    for seed in range(4):
        for s in playout(GAME, 3, seed, "heuristic"):
            if s.phase != PH_PLACE:
                continue
            tr = s.treasures[s.player]
            table = envoy_table(s.C, tr)
            tval = s.C.tval
            for e, opts in enumerate(s.C.env_opts):
                pts = [sum(k * v for k, v in zip(o, tval)) for o in opts if can_pay(o, tr)]
                assert table[e] == max(pts, default=0)
                checked += 1
    assert checked > 1000


def test_heuristic_plan_tables_equal_what_they_save_computing() -> None:
    """Each memo table of the heuristic (`PlanTables`) holds, for the key of a position of a
    real playout, what computing it afresh gives: its key names everything it depends on."""
    bot = Heuristic()
    hits = {"raid": 0, "skill": 0, "boryaku": 0, "rumour": 0}
    for seed in range(6):
        for s in playout(GAME, 4, seed, "heuristic"):
            if s.phase != PH_PLACE or s.is_terminal():
                continue
            C, hand, ready = s.C, s.hands[s.player], s.ready[s.player]
            tables = plans(C)
            if sum(hand):
                cached = tables.raid_plans.get(tuple(hand))
                assert cached is None or cached == _raid_plan(C, hand)
                raid_plan(C, hand)
                hits["raid"] += cached is not None
                key = (*hand, ready[E_SIX], ready[E_ZERO], ready[E_PLUS2], ready[E_MINUS2],
                       ready[E_PM1])
                cached = tables.skill_plans.get(key)
                assert cached is None or cached == _skill_plan(C, hand, ready)
                hits["skill"] += cached is not None
                skill_plan(C, hand, ready)
                if ready[E_BORYAKU]:  # a plan on a ready Boryaku (`boryaku_raids`)
                    cached = tables.skill_plans.get((*key, 1))
                    assert cached is None or cached == _skill_plan(C, hand, ready, True)
                    hits["boryaku"] += cached is not None
                    skill_plan(C, hand, ready, True)
            before = len(tables.rumour_worths)
            assert bot.rumour_worths(s) == bot._rumour_worths(s)
            hits["rumour"] += len(tables.rumour_worths) == before
    assert min(hits.values()) > 20, hits


def _holdings():
    """The holdings of real playouts, then random ones up to 3 past every cap."""
    for seed in range(3):
        for s in playout(GAME, 4, seed, "heuristic"):
            yield s.C, list(s.treasures[s.player])
    C = GAME.new_state(4, 0).C
    rng = random.Random(1)
    for _ in range(400):
        yield C, [rng.randint(0, cap + 3) for cap in C.caps]


def test_payable_and_affordable_equal_can_pay_on_the_holding() -> None:
    """`payable` and `affordable` share one cached answer among holdings capped at
    `Components.caps`: each answer equals the exact-payment test on the real holding."""
    checked = 0
    for C, tr in _holdings():
        envs, rums = affordable(C, tr)
        for kind, cards, mask in ((0, C.env_opts, envs), (1, C.rum_opts, rums)):
            for card, opts in enumerate(cards):
                exact = tuple(i for i, o in enumerate(opts) if can_pay(o, tr))
                assert payable(C, kind * 100 + card, tr) == exact, (kind, card, tr)
                assert bool(mask >> card & 1) == bool(exact), (kind, card, tr)
                checked += 1
    assert checked > 10_000


@pytest.mark.parametrize("style", ["v1", "default"])
def test_envoy_choice_is_highest_scoring_palace_slot(style: str) -> None:
    """v1 buys an envoy whenever it can; the default may learn a skill or buy a rumour first."""
    bot = Heuristic(style)
    bought = 0
    for seed in range(4):
        for s in playout(GAME, 4, seed, f"heuristic:{style}"):
            if s.phase != PH_PLACE:
                continue
            legal = s.legal_actions()
            envs = [a for a in legal if A_PALACE <= a < A_PALACE + 4]
            if envs:
                choice = bot.choose(s, random.Random(0))
                if style == "default" and choice not in envs:
                    continue
                best = max(bot.envoy_points(s, s.palace[a - A_PALACE]) for a in envs)
                assert bot.envoy_points(s, s.palace[choice - A_PALACE]) == best
                bought += 1
    assert bought > 20


@pytest.mark.parametrize("players", [2, 3, 4])
def test_winners_and_ranks_match_the_contract_defaults(players: int) -> None:
    bots = [GAME.heuristics["default"]() for _ in range(players)]
    for seed in range(25):
        rec = play_game(GAME, bots, seed, record=True)
        s = GAME.new_state(players, seed)
        for a in rec.actions:
            s.apply_action(a)
        age = s.C.env_age
        oldest = [max((age[e] for e in s.envoys[p]), default=-1) for p in range(players)]
        keys = [(s.scores()[p], len(s.envoys[p]), oldest[p]) for p in range(players)]
        assert s.winners() == [p for p in range(players) if keys[p] == max(keys)]
        assert s.ranks() == State.ranks(s)
        leader = max(range(players), key=lambda p: (s.honour[p], len(s.envoys[p]), oldest[p]))
        assert scoring.leader(s.honour, s.envoys, age) == leader


def _plain_best_raid(s, hand):
    """best_raid written out per house and approach (the rule the plan table encodes)."""
    lo = next(v + 1 for v in range(5) if hand[v])
    hi = next(v + 1 for v in range(4, -1, -1) if hand[v])
    ki = hand[2]
    top = hi + (ki - 1 if hi == 3 else ki)
    bottom = lo - (ki - 1 if lo == 3 else ki)
    tval = (2, 3, 4, 5, 5)
    best, best_score = -1, 0.0
    for h in range(5):
        if s.house_closed[h]:
            continue
        g = s.C.sentry_value[s.house_sentry[h]]
        worth = sum(tval[t] for t in s.house_plain[h]) + 0.5 * len(s.house_red[h])
        if top > g and worth + 0.5 * (hi > g) > best_score:
            best, best_score = 12 + 2 * h, worth + 0.5 * (hi > g)
        if bottom < g and worth + 0.5 * (lo < g) > best_score:
            best, best_score = 12 + 2 * h + 1, worth + 0.5 * (lo < g)
    return best


def test_best_raid_plan_equals_per_house_rule() -> None:
    """For a seat without skills (skills stretch the reach: `skill_plan`)."""
    bot = Heuristic()
    checked = 0
    for seed in range(4):
        for s in playout(GAME, 4, seed, "heuristic"):
            if s.phase == PH_PLACE and sum(s.hands[s.player]) and not s.tiles[s.player]:
                hand = s.hands[s.player]
                assert bot.best_raid(s, hand) == _plain_best_raid(s, hand)
                checked += 1
    assert checked > 100


def _old_dojo_take(row: list[int], k: int) -> list[int]:
    """The face-up cards the heuristic took when a visit was one mask over the row (b6d350a):
    the subset of at most k cards with the highest ROW_PREF sum, the first such mask."""
    best, best_score = [], -1
    for mask in range(1 << len(row)):
        if bin(mask).count("1") > k:
            continue
        score = sum(ROW_PREF[v] for i, v in enumerate(row) if mask >> i & 1)
        if score > best_score:
            best, best_score = [v for i, v in enumerate(row) if mask >> i & 1], score
    return sorted(best)


@pytest.mark.parametrize("hand_size", [0, 1, 2, 5])
def test_heuristic_dojo_draws_take_the_cards_the_one_mask_visit_took(hand_size: int) -> None:
    """Dojo draws made one at a time leave the heuristic's dojo play what it was when a
    visit took all its cards at once, for every face-up row and draw count (the face-up
    ranking: `deck_below=0`; the default's blind draws from a row of 2s and 4s differ)."""
    bot = Heuristic(deck_below=0)
    for row in itertools.combinations_with_replacement(range(1, 6), 3):
        s = GAME.new_state(4, 0)
        s.row = list(row)
        s.hands[s.player] = [hand_size, 0, 0, 0, 0]
        expected = _old_dojo_take(list(row), (4, 3)[hand_size] if hand_size < 2 else 2)
        seat, taken = s.player, []
        a = bot.dojo_draw(s, s.legal_actions())  # the placement is the first draw
        while True:
            if a < A_DECK:
                taken.append(a - A_TAKE + 1)
            s.apply_action(a)
            if s.phase != PH_DRAW or s.player != seat:
                break
            a = bot.choose(s, random.Random(0))
        assert sorted(taken) == expected, row


@pytest.mark.parametrize("players", ["heuristic", "heuristic:raid_ahead=1"])
def test_expected_haul_raid_equals_every_house_scored(players: str) -> None:
    """`scored_raid` with `raid_ahead` skips a house whose bound cannot beat the best so far
    and reads the hand after the sentry from a cache (`_AFTER_SENTRY`): it finds the house
    and score that scoring every open house in full gives (the first of equal scores), in
    the positions of games played with and without the option, and each cached entry is
    what computing it afresh gives."""
    bot = Heuristic(raid_ahead=1)
    checked = 0
    for seed in range(4):
        for s in playout(GAME, 4, seed, players):
            if s.phase != PH_PLACE or not sum(s.hands[s.player]):
                continue
            p, hand = s.player, s.hands[s.player]
            plan = skill_plan(s.C, hand, s.ready[p]) if s.tiles[p] else raid_plan(s.C, hand)
            ready = s.ready[p]
            scores = []
            for h in range(5):
                opt = plan[s.house_sentry[h]]
                if s.house_closed[h] or opt is None:
                    continue
                win, cards = _after_sentry(opt[1], s.C.sentry_value[s.house_sentry[h]], hand)
                if (ready[E_ZERO] or ready[E_MINUS2]) if opt[1] else (ready[E_SIX]
                                                                      or ready[E_PLUS2]):
                    win = 1.0
                scores.append((2.0 * bot.expected_haul(s.house_plain[h], s.house_red[h], win,
                                                       cards) + opt[0], A_HOUSE + 2 * h + opt[1]))
            top = max((score for score, _ in scores), default=0.0)
            house = next((a for score, a in scores if score == top and score > 0.0), -1)
            assert bot.scored_raid(s, hand) == (house, top)
            checked += 1
    assert checked > 100
    for key, cached in _AFTER_SENTRY.items():
        stealth, g = key >> 48, key >> 40 & 255
        hand = [key >> 8 * (4 - i) & 255 for i in range(5)]
        assert cached == _after_sentry(stealth, g, hand)


def _favour_by_ranking(s, e: int) -> float:
    """`favour_gain` by the rules' ranking (`scoring.rank_clan`) before and after adding `e`."""
    p, C = s.player, s.C
    clan = C.env_clan[e]

    def share(envoys) -> float:
        first, second = scoring.rank_clan(envoys, s.disguised, clan, C.env_clan, C.env_age)
        return 1.0 if first == p else 0.5 if second == p else 0.0

    after = [list(x) for x in s.envoys]
    after[p].append(e)
    phases = (s.round <= 3) + (s.round <= 5) + (s.round <= 7)
    return (share(after) - share(s.envoys)) * s.clan_honour(clan) * phases


def test_envoy_favour_gain_equals_the_clan_ranking() -> None:
    """`favour_gain` counts influence and oldest envoys in one pass; it gives what ranking
    the clan with and without the envoy gives, for every face-up envoy of real playouts."""
    bot = Heuristic()
    checked = changed = 0
    for seed in range(4):
        for s in playout(GAME, 4, seed, "heuristic"):
            if s.phase != PH_PLACE or s.is_terminal():
                continue
            for e in s.palace:
                gain = bot.favour_gain(s, e)
                assert gain == _favour_by_ranking(s, e)
                checked += 1
                changed += gain != 0
    assert checked > 200 and changed > 50, (checked, changed)
