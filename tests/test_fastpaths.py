"""The speed shortcuts of every engine agree with the general code on real playouts.

Each check runs the shortcut and the plain computation side by side on every position of a
few games played by random and heuristic bots, the way `tests/test_ninjato_fastpaths.py`
does for Ninjato, so a later speed change cannot silently change a rules outcome.
"""

from __future__ import annotations

import random

import pytest

from engines import GAMES, get_game
from engines.big_cheese.actions import (
    BID,
    KIND_OF_ACTION,
    NUM_ACTIONS,
    PASS,
    action_kind,
    bid_list,
)
from engines.big_cheese.components import BIG_CHEESE, DECK, NUMBER_VALUES
from engines.big_cheese.position import COUNTERS
from engines.big_cheese.scoring import ROLL_FACES, ROLL_TOP, roll_points
from engines.bots import make_bot
from engines.core import play_game
from engines.declarations import declarations
from engines.ivanhoe.actions import (
    A_COLOUR,
    A_TARGET,
    PH_COLOUR,
    PH_OWN_SLOT,
    PH_PLAY,
    PH_TARGET,
    PH_THEIR_SLOT,
    action_slot,
)
from engines.ivanhoe.cards import CARDS, PLAYABLE, TARGETED
from engines.ivanhoe.cards import targets as card_targets
from engines.ivanhoe.components import RIPOSTE
from engines.tabula_rasa import actions as tra
from engines.tabula_rasa import components as tr_components
from engines.tabula_rasa.components import card_value
from engines.tabula_rasa.scoring import score_tallies
from engines.time_pirates import actions as tpa
from engines.time_pirates import bots as tp_bots
from engines.time_pirates import components as tp
from tests.playouts import final, positions

#: The games that declare core's caching hook (`_apply` leaves the next legal list cached;
#: `caches_legal_lists` in their game files), and those whose states declare `kind_table`
#: (`play_game` looks kinds up in it).
CACHING_GAMES = [n for n in sorted(GAMES) if declarations(n).tests.caches_legal_lists]
KIND_TABLE_GAMES = [n for n in sorted(GAMES) if declarations(n).tests.kind_table]
#: At least one position in `CACHE_SHARE` of a caching game's playouts comes with its next
#: legal list cached: the hook is really used, however short the game (a floor counted in
#: positions, not an absolute number sized for one game).
CACHE_SHARE = 10


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_caches_legal_lists_exactly_when_it_declares_it(name: str) -> None:
    game = get_game(name)
    caches = any(s._legal_cache is not None
                 for s in positions(name, game.players_default, [0], "random"))
    assert caches == (name in CACHING_GAMES), (
        f"{name} {'caches' if caches else 'does not cache'} legal lists: declare "
        f"caches_legal_lists = {str(caches).lower()} in its game.toml")


@pytest.mark.parametrize("name", CACHING_GAMES)
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_cached_legal_lists_equal_the_recomputed_ones(name: str, bot: str) -> None:
    """Core's caching hook: a legal list an engine leaves in `_legal_cache` while applying
    an action (a pre-built table row, a list it had at hand) is what `_legal_actions` gives."""
    game = get_game(name)
    cached = visited = 0
    for state in positions(name, game.players_default, range(4), bot):
        visited += 1
        if state._legal_cache is not None:
            assert state._legal_cache == state._legal_actions()
            cached += 1
    assert cached * CACHE_SHARE >= visited, (cached, visited)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_has_a_kind_table_exactly_when_it_declares_it(name: str) -> None:
    state = get_game(name).new_state(get_game(name).players_default, 0)
    has_table = state.kind_table is not None
    assert has_table == (name in KIND_TABLE_GAMES), (
        f"declare kind_table = {str(has_table).lower()} in the game.toml of {name}")


@pytest.mark.parametrize("name", KIND_TABLE_GAMES)
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_kind_table_entries_equal_action_kind(name: str, bot: str) -> None:
    """`State.kind_table`: where it names a kind (not -1), `action_kind` gives the same for
    every legal action of every position; and `play_game`'s counts equal a recount.  The
    table is consulted at least once per position on average (a floor that scales with the
    game's length)."""
    game = get_game(name)
    looked_up = decisions = 0
    for state in positions(name, game.players_default, range(4), bot):
        table = state.kind_table
        assert len(table) == game.num_actions
        decisions += not state.is_terminal()
        for action in state.legal_actions():
            if table[action] >= 0:
                assert table[action] == state.action_kind(action), state.action_to_str(action)
                looked_up += 1
    assert looked_up >= decisions > 0, (looked_up, decisions)


@pytest.mark.parametrize("name", KIND_TABLE_GAMES)
def test_play_game_kind_counts_equal_action_kind_counts(name: str) -> None:
    game = get_game(name)
    players = game.players_default
    bots = [make_bot("random", game) for _ in range(players)]
    record = play_game(game, bots, 5, players, record=True, availability=True)
    chosen = [[0] * len(game.action_kinds) for _ in range(players)]
    available = [[0] * len(game.action_kinds) for _ in range(players)]
    state = game.new_state(players, 5)
    for action in record.actions:
        seat = state.current_player()
        chosen[seat][state.action_kind(action)] += 1
        for kind in {state.action_kind(a) for a in state.legal_actions()}:
            available[seat][kind] += 1
        state.apply_action(action)
    assert record.kinds_chosen == chosen
    assert record.kinds_available == available


@pytest.mark.parametrize("chips", [10, 100])  # 100: above the tabulated chip counts
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_big_cheese_bid_tables_equal_the_general_bid_list(bot: str, chips: int) -> None:
    checked = 0
    for state in positions("big-cheese", 4, range(4), bot, rules={"chips": chips}):
        if state.phase == BID and not state.rules.leader_must_open:
            seat = state.to_act
            general = bid_list(state.vetoes[seat] > 0, state.high_bid, state.pool[seat])
            assert state.legal_actions() == general
            checked += 1
    assert checked > 100


def test_big_cheese_heuristic_budget_table_equals_budget() -> None:
    """The heuristic reads its budgets from a table built once per rules (at every bid it
    was most of the bot's cost): the table holds `budget` of every card, and one bot that
    meets other rules rebuilds it."""
    game = get_game("big-cheese")
    bot = make_bot("heuristic", game)
    for rules in ({}, {"dice": "polyhedral"}, {"dice": "polyhedral", "exact": 30},
                  {"chips": 7}, {}):
        state = game.new_state(4, 0, **rules)
        table = bot._budgets(state)
        assert [table[card - BIG_CHEESE] for card in sorted(set(DECK))] == \
            [bot.budget(state, card) for card in sorted(set(DECK))], rules


def test_big_cheese_metrics_report_every_counter_of_the_record() -> None:
    """`metrics` reports each field of the counters record under its own name, and the
    per-seat Vetoes and Big Cheeses seat by seat (`vetoes_played_p0`, ...)."""
    checked = 0
    for seed in range(3):
        state = final("big-cheese", 3, seed, "heuristic")
        metrics, counters = state.metrics(), state.counters
        for name, _start, _doc in COUNTERS.counts:
            assert metrics[name] == getattr(counters, name), name
        for seat in range(3):
            assert metrics[f"vetoes_played_p{seat}"] == counters.seat_vetoes[seat]
            assert metrics[f"big_cheeses_played_p{seat}"] == counters.seat_cheeses[seat]
        checked += counters.vetoes_played + counters.big_cheeses_played
    assert checked > 0, "no Veto or Big Cheese played: the per-seat counts went unchecked"


def test_time_pirates_metrics_report_every_counter_of_the_record_as_a_float() -> None:
    """`metrics` reports each field of the counters record under its own name, as a float
    beside `years` and `lead_changes`."""
    from engines.time_pirates.position import COUNTERS as PIRATE_COUNTERS

    for seed in range(2):
        state = final("time-pirates", 3, seed, "heuristic")
        metrics, counters = state.metrics(), state.counters
        assert set(metrics) == {"years", "lead_changes"} | {
            name for name, _start, _doc in PIRATE_COUNTERS.counts}
        for name, _start, _doc in PIRATE_COUNTERS.counts:
            assert metrics[name] == getattr(counters, name) and type(metrics[name]) is float
        assert metrics["turns"] > 0


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_time_pirates_hand_summaries_and_token_list_equal_a_recount(bot: str) -> None:
    """`colour_counts`, `hand_size`, `atomic_colours`, `arrow_colours`, `seats_with_artifacts`,
    `epochs_with_space` and `bag_tokens` are kept in step by `_gain` / `_lose` / draws;
    `_resummarize` recomputes them from the hands and the bag."""
    checked = 0
    for state in positions("time-pirates", 4, range(2), bot):
        fresh = state.clone()
        fresh._resummarize()
        for name in ("colour_counts", "hand_size", "atomic_colours", "arrow_colours",
                     "seats_with_artifacts", "epochs_with_space"):
            assert getattr(state, name) == getattr(fresh, name), name
        assert sorted(state.bag_tokens) == sorted(fresh.bag_tokens)
        checked += 1
    assert checked > 200


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_ivanhoe_display_sums_equal_a_recount(bot: str) -> None:
    """`vsum` is kept up to date card by card (display totals are read on every legal list,
    `is_highest`); `recount` adds the displays up from scratch."""
    checked = 0
    for state in positions("ivanhoe", 4, range(4), bot):
        fresh = state.clone()
        fresh.recount()
        assert state.vsum == fresh.vsum
        checked += 1
    assert checked > 500


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_ivanhoe_has_a_target_shortcuts_equal_the_target_lists(bot: str) -> None:
    """`legal_turn` asks every action card in hand on every turn whether it is playable, so
    the targeted cards answer with a loop that stops at the first target
    (`cards.break_lance_playable`, `riposte_playable`, `has_exposed_with_two` for Dodge,
    `knock_down_playable`, `stunned_playable`) instead of building the list their target
    choice offers.  Riposte also needs room for one more display card (Stunned, D4)."""
    checked = 0
    for state in positions("ivanhoe", 4, range(4), bot):
        for seat in range(state.num_players):
            for card in TARGETED:
                general = bool(card_targets(state, seat, card))
                if card == RIPOSTE:
                    general = general and state.can_add(seat)
                assert PLAYABLE[card](state, seat) == general, CARDS[card].name
                checked += 1
    assert checked > 1000


def _choice_sequences(state, unit, phases: tuple[int, ...], seat: int) -> int:
    """Complete choice sequences of an action card from here; fails on a dead end (a choice
    whose options all lead to a later choice with none)."""
    if not phases:
        return 1
    phase = phases[0]
    total = 0
    for action in unit.choices[phase](state, seat):
        field, value = {
            PH_COLOUR: ("pending_colour", action - A_COLOUR),
            PH_TARGET: ("pending_target", action - A_TARGET),
            PH_OWN_SLOT: ("pending_own_slot", action_slot(action)),
            PH_THEIR_SLOT: ("pending_their_slot", action_slot(action)),
        }[phase]
        setattr(state, field, value)
        below = _choice_sequences(state, unit, phases[1:], seat)
        assert below > 0, f"{unit.name}: a dead end after {state.action_to_str(action)}"
        total += below
    return total


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_ivanhoe_a_card_is_playable_exactly_when_its_choices_can_be_completed(bot: str) -> None:
    """Each card's `playable` (the one-card rule, Shield, I7, I11, D4 folded into one test)
    against the card's own choice lists walked to the end on a copy of the position: a card
    that targets is legal exactly when its player can make all its choices, and no choice
    leads to a later one without options.  (Unhorse, Change Weapon and Retreat are legal by
    the colour or the size of one's display; their choices must then have options.)"""
    checked = 0
    for state in positions("ivanhoe", 4, range(3), bot):
        if state.phase != PH_PLAY:
            continue
        seat = state.turn
        for unit in CARDS:
            if unit is None or not unit.choices:
                continue
            probe = state.clone()
            probe.pending_card = unit.card
            sequences = _choice_sequences(probe, unit, tuple(unit.choices), seat)
            playable = unit.playable(state, seat)
            if unit.first_choice != PH_TARGET:
                assert sequences > 0 or not playable, unit.name
            else:
                general = sequences > 0 and (unit.card != RIPOSTE or state.can_add(seat))
                assert playable == general, unit.name
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_tabula_rasa_cached_scoring_equals_a_fresh_scoring(bot: str) -> None:
    checked = 0
    for state in positions("tabula-rasa", 4, range(4), bot):
        cached = state.scoring()
        assert cached == score_tallies(state.tally, state.sides, state.rules.castle_rule)
        checked += 1
    assert checked > 50


# --- Big Cheese ---------------------------------------------------------------------------

#: Rule variants whose bidding or scoring takes other branches of the shortcuts.
BIG_CHEESE_RULES = [{}, {"veto_any_time": True}, {"all_pass": "bury"},
                    {"dice": "polyhedral", "exact": 30}, {"chips": 3}]


@pytest.mark.parametrize("rules", BIG_CHEESE_RULES, ids=str)
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_big_cheese_auto_pass_skips_only_seats_that_could_only_pass(bot: str, rules) -> None:
    """The engine passes a seat that can neither outbid nor Veto without asking it (module
    docstring of `engines/big_cheese/state.py`): every seat it marks passed had `[PASS]` as
    its only legal action (the general `bid_list`), and every seat it asks has a choice."""
    skipped = asked = 0
    before = None
    for state in positions("big-cheese", 4, range(4), bot, rules=rules):
        if state.phase == BID:
            assert len(state.legal_actions()) > 1
            asked += 1
            same_auction = before is not None and before.rounds == state.rounds
            was_passed = before.passed if same_auction else [False] * state.num_players
            actor = before.to_act if same_auction else -1
            high = state.high_bid
            for seat, passed in enumerate(state.passed):
                if passed and not was_passed[seat] and seat != actor:
                    free = state.pool[seat]
                    assert bid_list(state.vetoes[seat] > 0, high, min(free, high)) == [PASS]
                    assert free <= high and not state.vetoes[seat]
                    skipped += 1
        before = state.clone()
    assert asked > 100 and skipped > 10


@pytest.mark.parametrize("rules", BIG_CHEESE_RULES, ids=str)
def test_big_cheese_inlined_scoring_keeps_points_and_breakdown_in_step(rules) -> None:
    """`_resolve_pending` writes the scoring of a roll out (the roll through `ROLL_FACES`, the
    void roll through `scoring.gain`): at every position each seat's points are the sum of
    its breakdown by project value, and in exact-N nobody ever passes the goal (B11)."""
    rolled = 0
    for state in positions("big-cheese", 4, range(4), "heuristic", rules=rules):
        for seat in range(state.num_players):
            assert state.points[seat] == sum(state.earned[seat])
            if state.rules.exact:
                assert state.points[seat] <= state.goal
        rolled += sum(state.points)
    assert rolled > 0


def test_big_cheese_action_kind_table_equals_the_function() -> None:
    assert len(KIND_OF_ACTION) == NUM_ACTIONS
    for action in range(NUM_ACTIONS):
        assert KIND_OF_ACTION[action] == action_kind(action)


# --- Time Pirates ---------------------------------------------------------------------------

TIME_PIRATES_RULES = [{}, {"restock_eligibility": "piatnik", "patrol_effect": "flee"}]


def time_pirates_general_legal(state) -> list[int] | None:
    """The legal actions of the phases served by `legal_lists` and the shop rows, worked out
    from the rules and the hands (None for the other phases)."""
    comp, p = state.components, state.to_move
    hand = state.hands[p]
    others = [q for q in range(state.num_players) if q != p and sum(state.hands[q])]
    arrow_colours = [c for c in range(tp.NUM_COLOURS) if hand[3 * c + tp.ARROW]]
    swaps = [tpa.ARROW + c * tpa.MAX_SEATS + q for c in arrow_colours for q in others]
    atomics = [tpa.ATOMIC + c for c in range(tp.NUM_COLOURS) if hand[3 * c + tp.ATOMIC]]
    if state.phase == tpa.PH_ACT:
        if not state.standard_actions_left:
            return [tpa.END, *atomics, *swaps] if atomics or swaps else [tpa.END]
        moves = [tpa.MOVE, tpa.MOVE + 1]
        if state.forced_move:  # P2: the forced move first, no atomic jump before it
            return moves + swaps
        takes = sorted(set(state.epochs[state.pawn_epoch[p]]))  # TAKE + kind == kind
        white = hand[tp.WHITE_KIND]
        per_colour = [sum(hand[3 * c: 3 * c + 3]) for c in range(tp.NUM_COLOURS)]
        colours_held = sum(1 for k in per_colour if k)
        buys = []
        for t, (colour, _, cost, _) in enumerate(comp.deeds):
            budget = (colours_held if colour == tp.WHITE else per_colour[colour]) + white
            if state.bazaar[t] and cost <= budget:
                buys.append(tpa.BUY + t)
        return takes + moves + buys + atomics + swaps
    if state.phase == tpa.PH_RESTOCK:
        if state.rules.restock_eligibility == "piatnik":
            free = [e for e, ep in enumerate(state.epochs) if not ep]
        else:
            free = [e for e, ep in enumerate(state.epochs) if len(ep) < comp.spaces[e]]
        return [tpa.RESTOCK + e for e in free if e not in state.pawn_epoch] + [tpa.NO_RESTOCK]
    if state.phase == tpa.PH_LAND:
        return [tpa.EPOCH + e for e in range(len(state.epochs))]
    if state.phase == tpa.PH_JUMP:
        return [tpa.EPOCH + e for e in range(len(state.epochs)) if e != state.pawn_epoch[p]]
    return None


@pytest.mark.parametrize("rules", TIME_PIRATES_RULES, ids=str)
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_time_pirates_legal_lists_and_shop_rows_equal_the_rules(bot: str, rules) -> None:
    """`legal_lists` (shared end / swap / restock / epoch lists) and the shop rows (budget ->
    deeds on offer) give the legal actions the rules give, in some order."""
    checked = 0
    for state in positions("time-pirates", 4, range(3), bot, rules=rules):
        general = time_pirates_general_legal(state)
        if general is not None:
            legal = state.legal_actions()
            assert sorted(legal) == sorted(general), tpa.PHASE_NAMES[state.phase]
            assert len(set(legal)) == len(legal)
            checked += 1
    assert checked > 300


def _pay_orders(state) -> set[tuple]:
    """The positions after paying the pending deed in every order the rules allow."""
    if state.phase != tpa.PH_PAY:
        return {(tuple(map(tuple, state.hands)), tuple(state.discard), tuple(state.bazaar))}
    hand = state.hands[state.to_move]
    colour = state.components.deeds[state.paying_deed][0]
    if colour != tp.WHITE:
        kinds = [k for k in range(3 * colour, 3 * colour + 3) if hand[k]]
    else:
        kinds = [k for k in range(tp.WHITE_KIND)
                 if hand[k] and not state.paid_colours >> (k // 3) & 1]
    if hand[tp.WHITE_KIND]:
        kinds.append(tp.WHITE_KIND)
    out: set[tuple] = set()
    for kind in kinds:
        after = state.clone()
        after._do_pay(tpa.PICK + kind)
        out |= _pay_orders(after)
    return out


def _forced_payments(state) -> int:
    """Walk every payment of the pending deed through `_legal_pay`; where it offers a single
    artifact, check that every order the rules allow ends alike.  Returns how many it did."""
    if state.phase != tpa.PH_PAY:
        return 0
    options = state._legal_pay()
    checked = 0
    if len(options) == 1:
        assert len(_pay_orders(state)) == 1
        checked += 1
    for action in options:
        after = state.clone()
        after._apply(action)  # one payment, without core's forced-choices loop
        checked += _forced_payments(after)
    return checked


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_time_pirates_single_payment_option_is_offered_only_when_all_orders_agree(
        bot: str) -> None:
    """`_legal_pay` offers one artifact when the rest of the payment is determined (and core
    then pays it without asking): every order of payment the rules allow must then end in the
    same hands, discards and bazaar.  Checked for every purchase open in real playouts."""
    forced = 0
    for state in positions("time-pirates", 4, range(3), bot):
        if state.phase != tpa.PH_ACT:
            continue
        for action in state.legal_actions():
            if tpa.BUY <= action < tpa.PICK:
                bought = state.clone()
                bought._apply(action)
                forced += _forced_payments(bought)
    assert forced > 20


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_time_pirates_cached_result_equals_a_fresh_scoring(bot: str) -> None:
    """The final outcome is computed once (`result`); recomputed, it is the same."""
    ended = 0
    for state in positions("time-pirates", 4, range(3), bot):
        if state.is_terminal():
            fresh = state.clone()
            fresh.result = None
            assert fresh.scores() == state.scores()
            assert fresh.winners() == state.winners()
            assert fresh.ranks() == state.ranks()
            ended += 1
    assert ended == 3



# The heuristic's choices written as loops and a memo (for compiled speed), against the
# `max` / `min` with a key and the list formula they replaced.

def _kind_values_formula(state, me: int, atomic: float) -> list[float]:
    """`_COLOUR_VALUES` per colour, the atomic symbol's bonus replaced by the bot's."""
    counts, offers, v = state.colour_counts[me], state.offers, tp_bots._COLOUR_VALUES
    out: list[float] = []
    for c in range(tp.NUM_COLOURS):
        plain, atom, arrow = v[min(counts[c], 6)][1 if offers[c][-1] else 0]
        out += (plain, atom + (atomic - tp_bots.ATOMIC_BONUS), arrow)
    return [*out, 1.6]


def _epoch_value_formula(bot, state, values, e: int) -> float:
    vals = sorted((values[k] for k in state.epochs[e]), reverse=True)
    value = sum(vals[:2]) + 0.2 * sum(vals[2:])
    if e == state.patrol:
        value -= bot.caution * 1.5
    elif e in state.components.lines[state.patrol]:
        value -= bot.caution * 0.3
    return value


def _top_formula(values, epoch, k: int) -> float:
    if k == 1:
        return max([values[kind] for kind in epoch], default=0.0)
    return sum(sorted((values[kind] for kind in epoch), reverse=True)[:k])


def _pay_formula(state, me: int, legal: list[int]) -> int:
    tot = tp_bots.colour_totals(state.hands[me])

    def cost(a: int) -> tuple:
        kind = a - tpa.PICK
        return (99, 0, a) if kind == tp.WHITE_KIND else (tot[kind // 3], (0, 2, 1)[kind % 3], a)

    return min(legal, key=cost)


def _swap_pick_formula(bot, state, me: int, legal: list[int]) -> int:
    target, given = state.swap_target, 3 * state.swap_colour + 2
    my_up, my_down = tp_bots.holding_rows(state, me)
    their_up, their_down = tp_bots.holding_rows(state, target)

    def gain(a: int) -> tuple[float, int]:
        k = a - tpa.PICK
        if k // 3 == given // 3:
            mine, theirs = my_down[k], their_down[given]
        else:
            mine, theirs = my_up[k], their_up[given]
        return mine - my_down[given] - bot.deny * (theirs - their_down[k]), -a

    return max(legal, key=gain)


@pytest.mark.parametrize("bot_spec", ["random", "heuristic"])
def test_time_pirates_heuristic_loops_and_memo_equal_the_key_formulas(bot_spec: str) -> None:
    """`kind_values` (memoised by hand summary), `epoch_value` and `_top` (sort + reverse),
    and the choices written as loops (`_best_epoch`, `_best_take`, `_cheapest_atomic`, `_pay`,
    `_swap_pick`) give what the formulas with `sorted(reverse=True)` and `max` / `min` with a
    key give, on every position of real playouts."""
    bot = make_bot("heuristic", get_game("time-pirates"))
    checked = dict.fromkeys(("values", "epoch", "take", "atomic", "pay", "swap"), 0)
    for state in positions("time-pirates", 4, range(3), bot_spec):
        if state.is_terminal():
            continue
        me, legal, phase = state.to_move, state.legal_actions(), state.phase
        values = bot.kind_values(state, me)
        assert values == _kind_values_formula(state, me, bot.atomic)
        checked["values"] += 1
        for e in range(len(state.epochs)):
            assert bot.epoch_value(state, values, e) == _epoch_value_formula(bot, state, values, e)
            for k in (1, 2, 3):
                assert tp_bots._top(values, state.epochs[e], k) == _top_formula(
                    values, state.epochs[e], k)
        if phase in (tpa.PH_START, tpa.PH_LAND, tpa.PH_JUMP):
            assert bot._best_epoch(state, values, legal) == max(legal, key=lambda a: (
                _epoch_value_formula(bot, state, values, a - tpa.EPOCH), -a))
            checked["epoch"] += 1
        takes = [a for a in legal if a < tpa.MOVE]
        if phase == tpa.PH_ACT and takes:
            assert tp_bots._best_take(values, legal) == max(
                takes, key=lambda a: (values[a - tpa.TAKE], -a))
            checked["take"] += 1
        atomics = [a for a in legal if tpa.ATOMIC <= a < tpa.ARROW]
        if phase == tpa.PH_ACT and atomics:
            assert bot._cheapest_atomic(state, me, values, atomics)[0] == min(
                atomics, key=lambda a: (values[3 * (a - tpa.ATOMIC) + 1], a))
            checked["atomic"] += 1
        if phase == tpa.PH_PAY:
            assert bot._pay(state, me, legal) == _pay_formula(state, me, legal)
            checked["pay"] += 1
        if phase == tpa.PH_SWAP:
            assert bot._swap_pick(state, me, legal) == _swap_pick_formula(bot, state, me, legal)
            checked["swap"] += 1
    assert min(checked.values()) > 0, checked
    assert checked["values"] > 500 and checked["epoch"] > 20 and checked["pay"] > 20, checked


def test_time_pirates_state_keeps_no_attribute_outside_its_declarations() -> None:
    """Every attribute of a position is declared (slots in the pure build, typed fields of the
    C struct compiled): one left out would land in a per-instance `__dict__` (compiled, a
    slow look-up).  Checked after play, clone and determinize."""
    checked = 0
    for state in positions("time-pirates", 4, range(1), "heuristic"):
        for s in (state, state.clone(), state.determinize(0, random.Random(1))):
            # (core's `_legal_cache` is core's attribute, never a game's slot: pure, it is
            # the one entry a state's `__dict__` may hold)
            extra = set(getattr(s, "__dict__", {})) - {"_legal_cache"}
            assert not extra, sorted(extra)
            checked += 1
    assert checked > 300


# --- Tabula Rasa ----------------------------------------------------------------------------

def test_tabula_rasa_action_tables_equal_the_functions() -> None:
    for action in range(tra.NUM_ACTIONS):
        assert tra.ACTION_TERRITORY[action] == tra.territory_of(action)
        assert tra.ACTION_VALUE[action] == card_value(tra.card_of(action))
        assert action in tra.CARD_ACTIONS[tra.card_of(action)]


class _Forgetful(dict):
    """A memo that never remembers: every value is computed afresh."""

    def get(self, key, default=None):
        return default

    def __setitem__(self, key, value) -> None:
        pass


@pytest.mark.parametrize("rules", [{}, {"majority_by": "value_sum"}], ids=str)
@pytest.mark.parametrize("style", ["default", "greedy", "v1"])
def test_tabula_rasa_bot_memos_change_no_choice(style: str, rules) -> None:
    game = get_game("tabula-rasa")
    memoised = game.heuristics[style]()
    plain = game.heuristics[style]()
    plain.memo_type = _Forgetful
    decisions = 0
    for state in positions("tabula-rasa", 3, range(3), f"heuristic:{style}", rules=rules):
        if not state.is_terminal() and len(state.legal_actions()) > 1:
            seed = state.ply
            assert (memoised.choose(state, random.Random(seed))
                    == plain.choose(state, random.Random(seed)))
            decisions += 1
    assert decisions > 50


@pytest.mark.parametrize("d6", [True, False])
def test_big_cheese_roll_table_equals_the_roll_rule(d6: bool) -> None:
    """First rolls read `scoring.ROLL_FACES` (B5 d6 x value, B6 the card's own die)."""
    for card in NUMBER_VALUES:
        faces = ROLL_FACES[d6][card]
        for step in range(6000):
            r = step / 6000
            assert faces[int(r * len(faces))] == roll_points(card, r, d6)
        assert len(faces) == (6 if d6 else card)
        assert ROLL_TOP[d6][card] == max(roll_points(card, step / 6000, d6) for step in range(6000))
    # the state selects its dice's tables once, and a clone shares them
    state = get_game("big-cheese").new_state(3, 0, dice="d6" if d6 else "polyhedral")
    assert state._roll_faces is ROLL_FACES[d6] and state._roll_tops is ROLL_TOP[d6]
    assert state.clone()._roll_tops is ROLL_TOP[d6]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tabula_rasa_turn_tables_equal_the_turn_order(players: int) -> None:
    """`_next` (seat to act per ply) and `_offset` (tally block per seat) are tables: seats
    act in order 0, 1, ... until every card in play is played (A10, A11), and partners in 4p
    share one side's block (A5)."""
    checked = 0
    for state in positions("tabula-rasa", players, range(2), "random"):
        done = state.ply >= state.total_plies
        assert state.to_move == (-1 if done else state.ply % players)
        for seat in range(players):
            assert state._offset[seat] == state.side_of[seat] * tr_components.NUM_TERRITORIES
            assert state.side_of[seat] == (seat % 2 if players == 4 else seat)
        checked += 1
    assert checked > 50
