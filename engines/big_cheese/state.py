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
Rulings B1-B14 of `shared/rules/big_cheese.md` are cited where they apply.

Actions: 0 = pass, 1..chips = bid that many chips, and the special actions below
(`ACT_ROLL_NEXT + v`: roll the maturing project of value v next).
"""

from __future__ import annotations

import random

from engines.big_cheese import render
from engines.big_cheese.components import (
    BIG_CHEESE,
    DECK,
    NUMBER_VALUES,
    VALUE_INDEX,
    VETO,
    card_name,
)
from engines.big_cheese.rules import Rules
from engines.core import State
from engines.kit import (
    copy_rng,
    deal_back,
    following_seats,
    reshuffle,
    seat_orders,
    shuffled,
    track_lead,
    world_rng,
)

PASS = 0
ACT_VETO = 1000  # play a Veto (on your bidding turn, or in the B8 `veto_any_time` window)
ACT_KEEP = 1001  # keep the roll just made
ACT_BIG_CHEESE = 1002  # discard a Big Cheese to re-roll your own project
ACT_NO_VETO = 1003  # let the award stand (`veto_any_time` window only)
ACT_ROLL_NEXT = 1100  # + card value (1102..1120): exact-N, roll that maturing project next
NUM_ACTIONS = ACT_ROLL_NEXT + max(NUMBER_VALUES) + 1  # bids (0 = pass) stay below 1000

#: The game's systems (`Game.action_kinds`), indexed by `BigCheeseState.action_kind`.
#: Declining a B8 any-time Veto counts as a pass: it is the same "let it go" decision.
ACTION_KINDS = ("bid", "pass", "Veto", "keep the roll", "Big Cheese re-roll",
                "choose which project rolls next")
K_BID, K_PASS, K_VETO, K_KEEP, K_BIG_CHEESE, K_ROLL_NEXT = range(len(ACTION_KINDS))

# phases
BID = 0
VETO_WINDOW = 1
ROLL = 2
OVER = 3
ORDER = 4  # exact-N: the owner picks which of their maturing projects to roll next

PHASE_NAMES = ("bid", "veto_window", "roll", "over", "order")

#: Action lists shared by every state (never mutated; the base class caches them per position).
_ROLL_ACTS = [ACT_KEEP, ACT_BIG_CHEESE]
_WINDOW_ACTS = [ACT_NO_VETO, ACT_VETO]

#: Starting-chip counts up to this get a fully pre-built bid-list table; larger ones a lazy one.
_EAGER_CHIPS = 64


def _bid_list(veto: int, high: int, free: int) -> list[int]:
    """The legal bid-phase actions: pass, every bid from high + 1 to free, Veto if held."""
    acts = [PASS, *range(high + 1, free + 1)]
    if veto:
        acts.append(ACT_VETO)
    return acts


class _LazyActs(dict):
    """`table[veto][high][free]` built on first use (for very large starting-chip counts)."""

    def __init__(self, path: tuple[int, ...] = ()) -> None:
        super().__init__()
        self.path = path

    def __missing__(self, key: int) -> object:
        path = (*self.path, int(key))
        value = _bid_list(*path) if len(path) == 3 else _LazyActs(path)
        self[key] = value
        return value


_BID_TABLES: dict[int, list | _LazyActs] = {}


def bid_table(chips: int) -> list | _LazyActs:
    """`table[holds a Veto][high bid][free chips]` -> the shared legal-action list.

    Chips are conserved per seat, so high bid and free chips never exceed `chips`.
    """
    table = _BID_TABLES.get(chips)
    if table is None:
        if chips <= _EAGER_CHIPS:
            table = [
                [[_bid_list(v, h, f) for f in range(chips + 1)] for h in range(chips + 1)]
                for v in (0, 1)
            ]
        else:
            table = _LazyActs()
        _BID_TABLES[chips] = table
    return table


#: Score-breakdown keys, in NUMBER_VALUES order.
_BREAKDOWN_KEYS = tuple(f"project_{v}" for v in NUMBER_VALUES)

#: Per-seat metric keys (vetoes, Big Cheeses, seat by seat), per player count.
_SEAT_METRIC_KEYS = {
    n: tuple(k for s in range(n) for k in (f"vetoes_played_p{s}", f"big_cheeses_played_p{s}"))
    for n in range(1, 9)
}


class BigCheeseState(State):
    """A position of The Big Cheese.  The deck's top is `deck[-1]` (face up, public)."""

    __slots__ = (
        "num_players", "rules", "rng", "_legal_cache", "_d6", "_goal", "_exact", "_orders",
        "_must_open", "_any_time", "_max_rounds", "_following", "_acts",
        "deck", "known_bottom", "discard", "pool", "proj_cards", "proj_due", "vetoes",
        "cheeses", "points", "earned", "phase", "leader", "to_act", "high_bid",
        "high_bidder", "passed", "active", "window", "pending", "pending_pos", "roll_owner",
        "roll_card", "roll_points", "first_points", "rerolls", "award_winner", "winners_",
        "end_reason", "rounds", "awards", "vetoes_played", "cheeses_played", "cheese_net",
        "all_passes", "reshuffles", "lead_changes", "lead", "first_leader", "crossers",
        "vetoes_by_seat", "cheeses_by_seat", "_choose_order", "chosen_pos",
    )

    # --- text view (render.py) ----------------------------------------------------------
    def render(self, seat: int | None = None) -> str:
        return render.render(self, seat)

    def round_label(self) -> str:
        return render.round_label(self)

    def __init__(self, num_players: int, seed: int, rules: Rules) -> None:
        n = num_players
        self.num_players = n
        self.rules = rules
        self.rng = random.Random(seed)
        self._legal_cache = None
        self._d6 = rules.dice == "d6"
        self._goal = rules.goal
        self._exact = bool(rules.exact)
        self._choose_order = self._exact and rules.exact_order == "choice"
        self.chosen_pos = -1  # the pending position whose project the owner just chose
        self._orders = seat_orders(n)
        self._following = following_seats(n)
        self._must_open = rules.leader_must_open
        self._acts = bid_table(rules.chips)
        self._any_time = rules.veto_any_time
        self._max_rounds = rules.max_rounds
        self.deck = shuffled(DECK, self.rng)
        self.known_bottom = 0  # cards buried under the deck (B1 "bury") are public
        self.discard: list[int] = []
        self.pool = [rules.chips] * n
        self.proj_cards: list[list[int]] = [[] for _ in range(n)]  # oldest first
        # A project won at award A with bid b holds A + b - awards chips: every later award
        # takes one off (B3), so it matures at award A + b.  Store that due award number.
        self.proj_due: list[list[int]] = [[] for _ in range(n)]
        self.vetoes = [0] * n  # matured specials in hand (public: won in open auction)
        self.cheeses = [0] * n
        self.points = [0] * n
        self.earned = [[0] * len(NUMBER_VALUES) for _ in range(n)]
        self.phase = BID
        self.leader = self.rng.randrange(n)
        self.first_leader = self.leader
        self.to_act = -1
        self.high_bid = 0
        self.high_bidder = -1
        self.passed = [False] * n
        self.active = n
        self.window: list[int] = []
        self.pending: list[tuple[int, int]] = []
        self.pending_pos = 0
        self.roll_owner = -1
        self.roll_card = 0
        self.roll_points = 0
        self.first_points = 0
        self.rerolls = 0
        self.award_winner = -1
        self.winners_: list[int] | None = None
        self.end_reason = ""
        self.rounds = 0
        self.awards = 0
        self.vetoes_played = 0
        self.cheeses_played = 0
        self.cheese_net = 0
        self.all_passes = 0
        self.reshuffles = 0
        self.lead_changes = 0
        self.lead = -1
        self.crossers = 0
        self.vetoes_by_seat = [0] * n
        self.cheeses_by_seat = [0] * n
        self.start_auction()

    # ------------------------------------------------------------------ auction
    def start_auction(self) -> None:
        """Reveal the next project (reshuffling the discards if the deck ran out) and open bids.

        The turn goes to the first seat from the leader that has a real choice: a seat that
        can neither bid (no free chip) nor Veto can only pass, now and for the rest of this
        auction (bids only rise), so it is passed automatically.  The same shortcut runs in
        `_apply` after each bid or pass; the auction closes when only the high bidder remains,
        or when everybody passed without a bid.
        """
        if self.rounds >= self._max_rounds:
            self._end_on_scores("round_cap")
            return
        if not self.deck:
            if not self.discard:  # B12: practically unreachable; end on scores
                self._end_on_scores("exhausted")
                return
            reshuffle(self.deck, self.discard, self.rng)
            self.known_bottom = 0
            self.reshuffles += 1
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
                if self._must_open:
                    self._legal_cache = None  # B2 option: see `_legal_actions`
                else:
                    self._legal_cache = self._acts[veto > 0][0][free]
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
        self.vetoes_played += 1
        self.vetoes_by_seat[seat] += 1
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
        self.all_passes += 1
        card = self._take_top()
        if mode == "bury":
            self.deck.insert(0, card)
            self.known_bottom += 1
        else:
            self.discard.append(card)
        self.start_auction()

    def _close_auction(self) -> None:
        """Award the card, after the B8 `veto_any_time` window if anyone holds a Veto."""
        if self._any_time:
            self.window = [s for s in self._orders[self.leader] if self.vetoes[s]]
            if self.window:
                self.phase = VETO_WINDOW
                self._legal_cache = _WINDOW_ACTS
                self.to_act = self.window[0]
                return
        self.award(self.high_bidder, self.high_bid)

    def _window_next(self) -> None:
        self.window.pop(0)
        if self.window:
            self._legal_cache = _WINDOW_ACTS
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
                if now in dues:  # `_mature`, inlined: oldest first
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
        """Points of one roll for number card `card` (d6 x value, or the card's own die)."""
        r = self.rng.random()
        if self._d6:
            return card * (int(r * 6) + 1)
        return int(r * card) + 1  # the 2: odd/even of any die = uniform {1, 2}

    def _resolve_pending(self) -> None:
        """Roll the maturing number projects in order; stop for a Big Cheese decision; when all
        are rolled, the win check (B9, B10, B11), the lead, then the next round.

        This runs at almost every award, so the first roll (`roll_die`'s formula, B5/B6: the
        rules tests check both the first rolls here and the re-rolls of `roll_die`), `_score`
        and the lead tracking are written out here, once.
        """
        pending = self.pending
        pos = self.pending_pos
        cheeses = self.cheeses
        points = self.points
        earned = self.earned
        rand = self.rng.random
        d6 = self._d6
        exact = self._exact
        goal = self._goal
        choose = self._choose_order
        while pos < len(pending):
            seat, card = pending[pos]
            if choose and self._offer_order(pos):
                return
            pts = card * (int(rand() * 6) + 1) if d6 else int(rand() * card) + 1  # roll_die
            if cheeses[seat]:
                self.pending_pos = pos
                self.phase = ROLL
                self._legal_cache = _ROLL_ACTS
                self.to_act = seat
                self.roll_owner = seat
                self.roll_card = card
                self.roll_points = pts
                self.first_points = pts
                self.rerolls = 0
                return
            if exact and points[seat] + pts > goal:
                pts = 0  # B11: void roll
            points[seat] += pts
            earned[seat][VALUE_INDEX[card]] += pts
            pos += 1
        self.pending_pos = pos
        best = max(points)
        if best >= goal:
            self._check_win()
            if self.phase == OVER:
                return
        # a lead change: a different seat alone on the top score (a tie keeps no leader)
        lead = points.index(best) if best > 0 and points.count(best) == 1 else -1
        self.lead, self.lead_changes = track_lead(self.lead, self.lead_changes, lead)
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
        """Exact-N (issue 14 item 6): stop for the owner to pick the next project to roll,
        unless they just picked the one at `pos` or their remaining projects are all alike."""
        if self.chosen_pos == pos:
            self.chosen_pos = -1
            return False
        options = self.next_options(pos)
        if len(options) < 2:
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

    def _gain(self, seat: int, pts: int) -> int:
        """Points a roll actually adds (B11: in exact-N a roll that overshoots is void)."""
        if self._exact and self.points[seat] + pts > self._goal:
            return 0
        return pts

    def _score(self, seat: int, card: int, pts: int) -> None:
        gain = self._gain(seat, pts)
        self.points[seat] += gain
        self.earned[seat][VALUE_INDEX[card]] += gain

    def keep(self) -> None:
        """Accept the current roll of the pending project."""
        seat = self.roll_owner
        self.cheese_net += self._gain(seat, self.roll_points) - self._gain(seat, self.first_points)
        self._score(seat, self.roll_card, self.roll_points)
        self.pending_pos += 1
        self.roll_owner = -1
        self._resolve_pending()

    def big_cheese(self) -> None:
        """Discard a Big Cheese and re-roll; the new result stands (B7)."""
        seat = self.roll_owner
        self.cheeses[seat] -= 1
        self.cheeses_played += 1
        self.cheeses_by_seat[seat] += 1
        self.discard.append(BIG_CHEESE)
        self.rerolls += 1
        self.roll_points = self.roll_die(self.roll_card)
        if not (self.rules.big_cheese_chain and self.cheeses[seat]):
            self.keep()

    def _check_win(self) -> None:
        """B10/B11: the seats at the goal after this step; the best of them win (ties share)."""
        points = self.points
        goal = self._goal
        if self._exact:
            crossers = [s for s, p in enumerate(points) if p == goal]
        else:
            crossers = [s for s, p in enumerate(points) if p >= goal]
        if crossers:
            best = max(points[s] for s in crossers)
            self.crossers = len(crossers)
            self._finish([s for s in crossers if points[s] == best], "target")

    def _end_on_scores(self, reason: str) -> None:
        best = max(self.points)
        self._finish([s for s, p in enumerate(self.points) if p == best], reason)

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

    # Legal lists and action handlers by phase (core's phase-dispatch hook: `_LEGAL`, `_DO`).
    def legal_bid(self) -> list[int]:
        """Pass, every bid above the high bid up to the free chips, Veto if held (B1, B2)."""
        seat = self.to_act
        if self._must_open and self.high_bidder < 0 and seat == self.leader:
            acts = list(range(1, self.pool[seat] + 1)) or [PASS]  # B2 option
            if self.vetoes[seat]:
                acts.append(ACT_VETO)
            return acts
        return self._acts[self.vetoes[seat] > 0][self.high_bid][self.pool[seat]]

    def legal_window(self) -> list[int]:
        return _WINDOW_ACTS

    def legal_roll(self) -> list[int]:
        return _ROLL_ACTS

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
                    self._legal_cache = self._acts[veto > 0][high][free]
                    return
                passed[seat] = True
                active -= 1
        self.active = active
        bidder = self.high_bidder
        if bidder < 0:
            self._all_passed()
        elif self._any_time:
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
        points = self.points
        out = []
        for seat, mine in enumerate(points):
            if seat in won:
                out.append(1)
            else:
                better = 1
                for other, theirs in enumerate(points):
                    if theirs > mine or other in won:
                        better += 1
                out.append(better)
        return out

    def score_breakdown(self) -> dict[str, list[float]]:
        """Points by project value ('project_20', ...): the final (kept) roll of each."""
        return dict(zip(_BREAKDOWN_KEYS, map(list, zip(*self.earned))))

    def metrics(self) -> dict[str, float]:
        reason = self.end_reason
        out: dict[str, float] = {
            "rounds": self.rounds,
            "awards": self.awards,
            "vetoes_played": self.vetoes_played,
            "big_cheeses_played": self.cheeses_played,
            "big_cheese_net_points": self.cheese_net,
            "all_pass_rounds": self.all_passes,
            "reshuffles": self.reshuffles,
            "lead_changes": self.lead_changes,
            "first_leader": self.first_leader,
            "same_round_crossers": self.crossers,
            "round_capped": float(reason == "round_cap"),
            "deck_exhausted": float(reason == "exhausted"),
        }
        keys = _SEAT_METRIC_KEYS[self.num_players]
        values = []
        for vetoes, cheeses in zip(self.vetoes_by_seat, self.cheeses_by_seat):
            values.append(vetoes)
            values.append(cheeses)
        out.update(zip(keys, values))
        return out

    # ------------------------------------------------------------------ information
    def clone(self) -> BigCheeseState:
        new = object.__new__(BigCheeseState)
        for name in _SHARED:
            setattr(new, name, getattr(self, name))
        new._legal_cache = None
        new.rng = copy_rng(self.rng)
        new.deck = list(self.deck)
        new.discard = list(self.discard)
        new.pool = list(self.pool)
        new.proj_cards = [list(x) for x in self.proj_cards]
        new.proj_due = [list(x) for x in self.proj_due]
        new.vetoes = list(self.vetoes)
        new.cheeses = list(self.cheeses)
        new.points = list(self.points)
        new.earned = [list(x) for x in self.earned]
        new.passed = list(self.passed)
        new.window = list(self.window)
        new.pending = list(self.pending)
        new.winners_ = None if self.winners_ is None else list(self.winners_)
        new.vetoes_by_seat = list(self.vetoes_by_seat)
        new.cheeses_by_seat = list(self.cheeses_by_seat)
        return new

    def hidden_slice(self) -> tuple[int, int]:
        """Deck positions hidden from everyone: below the face-up top, above buried cards."""
        size = len(self.deck)
        return min(self.known_bottom, max(size - 1, 0)), max(size - 1, 0)

    def determinize(self, seat: int, rng: random.Random) -> BigCheeseState:
        """Only the order of the face-down deck is hidden (B14); resample it."""
        world = self.clone()
        lo, hi = self.hidden_slice()
        world.deck[lo:hi] = deal_back(world.deck[lo:hi], (), rng)[0]
        world.rng = world_rng(rng)
        return world

    def observation(self, seat: int) -> dict:
        return {
            "seat": seat,
            "phase": PHASE_NAMES[self.phase],
            "top": self.deck[-1] if self.deck and self.phase != OVER else None,
            "deck_size": len(self.deck),
            "buried": self.deck[: self.known_bottom],
            "discard": list(self.discard),
            "pool": list(self.pool),
            "projects": [
                [[c, due - self.awards] for c, due in zip(cards, dues)]
                for cards, dues in zip(self.proj_cards, self.proj_due)
            ],
            "vetoes": list(self.vetoes),
            "big_cheeses": list(self.cheeses),
            "points": list(self.points),
            "leader": self.leader,
            "to_act": self.to_act,
            "high_bid": self.high_bid,
            "high_bidder": self.high_bidder,
            "passed": list(self.passed),
            "veto_window": list(self.window),
            "pending": [list(p) for p in self.pending[self.pending_pos:]],
            "roll": [self.roll_owner, self.roll_card, self.roll_points, self.rerolls],
            "goal": self._goal,
        }

    def tensor_spec(self) -> tuple:
        """Caps of `observation`'s lists for `observation_tensor` (see `engines.tensor`)."""
        cards, seats = len(DECK), 6
        return (
            ("seat", "int"), ("phase", ("enum", PHASE_NAMES)), ("top", "int"),
            ("deck_size", "int"), ("buried", (cards,)), ("discard", (cards,)),
            ("pool", (seats,)), ("projects", (seats, cards, 2)), ("vetoes", (seats,)),
            ("big_cheeses", (seats,)), ("points", (seats,)), ("leader", "int"),
            ("to_act", "int"), ("high_bid", "int"), ("high_bidder", "int"),
            ("passed", (seats,)), ("veto_window", (seats,)), ("pending", (cards, 2)),
            ("roll", (4,)), ("goal", "int"),
        )
    def action_kind(self, action: int) -> int:
        """Index into `ACTION_KINDS`: bids are 1..chips, the special actions 1000 and up."""
        if action < ACT_VETO:
            return K_BID if action else K_PASS
        if action == ACT_VETO:
            return K_VETO
        if action == ACT_KEEP:
            return K_KEEP
        if action == ACT_BIG_CHEESE:
            return K_BIG_CHEESE
        if action == ACT_NO_VETO:
            return K_PASS
        return K_ROLL_NEXT  # ACT_ROLL_NEXT + value (exact-N)

    def action_to_str(self, action: int) -> str:
        if action == PASS:
            return "pass"
        if action == ACT_VETO:
            return "veto"
        if action == ACT_KEEP:
            return "keep roll"
        if action == ACT_BIG_CHEESE:
            return "big cheese re-roll"
        if action == ACT_NO_VETO:
            return "no veto"
        if action > ACT_ROLL_NEXT:
            return f"roll the {card_name(action - ACT_ROLL_NEXT)} next"
        top = card_name(self.deck[-1]) if self.deck else "?"
        return f"bid {action} on {top}"



#: Immutable or scalar attributes that `clone` shares by reference.
_SHARED = tuple(
    name
    for name in BigCheeseState.__slots__
    if name
    not in (
        "_legal_cache", "rng", "deck", "discard", "pool", "proj_cards", "proj_due", "vetoes",
        "cheeses", "points", "earned", "passed", "window", "pending", "winners_",
        "vetoes_by_seat", "cheeses_by_seat",
    )
)


#: Per phase (index = BID, VETO_WINDOW, ROLL, OVER, ORDER): legal-list builder, handler.
_LEGAL = (BigCheeseState.legal_bid, BigCheeseState.legal_window, BigCheeseState.legal_roll,
          BigCheeseState.legal_none, BigCheeseState.legal_order)
_DO = (BigCheeseState.apply_bid, BigCheeseState.apply_window, BigCheeseState.apply_roll,
       BigCheeseState.apply_none, BigCheeseState.apply_order)
BigCheeseState.dispatch_on_phase(_LEGAL, _DO)  # core's phase-dispatch hook


def create_state(num_players: int, seed: int, rules: Rules | None = None) -> BigCheeseState:
    """Initial position: shuffled face-up deck, `rules.chips` chips each, random first leader."""
    return BigCheeseState(num_players, seed, rules or Rules())
