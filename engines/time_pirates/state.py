"""Time Pirates rules (Rio Grande rules T1 with the rulings of /work/shared/rules/time_pirates.md).

Representation: the bag, hands and discard pile are count vectors by kind (see
`components`), epochs are lists of artifact kinds, deeds are count vectors by deed type.
The bag's *order* is the only hidden part of the board, so the bag is stored as counts and
every draw is a uniform pick with the state's rng — which makes `determinize` a reseed.  (For
speed the same multiset is also kept as a token list, `bag_tokens`, that draws pick from.)
The other hidden thing is the secret white-deed placement of the final scoring.

A decision with a single legal action is applied automatically (core's forced-choices hook,
`_plays_forced_choices`): it is no choice.  Legal lists and actions dispatch on the phase
(core's phase-dispatch hook: `_legal_actions` and `_apply`, at the end of the class).
"""

from __future__ import annotations

import random
from itertools import compress
from typing import Final

from engines.kit import copy_rng, draw_from, lead_changes, next_seat, seat_bonus, world_rng
from engines.time_pirates import components as C
from engines.time_pirates import legal_lists, render, scoring
from engines.time_pirates._position import TimePiratesCounters, TimePiratesPosition
from engines.time_pirates.actions import (
    ARROW,
    ATOMIC,
    BUY,
    END,
    EPOCH,
    EPOCH_KIND,
    K_ARROW,
    K_ATOMIC,
    K_END,
    K_MOVE,
    K_NO_RESTOCK,
    K_RESTOCK,
    K_TAKE,
    K_WHITE,
    MAX_SEATS,
    MOVE,
    NO_RESTOCK,
    PH_ACT,
    PH_JUMP,
    PH_LAND,
    PH_OVER,
    PH_PAY,
    PH_PENALTY,
    PH_RESTOCK,
    PH_START,
    PH_SWAP,
    PH_WHITE,
    PHASE_NAMES,
    PICK,
    PICK_KIND,
    RESTOCK,
    WHITE,
    action_name,
    buy_kinds,
)
from engines.time_pirates.legal_lists import END_LISTS, RESTOCK_LISTS, SWAP_LISTS, OfferRow
from engines.time_pirates.rules import Rules
from engines.time_pirates.scoring import Outcome

# Module constants are `Final`: compiled (mypyc), a number is inlined and a tuple is a static,
# instead of a look-up in the module's dict on every use.
NUM_KINDS: Final = C.NUM_KINDS
WHITE_KIND: Final = C.WHITE_KIND
NUM_COLOURS: Final = C.NUM_COLOURS
KIND_COLOUR: Final = tuple([C.kind_colour(k) for k in range(NUM_KINDS)])
PICKS: Final = tuple(range(PICK, PICK + NUM_KINDS))


#: Per artifact kind: (atomic colour bit, arrow colour bit) for the hand summaries.
ATOM_BIT: Final = tuple([1 << (k // 3) if k != WHITE_KIND and k % 3 == C.ATOMIC else 0
                         for k in range(NUM_KINDS)])
ARROW_BIT: Final = tuple([1 << (k // 3) if k != WHITE_KIND and k % 3 == C.ARROW else 0
                          for k in range(NUM_KINDS)])
#: Offer rows by (data-set label, colour, counts of that colour's deeds left on the bazaar),
#: and the offers of a full bazaar by data-set label: shared by every state of a data set.
_OFFER_ROWS: Final[dict[tuple[str, int, tuple[int, ...]], OfferRow]] = {}
_FULL_OFFERS: Final[dict[str, tuple[OfferRow, ...]]] = {}


def _full_offers(comp: C.Components) -> tuple[OfferRow, ...]:
    """The offer rows of a full bazaar (every game starts with it)."""
    offers = _FULL_OFFERS.get(comp.label)
    if offers is None:
        state = TimePiratesState()
        state.components = comp
        state.bazaar = [d[3] for d in comp.deeds]
        state.offers = tuple()  # not (): mypy would narrow `state.offers` to the empty tuple
        state._stock_offers()
        offers = _FULL_OFFERS[comp.label] = state.offers
    return offers


class TimePiratesState(TimePiratesPosition):
    """A Time Pirates position; seat 0 is the start player, turns go 0, 1, 2, ... (clockwise).

    Besides the hands (count vectors) each seat has a running summary kept in step by
    `_gain` / `_lose`, so that the legal actions need not rescan the hands: `colour_counts`
    (artifacts per colour), `hand_size` (artifacts in all), `atomic_colours` / `arrow_colours`
    (bitmask of colours with an atomic / arrow artifact) and `seats_with_artifacts` (bitmask of
    seats holding any artifact).  Code that edits `hands` directly must call `_resummarize()`.
    """

    __slots__ = ()  # the attributes: TimePiratesPosition (declared in position.py)
    _plays_forced_choices = True  # a decision with one option is no choice (module docstring)

    # --- text view (render.py) ----------------------------------------------------------
    def render(self, seat: int | None = None) -> str:
        return render.render(self, seat)

    def round_label(self) -> str:
        return render.round_label(self)

    def __init__(self, num_players: int = 0, seed: int = 0, rules: Rules | None = None) -> None:
        if not num_players:  # blank, for clone(): a compiled class cannot skip __init__
            return
        rules = rules or Rules()
        comp = C.load(rules.components)
        n = num_players
        self.num_players = n
        self.rules = rules
        self.rng = random.Random(seed)
        self._legal_cache = None
        self.components = comp
        self.bag = list(comp.bag)
        self.bag_total = sum(comp.bag)
        self.bag_tokens = []
        self._fill_tokens()
        self.epochs = [[] for _ in comp.spaces]
        self.hands = [[0] * NUM_KINDS for _ in range(n)]
        self.deeds = [[0] * len(comp.deeds) for _ in range(n)]
        self.bazaar = [d[3] for d in comp.deeds]
        self.discard = [0] * NUM_KINDS
        self.police_track = [0, 0]
        self.pawn_epoch = [-1] * n
        self.patrol = comp.patrol_start
        self.year = 0
        self.year_scores = []
        self.leaders = []
        self.white_placements = [[] for _ in range(n)]
        self.final_bonuses = None
        self.result = None
        # setup 5: start epochs are chosen from the right of the start player (printed), or
        # from the start player clockwise (placement_order=reversed)
        self.to_move = 0 if rules.placement_order == "reversed" else n - 1
        self.final_round = False
        self.phase = PH_START
        self.standard_actions_left = 0
        self.forced_move = False
        self.paying_deed = 0
        self.payment_left = 0
        self.paid_colours = 0
        self.swap_colour = 0
        self.swap_target = 0
        self.counters = TimePiratesCounters()
        self.colour_counts = [[0] * NUM_COLOURS for _ in range(n)]  # empty hands
        self.hand_size = [0] * n
        self.atomic_colours = [0] * n
        self.arrow_colours = [0] * n
        self.seats_with_artifacts = 0
        self.offers = _full_offers(comp)
        self._setup_fill()
        self._recount_epochs_with_space()
        self._play_forced_choices()

    # --- setup ---------------------------------------------------------------------------
    def _setup_fill(self) -> None:
        """Setup 3: fill every space; police tokens drawn now go aside and back into the bag."""
        aside = [0, 0]
        for e, space in enumerate(self.components.spaces):
            ep = self.epochs[e]
            while len(ep) < space:
                kind = self._draw()
                if kind >= NUM_KINDS:
                    aside[kind - NUM_KINDS] += 1
                else:
                    ep.append(kind)
        self.bag[C.POLICE_1] += aside[0]
        self.bag[C.POLICE_2] += aside[1]
        self.bag_total += aside[0] + aside[1]
        self.bag_tokens += [C.POLICE_1] * aside[0] + [C.POLICE_2] * aside[1]

    def _recount_epochs_with_space(self) -> None:
        """`epochs_with_space`: bitmask of the epochs with an empty space (kept by takes and
        restocks)."""
        spaces = self.components.spaces
        self.epochs_with_space = sum(1 << e for e, ep in enumerate(self.epochs)
                                     if len(ep) < spaces[e])

    def _fill_tokens(self) -> None:
        """Lay the bag's counts out as a token list, in kind order (setup, year end)."""
        tokens: list[int] = []
        for k, count in enumerate(self.bag):
            if count:
                tokens += [k] * count
        self.bag_tokens = tokens

    def _draw(self) -> int:
        """One token from the bag, uniformly (the bag is never empty: see P5)."""
        kind = draw_from(self.bag_tokens, self.rng)
        self.bag[kind] -= 1
        self.bag_total -= 1
        return kind

    # --- hands and their summaries --------------------------------------------------------
    def _resummarize(self) -> None:
        """Recompute every seat's hand summary from the hands, and the token list from the
        bag's counts (for code that edited them directly: tests, sanity checks)."""
        self._fill_tokens()
        self._recount_epochs_with_space()
        self.colour_counts = [[h[3 * c] + h[3 * c + 1] + h[3 * c + 2] for c in range(NUM_COLOURS)]
                     for h in self.hands]
        self.hand_size = [sum(h) for h in self.hands]
        self.atomic_colours = [sum(ATOM_BIT[k] for k in range(NUM_KINDS) if h[k])
                               for h in self.hands]
        self.arrow_colours = [sum(ARROW_BIT[k] for k in range(NUM_KINDS) if h[k])
                              for h in self.hands]
        self.seats_with_artifacts = sum(1 << p for p, k in enumerate(self.hand_size) if k)

    def _gain(self, p: int, kind: int) -> None:
        """One artifact of `kind` into seat `p`'s hand."""
        self.hands[p][kind] += 1
        if not self.hand_size[p]:
            self.seats_with_artifacts |= 1 << p
        self.hand_size[p] += 1
        if kind != WHITE_KIND:
            self.colour_counts[p][kind // 3] += 1
            if ATOM_BIT[kind]:
                self.atomic_colours[p] |= ATOM_BIT[kind]
            elif ARROW_BIT[kind]:
                self.arrow_colours[p] |= ARROW_BIT[kind]

    def _lose(self, p: int, kind: int) -> None:
        """One artifact of `kind` out of seat `p`'s hand (the caller says where it goes)."""
        h = self.hands[p]
        h[kind] -= 1
        self.hand_size[p] -= 1
        if not self.hand_size[p]:
            self.seats_with_artifacts &= ~(1 << p)
        if kind != WHITE_KIND:
            self.colour_counts[p][kind // 3] -= 1
            if not h[kind]:
                if ATOM_BIT[kind]:
                    self.atomic_colours[p] &= ~ATOM_BIT[kind]
                elif ARROW_BIT[kind]:
                    self.arrow_colours[p] &= ~ARROW_BIT[kind]

    def _discard(self, p: int, kind: int) -> None:
        self._lose(p, kind)
        self.discard[kind] += 1

    # --- contract: acting ---------------------------------------------------------------
    def current_player(self) -> int:
        return self.to_move  # set to -1 by the final scoring

    def is_terminal(self) -> bool:
        return self.phase == PH_OVER

    def _legal_start(self) -> list[int]:
        taken = set(self.pawn_epoch)
        return [EPOCH + e for e in range(len(self.epochs))
                if e != self.patrol and e not in taken]

    def _legal_penalty(self) -> list[int]:
        return [PICK + k for k in self.penalty_choices(self.to_move)]

    def _legal_land(self) -> list[int]:
        return legal_lists.epochs(len(self.epochs))[0]

    def _legal_jump(self) -> list[int]:
        return legal_lists.epochs(len(self.epochs))[1][self.pawn_epoch[self.to_move]]

    def _legal_swap(self) -> list[int]:
        return list(compress(PICKS, self.hands[self.swap_target]))

    def _legal_white(self) -> list[int]:
        return [WHITE + c for c in self.owned_colours(self.to_move)]

    def _legal_over(self) -> list[int]:
        return []

    def _legal_act(self) -> list[int]:
        p = self.to_move
        atoms = self.atomic_colours[p]
        arrows = self.arrow_colours[p]
        others = self.seats_with_artifacts & ~(1 << p) if arrows else 0
        if not self.standard_actions_left:
            if atoms or others:
                key = (atoms << C.NUM_COLOURS | arrows) << MAX_SEATS | others
                return END_LISTS.get(key) or legal_lists.ends(atoms, arrows, others)
            return legal_lists.ONLY_END
        if self.forced_move:  # P2: no atomic jump before the forced move
            if not others:
                return legal_lists.ONLY_MOVES
            acts = [MOVE, MOVE + 1]
        else:
            if self.hand_size[p] >= self.components.min_cost:
                # take (TAKE + kind == kind), move, and the bazaar: per colour, the deeds on
                # offer that its artifacts plus the wild whites pay for; white deeds by the
                # number of distinct colours (+ whites)
                s0, s1, s2, s3, s4, sw = self.offers
                c0, c1, c2, c3, c4 = self.colour_counts[p]
                white = self.hands[p][WHITE_KIND]
                acts = [*set(self.epochs[self.pawn_epoch[p]]), MOVE, MOVE + 1,
                        *s0[c0 + white], *s1[c1 + white], *s2[c2 + white], *s3[c3 + white],
                        *s4[c4 + white],
                        *sw[(c0 > 0) + (c1 > 0) + (c2 > 0) + (c3 > 0) + (c4 > 0) + white]]
            else:
                acts = [*set(self.epochs[self.pawn_epoch[p]]), MOVE, MOVE + 1]
            if atoms:
                acts += legal_lists.ATOMS[atoms]
        if others:
            acts += (SWAP_LISTS.get(arrows << MAX_SEATS | others)
                     or legal_lists.swaps(arrows, others))
        return acts

    def on_offer(self, colour: int) -> bool:
        """Is any deed of `colour` still on the bazaar?  (The largest budget buys them all.)"""
        return bool(self.offers[colour][-1])

    def _stock_offers(self, colour: int | None = None) -> None:
        """Point the budget -> purchasable-deeds rows (of `colour`, or all) at the bazaar's
        current stock.  Rows are shared tuples (cached per data set and stock), never edited."""
        comp = self.components
        offers: list[OfferRow] = list(self.offers) if self.offers else [()] * (NUM_COLOURS + 1)
        bazaar = self.bazaar
        colours = range(C.NUM_COLOURS + 1) if colour is None else (colour,)
        for c in colours:
            deeds = comp.white_deeds if c == C.WHITE else comp.colour_deeds[c]
            key = (comp.label, c, tuple([bazaar[t] for t, _ in deeds]))
            row = _OFFER_ROWS.get(key)
            if row is None:
                row = _OFFER_ROWS[key] = self._offer_row(deeds)
            offers[c] = row
        self.offers = tuple(offers)

    def _offer_row(self, deeds: tuple[tuple[int, int], ...]) -> OfferRow:
        """For every budget up to all the artifacts of the game: the BUY actions of the deeds
        (sorted by cost) still on the bazaar that the budget pays for."""
        bazaar = self.bazaar
        row: list[tuple[int, ...]] = []
        cur: list[int] = []
        i = 0
        for budget in range(sum(self.components.bag[:NUM_KINDS]) + 1):
            while i < len(deeds) and deeds[i][1] <= budget:
                if bazaar[deeds[i][0]]:
                    cur.append(BUY + deeds[i][0])
                i += 1
            row.append(tuple(cur))
        return tuple(row)

    def _legal_restock(self) -> list[int]:
        """Epochs that may be restocked (none holds a pirate), then "no restock"."""
        if self.final_round:  # game_end=round: no police token is left to draw
            return [NO_RESTOCK]
        occupied = 0
        for e in self.pawn_epoch:
            occupied |= 1 << e
        if self.rules.restock_eligibility == "piatnik":  # only an epoch with no artifact
            free = sum(1 << e for e, ep in enumerate(self.epochs) if not ep) & ~occupied
        else:  # rio: any epoch with an empty space
            free = self.epochs_with_space & ~occupied
        return RESTOCK_LISTS.get(free) or legal_lists.restocks(free)

    def _legal_pay(self) -> list[int]:
        """Artifacts that may pay the next unit of the pending deed.  When the remaining
        payment is already determined (every eligible artifact must go), all orders end in
        the same position: one option is offered, paid without a decision (a forced choice)."""
        h = self.hands[self.to_move]
        colour = self.components.deeds[self.paying_deed][0]
        white = h[WHITE_KIND]
        if colour != C.WHITE:
            base = 3 * colour
            out = [PICK + k for k in (base, base + 1, base + 2) if h[k]]
            if self.colour_counts[self.to_move][colour] + white == self.payment_left:
                return [out[0] if out else PICK + WHITE_KIND]
        else:
            mask = self.paid_colours
            out = [PICK + k for k in range(WHITE_KIND) if h[k] and not mask >> KIND_COLOUR[k] & 1]
            if len(out) + white == self.payment_left and len(
                    {KIND_COLOUR[a - PICK] for a in out}) == len(out):
                return [out[0] if out else PICK + WHITE_KIND]
        if white:
            out.append(PICK + WHITE_KIND)
        return out

    # --- applying one action, by phase ----------------------------------------------------
    def _do_act(self, action: int) -> None:
        p = self.to_move
        if action < MOVE:
            e = self.pawn_epoch[p]
            self.epochs[e].remove(action)  # TAKE + kind == kind
            self.epochs_with_space |= 1 << e
            self._gain(p, action)
            self.standard_actions_left -= 1
        elif action < BUY:
            self.pawn_epoch[p] = self.components.lines[self.pawn_epoch[p]][action - MOVE]
            self.standard_actions_left -= 1
            if self.forced_move:
                self.forced_move = False
                if self.rules.patrol_effect == "flee":
                    self._begin_turn(next_seat(p, self.num_players))
                    return
        elif action == END:
            self._begin_turn(next_seat(p, self.num_players))
            return
        elif action < PICK:
            t = action - BUY
            self.standard_actions_left -= 1
            self.paying_deed = t
            self.payment_left = self.components.deeds[t][2]
            self.paid_colours = 0
            self.phase = PH_PAY
            return
        elif action < ARROW:
            self._discard(p, 3 * (action - ATOMIC) + 1)
            self.counters.atomic_jumps += 1
            self.phase = PH_JUMP
            return
        else:
            self.swap_colour, self.swap_target = divmod(action - ARROW, MAX_SEATS)
            self.phase = PH_SWAP
            return
        # after a take or a move: when only "end turn" is left, no decision is needed
        if not self.standard_actions_left and not self.atomic_colours[p] and not (
                self.arrow_colours[p] and self.seats_with_artifacts & ~(1 << p)):
            self._begin_turn(next_seat(p, self.num_players))

    def _do_restock(self, action: int) -> None:
        self.phase = PH_ACT
        self.standard_actions_left = 2
        if action != NO_RESTOCK:
            self.counters.restocks += 1
            if self.rules.restock_extra_action:
                self.standard_actions_left = 3
            self._restock(action - RESTOCK)

    def _do_pay(self, action: int) -> None:
        kind = action - PICK
        self._discard(self.to_move, kind)
        if kind != WHITE_KIND:
            self.paid_colours |= 1 << KIND_COLOUR[kind]
        self.payment_left -= 1
        if not self.payment_left:
            t = self.paying_deed
            self.deeds[self.to_move][t] += 1
            self.bazaar[t] -= 1
            self._stock_offers(self.components.deeds[t][0])
            self.counters.deeds_bought += 1
            self.phase = PH_LAND

    def _do_land(self, action: int) -> None:  # also the atomic jump's destination
        self.pawn_epoch[self.to_move] = action - EPOCH
        self.phase = PH_ACT

    def _do_swap(self, action: int) -> None:
        """P7: `kind` from seat q for the arrow artifact.  Both hands keep their size, so
        only the colour totals and the symbol masks of the two kinds change."""
        kind = action - PICK
        p, q = self.to_move, self.swap_target
        colour = self.swap_colour
        given = 3 * colour + 2
        mine, theirs = self.hands[p], self.hands[q]
        theirs[kind] -= 1
        mine[kind] += 1
        mine[given] -= 1
        theirs[given] += 1
        ctp, ctq = self.colour_counts[p], self.colour_counts[q]
        ctp[colour] -= 1
        ctq[colour] += 1
        bit = 1 << colour
        self.arrow_colours[q] |= bit
        if not mine[given]:
            self.arrow_colours[p] &= ~bit
        if kind != WHITE_KIND:
            c = kind // 3
            ctp[c] += 1
            ctq[c] -= 1
            bit = ATOM_BIT[kind]
            if bit:
                self.atomic_colours[p] |= bit
                if not theirs[kind]:
                    self.atomic_colours[q] &= ~bit
            else:
                bit = ARROW_BIT[kind]
                if bit:
                    self.arrow_colours[p] |= bit
                    if not theirs[kind]:
                        self.arrow_colours[q] &= ~bit
        self.counters.arrow_swaps += 1
        self.phase = PH_ACT

    def _do_penalty(self, action: int) -> None:
        self._discard(self.to_move, action - PICK)
        self._after_penalty()

    def _do_start(self, action: int) -> None:
        p = self.to_move
        self.pawn_epoch[p] = action - EPOCH
        if self.rules.placement_order == "reversed":
            if p == self.num_players - 1:
                self._begin_turn(0)
            else:
                self.to_move = p + 1
        elif p == 0:
            self._begin_turn(0)
        else:
            self.to_move = p - 1

    def _do_white(self, action: int) -> None:
        self.white_placements[self.to_move].append(action - WHITE)
        self._next_white()

    # --- turn structure -------------------------------------------------------------------
    def _begin_turn(self, p: int) -> None:
        """Start of a turn: case A (the Patrol is in your epoch) or case B (restock option).
        With game_end=round, the start player's turn after the last police token of the
        game is the end of the round: year 3 is scored instead."""
        if self.final_round and p == 0:
            self.final_round = False
            self._end_year()
            return
        self.to_move = p
        self.counters.turns += 1
        self.forced_move = False
        if self.pawn_epoch[p] == self.patrol:
            self.counters.patrol_catches += 1
            if self.penalty_choices(p):
                self.phase = PH_PENALTY
            else:
                self._after_penalty()
        else:
            self.phase = PH_RESTOCK

    def penalty_choices(self, p: int) -> list[int]:
        """P1: kinds the caught player may lose: any artifact of a largest *colour* group."""
        h = self.hands[p]
        tot = self.colour_counts[p]
        best = max(tot)
        if not best:
            return []
        return [k for c in range(NUM_COLOURS) if tot[c] == best
                for k in (3 * c, 3 * c + 1, 3 * c + 2) if h[k]]

    def _after_penalty(self) -> None:
        """Lose all white artifacts, then the forced move (no atomic) and one more action."""
        p = self.to_move
        h = self.hands[p]
        if h[WHITE_KIND]:
            self.discard[WHITE_KIND] += h[WHITE_KIND]
            self.hand_size[p] -= h[WHITE_KIND]
            h[WHITE_KIND] = 0
            if not self.hand_size[p]:
                self.seats_with_artifacts &= ~(1 << p)
        self.phase = PH_ACT
        self.forced_move = True
        self.standard_actions_left = 1 if self.rules.patrol_effect == "flee" else 2

    # --- restocking and the year end ------------------------------------------------------
    def _restock(self, e: int) -> None:
        """Fill every empty space of epoch `e`; police tokens move the Patrol (P3, P4, P5:
        after a year end, a bag of police only stops the refill, so one action ends at
        most one year)."""
        ep = self.epochs[e]
        need = self.components.spaces[e] - len(ep)
        lines = self.components.lines
        per_year = self.components.police_per_year
        while need > 0 and self.bag_total:
            kind = self._draw()
            if kind < NUM_KINDS:
                ep.append(kind)
                need -= 1
                continue
            line = kind - NUM_KINDS
            self.patrol = lines[self.patrol][line]
            self.police_track[line] += 1
            if self.police_track[0] + self.police_track[1] >= per_year:
                if self.year + 1 >= self.components.years and self.rules.game_end == "round":
                    self.final_round = True  # scored at the end of the round (_begin_turn)
                    break
                self._end_year()
                if self.phase == PH_WHITE or self.phase == PH_OVER:
                    break
                bag = self.bag
                if self.bag_total == bag[C.POLICE_1] + bag[C.POLICE_2]:
                    # P5: police only (every artifact in play, none discarded): the refill
                    # stops, its spaces stay empty; going on would end every year left
                    # at once (P4 resumes a refill to fill it, which no draw can now do)
                    break
        if not need:
            self.epochs_with_space &= ~(1 << e)

    def _end_year(self) -> None:
        """Police tokens and discards go back into the bag; score the year (game end after 3)."""
        bag = self.bag
        bag[C.POLICE_1] += self.police_track[0]
        bag[C.POLICE_2] += self.police_track[1]
        self.bag_total += self.police_track[0] + self.police_track[1]
        self.police_track = [0, 0]
        discard = self.discard
        for k in range(NUM_KINDS):
            if discard[k]:
                bag[k] += discard[k]
                self.bag_total += discard[k]
                discard[k] = 0
        self._fill_tokens()
        self.year_scores.append([self.deed_points(p) for p in range(self.num_players)])
        self.year += 1
        if self.year >= self.components.years:
            self._begin_final()
        else:
            totals = self.totals()
            best = max(totals)
            self.leaders.append(tuple(p for p, s in enumerate(totals) if s == best))

    def deed_points(self, p: int) -> int:
        return scoring.deed_points(self.components.deeds, self.deeds[p])

    def totals(self) -> list[int]:
        if not self.year_scores:
            return [0] * self.num_players
        return [sum(col) for col in zip(*self.year_scores)]

    # --- final scoring --------------------------------------------------------------------
    def owned_colours(self, p: int) -> list[int]:
        return scoring.owned_colours(self.components.deeds, self.deeds[p])

    def white_deeds_of(self, p: int) -> list[int]:
        return scoring.white_deeds(self.components.deeds, self.deeds[p])

    def _begin_final(self) -> None:
        self.phase = PH_WHITE
        self.to_move = 0
        self._seek_white(0)

    def white_count(self, p: int) -> int:
        """How many white deeds seat `p` holds."""
        held = self.deeds[p]
        return sum([held[t] for t, _ in self.components.white_deeds])

    def _next_white(self) -> None:
        p = self.to_move
        if len(self.white_placements[p]) < self.white_count(p):
            return
        self._seek_white(p + 1)

    def _seek_white(self, start: int) -> None:
        """Next seat (in turn order) with a white deed to place; none left: final scoring."""
        for p in range(start, self.num_players):
            if self.white_count(p) and self.owned_colours(p):
                self.to_move = p
                return
        self._final_scoring()

    def colour_points(self, p: int) -> list[int]:
        return scoring.colour_points(self.components.deeds, self.deeds[p], self.white_placements[p])

    def _final_scoring(self) -> None:
        sets, majority = scoring.special_bonuses(
            self.components.deeds, self.deeds, self.white_placements, self.rules.set_bonus,
            self.rules.majority_bonus)
        self.final_bonuses = [sets, majority]
        self.phase = PH_OVER
        self.to_move = -1
        self._legal_cache = None
        winners = self.winners()
        self.leaders.append(tuple(winners))
        # the position is final: the outcome is computed once (play_game asks several times)
        self.result = Outcome(tuple(self.scores()), tuple(winners), tuple(super().ranks()))

    # --- contract: outcome --------------------------------------------------------------
    def scores(self) -> list[float]:
        if self.result:
            return list(self.result.scores)
        totals = self.totals()
        if self.final_bonuses:
            totals = [t + a + b for t, a, b in zip(totals, *self.final_bonuses)]
        if self.rules.seat_bonus:
            totals = [t + b for t, b in zip(totals, seat_bonus(self.rules.seat_bonus,
                                                               self.num_players))]
        return [float(t) for t in totals]

    def winners(self) -> list[int]:
        """Highest total; ties go to the player with more deeds, then the win is shared."""
        if self.result:
            return list(self.result.winners)
        return scoring.winners(self.scores(), [sum(d) for d in self.deeds])

    def ranks(self) -> list[int]:
        return list(self.result.ranks) if self.result else super().ranks()

    def score_breakdown(self) -> dict[str, list[float]]:
        n = self.num_players
        out = {}
        for y in range(self.components.years):
            row = self.year_scores[y] if y < len(self.year_scores) else [0] * n
            out[f"year{y + 1}"] = [float(v) for v in row]
        special = self.final_bonuses or [[0] * n, [0] * n]
        out["set_bonus"] = [float(v) for v in special[0]]
        out["majority"] = [float(v) for v in special[1]]
        if self.rules.seat_bonus:
            out["seat_bonus"] = [float(v) for v in seat_bonus(self.rules.seat_bonus, n)]
        return out

    def metrics(self) -> dict[str, float]:
        """`years` scored; `lead_changes`: how often the leader set (top cumulative total)
        changes from the year-1 count to the year-2 count to the final result (0..2)."""
        out = {"years": float(self.year), "lead_changes": float(lead_changes(self.leaders))}
        for name, count in self.counters.metrics().items():  # the record's counters
            out[name] = float(count)
        return out

    # --- contract: information ------------------------------------------------------------
    def clone(self) -> TimePiratesState:
        return self.clone_with_rng(copy_rng(self.rng))

    def clone_with_rng(self, rng: random.Random) -> TimePiratesState:
        new = TimePiratesState()
        self._copy_position(new)
        new.rng = rng
        return new

    def determinize(self, seat: int, rng: random.Random) -> TimePiratesState:
        """Resample what `seat` cannot see: the bag order (a reseed, the bag being counts)
        and the other players' secret white-deed placements made so far."""
        world = self.clone_with_rng(self.rng)  # replaced below: no copy of ours
        world.rng = world_rng(rng)
        world._fill_tokens()  # the token list's order is history, not information: canonical
        if self.phase == PH_WHITE:
            for p in range(self.num_players):
                placed = world.white_placements[p]
                if p == seat or not placed:
                    continue
                owned = world.owned_colours(p)
                world.white_placements[p] = [owned[int(rng.random() * len(owned))] for _ in placed]
        return world

    # --- the observation's computed keys (the rest: TimePiratesPosition.observation) ----
    def _view_phase(self, seat: int) -> str:
        return PHASE_NAMES[self.phase]

    def _view_epochs(self, seat: int) -> list[list[int]]:
        return [sorted(e) for e in self.epochs]

    def _view_payment(self, seat: int) -> list[int]:
        return [self.paying_deed, self.payment_left, self.paid_colours]

    def _view_swap(self, seat: int) -> list[int]:
        return [self.swap_colour, self.swap_target]

    def _view_white_placed(self, seat: int) -> list[list[int] | int]:
        """`seat`'s own white-deed placements; of the others, while they are being made,
        only how many they have placed."""
        secret = self.phase == PH_WHITE
        return [list(w) if (p == seat or not secret) else len(w)
                for p, w in enumerate(self.white_placements)]

    def action_to_str(self, action: int) -> str:
        return action_name(action, self.components.epoch_names, self.components.deeds)

    def action_kind(self, action: int) -> int:
        """Index into `ACTION_KINDS` of `action` as the decision pending now: a PICK is a
        payment, a penalty or a swap pick and an EPOCH a start, landing or jump destination,
        by phase."""
        if action < MOVE:
            return K_TAKE
        if action < BUY:
            return K_MOVE
        if action < PICK:
            return buy_kinds(self.components)[action - BUY]
        if action < EPOCH:
            return PICK_KIND[self.phase]
        if action < ATOMIC:
            return EPOCH_KIND[self.phase]
        if action < ARROW:
            return K_ATOMIC
        if action < END:
            return K_ARROW
        if action == END:
            return K_END
        if action < NO_RESTOCK:
            return K_RESTOCK
        if action == NO_RESTOCK:
            return K_NO_RESTOCK
        return K_WHITE

    # --- core's phase-dispatch hook: an if-chain, commonest phase first (compiled, each
    # branch is a direct call; a table of methods was a module look-up and a Python call)
    def _legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == PH_ACT:
            return self._legal_act()
        if phase == PH_PAY:
            return self._legal_pay()
        if phase == PH_RESTOCK:
            return self._legal_restock()
        if phase == PH_LAND:
            return self._legal_land()
        if phase == PH_JUMP:
            return self._legal_jump()
        if phase == PH_SWAP:
            return self._legal_swap()
        if phase == PH_PENALTY:
            return self._legal_penalty()
        if phase == PH_START:
            return self._legal_start()
        if phase == PH_WHITE:
            return self._legal_white()
        return self._legal_over()

    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == PH_ACT:
            self._do_act(action)
        elif phase == PH_PAY:
            self._do_pay(action)
        elif phase == PH_RESTOCK:
            self._do_restock(action)
        elif phase == PH_LAND or phase == PH_JUMP:
            self._do_land(action)
        elif phase == PH_SWAP:
            self._do_swap(action)
        elif phase == PH_PENALTY:
            self._do_penalty(action)
        elif phase == PH_START:
            self._do_start(action)
        elif phase == PH_WHITE:
            self._do_white(action)
        else:
            raise ValueError(f"no action is played in phase {PHASE_NAMES[phase]}")
