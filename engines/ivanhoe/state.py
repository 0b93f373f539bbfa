"""Ivanhoe rules: tournaments, turns, action cards, Ivanhoe windows, tokens.

Every sub-choice (target, card, colour, which duplicate to keep under Adapt, which token to
give back) is a decision of the player who makes it, so `current_player()` may be out of turn.
An action card's choices are all made before the Ivanhoe window opens and the effect is
applied only after it closes: the holder sees target and card (FAQ) and nothing needs undoing.

The rules run in phases (`actions.PH_*`), one legal-list builder and one handler each, called
by core's phase dispatch (`_legal_actions`, `_apply` at the end of the class).  What each
action card allows and does is in `cards.py`; what a win earns and the score in `scoring.py`.
"""

from __future__ import annotations

import random

from engines.ivanhoe import cards, render, scoring
from engines.ivanhoe._position import IvanhoePosition, Metrics
from engines.ivanhoe.actions import (
    A_COLOUR,
    A_END,
    A_IVANHOE,
    A_PASS,
    A_PLAY,
    A_SLOT,
    A_TARGET,
    A_TOKEN,
    A_WITHDRAW,
    PH_ADAPT,
    PH_CLAIM,
    PH_COLOUR,
    PH_IVANHOE,
    PH_OVER,
    PH_OWN_SLOT,
    PH_PLAY,
    PH_RETURN,
    PH_START,
    PH_TARGET,
    PH_THEIR_SLOT,
    PHASE_NAMES,
    action_kind,
    action_name,
    action_slot,
)
from engines.ivanhoe.cards import CARDS, PLAYABLE
from engines.ivanhoe.components import (
    COLOUR_OF,
    COPIES,
    FIRST_ACTION,
    GREEN,
    HAND_SIZE,
    IS_SUPPORTER,
    IVANHOE,
    MAIDEN6,
    NUM_TYPES,
    PURPLE,
    SHIELD,
    SQUIRE2,
    STUNNED,
    VALUE,
    full_deck,
)
from engines.ivanhoe.rules import Rules
from engines.kit import (
    copy_rng,
    deal_back,
    draw_from,
    next_seat,
    refill,
    seat_bonus,
    seat_orders,
    track_lead,
    world_rng,
)

# DISPLAY_OK[colour][type]: a colour card of the tournament colour or a supporter
DISPLAY_OK = tuple(
    tuple(t < FIRST_ACTION and (IS_SUPPORTER[t] or COLOUR_OF[t] == c) for t in range(NUM_TYPES))
    for c in range(5)
)


def count_tournament(stats: Metrics, tokens: list[int]) -> None:
    """A tournament won: count it, and a lead change when a new seat leads alone."""
    stats.tournaments += 1
    leader = scoring.sole_leader(tokens)
    stats.leader, stats.lead_changes = track_lead(stats.leader, stats.lead_changes, leader)


class IvanhoeState(IvanhoePosition):
    """A position (its attributes: `position.py`, generated into `IvanhoePosition`)."""

    __slots__ = ()

    def __init__(self, num_players: int = 0, seed: int = 0, rules: Rules | None = None) -> None:
        if not num_players:  # blank, for clone(): a compiled class cannot skip __init__
            return
        rules = rules or Rules()
        self.num_players = n = num_players
        self.rules = rules
        self.rng = random.Random(seed)
        self._legal_cache = None
        self.deck = full_deck()  # unordered: each draw takes a uniformly random card
        self.discard = []
        self.hands = [[] for _ in range(n)]
        for _ in range(HAND_SIZE):
            for p in range(n):
                self.draw(p)
        self.known = [[] for _ in range(n)]
        self.displays = [[] for _ in range(n)]
        self.vsum = [0] * n  # printed-value sum of each display, kept up to date
        self.shield_seat = -1
        self.stunned_seat = -1
        self.tokens = [0] * n
        self.pool = [5] * 5
        self.target = 5 if n <= 3 else 4  # tokens to win
        self.colour = -1
        self.last_final = -1  # the final colour of the last tournament (T1)
        self.active = [False] * n
        self.starter = self.turn = self.decider = -1
        self.phase = PH_START
        self.played = False  # the player on turn has played a card this turn
        self.added = 0  # cards added to their display this turn (Stunned)
        self.opening = False  # the starter's first play: a display card only
        self.pending_card = self.pending_target = -1
        self.pending_own_slot = self.pending_their_slot = self.pending_colour = -1
        self.adapt_queue = []  # (owner, printed value) still to thin
        self.failed_starts_in_a_row = 0
        self.stalled = False  # nobody could start for too long: a draw (I14)
        self.stats = Metrics()
        dealer = self.rng.randrange(n)  # whoever draws the purple token deals
        for p, extra in enumerate(seat_bonus(rules.seat_bonus, n)):  # compensation: cards
            for _ in range(extra):
                self.draw(p)
        first = next_seat(dealer, n)  # the seat lever keeps the deal, moves the first start
        if rules.first_starter != "random":
            first = 0 if rules.first_starter == "first" else n - 1
        self.begin_start(first)

    # ------------------------------------------------------------------ contract basics
    def current_player(self) -> int:
        return self.decider

    def is_terminal(self) -> bool:
        return self.phase == PH_OVER

    def scores(self) -> list[float]:
        return scoring.scores(self.tokens)

    def score_breakdown(self) -> dict[str, list[float]]:
        return scoring.score_breakdown(self.tokens)

    def metrics(self) -> dict[str, float]:
        stats = self.stats
        return {
            "tournaments": float(stats.tournaments),
            "lead_changes": float(stats.lead_changes),
            "failed_starts": float(stats.failed_starts),
            "stalled": float(self.stalled),
        }

    @property
    def tournaments(self) -> int:
        """Tournaments won so far (`stats`)."""
        return self.stats.tournaments

    def clone(self) -> IvanhoeState:
        return self.clone_with_rng(copy_rng(self.rng))

    def clone_with_rng(self, rng: random.Random) -> IvanhoeState:
        new = IvanhoeState()
        self._copy_position(new)
        new.rng = rng
        return new

    # ------------------------------------------------------------------ hidden information
    def determinize(self, seat: int, rng: random.Random) -> IvanhoeState:
        """Resample deck order and the unknown part of every opponent's hand.

        Known simplification: after the deck is rebuilt from a (public) discard pile its
        composition is not tracked, so deck cards and unknown hand cards are pooled.
        """
        world = self.clone_with_rng(self.rng)  # replaced below: no copy of ours
        counts = list(COPIES)
        seen = list(self.hands[seat]) + self.discard
        for d in self.displays:
            seen += d
        for o in range(self.num_players):
            if o != seat:
                seen += self.known[o]
        if self.shield_seat >= 0:
            seen.append(SHIELD)
        if self.stunned_seat >= 0:
            seen.append(STUNNED)
        for c in seen:
            counts[c] -= 1
        unknown = [t for t in range(NUM_TYPES) for _ in range(counts[t])]
        others = [o for o in range(self.num_players) if o != seat]
        *hidden, deck = deal_back(
            unknown, [len(self.hands[o]) - len(self.known[o]) for o in others], rng)
        for o, dealt in zip(others, hidden):
            world.hands[o] = sorted(self.known[o] + dealt)
        world.deck = deck
        world.rng = world_rng(rng)
        return world

    # --- the observation's computed keys (the rest: IvanhoePosition.observation) --------
    def _view_hand(self, seat: int) -> list[int]:
        return sorted(self.hands[seat])

    def _view_known_in_hands(self, seat: int) -> list[list[int]]:
        return [sorted(k) for k in self.known]

    def _view_phase(self, seat: int) -> str:
        return PHASE_NAMES[self.phase]

    def _view_pending(self, seat: int) -> list[int]:
        # four entries: card, target, own slot, then the new colour (Unhorse, Change Weapon)
        # or the opponent's slot (Dodge, Outwit), never both
        chosen = self.pending_colour if self.pending_colour >= 0 else self.pending_their_slot
        return [self.pending_card, self.pending_target, self.pending_own_slot, chosen]

    def _view_adapt_queue(self, seat: int) -> list[list[int]]:
        return [list(x) for x in self.adapt_queue]

    def action_kind(self, action: int) -> int:
        return action_kind(action, self.phase)

    def action_to_str(self, action: int) -> str:
        return action_name(action)

    # --- text view (render.py) ----------------------------------------------------------
    def render(self, seat: int | None = None) -> str:
        return render.render(self, seat)

    def round_label(self) -> str:
        return render.round_label(self)

    # ------------------------------------------------------------------ display totals
    def total(self, seat: int) -> int:
        """Display total: printed values, or 1 per card in a green tournament."""
        if self.colour == GREEN:
            return len(self.displays[seat])
        return self.vsum[seat]

    def is_highest(self, seat: int) -> bool:
        """Strictly above every other player still in (or level, with `allow_ties`, I1)."""
        totals = [len(d) for d in self.displays] if self.colour == GREEN else self.vsum
        mine = totals[seat]
        ties = self.rules.allow_ties
        active = self.active
        for o in range(self.num_players):
            if o != seat and active[o]:
                t = totals[o]
                if t > mine or (t == mine and not ties):
                    return False
        return True

    def exposed(self, seat: int, o: int) -> bool:
        """Can `seat`'s display-affecting cards touch opponent `o` (in, and not shielded)?"""
        return o != seat and self.active[o] and self.shield_seat != o

    def can_add(self, seat: int) -> bool:
        """Stunned: at most one new display card per turn, by any means."""
        return self.stunned_seat != seat or self.added == 0

    def recount(self) -> None:
        """Display sums from scratch (after an action card; `vsum` is kept up to date)."""
        self.vsum = [sum([VALUE[c] for c in d]) for d in self.displays]

    def take_from_hand(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        known = self.known[seat]
        if card in known:
            known.remove(card)

    def draw(self, seat: int) -> None:
        """Draw one card; an empty draw pile is rebuilt from the discards (W6, I13).

        The pile is kept unordered and a draw takes a uniformly random card of it, which is
        the same as shuffling it and drawing from the top (and cheaper).
        """
        deck = self.deck
        if not deck and not refill(deck, self.discard):
            return
        self.hands[seat].append(draw_from(deck, self.rng))

    # ------------------------------------------------------------------ starting (T1, T2)
    def start_colours(self, seat: int) -> list[int]:
        """Colours `seat` could start now: allowed (T1) and backed by a card to open with."""
        hand = self.hands[seat]
        allowed = [c for c in range(5) if c != PURPLE or self.last_final != PURPLE]
        if any(IS_SUPPORTER[t] for t in hand):
            return allowed
        have = {COLOUR_OF[t] for t in hand if t < SQUIRE2}
        return [c for c in allowed if c in have]

    def begin_start(self, seat: int) -> None:
        """The would-be starter draws, then names a colour or shows the hand and passes (T2)."""
        n = self.num_players
        self.colour = -1
        while True:
            self.draw(seat)
            if self.start_colours(seat):
                self.starter = self.turn = self.decider = seat
                self.phase = PH_START
                return
            self.known[seat] = sorted(self.hands[seat])
            self.stats.failed_starts += 1
            self.failed_starts_in_a_row += 1
            if self.failed_starts_in_a_row >= self.rules.max_failed_starts * n:
                self.stalled = True
                self.phase = PH_OVER
                self.decider = -1
                return
            seat = next_seat(seat, n)

    def legal_start(self) -> list[int]:
        return [A_COLOUR + c for c in self.start_colours(self.decider)]

    def announce_colour(self, action: int) -> None:
        self.colour = action - A_COLOUR
        self.active = [True] * self.num_players
        self.failed_starts_in_a_row = 0
        self.played = False
        self.added = 0
        self.opening = True
        self.phase = PH_PLAY

    # ------------------------------------------------------------------ a turn
    def legal_turn(self) -> list[int]:
        """Cards that fit the display, action cards that would change something, then end
        the turn (only when highest, after playing) or withdraw.  The opening play of a
        tournament is a display card and nothing else."""
        seat = self.turn
        out = []
        fits = DISPLAY_OK[self.colour]
        can_add = self.can_add(seat)
        maiden_in = MAIDEN6 in self.displays[seat]
        opening = self.opening
        for t in set(self.hands[seat]):
            if t < FIRST_ACTION:
                if can_add and fits[t] and (t != MAIDEN6 or not maiden_in):
                    out.append(A_PLAY + t)
            elif not opening and PLAYABLE[t](self, seat):  # type: ignore[misc]
                out.append(A_PLAY + t)
        out.sort()
        if not opening:
            if self.played and self.is_highest(seat):
                out.append(A_END)
            out.append(A_WITHDRAW)
        return out

    def take_turn(self, action: int) -> None:
        seat = self.turn
        if action == A_END:
            self.next_turn()
        elif action == A_WITHDRAW:
            if not self.withdraw(seat):
                self.after_withdrawal()
        else:
            card = action - A_PLAY
            self.take_from_hand(seat, card)
            self.played = True
            if card < FIRST_ACTION:
                self.displays[seat].append(card)
                self.vsum[seat] += VALUE[card]
                self.added += 1
                self.opening = False
            else:
                self.play_action_card(card)

    def next_turn(self) -> None:
        """Clockwise to the next player still in; they draw first."""
        n = self.num_players
        p = next_seat(self.turn, n)
        while not self.active[p]:
            p = next_seat(p, n)
        self.turn = self.decider = p
        self.played = False
        self.added = 0
        self.opening = False
        self.phase = PH_PLAY
        self.draw(p)

    # ------------------------------------------------------------------ withdrawing
    def withdraw(self, seat: int) -> bool:
        """Discard face-up cards; a Maiden costs a token.  True if a token choice is pending."""
        d = self.displays[seat]
        maiden = MAIDEN6 in d
        self.discard += d
        self.displays[seat] = []
        self.vsum[seat] = 0
        self.clear_beside(seat)
        self.active[seat] = False
        owned = self.tokens[seat]
        if maiden and owned:
            held = scoring.colours_held(owned)
            if len(held) == 1:
                self.return_token(seat, held[0])
            else:
                self.phase = PH_RETURN
                self.decider = seat
                return True
        return False

    def legal_tokens_to_give_back(self) -> list[int]:
        return [A_TOKEN + c for c in scoring.colours_held(self.tokens[self.decider])]

    def give_back_token(self, action: int) -> None:
        self.return_token(self.decider, action - A_TOKEN)
        self.after_withdrawal()

    def after_withdrawal(self) -> None:
        remaining = [p for p in range(self.num_players) if self.active[p]]
        if len(remaining) == 1:
            self.win_tournament(remaining[0])
        else:
            self.next_turn()

    def clear_beside(self, seat: int) -> None:
        """Shield and Stunned beside a display are discarded with it (withdrawal, I15)."""
        if self.shield_seat == seat:
            self.shield_seat = -1
            self.discard.append(SHIELD)
        if self.stunned_seat == seat:
            self.stunned_seat = -1
            self.discard.append(STUNNED)

    # ------------------------------------------------------------------ tokens (W3, W4)
    def return_token(self, seat: int, colour: int) -> None:
        self.tokens[seat] &= ~(1 << colour)
        self.pool[colour] += 1

    def gain_token(self, seat: int, colour: int) -> None:
        self.tokens[seat] |= 1 << colour
        self.pool[colour] -= 1

    def win_tournament(self, winner: int) -> None:
        """The last player in takes a token (`scoring.tokens_won`), choosing if offered more."""
        offered = scoring.tokens_won(self.tokens[winner], self.colour)
        if len(offered) > 1:
            self.phase = PH_CLAIM
            self.decider = winner
            return
        if offered:
            self.gain_token(winner, offered[0])
        self.end_tournament(winner)

    def legal_tokens_to_claim(self) -> list[int]:
        return [A_TOKEN + c for c in scoring.tokens_won(self.tokens[self.decider], self.colour)]

    def claim_token(self, action: int) -> None:
        self.gain_token(self.decider, action - A_TOKEN)
        self.end_tournament(self.decider)

    def end_tournament(self, winner: int) -> None:
        count_tournament(self.stats, self.tokens)
        if scoring.has_won(self.tokens[winner], self.target):
            self.phase = PH_OVER
            self.decider = -1
            return
        for p in range(self.num_players):
            self.discard += self.displays[p]
            self.displays[p] = []
            self.vsum[p] = 0
            self.clear_beside(p)
        self.last_final = self.colour
        self.active = [False] * self.num_players
        self.begin_start(winner)

    # ------------------------------------------------------------------ action cards
    def play_action_card(self, card: int) -> None:
        """The card goes to the discard pile at once; its choices follow, then the window."""
        self.discard.append(card)
        self.pending_card = card
        self.pending_target = self.pending_own_slot = -1
        self.pending_their_slot = self.pending_colour = -1
        first = CARDS[card].first_choice  # type: ignore[union-attr]
        if first >= 0:
            self.phase = first
        else:
            self.open_ivanhoe_window()

    def legal_card_choice(self) -> list[int]:
        """The options of the pending card's current choice (`cards.ActionCard.choices`)."""
        return CARDS[self.pending_card].choices[self.phase](self, self.decider)  # type: ignore[union-attr]

    def choose_colour(self, action: int) -> None:
        self.pending_colour = action - A_COLOUR
        self.next_choice()

    def choose_target(self, action: int) -> None:
        self.pending_target = action - A_TARGET
        self.next_choice()

    def choose_own_card(self, action: int) -> None:
        self.pending_own_slot = action_slot(action)
        self.next_choice()

    def choose_their_card(self, action: int) -> None:
        self.pending_their_slot = action_slot(action)
        self.next_choice()

    def next_choice(self) -> None:
        after = CARDS[self.pending_card].after[self.phase]  # type: ignore[union-attr]
        if after >= 0:
            self.phase = after
        else:
            self.open_ivanhoe_window()

    def open_ivanhoe_window(self) -> None:
        """Offer Ivanhoe to the other players still in, clockwise (I12).

        The engine asks only a holder, so being asked shows the card: it becomes known.
        """
        for o in seat_orders(self.num_players)[self.turn][1:]:
            if self.active[o] and IVANHOE in self.hands[o]:
                if IVANHOE not in self.known[o]:
                    self.known[o].append(IVANHOE)
                self.phase = PH_IVANHOE
                self.decider = o
                return
        self.resolve_action_card()

    def legal_ivanhoe(self) -> list[int]:
        return [A_IVANHOE, A_PASS]

    def ivanhoe_window(self, action: int) -> None:
        """Play Ivanhoe (the pending card is cancelled; both stay discarded) or let it stand."""
        if action == A_IVANHOE:
            cards.ivanhoe(self, self.decider)
            self.back_to_play()
        else:
            self.resolve_action_card()

    def resolve_action_card(self) -> None:
        """Apply the pending action card (nobody cancelled it)."""
        CARDS[self.pending_card].resolve(self, self.turn)  # type: ignore[union-attr]
        self.recount()
        self.next_adapt()

    def next_adapt(self) -> None:
        """Adapt leaves a queue of (owner, value) choices; any other card ends here."""
        if self.adapt_queue:
            self.phase = PH_ADAPT
            self.decider = self.adapt_queue[0][0]
        else:
            self.back_to_play()

    def legal_adapt_keep(self) -> list[int]:
        v = self.adapt_queue[0][1]
        return [A_SLOT + i for i, c in enumerate(self.displays[self.decider]) if VALUE[c] == v]

    def adapt_keep(self, action: int) -> None:
        """The owner keeps the card at this slot; the others of that printed value go."""
        index = action - A_SLOT
        owner, v = self.adapt_queue.pop(0)
        d = self.displays[owner]
        kept = []
        for i, c in enumerate(d):
            if VALUE[c] != v or i == index:
                kept.append(c)
            else:
                self.discard.append(c)
        self.displays[owner] = kept
        self.vsum[owner] = sum([VALUE[c] for c in kept])
        self.next_adapt()

    def back_to_play(self) -> None:
        self.phase = PH_PLAY
        self.decider = self.turn
        self.pending_card = self.pending_target = -1
        self.pending_own_slot = self.pending_their_slot = self.pending_colour = -1

    # ------------------------------------------------------------------ game over
    def legal_none(self) -> list[int]:
        return []

    def no_action(self, action: int) -> None:
        raise AssertionError("no action after the game is over")

    # --- core's phase-dispatch hook: an if-chain, commonest phase first (compiled, each
    # branch is a direct call; a table of methods was a module look-up and a Python call)
    def _legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == PH_PLAY:
            return self.legal_turn()
        if phase == PH_IVANHOE:
            return self.legal_ivanhoe()
        if PH_COLOUR <= phase <= PH_THEIR_SLOT:
            return self.legal_card_choice()
        if phase == PH_START:
            return self.legal_start()
        if phase == PH_ADAPT:
            return self.legal_adapt_keep()
        if phase == PH_RETURN:
            return self.legal_tokens_to_give_back()
        if phase == PH_CLAIM:
            return self.legal_tokens_to_claim()
        return self.legal_none()

    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == PH_PLAY:
            self.take_turn(action)
        elif phase == PH_IVANHOE:
            self.ivanhoe_window(action)
        elif phase == PH_COLOUR:
            self.choose_colour(action)
        elif phase == PH_TARGET:
            self.choose_target(action)
        elif phase == PH_OWN_SLOT:
            self.choose_own_card(action)
        elif phase == PH_THEIR_SLOT:
            self.choose_their_card(action)
        elif phase == PH_START:
            self.announce_colour(action)
        elif phase == PH_ADAPT:
            self.adapt_keep(action)
        elif phase == PH_RETURN:
            self.give_back_token(action)
        elif phase == PH_CLAIM:
            self.claim_token(action)
        else:
            self.no_action(action)
