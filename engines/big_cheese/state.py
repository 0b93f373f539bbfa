"""The Big Cheese rules: auctions for face-up projects, chips that trickle back, dice scoring.

One round is one auction on the face-up top card (bids and passes in `apply_bid`, the hot path;
`veto`).  An auction won leads to `award` (the winner's bid goes on the card, every *older*
project of every player gives one chip back; projects with no chip left mature: specials go
to hand, number cards are rolled in `_resolve_pending`, each roll may be re-rolled by its
owner's `big_cheese`), then the win check and the lead (end of `_resolve_pending`) and
the next auction.  In exact-N (`Rules.exact_order = "choice"`) a seat with several different number
projects maturing at once first picks which to roll next (`choose_next`): the order decides
which roll is void.

Engine shortcut: a seat that can neither outbid nor Veto is passed automatically (its only
legal action would be to pass, now and for the rest of the auction, as bids only rise).
Rulings B1-B14 of `shared/rules/big_cheese.md` are cited where they apply.  The action
layout is in `actions`, what a roll is worth and who wins in `scoring`.
"""

from __future__ import annotations

import random

from engines.big_cheese import render, scoring
from engines.big_cheese._position import BigCheeseCounters, BigCheesePosition
from engines.big_cheese.actions import (
    ACT_KEEP,
    ACT_ROLL_NEXT,
    ACT_VETO,
    BID,
    KIND_OF_ACTION,
    ORDER,
    OVER,
    PASS,
    PHASE_NAMES,
    ROLL,
    ROLL_ACTS,
    VETO_WINDOW,
    WINDOW_ACTS,
    action_name,
    bid_list,
    bid_table,
)
from engines.big_cheese.components import BIG_CHEESE, DECK, NUMBER_VALUES, VALUE_INDEX, VETO
from engines.big_cheese.rules import Rules
from engines.big_cheese.scoring import ROLL_FACES, ROLL_TOP, gain, roll_points
from engines.kit import (
    copy_rng,
    following_seats,
    reshuffle,
    seat_bonus,
    seat_orders,
    shuffled,
    track_lead,
    world_rng,
)


class BigCheeseState(BigCheesePosition):
    """A position of The Big Cheese.  The deck's top is `deck[-1]` (face up, public).

    Its attributes are declared in `position.py` (`BigCheesePosition`, generated).
    """

    __slots__ = ()

    #: `play_game` counts the kind of each chosen action through this table, not a call.
    kind_table = KIND_OF_ACTION

    # --- text view (render.py) ----------------------------------------------------------
    def render(self, seat: int | None = None) -> str:
        return render.render(self, seat)

    def round_label(self) -> str:
        return render.round_label(self)

    def __init__(self, num_players: int = 0, seed: int = 0, rules: Rules | None = None) -> None:
        if not num_players:  # blank, for clone(): a compiled class cannot skip __init__
            return
        rules = rules or Rules()
        n = num_players
        self.num_players = n
        self.rules = rules
        self.rng = random.Random(seed)
        self._legal_cache = None
        self.goal = rules.goal
        self.max_rounds = rules.max_rounds
        self.leader_must_open = rules.leader_must_open
        self.veto_any_time = rules.veto_any_time
        self.exact = rules.exact
        self.choose_order = bool(rules.exact) and rules.exact_order == "choice"
        self.chosen_pos = -1  # the pending position whose project the owner just chose
        self._orders = seat_orders(n)
        self._following = following_seats(n)
        bonus = seat_bonus(rules.seat_bonus, n)  # extra starting chips (compensation)
        self._acts = bid_table(rules.chips + max(bonus))
        self._roll_faces = ROLL_FACES[rules.dice == "d6"]
        self._roll_tops = ROLL_TOP[rules.dice == "d6"]
        self.deck = shuffled(DECK, self.rng)
        self.known_bottom = 0  # cards buried under the deck (B1 "bury") are public
        self.discard = []
        self.pool = [rules.chips + b for b in bonus]
        self.proj_cards = [[] for _ in range(n)]  # oldest first
        # A project won at award A with bid b holds A + b - awards chips: every later award
        # takes one off (B3), so it matures at award A + b.  Store that due award number.
        self.proj_due = [[] for _ in range(n)]
        self.vetoes = [0] * n  # matured specials in hand (public: won in open auction)
        self.cheeses = [0] * n
        self.points = [0] * n
        self.earned = [[0] * len(NUMBER_VALUES) for _ in range(n)]
        self.phase = BID
        self.leader = self.rng.randrange(n)  # drawn whatever the lever, to keep the deal
        if rules.first_leader != "random":
            self.leader = 0 if rules.first_leader == "first" else n - 1
        self.to_act = -1
        self.high_bid = 0
        self.high_bidder = -1
        self.passed = [False] * n
        self.active = n
        self.window = []
        self.pending = []
        self.pending_pos = 0
        self.roll_owner = -1
        self.roll_card = 0
        self.roll_points = 0
        self.first_points = 0
        self.rerolls = 0
        self.award_winner = -1
        self.winners_ = None
        self.end_reason = ""
        self.rounds = 0
        self.awards = 0
        self.lead = -1
        self.counters = BigCheeseCounters(first_leader=self.leader, seat_vetoes=[0] * n,
                                          seat_cheeses=[0] * n)
        self.start_auction()

    # ------------------------------------------------------------------ auction
    def start_auction(self) -> None:
        """Reveal the next project (reshuffling the discards if the deck ran out) and open bids.

        The turn goes to the first seat from the leader that has a real choice: a seat that
        can neither bid (no free chip) nor Veto can only pass, now and for the rest of this
        auction (bids only rise), so it is passed automatically.  The same shortcut runs in
        `apply_bid` after each bid or pass; the auction closes when only the high bidder remains,
        or when everybody passed without a bid.
        """
        if self.rounds >= self.max_rounds:
            self._end_on_scores("round_cap")
            return
        if not self.deck:
            if not self.discard:  # B12: practically unreachable; end on scores
                self._end_on_scores("exhausted")
                return
            reshuffle(self.deck, self.discard, self.rng)
            self.known_bottom = 0
            self.counters.reshuffles += 1
        self.rounds += 1
        self.phase = BID
        self.high_bid = 0
        self.high_bidder = -1
        n = self.num_players
        passed = self.passed = [False] * n
        pool = self.pool
        vetoes = self.vetoes
        seat = self.leader
        active = n
        while active:
            free = pool[seat]
            veto = vetoes[seat]
            if free or veto:
                self.active = active
                self.to_act = seat
                if self.leader_must_open:
                    self._legal_cache = None  # B2 option: see `legal_bid`
                else:
                    table = self._acts  # (empty for a chip count too large to tabulate)
                    self._legal_cache = (table[veto > 0][0][free] if table
                                         else bid_list(veto, 0, free))
                return
            passed[seat] = True
            active -= 1
            seat += 1
            if seat == n:
                seat = 0
        self.active = 0
        self._all_passed()

    def veto(self, seat: int) -> None:
        """Discard the project and the Veto: nobody pays, nothing advances, same leader."""
        self.vetoes[seat] -= 1
        counters = self.counters
        counters.vetoes_played += 1
        counters.seat_vetoes[seat] += 1
        self.discard.append(VETO)
        self.discard.append(self._take_top())
        self.window = []
        self.start_auction()

    def _take_top(self) -> int:
        card = self.deck.pop()
        if self.known_bottom > len(self.deck):
            self.known_bottom = len(self.deck)
        return card

    def _all_passed(self) -> None:
        """B1: nobody bid.  Default: discard the card like a Veto without a Veto card."""
        mode = self.rules.all_pass
        if mode == "leader_forced" and self.pool[self.leader] >= 1:
            self.high_bidder = self.leader
            self.high_bid = 1
            self._close_auction()
            return
        self.counters.all_pass_rounds += 1
        card = self._take_top()
        if mode == "bury":
            self.deck.insert(0, card)
            self.known_bottom += 1
        else:
            self.discard.append(card)
        self.start_auction()

    def _close_auction(self) -> None:
        """Award the card, after the B8 `veto_any_time` window if anyone holds a Veto."""
        if self.veto_any_time:
            self.window = [s for s in self._orders[self.leader] if self.vetoes[s]]
            if self.window:
                self.phase = VETO_WINDOW
                self._legal_cache = WINDOW_ACTS
                self.to_act = self.window[0]
                return
        self.award(self.high_bidder, self.high_bid)

    def _window_next(self) -> None:
        self.window.pop(0)
        if self.window:
            self._legal_cache = WINDOW_ACTS
            self.to_act = self.window[0]
        else:
            self.award(self.high_bidder, self.high_bid)

    # ------------------------------------------------------------------ award and maturing
    def award(self, winner: int, bid: int) -> None:
        """The winner puts the bid on the card; every older project returns one chip (B3, B4)."""
        now = self.awards + 1
        self.awards = now
        deck = self.deck
        card = deck.pop()
        if self.known_bottom > len(deck):
            self.known_bottom = len(deck)
        pool = self.pool
        pool[winner] -= bid
        proj_due = self.proj_due
        pending: list[tuple[int, int]] = []
        for seat in self._orders[winner]:  # B9: clockwise from the winner, oldest first
            dues = proj_due[seat]
            if dues:
                pool[seat] += len(dues)  # B4: one chip back from every project on the table
                if now in dues:  # the projects due now mature, oldest first
                    cards = self.proj_cards[seat]
                    while now in dues:
                        i = dues.index(now)
                        del dues[i]
                        done = cards.pop(i)
                        if done > 0:
                            pending.append((seat, done))
                            self.discard.append(done)
                        elif done == VETO:
                            self.vetoes[seat] += 1
                        else:
                            self.cheeses[seat] += 1
        self.proj_cards[winner].append(card)
        proj_due[winner].append(now + bid)
        self.award_winner = winner
        if pending:
            self.pending = pending
            self.pending_pos = 0
            self._resolve_pending()
        else:  # nothing rolled: no win check, no lead change
            self.leader = winner
            self.start_auction()

    def project_chips(self, seat: int) -> list[int]:
        """Chips on each of `seat`'s projects, oldest first."""
        now = self.awards
        return [due - now for due in self.proj_due[seat]]

    def roll_die(self, card: int) -> int:
        """Points of one roll for number card `card` (B5, B6: `scoring.roll_points`)."""
        return roll_points(card, self.rng.random(), self.rules.dice == "d6")

    def _resolve_pending(self) -> None:
        """Roll the maturing number projects in order; stop for a Big Cheese decision; when all
        are rolled, the win check (B9, B10, B11), the lead, then the next round.

        This runs at almost every award, so `roll_die` (through `scoring.ROLL_FACES`), the
        scoring of a roll (as in `keep`) and the lead tracking are written out here, once
        (`tests/test_fastpaths.py` checks the table and the points against `scoring`).
        """
        pending = self.pending
        pos = self.pending_pos
        cheeses = self.cheeses
        points = self.points
        earned = self.earned
        rand = self.rng.random
        roll_faces = self._roll_faces
        exact = self.exact
        goal = self.goal
        choose = self.choose_order
        while pos < len(pending):
            seat, card = pending[pos]
            if choose and self._offer_order(pos):
                return
            faces = roll_faces[card]
            pts = faces[int(rand() * len(faces))]  # type: ignore[index, arg-type]  # `roll_die`, via its table
            if cheeses[seat]:
                self.pending_pos = pos
                self.phase = ROLL
                self._legal_cache = ROLL_ACTS
                self.to_act = seat
                self.roll_owner = seat
                self.roll_card = card
                self.roll_points = pts
                self.first_points = pts
                self.rerolls = 0
                return
            if exact:
                pts = gain(points[seat], pts, goal, exact)  # B11: void roll
            points[seat] += pts
            earned[seat][VALUE_INDEX[card]] += pts
            pos += 1
        self.pending_pos = pos
        best = max(points)
        if best >= goal:
            self._check_win()
            if self.phase == OVER:
                return
        # a lead change: a different seat alone on the top score (a tie keeps no leader);
        # kit.track_lead is called only when the sole leader is new (once per award it cost
        # ~2% of a game's instructions)
        if best > 0 and points.count(best) == 1 and points.index(best) != self.lead:
            counters = self.counters
            self.lead, counters.lead_changes = track_lead(
                self.lead, counters.lead_changes, points.index(best))
        self.pending = []
        self.leader = self.award_winner
        self.start_auction()

    def next_options(self, pos: int) -> list[int]:
        """`ACT_ROLL_NEXT + value` for each different value among the maturing projects of the
        seat whose project is pending at `pos` (its run of projects from `pos` on)."""
        pending = self.pending
        seat = pending[pos][0]
        options: list[int] = []
        for owner, card in pending[pos:]:
            if owner != seat:
                break
            act = ACT_ROLL_NEXT + card
            if act not in options:
                options.append(act)
        return options

    def _offer_order(self, pos: int) -> bool:
        """Exact-N: stop for the owner to pick the next project to roll,
        unless they just picked the one at `pos`, their remaining projects are all alike, or
        the order cannot change anything: no order can void a roll (their points plus the
        highest face of every remaining project stay within the goal) and they hold no Big
        Cheese (whose re-roll decisions would follow the order).  Then the oldest rolls
        first (B9), as without the choice."""
        if self.chosen_pos == pos:
            self.chosen_pos = -1
            return False
        options = self.next_options(pos)
        if len(options) < 2:
            return False
        seat = self.pending[pos][0]
        if not self.cheeses[seat]:
            top = self.points[seat]
            tops = self._roll_tops
            for owner, card in self.pending[pos:]:
                if owner != seat:
                    break
                top += tops[card]
            if top <= self.goal:
                return False
        self.pending_pos = pos
        self.phase = ORDER
        self._legal_cache = options
        self.to_act = self.pending[pos][0]
        return True

    def choose_next(self, action: int) -> None:
        """Move the owner's chosen project (the oldest of that value) to the front and roll it."""
        pending = self.pending
        pos = self.pending_pos
        card = action - ACT_ROLL_NEXT
        j = pos
        while pending[j][1] != card:
            j += 1
        pending.insert(pos, pending.pop(j))
        self.chosen_pos = pos
        self._resolve_pending()

    def keep(self) -> None:
        """Accept the current roll of the pending project (B11: a void roll adds nothing)."""
        seat = self.roll_owner
        held = self.points[seat]
        exact = self.exact
        gained = gain(held, self.roll_points, self.goal, exact)
        first = gain(held, self.first_points, self.goal, exact)
        self.counters.big_cheese_net_points += gained - first
        self.points[seat] = held + gained
        self.earned[seat][VALUE_INDEX[self.roll_card]] += gained
        self.pending_pos += 1
        self.roll_owner = -1
        self._resolve_pending()

    def big_cheese(self) -> None:
        """Discard a Big Cheese and re-roll; the new result stands (B7)."""
        seat = self.roll_owner
        self.cheeses[seat] -= 1
        counters = self.counters
        counters.big_cheeses_played += 1
        counters.seat_cheeses[seat] += 1
        self.discard.append(BIG_CHEESE)
        self.rerolls += 1
        self.roll_points = self.roll_die(self.roll_card)
        if not (self.rules.big_cheese_chain and self.cheeses[seat]):
            self.keep()

    def _check_win(self) -> None:
        """B10/B11: the seats at the goal after this step; the best of them win (ties share)."""
        crossers = scoring.at_goal(self.points, self.goal, self.exact)
        if crossers:
            self.counters.same_round_crossers = len(crossers)
            self._finish(scoring.best_of(self.points, crossers), "target")

    def _end_on_scores(self, reason: str) -> None:
        self._finish(scoring.best_of(self.points, list(range(self.num_players))), reason)

    def _finish(self, winners: list[int], reason: str) -> None:
        self.winners_ = winners
        self.end_reason = reason
        self.phase = OVER
        self.to_act = -1
        self.pending = []

    # ------------------------------------------------------------------ contract
    def current_player(self) -> int:
        return self.to_act

    def is_terminal(self) -> bool:
        return self.phase == OVER

    # Legal lists and action handlers by phase (core's phase-dispatch hook: `_legal_actions`,
    # `_apply` below).
    def legal_bid(self) -> list[int]:
        """Pass, every bid above the high bid up to the free chips, Veto if held (B1, B2)."""
        seat = self.to_act
        if self.leader_must_open and self.high_bidder < 0 and seat == self.leader:
            acts = list(range(1, self.pool[seat] + 1)) or [PASS]  # B2 option
            if self.vetoes[seat]:
                acts.append(ACT_VETO)
            return acts
        veto, high, free = self.vetoes[seat], self.high_bid, self.pool[seat]
        table = self._acts
        return table[veto > 0][high][free] if table else bid_list(veto, high, free)

    def legal_window(self) -> list[int]:
        return WINDOW_ACTS

    def legal_roll(self) -> list[int]:
        return ROLL_ACTS

    def legal_none(self) -> list[int]:
        return []

    def legal_order(self) -> list[int]:
        return self.next_options(self.pending_pos)

    def apply_bid(self, action: int) -> None:
        """A bid, a pass or a Veto (the hot path: ~3 per auction).

        After a bid or pass the turn goes to the next seat that still has a real choice; a
        seat that can neither outbid nor Veto is passed automatically (see `start_auction`).
        """
        if action == ACT_VETO:
            self.veto(self.to_act)
            return
        seat = self.to_act
        passed = self.passed
        active = self.active
        if action:  # bid: strictly higher, at most the free chips
            high = self.high_bid = action
            self.high_bidder = seat
            done = 1
        else:  # pass: final for this auction
            passed[seat] = True
            active -= 1
            high = self.high_bid
            done = 1 if self.high_bidder >= 0 else 0
        following = self._following
        pool = self.pool
        vetoes = self.vetoes
        while active > done:  # never reaches the high bidder: all after them act first
            seat = following[seat]
            if not passed[seat]:
                free = pool[seat]
                veto = vetoes[seat]
                if free > high or veto:
                    self.active = active
                    self.to_act = seat
                    # (B2 `leader_must_open` never applies here: the leader has acted)
                    table = self._acts
                    self._legal_cache = (table[veto > 0][high][free] if table
                                         else bid_list(veto, high, free))
                    return
                passed[seat] = True
                active -= 1
        self.active = active
        bidder = self.high_bidder
        if bidder < 0:
            self._all_passed()
        elif self.veto_any_time:
            self._close_auction()
        else:
            self.award(bidder, high)

    def apply_window(self, action: int) -> None:
        """B8: a Veto against the award, or let it stand."""
        if action == ACT_VETO:
            self.veto(self.to_act)
        else:
            self._window_next()

    def apply_roll(self, action: int) -> None:
        if action == ACT_KEEP:
            self.keep()
        else:
            self.big_cheese()

    def apply_none(self, action: int) -> None:
        raise AssertionError("no action is legal once the game is over")

    def apply_order(self, action: int) -> None:
        self.choose_next(action)

    def scores(self) -> list[float]:
        return list(self.points)

    def winners(self) -> list[int]:
        if self.winners_ is not None:
            return list(self.winners_)
        return super().winners()

    def ranks(self) -> list[int]:
        """As `State.ranks` (1 = winners, then competition ranking by score), without sets."""
        won = self.winners_
        if won is None:
            won = self.winners()
        return scoring.ranks(self.points, won)

    def score_breakdown(self) -> dict[str, list[float]]:
        """Points by project value ('project_20', ...): the final (kept) roll of each."""
        return scoring.breakdown(self.earned)

    def metrics(self) -> dict[str, float]:
        reason = self.end_reason
        out: dict[str, float] = {
            "rounds": self.rounds, "awards": self.awards,
            "round_capped": float(reason == "round_cap"),
            "deck_exhausted": float(reason == "exhausted"),
        }
        out.update(self.counters.metrics())  # the record's counters, seat by seat too
        return out

    # ------------------------------------------------------------------ information
    def clone(self) -> BigCheeseState:
        return self.clone_with_rng(copy_rng(self.rng))

    def clone_with_rng(self, rng: random.Random) -> BigCheeseState:
        new = BigCheeseState()
        self._copy_position(new)
        new.rng = rng
        return new

    def hidden_slice(self) -> tuple[int, int]:
        """Deck positions hidden from everyone: below the face-up top, above buried cards."""
        size = len(self.deck)
        return min(self.known_bottom, max(size - 1, 0)), max(size - 1, 0)

    def determinize(self, seat: int, rng: random.Random) -> BigCheeseState:
        """Only the order of the face-down deck is hidden (B14); resample it: sorted first
        (the result depends on the hidden cards, not on their real order), then shuffled on
        `rng.random()` (`kit.shuffled`: `kit.deal_back`'s `rng.shuffle` cost half of a
        determinization here, and a search determinizes once per sampled world)."""
        world = self.clone_with_rng(self.rng)  # replaced below: no copy of ours
        lo, hi = self.hidden_slice()
        world.deck[lo:hi] = shuffled(sorted(world.deck[lo:hi]), rng)
        world.rng = world_rng(rng)
        return world

    # --- the observation's computed keys (the rest: BigCheesePosition.observation) -----
    def _view_phase(self, seat: int) -> str:
        return PHASE_NAMES[self.phase]

    def _view_top(self, seat: int) -> int | None:
        return self.deck[-1] if self.deck and self.phase != OVER else None

    def _view_buried(self, seat: int) -> list[int]:
        return self.deck[: self.known_bottom]

    def _view_projects(self, seat: int) -> list[list[list[int]]]:
        return [[[c, due - self.awards] for c, due in zip(cards, dues)]
                for cards, dues in zip(self.proj_cards, self.proj_due)]

    def _view_pending(self, seat: int) -> list[list[int]]:
        return [list(p) for p in self.pending[self.pending_pos:]]

    def _view_roll(self, seat: int) -> list[int]:
        return [self.roll_owner, self.roll_card, self.roll_points, self.rerolls]

    def action_kind(self, action: int) -> int:
        """Index into `ACTION_KINDS` (`actions.action_kind`, as a table)."""
        return KIND_OF_ACTION[action]

    def action_to_str(self, action: int) -> str:
        return action_name(action, self.deck[-1] if self.deck else None)

    # --- core's phase-dispatch hook: an if-chain, commonest phase first (compiled, each
    # branch is a direct call; a table of methods was a module look-up and a Python call)
    def _legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == BID:
            return self.legal_bid()
        if phase == ROLL:
            return self.legal_roll()
        if phase == VETO_WINDOW:
            return self.legal_window()
        if phase == ORDER:
            return self.legal_order()
        return self.legal_none()

    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == BID:
            self.apply_bid(action)
        elif phase == ROLL:
            self.apply_roll(action)
        elif phase == VETO_WINDOW:
            self.apply_window(action)
        elif phase == ORDER:
            self.apply_order(action)
        else:
            self.apply_none(action)


def create_state(num_players: int, seed: int, rules: Rules | None = None) -> BigCheeseState:
    """Initial position: shuffled face-up deck, `rules.chips` chips each, random first leader."""
    return BigCheeseState(num_players, seed, rules or Rules())
