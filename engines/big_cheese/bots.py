"""Heuristic bots for The Big Cheese (public information only: the game has no hidden hands).

`ValueBot` ("default") bids the minimum raise while the bid stays within a budget that grows
with the card's expected points; `aggressive` uses a bigger budget and jumps straight to it.
Both veto a valuable card an opponent is about to take.  The default spends a Big Cheese on
any roll clearly below the project's expectation; `aggressive` and `v1` (the earlier
default) only on a roll a quarter of a 20 short (MCTS re-rolled twice as often, and
re-rolling more won in duplicate play).  All re-roll a void roll in exact-30, and roll their
maturing projects largest first there (the order most likely to land exactly on the goal
in that step; `tests/test_big_cheese_rules.py` checks it against the exact optimum).
Tuning note: in self-play tests bigger budgets won (chips come back one per project per
award, so idle chips are worth little, and the number of cards won drives the score); a
budget horizon that shrank bids near the end lost.
"""

from __future__ import annotations

import random

from engines.big_cheese.actions import (
    ACT_BIG_CHEESE,
    ACT_KEEP,
    ACT_NO_VETO,
    ACT_VETO,
    BID,
    ORDER,
    PASS,
    ROLL,
)
from engines.big_cheese.components import BIG_CHEESE, DECK, VETO, expected_points
from engines.big_cheese.rules import Rules
from engines.big_cheese.state import BigCheeseState
from engines.bots.options import Param, typed_options

#: Mean number-card payout in units of the card value table (d6: 31.0, poly: 4.93).
_MEAN_NUMBER = {"d6": 31.0, "polyhedral": 34.5 / 7}


class ValueBot:
    """Value-per-chip bidder with a budget.

    budget(card) = `share` x starting chips x (expected points / expected points of a 20),
    at least 1, at most the free chips minus `reserve`; specials are valued as a fraction
    of a mean number card.  Chips are renewable (every project on the table returns one per
    award), so idle chips are worth little: the budget scales with the starting chips.
    The budget share grows by `share_step` per player above four (more rivals contest each
    card), and from `jump_players` players up the bid jumps straight to the budget
    (`jump` always does); with `enough` such a bid stops at the most free chips of any
    rival still bidding (no rival can beat it).  `curve` below 1 gives cheap cards larger
    budgets.
    A Big Cheese re-rolls a roll that falls `reroll_share` x (expected points of a 20) or
    more below the project's expected points (half that while holding two or more).
    """

    name = "heuristic"
    #: Never draws from the `rng` it is given (`mcts` then seeds no policy stream for its
    #: rollouts; `tests/test_mcts.py` plays with an rng that fails when used).
    uses_rng = False

    def __init__(
        self,
        share: float = 1.6,
        jump: bool = False,
        reserve: int = 0,
        veto_share: float = 0.25,
        exact_boost: float = 2.0,
        reroll_share: float = 0.05,
        share_step: float = 0.0,
        jump_players: int = 7,
        curve: float = 1.0,
        enough: bool = False,
        cheese_worth: float = 0.3,
        veto_worth: float = 0.2,
    ) -> None:
        self.cheese_worth = float(cheese_worth)
        self.veto_worth = float(veto_worth)
        self.share = float(share)
        self.curve = float(curve)
        self.enough = bool(enough)
        self.share_step = float(share_step)
        self.jump_players = int(jump_players)
        self.exact_boost = float(exact_boost)
        self.jump = bool(jump)
        self.reserve = int(reserve)
        self.veto_share = float(veto_share)
        self.reroll_share = float(reroll_share)
        # `budget` of every card, for the rules and player count it was computed under
        self._budget_rules: Rules | None = None
        self._budget_players = 0
        self._budget_of: list[int] = []

    # ---------------------------------------------------------------- valuation
    def card_value(self, state: BigCheeseState, card: int) -> float:
        dice = state.rules.dice
        mean = _MEAN_NUMBER[dice]
        if card == BIG_CHEESE:
            return self.cheese_worth * mean
        if card == VETO:
            return self.veto_worth * mean
        return expected_points(card, dice)

    def budget(self, state: BigCheeseState, card: int) -> int:
        rules = state.rules
        top = expected_points(20, rules.dice)
        share = self.share + self.share_step * max(0, state.num_players - 4)
        if rules.exact:  # every card is another shot at landing exactly: grab more of them
            share *= self.exact_boost
        worth = (self.card_value(state, card) / top) ** self.curve
        return max(1, int(share * rules.chips * worth + 0.5))

    def _budgets(self, state: BigCheeseState) -> list[int]:
        """`budget` of every card code (at index card - BIG_CHEESE, the lowest code), computed
        once per rules and player count: it depends on those and the card only, and `choose`
        needs it at every bid (where computing it was most of the bot's cost)."""
        rules = state.rules
        if rules is not self._budget_rules or state.num_players != self._budget_players:
            self._budget_of = [self.budget(state, card)
                               for card in range(BIG_CHEESE, max(DECK) + 1)]
            self._budget_rules = rules
            self._budget_players = state.num_players
        return self._budget_of

    # ---------------------------------------------------------------- decisions
    def _threat(self, state: BigCheeseState, seat: int, card: int) -> bool:
        """Veto if an opponent is about to take a card worth more than `veto_share` of the goal
        from our point of view, or that could carry them over the goal."""
        rival = state.high_bidder
        if rival < 0 or rival == seat or card <= 0:
            return False
        ev = expected_points(card, state.rules.dice)
        goal = state.rules.goal
        if state.points[rival] + ev >= goal * 0.75:
            return True
        return ev >= self.veto_share * goal

    def choose(self, state: BigCheeseState, rng: random.Random) -> int:
        seat = state.current_player()
        phase = state.phase
        if phase != BID:
            if phase == ROLL:
                return self._roll_choice(state, seat)
            if phase == ORDER:  # exact-N: options are ACT_ROLL_NEXT + value; roll the largest
                return max(state.legal_actions())
            # the veto_any_time window
            return ACT_VETO if self._threat(state, seat, state.deck[-1]) else ACT_NO_VETO
        card = state.deck[-1]
        limit = min(self._budgets(state)[card - BIG_CHEESE], state.pool[seat] - self.reserve)
        low = state.high_bid + 1
        if low <= limit:
            if not (self.jump or state.num_players >= self.jump_players):
                return low
            if self.enough:  # a rival still in can bid its free chips at most, and must beat us
                pool, passed = state.pool, state.passed
                top = max([pool[s] for s in range(state.num_players)
                           if s != seat and not passed[s]], default=0)
                return min(limit, max(low, top))
            return limit
        legal = state.legal_actions()  # only now: most bids are decided above without it
        if ACT_VETO in legal and self._threat(state, seat, card):
            return ACT_VETO
        if PASS in legal:
            return PASS
        return legal[0]  # B2 leader_must_open: cheapest opening bid

    def _roll_choice(self, state: BigCheeseState, seat: int) -> int:
        card = state.roll_card
        pts = state.roll_points
        rules = state.rules
        if rules.exact:
            room = rules.exact - state.points[seat]
            return ACT_BIG_CHEESE if pts > room else ACT_KEEP
        if state.points[seat] + pts >= rules.goal:
            return ACT_KEEP
        ev = expected_points(card, rules.dice)
        threshold = self.reroll_share * expected_points(20, rules.dice)
        if state.cheeses[seat] > 1:
            threshold *= 0.5
        return ACT_BIG_CHEESE if ev - pts >= threshold else ACT_KEEP


#: The default's weights and switches (`simulate list`, `simulate tune`).
PARAMS: tuple[Param, ...] = (
    Param("share", "float", 1.6, "bid budget: share of the starting chips for a card worth a "
          "20's expected points", 0.5, 3.0),
    Param("jump", "bool", False, "bid the whole budget at once instead of the minimum raise"),
    Param("reserve", "int", 0, "chips never bid", 0, 5),
    Param("veto_share", "float", 0.25, "veto a rival's card worth this share of the goal",
          0.0, 1.0),
    Param("exact_boost", "float", 2.0, "budget multiplier under exact-N scoring", 1.0, 4.0),
    Param("reroll_share", "float", 0.05, "spend a Big Cheese on a roll this share of a 20's "
          "expected points below the project's", 0.0, 0.5),
    Param("share_step", "float", 0.0, "added to share per player above four (more rivals "
          "contest each card)", 0.0, 1.0),
    Param("jump_players", "int", 7, "bid the whole budget at once from this many players up "
          "(7: never; at 4+ a lone jumper beat a table of minimum raisers, at 3 the "
          "reverse)", 3, 7),
    Param("curve", "float", 1.0, "budget grows as (card's expected points / a 20's) to this "
          "power: below 1, cheap cards and specials get larger budgets", 0.3, 1.5),
    Param("enough", "bool", False, "a whole-budget bid stops at the most free chips of any "
          "rival still bidding (they must bid more to beat it)"),
    Param("cheese_worth", "float", 0.3, "a Big Cheese up for auction is worth this share of a "
          "mean number card's expected points", 0.0, 1.0),
    Param("veto_worth", "float", 0.2, "a Veto up for auction is worth this share of a mean "
          "number card's expected points", 0.0, 1.0),
)


def _bot(defaults: dict[str, object], options: dict[str, str]) -> ValueBot:
    params = {**defaults, **typed_options("big-cheese heuristic", PARAMS, options)}
    return ValueBot(**params)  # type: ignore[arg-type]


def value_bot(**options: str) -> ValueBot:
    """The default style: minimum raises within a modest budget."""
    return _bot({}, options)


def aggressive_bot(**options: str) -> ValueBot:
    """Bigger budget, jumps straight to it (locks more chips, wins contested big cards)."""
    return _bot({"share": 2.0, "jump": True, "reroll_share": 0.25}, options)


def v1_bot(**options: str) -> ValueBot:
    """The earlier default: a Big Cheese only for a roll a quarter of a 20 short."""
    return _bot({"reroll_share": 0.25}, options)


HEURISTICS = {"default": value_bot, "aggressive": aggressive_bot, "v1": v1_bot}
