"""The game kit (`engines.gamekit`): a game declares its table once and the kit derives the
rest of the engine contract from it.  What matters most is checked from the declaration, on
every kit game registered: a seat's worlds (`determinize`) resample exactly the cards it
cannot see and keep everything else, and what the seat observes or is shown never depends on
them; a declaration that shows a hand it should hide is caught."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass

import pytest

from engines import GAMES, BadInput, get_game
from engines.bots import make_bot
from engines.bots.options import Param
from engines.core import play_game
from engines.gamekit import (
    OWNER,
    PUBLIC,
    SIZE,
    Actions,
    KitRules,
    KitState,
    Layout,
    Zone,
    auction,
    heuristic,
    kit_game,
)
from tests.playouts import playout

# --- a toy kit game: bid for a face-up prize card with chips, from hidden hands -------------

ACTIONS = Actions(("drop out", 1), ("raise", 9), ("keep", 1))
DROP, RAISE, KEEP = ACTIONS.offsets
LAYOUT = Layout(
    zones=(Zone("deck", SIZE), Zone("hand", OWNER, per_seat=True, sort=True),
           Zone("prize", PUBLIC), Zone("won", PUBLIC, per_seat=True)),
    counters=("chips", *auction.AUCTION_COUNTERS),
    values=auction.AUCTION_VALUES,
    actions=ACTIONS,
)


@dataclass(frozen=True)
class BidRules(KitRules):
    chips: int = 5


class BidState(KitState):
    """Each round one prize is auctioned (seats raise or drop out; the winner pays); the
    winner keeps it and draws a card; after the last prize the most card points win."""

    layout = LAYOUT

    def setup(self) -> None:
        self.fill("deck", list(range(1, 13)))
        self.shuffle("deck")
        self.deal("deck", "hand", 2)
        self.draw("deck", "prize")
        self.counters["chips"] = [self.rules.chips] * self.num_players
        auction.open_auction(self, self.to_move)

    def _legal_actions(self) -> list[int]:
        if self.to_move < 0:
            return []
        if sum(self.counters["bidding"]) == 1:
            return [KEEP]
        budget = min(self.counters["chips"][self.to_move], 8)
        return [DROP, *auction.raises(self, RAISE, budget)]

    def _apply(self, action: int) -> None:
        if action == KEEP:
            seat = self.to_move
            self.counters["chips"][seat] -= max(self.values["high_bid"], 0)
            self.draw("prize", "won", seat)
            self.draw("deck", "hand", seat)
            if self.draw("deck", "prize") < 0:
                self.end_game()
            else:
                auction.open_auction(self, (seat + 1) % self.num_players)
        elif action == DROP:
            auction.drop(self)
        else:
            auction.bid(self, action - RAISE)

    def score_breakdown(self) -> dict[str, list[float]]:
        return {"won": [float(sum(self.cards("won", s))) for s in range(self.num_players)],
                "hand": [float(sum(self.cards("hand", s))) for s in range(self.num_players)]}


def _keep_or_drop(state: BidState, rng: random.Random, bold: int) -> int:
    legal = state.legal_actions()
    return legal[min(bold, len(legal) - 1)]


BID = kit_game(BidState, BidRules, name="toy-bid", min_players=2, max_players=4,
               heuristics={"default": heuristic(
                   _keep_or_drop, (Param("bold", "int", 1, "raise this far", 0, 9),),
                   uses_rng=False)},
               max_decisions=500)


def test_kit_game_takes_the_actions_and_the_score_direction_from_the_declarations():
    assert BID.num_actions == 11 and BID.action_kinds == ("drop out", "raise", "keep")
    state = BID.new_state(3, 1)
    assert state.action_kind(RAISE + 4) == 1 and state.action_to_str(RAISE + 4) == "raise 4"
    assert state.action_to_str(DROP) == "drop out"
    assert BID.who_starts() == "first" and BID.who_starts("starting_player=random") == "random"
    lowest = kit_game(BidState, BidRules, name="toy-low", min_players=2, max_players=4,
                      score_direction="lowest").new_state(3, 1)
    lowest.zones["won"] = [[5], [1], [1]]
    lowest.zones["hand"] = [[], [], []]
    assert lowest.winners() == [1, 2] and lowest.ranks() == [3, 1, 1]
    state.zones["won"], state.zones["hand"] = [[5], [1], [1]], [[], [], []]
    assert state.winners() == [0] and state.ranks() == [1, 2, 2]


def test_scores_are_the_sum_of_the_sources():
    state = BID.new_state(2, 3)
    state.zones["won"], state.zones["hand"] = [[4, 5], []], [[1], [7, 2]]
    assert state.scores() == [10.0, 9.0]


def test_the_deal_is_reproducible_from_the_seed_and_differs_between_seeds():
    assert BID.new_state(3, 5).snapshot() == BID.new_state(3, 5).snapshot()
    assert BID.new_state(3, 5).zones != BID.new_state(3, 6).zones


def test_draw_takes_the_top_card_and_deal_goes_round_the_table_from_seat_one():
    state = BID.new_state(3, 1)
    state.zones["deck"] = [[1, 2, 3, 4, 5, 6, 7]]
    state.zones["hand"] = [[], [], []]
    state.deal("deck", "hand", 2)
    assert state.zones["hand"] == [[4, 7], [3, 6], [2, 5]]  # sorted zone; 7 dealt first
    assert state.draw("deck", "won", 2) == 1 and state.cards("won", 2) == [1]
    assert state.draw("deck", "won", 2) == -1  # empty: nothing moves


def test_move_takes_a_named_card_and_keeps_a_sorted_zone_in_order():
    state = BID.new_state(2, 1)
    state.zones["hand"] = [[2, 9], [4, 6]]
    state.move(9, "hand", "hand", 0, to_seat=1)
    assert state.zones["hand"] == [[2], [4, 6, 9]]
    state.move(4, "hand", "prize", 1)  # a shared zone has one pile whatever the seat
    assert state.cards("prize") == [*state.cards("prize")[:-1], 4]


def test_shuffle_draws_from_the_states_stream_uniformly():
    seen = Counter()
    for seed in range(600):
        state = BID.new_state(2, seed)
        state.zones["deck"] = [[1, 2, 3]]
        state.shuffle("deck")
        seen[tuple(state.cards("deck"))] += 1
    assert len(seen) == 6 and min(seen.values()) > 60


def test_roll_gives_each_face_of_a_die_alike_from_the_states_stream():
    state = BID.new_state(2, 1)
    faces = Counter(state.roll(6) for _ in range(6000))
    assert set(faces) == {1, 2, 3, 4, 5, 6} and min(faces.values()) > 850
    one, other = BID.new_state(2, 9), BID.new_state(2, 9)
    assert [one.roll(20) for _ in range(8)] == [other.roll(20) for _ in range(8)]


def test_turn_order_goes_round_and_the_starting_player_lever_moves_the_first_seat():
    state = BID.new_state(3, 1)
    assert state.to_move == 0
    for expected in (1, 2, 0):
        state.pass_turn()
        assert state.to_move == expected
    assert state.round_label() == "round 2"
    assert BID.new_state(3, 1, starting_player="last").to_move == 2
    assert BID.new_state(3, 1, starting_player="last").zones == BID.new_state(3, 1).zones


def test_the_auction_goes_to_the_last_seat_in_at_the_high_bid():
    state = BID.new_state(3, 1)
    assert state.legal_actions() == [DROP, *range(RAISE + 1, RAISE + 6)]
    state.apply_action(RAISE + 2)  # seat 1 bids 2
    assert state.values["high_bid"] == 2 and state.values["high_bidder"] == 0
    assert state.legal_actions() == [DROP, *range(RAISE + 3, RAISE + 6)]
    state.apply_action(DROP)  # seat 2 out
    assert state.to_move == 2
    state.apply_action(DROP)  # seat 3 out: seat 1 wins
    assert state.to_move == 0 and state.legal_actions() == [KEEP]
    prize = state.cards("prize")[0]
    state.apply_action(KEEP)
    assert state.counters["chips"][0] == 3 and state.cards("won", 0) == [prize]
    assert state.counters["bidding"] == [1, 1, 1] and state.to_move == 1


def test_a_seat_that_drops_is_skipped_until_the_next_auction():
    state = BID.new_state(4, 1)
    state.apply_action(DROP)  # seat 1 out
    state.apply_action(RAISE + 1)
    state.apply_action(RAISE + 2)
    state.apply_action(RAISE + 3)  # seat 4
    assert state.to_move == 1  # seat 1 is skipped


def test_heuristic_makes_a_bot_of_a_function_with_typed_documented_options():
    game = BID
    bot = make_bot("heuristic:bold=3", game)
    assert bot.weights == {"bold": 3} and not bot.uses_rng
    state = game.new_state(2, 1)
    assert bot.choose(state, random.Random(0)) == state.legal_actions()[3]
    with pytest.raises(BadInput, match="bold"):
        make_bot("heuristic:bold=many", game)
    with pytest.raises(BadInput, match="unknown heuristic option 'colour'"):
        make_bot("heuristic:colour=red", game)


def test_a_kit_game_plays_whole_games_with_every_kind_of_bot():
    bots = [make_bot(spec, BID) for spec in ("random", "heuristic", "mcts:iterations=8")]
    record = play_game(BID, bots, 4)
    assert not record.truncated and record.winners


def test_observation_shows_the_own_hand_and_only_the_sizes_of_the_rest():
    state = BID.new_state(3, 2)
    seen = state.observation(1)
    json.dumps(seen)
    assert seen["hand"] == state.cards("hand", 1) and seen["hand_sizes"] == [2, 2, 2]
    assert seen["deck"] == len(state.cards("deck")) and seen["prize"] == state.cards("prize")
    assert seen["chips"] == [5, 5, 5] and seen["high_bidder"] == -1
    assert len(state.observation_tensor(1)) == len(state.observation_tensor(0))


def test_render_hides_the_other_hands_and_the_deck_from_a_seat():
    state = BID.new_state(3, 2)
    mine = state.render(0)
    assert f"hand seat 1: {', '.join(map(str, state.cards('hand', 0)))}" in mine
    assert "hand seat 2: 2 cards" in mine and "deck: " in mine and "cards" in mine
    assert "hand seat 2: 2 cards" not in state.render()


@pytest.mark.parametrize("zone, error", [
    (Zone("x", PUBLIC), None), (lambda: Zone("x", OWNER), "per_seat"),
    (lambda: Zone("x", "hidden"), "visibility")])
def test_a_zone_declaration_is_refused_when_it_cannot_be_kept(zone, error):
    if error is None:
        assert zone.visibility == PUBLIC
        return
    with pytest.raises(ValueError, match=error):
        zone()


def test_a_layout_names_each_thing_once_and_leaves_the_kits_own_keys_alone():
    with pytest.raises(ValueError, match="once"):
        Layout(zones=(Zone("deck", SIZE),), counters=("deck",), actions=ACTIONS)
    with pytest.raises(ValueError, match="once"):
        Layout(zones=(Zone("deck", SIZE),), values=("to_move",), actions=ACTIONS)
    with pytest.raises(ValueError, match="distinct kinds"):
        Actions(("a", 1), ("a", 2))


# --- from the declaration: what a seat may learn, on every kit game -------------------------

KIT_GAMES = sorted(name for name, game in {**GAMES, BID.name: BID}.items()
                   if isinstance(game.new_state(game.min_players, 0), KitState))


def _game(name: str):
    return BID if name == BID.name else get_game(name)


def declared_unseen(layout: Layout, seat: int, players: int) -> set[tuple[str, int]]:
    """The piles whose cards the layout hides from `seat`: every pile of a `SIZE` zone, the
    other seats' piles of an `OWNER` zone (read from the declaration, not from the kit)."""
    return {(zone.name, i) for zone in layout.zones
            for i in range(players if zone.per_seat else 1)
            if zone.visibility == SIZE or (zone.visibility == OWNER and i != seat)}


def information_leaks(game, players: int, seeds=range(3), worlds: int = 3) -> list[str]:
    """Where a world for a seat differs from the real position in a pile the seat sees, or
    in a pile's size, a counter or a value; and where the seat's observation or render
    depends on the world."""
    found = []
    for seed in seeds:
        for step, state in enumerate(playout(game, players, seed)):
            if step % 3 and not state.is_terminal():
                continue
            for seat in range(players):
                unseen = declared_unseen(state.layout, seat, players)
                seen, shown = state.observation(seat), state.render(seat)
                for k in range(worlds):
                    world = state.determinize(seat, random.Random(100 * seed + k))
                    for zone in state.layout.zones:
                        for i, pile in enumerate(state.zones[zone.name]):
                            theirs = world.zones[zone.name][i]
                            if (zone.name, i) in unseen:
                                if len(pile) != len(theirs):
                                    found.append(f"{zone.name}[{i}] changed size")
                            elif pile != theirs:
                                found.append(f"{zone.name}[{i}] ({zone.visibility}) changed")
                    if (world.counters, world.values, world.to_move) != (
                            state.counters, state.values, state.to_move):
                        found.append("a counter or value changed")
                    if world.observation(seat) != seen or world.render(seat) != shown:
                        found.append(f"seat {seat} can tell the worlds apart")
                if found:
                    return found
    return found


@pytest.mark.parametrize("name", KIT_GAMES)
def test_a_seats_worlds_resample_only_what_it_cannot_see(name):
    game = _game(name)
    assert information_leaks(game, min(game.max_players, 3)) == []


@pytest.mark.parametrize("name", KIT_GAMES)
def test_a_seats_worlds_do_resample_the_hidden_cards(name):
    """Not vacuous: across worlds, some other seat's hand or some face-down pile differs."""
    game = _game(name)
    state = game.new_state(game.min_players, 1)
    worlds = {json.dumps(state.determinize(0, random.Random(k)).zones) for k in range(10)}
    assert len(worlds) > 1


def test_a_declaration_that_shows_the_hands_fails_the_information_check():
    """Declare the hands PUBLIC while `determinize` still deals them anew (the bug a
    hand-written engine makes): the check names the pile that a world changed."""

    class Leaky(BidState):
        layout = Layout(zones=(Zone("deck", SIZE), Zone("hand", PUBLIC, per_seat=True),
                               Zone("prize", PUBLIC), Zone("won", PUBLIC, per_seat=True)),
                        counters=LAYOUT.counters, values=LAYOUT.values, actions=ACTIONS)

        def unseen(self, seat: int) -> list[tuple[str, int]]:
            return [*super().unseen(seat), *(("hand", i) for i in range(self.num_players)
                                             if i != seat)]

    leaky = kit_game(Leaky, BidRules, name="toy-leaky", min_players=2, max_players=4,
                     max_decisions=500)
    assert any("hand" in leak for leak in information_leaks(leaky, 3))
