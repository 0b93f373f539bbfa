"""Ivanhoe rules: tournaments, turns, action cards, Ivanhoe windows, tokens.

Every sub-choice (target, card, colour, which duplicate to keep under Adapt, which token to
give back) is a decision of the player who makes it, so `current_player()` may be out of turn.
An action card's choices are all made before the Ivanhoe window opens and the effect is
applied only after it closes: the holder sees target and card (FAQ) and nothing needs undoing.
"""

from __future__ import annotations

import random

from engines.core import State
from engines.ivanhoe import effects, render
from engines.ivanhoe.actions import (
    A_COLOUR,
    A_END,
    A_IVANHOE,
    A_PASS,
    A_PLAY,
    A_SHIELD_SLOT,
    A_SLOT,
    A_STUNNED_SLOT,
    A_TARGET,
    A_TOKEN,
    A_WITHDRAW,
    K_CLAIM_TOKEN,
    K_END,
    K_IVANHOE,
    K_LET_STAND,
    K_NEW_COLOUR,
    K_RETURN_TOKEN,
    K_SLOT,
    K_TARGET,
    K_TOURNAMENT_COLOUR,
    K_WITHDRAW,
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
    SHIELD_SLOT,
    STUNNED_SLOT,
    action_slot,
    slot_action,
)
from engines.ivanhoe.components import (
    ACTION,
    ADAPT,
    BLUE,
    BREAK_LANCE,
    CHANGE_WEAPON,
    CHARGE,
    COLOUR_NAMES,
    COLOUR_OF,
    COPIES,
    DECK_SIZE,
    DISGRACE,
    DODGE,
    DROP_WEAPON,
    FIRST_ACTION,
    GREEN,
    IS_SUPPORTER,
    IVANHOE,
    KIND,
    KNOCK_DOWN,
    MAIDEN6,
    NAMES,
    NUM_TYPES,
    OUTMANEUVER,
    OUTWIT,
    PURPLE,
    RED,
    RETREAT,
    RIPOSTE,
    SHIELD,
    SQUIRE,
    SQUIRE2,
    STUNNED,
    UNHORSE,
    VALUE,
    YELLOW,
    full_deck,
)
from engines.ivanhoe.rules import Rules
from engines.kit import (
    copy_rng,
    deal_back,
    draw_from,
    next_seat,
    refill,
    seat_orders,
    track_lead,
    world_rng,
)

HAND_SIZE = 8

#: `ACTION_KINDS` index of playing each card type: coloured cards by colour, then squire,
#: maiden, and each action card by name (Ivanhoe itself is only played in its window).
PLAY_KIND = tuple(
    K_IVANHOE if t == IVANHOE
    else 8 + t - UNHORSE if KIND[t] == ACTION
    else 6 if KIND[t] == SQUIRE
    else 7 if t == MAIDEN6
    else 1 + COLOUR_OF[t]
    for t in range(NUM_TYPES)
)
WEAPONS = (RED, BLUE, YELLOW)
TARGETED = (BREAK_LANCE, RIPOSTE, DODGE, KNOCK_DOWN, OUTWIT, STUNNED)
# DISPLAY_OK[colour][type]: a colour card of the tournament colour or a supporter
DISPLAY_OK = tuple(
    tuple(t < FIRST_ACTION and (IS_SUPPORTER[t] or COLOUR_OF[t] == c) for t in range(NUM_TYPES))
    for c in range(5)
)


class IvanhoeState(State):
    """A position.  Cards are type codes (`components`); tokens are a colour bitmask per seat.

    `known[p]` is the part of p's hand everyone has seen (a starter who revealed an all-action
    hand, a card taken back by Retreat, the Ivanhoe a reaction window showed); `determinize`
    keeps it.
    """

    __slots__ = (
        "num_players", "rules", "rng", "_legal_cache", "deck", "discard", "hands", "known",
        "displays", "vsum", "shield_seat", "stunned_seat", "tokens", "pool", "target", "colour",
        "last_final", "active", "starter", "turn", "decider", "phase", "played", "added",
        "opening", "p_card", "p_target", "p_slot", "p_arg", "adapt_queue", "failed_starts",
        "stalled", "tournaments", "lead_changes", "leader", "reveals",
    )

    # --- text view (render.py) ----------------------------------------------------------
    def render(self, seat: int | None = None) -> str:
        return render.render(self, seat)

    def round_label(self) -> str:
        return render.round_label(self)

    def __init__(self, num_players: int, seed: int, rules: Rules) -> None:
        self.num_players = n = num_players
        self.rules = rules
        self.rng = random.Random(seed)
        self._legal_cache = None
        self.deck = full_deck()  # unordered: each draw takes a uniformly random card
        self.discard: list[int] = []
        self.hands = [[] for _ in range(n)]
        for _ in range(HAND_SIZE):
            for p in range(n):
                self.draw(p)
        self.known: list[list[int]] = [[] for _ in range(n)]
        self.displays: list[list[int]] = [[] for _ in range(n)]
        self.vsum = [0] * n  # printed-value sum of each display, kept up to date
        self.shield_seat = -1
        self.stunned_seat = -1
        self.tokens = [0] * n
        self.pool = [5] * 5
        self.target = 5 if n <= 3 else 4
        self.colour = -1
        self.last_final = -1
        self.active = [False] * n
        self.starter = self.turn = self.decider = -1
        self.phase = PH_START
        self.played = False
        self.added = 0
        self.opening = False
        self.p_card = self.p_target = self.p_slot = self.p_arg = -1
        self.adapt_queue: list[tuple[int, int]] = []
        self.failed_starts = 0
        self.stalled = False
        self.tournaments = 0
        self.lead_changes = 0
        self.leader = -1
        self.reveals = 0
        dealer = self.rng.randrange(n)  # whoever draws the purple token deals
        self.begin_start(next_seat(dealer, n))

    # ------------------------------------------------------------------ contract basics
    def current_player(self) -> int:
        return self.decider

    def is_terminal(self) -> bool:
        return self.phase == PH_OVER

    def scores(self) -> list[float]:
        return [float(t.bit_count()) for t in self.tokens]

    def score_breakdown(self) -> dict[str, list[float]]:
        return {
            f"{name} token": [float((t >> c) & 1) for t in self.tokens]
            for c, name in enumerate(COLOUR_NAMES)
        }

    def metrics(self) -> dict[str, float]:
        return {
            "tournaments": float(self.tournaments),
            "lead_changes": float(self.lead_changes),
            "failed_starts": float(self.reveals),
            "stalled": float(self.stalled),
        }

    def clone(self) -> IvanhoeState:
        new = IvanhoeState.__new__(IvanhoeState)
        new.num_players = self.num_players
        new.rules = self.rules
        new.rng = copy_rng(self.rng)
        new._legal_cache = None
        new.deck = list(self.deck)
        new.discard = list(self.discard)
        new.hands = [list(h) for h in self.hands]
        new.known = [list(k) for k in self.known]
        new.displays = [list(d) for d in self.displays]
        new.vsum = list(self.vsum)
        new.shield_seat = self.shield_seat
        new.stunned_seat = self.stunned_seat
        new.tokens = list(self.tokens)
        new.pool = list(self.pool)
        new.target = self.target
        new.colour = self.colour
        new.last_final = self.last_final
        new.active = list(self.active)
        new.starter = self.starter
        new.turn = self.turn
        new.decider = self.decider
        new.phase = self.phase
        new.played = self.played
        new.added = self.added
        new.opening = self.opening
        new.p_card = self.p_card
        new.p_target = self.p_target
        new.p_slot = self.p_slot
        new.p_arg = self.p_arg
        new.adapt_queue = list(self.adapt_queue)
        new.failed_starts = self.failed_starts
        new.stalled = self.stalled
        new.tournaments = self.tournaments
        new.lead_changes = self.lead_changes
        new.leader = self.leader
        new.reveals = self.reveals
        return new

    # ------------------------------------------------------------------ hidden information
    def determinize(self, seat: int, rng: random.Random) -> IvanhoeState:
        """Resample deck order and the unknown part of every opponent's hand.

        Known simplification: after the deck is rebuilt from a (public) discard pile its
        composition is not tracked, so deck cards and unknown hand cards are pooled.
        """
        world = self.clone()
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
        for o, cards in zip(others, hidden):
            world.hands[o] = sorted(self.known[o] + cards)
        world.deck = deck
        world.rng = world_rng(rng)
        return world

    def observation(self, seat: int) -> dict:
        return {
            "seat": seat,
            "hand": sorted(self.hands[seat]),
            "hand_sizes": [len(h) for h in self.hands],
            "known_in_hands": [sorted(k) for k in self.known],
            "displays": [list(d) for d in self.displays],
            "shield_seat": self.shield_seat,
            "stunned_seat": self.stunned_seat,
            "discard": list(self.discard),
            "deck_size": len(self.deck),
            "tokens": list(self.tokens),
            "colour": self.colour,
            "last_final_colour": self.last_final,
            "active": list(self.active),
            "starter": self.starter,
            "turn": self.turn,
            "to_move": self.decider,
            "phase": PHASE_NAMES[self.phase],
            "played": self.played,
            "added": self.added,
            "opening": self.opening,
            "pending": [self.p_card, self.p_target, self.p_slot, self.p_arg],
            "adapt_queue": [list(x) for x in self.adapt_queue],
            "failed_starts": self.failed_starts,
        }

    def tensor_spec(self) -> tuple:
        """Caps of `observation`'s lists for `observation_tensor` (see `engines.tensor`)."""
        cards, seats = DECK_SIZE, 5
        return (
            ("seat", "int"), ("hand", (cards,)), ("hand_sizes", (seats,)),
            ("known_in_hands", (seats, cards)), ("displays", (seats, cards)),
            ("shield_seat", "int"), ("stunned_seat", "int"), ("discard", (cards,)),
            ("deck_size", "int"), ("tokens", (seats,)), ("colour", "int"),
            ("last_final_colour", "int"), ("active", (seats,)), ("starter", "int"),
            ("turn", "int"), ("to_move", "int"), ("phase", ("enum", PHASE_NAMES)),
            ("played", "int"), ("added", "int"), ("opening", "int"), ("pending", (4,)),
            ("adapt_queue", (cards, 2)), ("failed_starts", "int"),
        )
    def action_kind(self, action: int) -> int:
        """Index into `ACTION_KINDS`; colours and tokens are told apart by the phase."""
        if action < A_PLAY:
            return K_TOURNAMENT_COLOUR if self.phase == PH_START else K_NEW_COLOUR
        if action < A_END:
            return PLAY_KIND[action - A_PLAY]
        if action == A_END:
            return K_END
        if action == A_WITHDRAW:
            return K_WITHDRAW
        if action < A_IVANHOE:
            return K_TARGET
        if action == A_IVANHOE:
            return K_IVANHOE
        if action == A_PASS:
            return K_LET_STAND
        if action < A_SHIELD_SLOT:
            return K_RETURN_TOKEN if self.phase == PH_RETURN else K_CLAIM_TOKEN
        return K_SLOT

    def action_to_str(self, action: int) -> str:
        if action < A_PLAY:
            return f"colour {COLOUR_NAMES[action - A_COLOUR]}"
        if action < A_END:
            return f"play {NAMES[action - A_PLAY]}"
        if action == A_END:
            return "end turn"
        if action == A_WITHDRAW:
            return "withdraw"
        if action < A_IVANHOE:
            return f"target seat {action - A_TARGET + 1}"  # seats are numbered from 1 for people
        if action == A_IVANHOE:
            return "play Ivanhoe"
        if action == A_PASS:
            return "no Ivanhoe"
        if action < A_SHIELD_SLOT:
            return f"token {COLOUR_NAMES[action - A_TOKEN]}"
        if action == A_SHIELD_SLOT:
            return "the Shield"
        if action == A_STUNNED_SLOT:
            return "the Stunned card"
        return f"display card #{action - A_SLOT}"

    # ------------------------------------------------------------------ public helpers
    def total(self, seat: int) -> int:
        """Display total: printed values, or 1 per card in a green tournament."""
        if self.colour == GREEN:
            return len(self.displays[seat])
        return self.vsum[seat]

    def is_highest(self, seat: int) -> bool:
        """Strictly above every other player still in (or level, with `allow_ties`)."""
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

    def start_colours(self, seat: int) -> list[int]:
        """Colours `seat` could start now: allowed and backed by a card to open with."""
        hand = self.hands[seat]
        allowed = [c for c in range(5) if c != PURPLE or self.last_final != PURPLE]
        if any(IS_SUPPORTER[t] for t in hand):
            return allowed
        have = {COLOUR_OF[t] for t in hand if t < SQUIRE2}
        return [c for c in allowed if c in have]

    def can_add(self, seat: int) -> bool:
        """Stunned: at most one new display card per turn, by any means."""
        return self.stunned_seat != seat or self.added == 0

    def mass_effect(self, seat: int, card: int) -> dict[int, tuple[list[int], list[int]]]:
        """{owner: (kept, removed)} for Charge, Countercharge, Disgrace or Outmaneuver."""
        displays = self.displays
        if card == OUTMANEUVER:
            return {o: (d[:-1], d[-1:]) for o in range(self.num_players)
                    if self.exposed(seat, o) and len(d := displays[o]) > 1}
        affected = [seat] + [o for o in range(self.num_players) if self.exposed(seat, o)]
        if card == DISGRACE:
            return effects.strip_many(displays, affected, IS_SUPPORTER)
        scope = range(self.num_players) if self.rules.charge_counts_shielded else affected
        values = [VALUE[c] for o in scope for c in displays[o]]
        if not values:
            return {}
        v = min(values) if card == CHARGE else max(values)
        doomed = [VALUE[t] == v for t in range(NUM_TYPES)]
        return effects.strip_many(displays, affected, doomed)

    def adapt_owners(self, seat: int) -> list[int]:
        """Displays Adapt would touch (own first, then clockwise), those with a duplicate."""
        n = self.num_players
        return [o for o in seat_orders(n)[seat] if (o == seat or self.exposed(seat, o))
                and effects.duplicate_values(self.displays[o])]

    def outwit_options(self, seat: int) -> list[tuple[int, int, int]]:
        """Every legal Outwit swap as (opponent, own slot, their slot)."""
        out = []
        mine = self._face_up(seat)
        if not mine:
            return out
        ignore = self.rules.outwit_ignores_shield
        for o in range(self.num_players):
            if o == seat or not self.active[o] or (self.shield_seat == o and not ignore):
                continue
            for ts in self._face_up(o):
                for ms in mine:
                    if self._swap_ok(seat, ms, o, ts):
                        out.append((o, ms, ts))
        return out

    def targets(self, seat: int, card: int) -> list[int]:
        """Opponents a targeted action card can be played against right now."""
        n = self.num_players
        displays = self.displays
        if card == KNOCK_DOWN:
            guard = self.rules.shield_blocks_knock_down
            return [o for o in range(n) if o != seat and self.hands[o]
                    and not (guard and self.shield_seat == o)]
        if card == STUNNED:
            return [o for o in range(n) if o != seat and self.active[o]]
        if card == OUTWIT:
            return sorted({o for o, _, _ in self.outwit_options(seat)})
        out = []
        for o in range(n):
            if not self.exposed(seat, o) or len(displays[o]) < 2:
                continue
            d = displays[o]
            if card == BREAK_LANCE:
                if not any(COLOUR_OF[c] == PURPLE for c in d):
                    continue
            elif card == RIPOSTE:
                if d[-1] == MAIDEN6 and MAIDEN6 in displays[seat]:
                    continue
            out.append(o)
        return out

    def _has_target(self, seat: int, card: int) -> bool:
        """`bool(self.targets(seat, card))` without building the list (hot path)."""
        hands = self.hands
        active = self.active
        shield = self.shield_seat
        if card == KNOCK_DOWN:
            guard = self.rules.shield_blocks_knock_down
            return any(o != seat and hands[o] and not (guard and shield == o)
                       for o in range(self.num_players))
        if card == STUNNED:
            return any(o != seat and active[o] for o in range(self.num_players))
        displays = self.displays
        for o in range(self.num_players):
            if o == seat or not active[o] or shield == o:
                continue
            d = displays[o]
            if len(d) < 2:
                continue
            if card == DODGE:
                return True
            if card == BREAK_LANCE:
                for c in d:
                    if COLOUR_OF[c] == PURPLE:
                        return True
            elif d[-1] != MAIDEN6 or MAIDEN6 not in displays[seat]:  # Riposte
                return True
        return False

    def action_playable(self, seat: int, card: int) -> bool:
        """An action card is legal only if it would change something (rules I11)."""
        if card == UNHORSE:
            return self.colour == PURPLE
        if card == CHANGE_WEAPON or card == DROP_WEAPON:
            return self.colour in WEAPONS
        if card == SHIELD:
            return True
        if card == RETREAT:
            return len(self.displays[seat]) > 1
        if card == RIPOSTE and not self.can_add(seat):
            return False
        if card in TARGETED:
            if card == OUTWIT:
                return bool(self.outwit_options(seat))
            return self._has_target(seat, card)
        if card == ADAPT:
            return bool(self.adapt_owners(seat))
        if card == IVANHOE:
            return False
        return bool(self.mass_effect(seat, card))

    # ------------------------------------------------------------------ legal actions
    def _legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == PH_PLAY:
            return self._legal_play()
        if phase == PH_OVER:
            return []
        seat = self.decider
        if phase == PH_START:
            return [A_COLOUR + c for c in self.start_colours(seat)]
        if phase == PH_IVANHOE:
            return [A_IVANHOE, A_PASS]
        if phase == PH_TARGET:
            return [A_TARGET + o for o in self.targets(seat, self.p_card)]
        if phase == PH_COLOUR:
            if self.p_card == UNHORSE:
                return [A_COLOUR + c for c in WEAPONS]
            return [A_COLOUR + c for c in WEAPONS if c != self.colour]
        if phase == PH_OWN_SLOT:
            if self.p_card == RETREAT:
                return [A_SLOT + i for i in range(len(self.displays[seat]))]
            slots = {ms for o, ms, _ in self.outwit_options(seat) if o == self.p_target}
            return sorted(slot_action(s) for s in slots)
        if phase == PH_THEIR_SLOT:
            if self.p_card == DODGE:
                return [A_SLOT + i for i in range(len(self.displays[self.p_target]))]
            return sorted(slot_action(ts) for o, ms, ts in self.outwit_options(seat)
                          if o == self.p_target and ms == self.p_slot)
        if phase == PH_ADAPT:
            d = self.displays[seat]
            v = self.adapt_queue[0][1]
            return [A_SLOT + i for i, c in enumerate(d) if VALUE[c] == v]
        # PH_RETURN, PH_CLAIM
        owned = self.tokens[seat]
        want = 1 if phase == PH_RETURN else 0
        return [A_TOKEN + c for c in range(5) if (owned >> c) & 1 == want]

    def _legal_play(self) -> list[int]:
        seat = self.turn
        out = []
        fits = DISPLAY_OK[self.colour]
        can_add = self.stunned_seat != seat or self.added == 0
        maiden_in = MAIDEN6 in self.displays[seat]
        opening = self.opening
        for t in set(self.hands[seat]):
            if t < FIRST_ACTION:
                if can_add and fits[t] and (t != MAIDEN6 or not maiden_in):
                    out.append(A_PLAY + t)
            elif not opening and t != IVANHOE and self.action_playable(seat, t):
                out.append(A_PLAY + t)
        out.sort()
        if not opening:
            if self.played and self.is_highest(seat):
                out.append(A_END)
            out.append(A_WITHDRAW)
        return out

    # ------------------------------------------------------------------ applying
    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == PH_PLAY:
            self._apply_play(action)
        elif phase == PH_START:
            self.announce_colour(action - A_COLOUR)
        elif phase == PH_IVANHOE:
            if action == A_IVANHOE:
                self.play_ivanhoe(self.decider)
            else:
                self.resolve()
        elif phase == PH_TARGET:
            self.p_target = action - A_TARGET
            if self.p_card == DODGE:
                self.phase = PH_THEIR_SLOT
            elif self.p_card == OUTWIT:
                self.phase = PH_OWN_SLOT
            else:
                self.open_ivanhoe_window()
        elif phase == PH_COLOUR:
            self.p_arg = action - A_COLOUR
            self.open_ivanhoe_window()
        elif phase == PH_OWN_SLOT:
            self.p_slot = action_slot(action)
            if self.p_card == OUTWIT:
                self.phase = PH_THEIR_SLOT
            else:
                self.open_ivanhoe_window()
        elif phase == PH_THEIR_SLOT:
            self.p_arg = action_slot(action)
            self.open_ivanhoe_window()
        elif phase == PH_ADAPT:
            self.adapt_keep(action - A_SLOT)
        elif phase == PH_RETURN:
            self.return_token(self.decider, action - A_TOKEN)
            self.after_withdrawal()
        else:  # PH_CLAIM
            self.gain_token(self.decider, action - A_TOKEN)
            self.end_tournament(self.decider)

    def _apply_play(self, action: int) -> None:
        seat = self.turn
        if action == A_END:
            self.next_turn()
        elif action == A_WITHDRAW:
            if not self.withdraw(seat):
                self.after_withdrawal()
        else:
            card = action - A_PLAY
            self._from_hand(seat, card)
            self.played = True
            if card < FIRST_ACTION:
                self.displays[seat].append(card)
                self.vsum[seat] += VALUE[card]
                self.added += 1
                self.opening = False
            else:
                self.play_action(seat, card)

    def _from_hand(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        known = self.known[seat]
        if card in known:
            known.remove(card)

    # ------------------------------------------------------------------ tournament flow
    def draw(self, seat: int) -> None:
        """Draw one card; an empty draw pile is rebuilt from the discards (W6, I13).

        The pile is kept unordered and a draw takes a uniformly random card of it, which is
        the same as shuffling it and drawing from the top (and cheaper).
        """
        deck = self.deck
        if not deck and not refill(deck, self.discard):
            return
        self.hands[seat].append(draw_from(deck, self.rng))

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
            self.reveals += 1
            self.failed_starts += 1
            if self.failed_starts >= self.rules.max_failed_starts * n:
                self.stalled = True
                self.phase = PH_OVER
                self.decider = -1
                return
            seat = next_seat(seat, n)

    def announce_colour(self, colour: int) -> None:
        self.colour = colour
        self.active = [True] * self.num_players
        self.failed_starts = 0
        self.played = False
        self.added = 0
        self.opening = True
        self.phase = PH_PLAY

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

    def withdraw(self, seat: int) -> bool:
        """Discard face-up cards; a Maiden costs a token.  True if a token choice is pending."""
        d = self.displays[seat]
        maiden = MAIDEN6 in d
        self.discard += d
        self.displays[seat] = []
        self.vsum[seat] = 0
        self._clear_beside(seat)
        self.active[seat] = False
        owned = self.tokens[seat]
        if maiden and owned:
            if owned.bit_count() == 1:
                self.return_token(seat, owned.bit_length() - 1)
            else:
                self.phase = PH_RETURN
                self.decider = seat
                return True
        return False

    def after_withdrawal(self) -> None:
        remaining = [p for p in range(self.num_players) if self.active[p]]
        if len(remaining) == 1:
            self.win_tournament(remaining[0])
        else:
            self.next_turn()

    def return_token(self, seat: int, colour: int) -> None:
        self.tokens[seat] &= ~(1 << colour)
        self.pool[colour] += 1

    def gain_token(self, seat: int, colour: int) -> None:
        self.tokens[seat] |= 1 << colour
        self.pool[colour] -= 1

    def win_tournament(self, winner: int) -> None:
        """Token of the final colour (any lacking colour after purple), one per colour (W3, W4)."""
        owned = self.tokens[winner]
        if self.colour == PURPLE:
            lacking = [c for c in range(5) if not (owned >> c) & 1]
            if len(lacking) > 1:
                self.phase = PH_CLAIM
                self.decider = winner
                return
            if lacking:
                self.gain_token(winner, lacking[0])
        elif not (owned >> self.colour) & 1:
            self.gain_token(winner, self.colour)
        self.end_tournament(winner)

    def end_tournament(self, winner: int) -> None:
        self.tournaments += 1
        self._track_leader()
        if self.tokens[winner].bit_count() >= self.target:
            self.phase = PH_OVER
            self.decider = -1
            return
        for p in range(self.num_players):
            self.discard += self.displays[p]
            self.displays[p] = []
            self.vsum[p] = 0
            self._clear_beside(p)
        self.last_final = self.colour
        self.active = [False] * self.num_players
        self.begin_start(winner)

    def _track_leader(self) -> None:
        counts = [t.bit_count() for t in self.tokens]
        best = max(counts)
        leader = counts.index(best) if counts.count(best) == 1 else -1
        self.leader, self.lead_changes = track_lead(self.leader, self.lead_changes, leader)

    def _clear_beside(self, seat: int) -> None:
        """Shield and Stunned beside a display are discarded with it (withdrawal, I15)."""
        if self.shield_seat == seat:
            self.shield_seat = -1
            self.discard.append(SHIELD)
        if self.stunned_seat == seat:
            self.stunned_seat = -1
            self.discard.append(STUNNED)

    # ------------------------------------------------------------------ action cards
    def play_action(self, seat: int, card: int) -> None:
        """The card goes to the discard pile at once; choices follow, then the window."""
        self.discard.append(card)
        self.p_card = card
        self.p_target = self.p_slot = self.p_arg = -1
        if card in TARGETED:
            self.phase = PH_TARGET
        elif card == UNHORSE or card == CHANGE_WEAPON:
            self.phase = PH_COLOUR
        elif card == RETREAT:
            self.phase = PH_OWN_SLOT
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
        self.resolve()

    def play_ivanhoe(self, seat: int) -> None:
        """Cancel the pending action card: it and Ivanhoe stay in the discard pile."""
        self._from_hand(seat, IVANHOE)
        self.discard.append(IVANHOE)
        self._back_to_play()

    def _back_to_play(self) -> None:
        self.phase = PH_PLAY
        self.decider = self.turn
        self.p_card = self.p_target = self.p_slot = self.p_arg = -1

    def resolve(self) -> None:
        """Apply the pending action card (nobody cancelled it)."""
        seat = self.turn
        card = self.p_card
        target = self.p_target
        displays = self.displays
        if card == UNHORSE or card == CHANGE_WEAPON:
            self.colour = self.p_arg
        elif card == DROP_WEAPON:
            self.colour = GREEN
        elif card == BREAK_LANCE:
            doomed = [COLOUR_OF[t] == PURPLE for t in range(NUM_TYPES)]
            kept, removed = effects.strip(displays[target], doomed)
            displays[target] = kept
            self.discard += removed
        elif card == RIPOSTE:
            displays[seat].append(displays[target].pop())
            self.added += 1
        elif card == DODGE:
            self.discard.append(displays[target].pop(self.p_arg))
        elif card == RETREAT:
            c = displays[seat].pop(self.p_slot)
            self.hands[seat].append(c)
            self.known[seat].append(c)
        elif card == KNOCK_DOWN:
            hand = self.hands[target]
            self.hands[seat].append(hand.pop(self.rng.randrange(len(hand))))
            self.known[target] = []  # nobody else knows which card went
        elif card == SHIELD:
            self.discard.pop()
            self.shield_seat = seat
        elif card == STUNNED:
            self.discard.pop()
            self.stunned_seat = target
        elif card == OUTWIT:
            self._swap(seat, self.p_slot, target, self.p_arg)
        elif card == ADAPT:
            self.adapt_queue = [(o, v) for o in self.adapt_owners(seat)
                                for v in effects.duplicate_values(displays[o])]
            self._next_adapt()
            return
        else:  # Outmaneuver, Charge, Countercharge, Disgrace
            for o, (kept, removed) in self.mass_effect(seat, card).items():
                displays[o] = kept
                self.discard += removed
        self._recount()
        self._back_to_play()

    def _recount(self) -> None:
        self.vsum = [sum([VALUE[c] for c in d]) for d in self.displays]

    def _next_adapt(self) -> None:
        if self.adapt_queue:
            self.phase = PH_ADAPT
            self.decider = self.adapt_queue[0][0]
        else:
            self._back_to_play()

    def adapt_keep(self, index: int) -> None:
        """The owner keeps the card at `index`; the others of that printed value go."""
        owner, v = self.adapt_queue.pop(0)
        d = self.displays[owner]
        keep = d[index]
        kept = []
        for i, c in enumerate(d):
            if VALUE[c] != v or i == index:
                kept.append(c)
            else:
                self.discard.append(c)
        assert keep in kept
        self.displays[owner] = kept
        self.vsum[owner] = sum([VALUE[c] for c in kept])
        self._next_adapt()

    # ------------------------------------------------------------------ Outwit
    def _face_up(self, seat: int) -> list[int]:
        slots = list(range(len(self.displays[seat])))
        if self.shield_seat == seat:
            slots.append(SHIELD_SLOT)
        if self.stunned_seat == seat:
            slots.append(STUNNED_SLOT)
        return slots

    def _slot_card(self, seat: int, slot: int) -> int:
        if slot >= 0:
            return self.displays[seat][slot]
        return SHIELD if slot == SHIELD_SLOT else STUNNED

    def _swap_ok(self, seat: int, ms: int, o: int, ts: int) -> bool:
        """No display emptied, no second Maiden (I7), no swap of two identical cards."""
        mine = self._slot_card(seat, ms)
        theirs = self._slot_card(o, ts)
        if mine == theirs:
            return False
        dm = self.displays[seat]
        do = self.displays[o]
        if ms >= 0 and ts < 0 and len(dm) < 2:
            return False
        if ts >= 0 and ms < 0 and len(do) < 2:
            return False
        if theirs == MAIDEN6 and MAIDEN6 in dm:
            return False
        if mine == MAIDEN6 and MAIDEN6 in do:
            return False
        return True

    def _swap(self, seat: int, ms: int, o: int, ts: int) -> None:
        """Display cards trade places; one received for a Shield/Stunned goes on top."""
        mine = self._slot_card(seat, ms)
        theirs = self._slot_card(o, ts)
        dm = self.displays[seat]
        do = self.displays[o]
        if ms >= 0 and ts >= 0:
            dm[ms], do[ts] = theirs, mine
            return
        if ms >= 0:
            dm.pop(ms)
            do.append(mine)
        else:
            self._place_beside(mine, o)
        if ts >= 0:
            do.pop(ts)
            dm.append(theirs)
        else:
            self._place_beside(theirs, seat)

    def _place_beside(self, card: int, seat: int) -> None:
        if card == SHIELD:
            self.shield_seat = seat
        else:
            self.stunned_seat = seat
