"""The 17 action cards, one unit each: when it may be played, what its player chooses, its effect.

Shaped like TAG's per-card units (TabletopGames `games/loveletter`, where each
`LoveLetterCard.CardType` carries its card's legal actions and effect), without a class per
card: each card is an `ActionCard` row of `CARDS` holding three things,

- `playable(state, seat)`: legal now?  A card is legal only if it would change something
  (rules S3, our I11), so this is the card's own "would it do anything" test;
- `choices`: the decisions its player makes before the Ivanhoe window, in order, as
  (phase, legal options of that phase);
- `resolve(state, seat)`: the effect, applied when the window closes uncancelled (the choices
  are then in `state.pending_*`).

Targets and effects obey the overriding rule that no action card takes a display below one
card (`strip`), and Shield (`IvanhoeState.exposed`).  Rules text: `shared/rules/ivanhoe.md`
("Action cards"), our rulings I5-I11.  The state only moves between phases
(`IvanhoeState.play_action_card` / `choose_*` / `resolve_action_card`).

Speed shortcuts: `IvanhoeState.legal_turn` asks `playable` of every action card in hand on
every turn, so the targeted cards answer with a loop that stops at the first target instead
of building their target list; `tests/test_fastpaths.py` checks each against its list on
real playouts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from engines.ivanhoe.actions import (
    A_COLOUR,
    A_SLOT,
    A_TARGET,
    PH_COLOUR,
    PH_OWN_SLOT,
    PH_TARGET,
    PH_THEIR_SLOT,
    SHIELD_SLOT,
    STUNNED_SLOT,
    slot_action,
)
from engines.ivanhoe.components import (
    ADAPT,
    BLUE,
    BREAK_LANCE,
    CHANGE_WEAPON,
    CHARGE,
    COLOUR_OF,
    COUNTERCHARGE,
    DISGRACE,
    DODGE,
    DROP_WEAPON,
    GREEN,
    IS_SUPPORTER,
    IVANHOE,
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
    STUNNED,
    UNHORSE,
    VALUE,
    YELLOW,
)
from engines.kit import seat_orders

if TYPE_CHECKING:
    from engines.ivanhoe.state import IvanhoeState

WEAPONS = (RED, BLUE, YELLOW)

#: {owner: (cards kept, cards removed)}: what a display-stripping card would do.
Changes = dict[int, tuple[list[int], list[int]]]
Options = Callable[["IvanhoeState", int], list[int]]


class ActionCard:
    """The rules of one action card (see the module docstring)."""

    __slots__ = ("card", "name", "playable", "choices", "first_choice", "after", "resolve")

    def __init__(
        self,
        card: int,
        playable: Callable[[IvanhoeState, int], bool],
        resolve: Callable[[IvanhoeState, int], None],
        choices: Sequence[tuple[int, Options]] = (),
    ) -> None:
        self.card = card
        self.name = NAMES[card]
        self.playable = playable
        self.resolve = resolve
        #: phase -> the legal actions of that choice
        self.choices: dict[int, Options] = dict(choices)
        phases = [phase for phase, _ in choices]
        #: the first choice's phase, -1 if the Ivanhoe window opens at once
        self.first_choice = phases[0] if phases else -1
        #: phase -> the next choice's phase, -1 after the last one
        self.after: dict[int, int] = {
            phase: phases[i + 1] if i + 1 < len(phases) else -1 for i, phase in enumerate(phases)
        }


# ------------------------------------------------------------------ display arithmetic
def strip(display: list[int], doomed: Sequence[bool]) -> tuple[list[int], list[int]]:
    """Remove every card whose type is doomed; the earliest card stays if all would go."""
    kept = [c for c in display if not doomed[c]]
    if not kept and display:
        kept = [display[0]]
        removed = display[1:]
    else:
        removed = [c for c in display if doomed[c]]
    return kept, removed


def strip_many(displays: Sequence[list[int]], owners: Sequence[int],
               doomed: Sequence[bool]) -> Changes:
    """`strip` applied per display (the one-card minimum is per display, I10); changes only."""
    out = {}
    for o in owners:
        d = displays[o]
        if d:
            kept, removed = strip(d, doomed)
            if removed:
                out[o] = (kept, removed)
    return out


def duplicate_values(display: list[int]) -> list[int]:
    """Printed values that occur more than once in a display (what Adapt thins out)."""
    seen: set[int] = set()
    dup: set[int] = set()
    for c in display:
        v = VALUE[c]
        if v in seen:
            dup.add(v)
        seen.add(v)
    return sorted(dup)


def apply_changes(state: IvanhoeState, changes: Changes) -> None:
    for o, (kept, removed) in changes.items():
        state.displays[o] = kept
        state.discard += removed


def always(state: IvanhoeState, seat: int) -> bool:
    return True


def never(state: IvanhoeState, seat: int) -> bool:
    return False


def target_actions(targets: Callable[[IvanhoeState, int], list[int]]) -> Options:
    """The PH_TARGET options of a card whose opponents `targets` lists."""
    def options(state: IvanhoeState, seat: int) -> list[int]:
        return [A_TARGET + o for o in targets(state, seat)]
    return options


def exposed_with_two(state: IvanhoeState, seat: int) -> list[int]:
    """Opponents in, unshielded, with a display of two or more (one card cannot be lost)."""
    return [o for o in range(state.num_players)
            if state.exposed(seat, o) and len(state.displays[o]) > 1]


def has_exposed_with_two(state: IvanhoeState, seat: int) -> bool:
    """`bool(exposed_with_two(...))` without the list (a hot path: every legal-move list)."""
    active = state.active
    shield = state.shield_seat
    for o, d in enumerate(state.displays):
        if o != seat and active[o] and shield != o and len(d) > 1:
            return True
    return False


# ------------------------------------------------------------------ colour changes
def weapon_tournament(state: IvanhoeState, seat: int) -> bool:
    return state.colour in WEAPONS


def new_colour(state: IvanhoeState, seat: int) -> None:
    state.colour = state.pending_colour


# Unhorse: purple -> red, blue or yellow (the player chooses).
def unhorse_playable(state: IvanhoeState, seat: int) -> bool:
    return state.colour == PURPLE


def unhorse_colours(state: IvanhoeState, seat: int) -> list[int]:
    return [A_COLOUR + c for c in WEAPONS]


# Change Weapon: red/blue/yellow -> a different one of those three.
def change_weapon_colours(state: IvanhoeState, seat: int) -> list[int]:
    return [A_COLOUR + c for c in WEAPONS if c != state.colour]


# Drop Weapon: red/blue/yellow -> green.
def drop_weapon(state: IvanhoeState, seat: int) -> None:
    state.colour = GREEN


# ------------------------------------------------------------------ one opponent's display
# Break Lance: the target discards every purple card (the earliest stays if all are purple).
IS_PURPLE = tuple(COLOUR_OF[t] == PURPLE for t in range(NUM_TYPES))


def break_lance_targets(state: IvanhoeState, seat: int) -> list[int]:
    displays = state.displays
    return [o for o in exposed_with_two(state, seat)
            if any(IS_PURPLE[c] for c in displays[o])]


def break_lance_playable(state: IvanhoeState, seat: int) -> bool:
    active = state.active
    shield = state.shield_seat
    for o, d in enumerate(state.displays):
        if o != seat and active[o] and shield != o and len(d) > 1:
            for c in d:
                if IS_PURPLE[c]:
                    return True
    return False


def break_lance(state: IvanhoeState, seat: int) -> None:
    target = state.pending_target
    kept, removed = strip(state.displays[target], IS_PURPLE)
    state.displays[target] = kept
    state.discard += removed


# Riposte: take the top card of the target's display onto your own.  It adds a card, so a
# stunned player may not Riposte after adding one (D4), nor take a second Maiden (I7).
def riposte_targets(state: IvanhoeState, seat: int) -> list[int]:
    displays = state.displays
    second_maiden = MAIDEN6 in displays[seat]
    return [o for o in exposed_with_two(state, seat)
            if not (second_maiden and displays[o][-1] == MAIDEN6)]


def riposte_playable(state: IvanhoeState, seat: int) -> bool:
    if not state.can_add(seat):
        return False
    active = state.active
    shield = state.shield_seat
    displays = state.displays
    for o, d in enumerate(displays):
        if o != seat and active[o] and shield != o and len(d) > 1:
            if d[-1] != MAIDEN6 or MAIDEN6 not in displays[seat]:
                return True
    return False


def riposte(state: IvanhoeState, seat: int) -> None:
    state.displays[seat].append(state.displays[state.pending_target].pop())
    state.added += 1


# Dodge: discard any one card of your choice from the target's display.  Targets: any
# exposed opponent with two or more cards (`exposed_with_two`, `has_exposed_with_two`).
def dodge_cards(state: IvanhoeState, seat: int) -> list[int]:
    return [A_SLOT + i for i in range(len(state.displays[state.pending_target]))]


def dodge(state: IvanhoeState, seat: int) -> None:
    state.discard.append(state.displays[state.pending_target].pop(state.pending_their_slot))


# ------------------------------------------------------------------ own display, hands
# Retreat: take any one card of your own display back into your hand, in everyone's sight.
def retreat_playable(state: IvanhoeState, seat: int) -> bool:
    return len(state.displays[seat]) > 1


def retreat_cards(state: IvanhoeState, seat: int) -> list[int]:
    return [A_SLOT + i for i in range(len(state.displays[seat]))]


def retreat(state: IvanhoeState, seat: int) -> None:
    card = state.displays[seat].pop(state.pending_own_slot)
    state.hands[seat].append(card)
    state.known[seat].append(card)


# Knock Down: take a random card from the target's hand, unseen.  Any opponent with cards,
# in or out of the tournament; a Shield guards the hand too (I6, FAQ).
def knock_down_targets(state: IvanhoeState, seat: int) -> list[int]:
    guard = state.rules.shield_blocks_knock_down
    return [o for o in range(state.num_players) if o != seat and state.hands[o]
            and not (guard and state.shield_seat == o)]


def knock_down_playable(state: IvanhoeState, seat: int) -> bool:
    guard = state.rules.shield_blocks_knock_down
    shield = state.shield_seat
    for o, hand in enumerate(state.hands):
        if o != seat and hand and not (guard and shield == o):
            return True
    return False


def knock_down(state: IvanhoeState, seat: int) -> None:
    target = state.pending_target
    hand = state.hands[target]
    state.hands[seat].append(hand.pop(state.rng.randrange(len(hand))))
    state.known[target] = []  # nobody else knows which card went


# ------------------------------------------------------------------ every display
# Outmaneuver: every exposed opponent discards the top card of their display.
def outmaneuver_changes(state: IvanhoeState, seat: int) -> Changes:
    displays = state.displays
    return {o: (d[:-1], d[-1:]) for o in range(state.num_players)
            if state.exposed(seat, o) and len(d := displays[o]) > 1}


def strip_value(state: IvanhoeState, seat: int, lowest: bool) -> Changes:
    """Charge (lowest) / Countercharge (highest printed value): every affected display loses
    the cards of that value.  The value is found over the affected displays, or over all of
    them with `charge_counts_shielded` (I5)."""
    displays = state.displays
    affected = [seat] + [o for o in range(state.num_players) if state.exposed(seat, o)]
    scope = range(state.num_players) if state.rules.charge_counts_shielded else affected
    values = [VALUE[c] for o in scope for c in displays[o]]
    if not values:
        return {}
    v = min(values) if lowest else max(values)
    doomed = [VALUE[t] == v for t in range(NUM_TYPES)]
    return strip_many(displays, affected, doomed)


def charge_changes(state: IvanhoeState, seat: int) -> Changes:
    return strip_value(state, seat, lowest=True)


def countercharge_changes(state: IvanhoeState, seat: int) -> Changes:
    return strip_value(state, seat, lowest=False)


# Disgrace: every affected display, yours included, discards its supporters.
def disgrace_changes(state: IvanhoeState, seat: int) -> Changes:
    affected = [seat] + [o for o in range(state.num_players) if state.exposed(seat, o)]
    return strip_many(state.displays, affected, IS_SUPPORTER)


#: the display-stripping cards: card -> what it would do (empty: illegal, I11)
CHANGES: dict[int, Callable[[IvanhoeState, int], Changes]] = {
    OUTMANEUVER: outmaneuver_changes,
    CHARGE: charge_changes,
    COUNTERCHARGE: countercharge_changes,
    DISGRACE: disgrace_changes,
}


def mass_effect(state: IvanhoeState, seat: int, card: int) -> Changes:
    """{owner: (kept, removed)} for Charge, Countercharge, Disgrace or Outmaneuver."""
    return CHANGES[card](state, seat)


def changes_something(card: int) -> Callable[[IvanhoeState, int], bool]:
    changes = CHANGES[card]

    def playable(state: IvanhoeState, seat: int) -> bool:
        return bool(changes(state, seat))
    return playable


def apply_its_changes(card: int) -> Callable[[IvanhoeState, int], None]:
    changes = CHANGES[card]

    def resolve(state: IvanhoeState, seat: int) -> None:
        apply_changes(state, changes(state, seat))
    return resolve


# Adapt: in every affected display at most one card of each printed value survives; each
# owner, own display first then clockwise, chooses which duplicate to keep (`adapt_queue`).
def adapt_owners(state: IvanhoeState, seat: int) -> list[int]:
    """Displays Adapt would touch (own first, then clockwise), those with a duplicate."""
    return [o for o in seat_orders(state.num_players)[seat] if (o == seat or state.exposed(seat, o))
            and duplicate_values(state.displays[o])]


def adapt_playable(state: IvanhoeState, seat: int) -> bool:
    return bool(adapt_owners(state, seat))


def adapt(state: IvanhoeState, seat: int) -> None:
    state.adapt_queue = [(o, v) for o in adapt_owners(state, seat)
                         for v in duplicate_values(state.displays[o])]


# ------------------------------------------------------------------ Outwit
# Outwit: swap one of your face-up cards (display card, Shield or Stunned) with one of the
# target's.  Neither display may be emptied, no second Maiden (I7), no swap of two identical
# cards; a shielded opponent is out of reach unless `outwit_ignores_shield` (I8).
def face_up(state: IvanhoeState, seat: int) -> list[int]:
    slots = list(range(len(state.displays[seat])))
    if state.shield_seat == seat:
        slots.append(SHIELD_SLOT)
    if state.stunned_seat == seat:
        slots.append(STUNNED_SLOT)
    return slots


def slot_card(state: IvanhoeState, seat: int, slot: int) -> int:
    if slot >= 0:
        return state.displays[seat][slot]
    return SHIELD if slot == SHIELD_SLOT else STUNNED


def swap_ok(state: IvanhoeState, seat: int, ms: int, o: int, ts: int) -> bool:
    """No display emptied, no second Maiden (I7), no swap of two identical cards."""
    mine = slot_card(state, seat, ms)
    theirs = slot_card(state, o, ts)
    if mine == theirs:
        return False
    dm = state.displays[seat]
    do = state.displays[o]
    if ms >= 0 and ts < 0 and len(dm) < 2:
        return False
    if ts >= 0 and ms < 0 and len(do) < 2:
        return False
    if theirs == MAIDEN6 and MAIDEN6 in dm:
        return False
    if mine == MAIDEN6 and MAIDEN6 in do:
        return False
    return True


def outwit_options(state: IvanhoeState, seat: int) -> list[tuple[int, int, int]]:
    """Every legal Outwit swap as (opponent, own slot, their slot)."""
    out: list[tuple[int, int, int]] = []
    mine = face_up(state, seat)
    if not mine:
        return out
    ignore = state.rules.outwit_ignores_shield
    for o in range(state.num_players):
        if o == seat or not state.active[o] or (state.shield_seat == o and not ignore):
            continue
        for ts in face_up(state, o):
            for ms in mine:
                if swap_ok(state, seat, ms, o, ts):
                    out.append((o, ms, ts))
    return out


def outwit_playable(state: IvanhoeState, seat: int) -> bool:
    return bool(outwit_options(state, seat))


def outwit_targets(state: IvanhoeState, seat: int) -> list[int]:
    return sorted({o for o, _, _ in outwit_options(state, seat)})


def outwit_own_cards(state: IvanhoeState, seat: int) -> list[int]:
    target = state.pending_target
    slots = {ms for o, ms, _ in outwit_options(state, seat) if o == target}
    return sorted(slot_action(s) for s in slots)


def outwit_their_cards(state: IvanhoeState, seat: int) -> list[int]:
    target = state.pending_target
    mine = state.pending_own_slot
    return sorted(slot_action(ts) for o, ms, ts in outwit_options(state, seat)
                  if o == target and ms == mine)


def place_beside(state: IvanhoeState, card: int, seat: int) -> None:
    if card == SHIELD:
        state.shield_seat = seat
    else:
        state.stunned_seat = seat


def outwit(state: IvanhoeState, seat: int) -> None:
    """Display cards trade places; one received for a Shield/Stunned goes on top."""
    o = state.pending_target
    ms = state.pending_own_slot
    ts = state.pending_their_slot
    mine = slot_card(state, seat, ms)
    theirs = slot_card(state, o, ts)
    dm = state.displays[seat]
    do = state.displays[o]
    if ms >= 0 and ts >= 0:
        dm[ms], do[ts] = theirs, mine
        return
    if ms >= 0:
        dm.pop(ms)
        do.append(mine)
    else:
        place_beside(state, mine, o)
    if ts >= 0:
        do.pop(ts)
        dm.append(theirs)
    else:
        place_beside(state, theirs, seat)


# ------------------------------------------------------------------ beside a display
# Shield: lies beside your display (not in the discard pile) until you withdraw.
def shield(state: IvanhoeState, seat: int) -> None:
    state.discard.pop()
    state.shield_seat = seat


# Stunned: lies beside one opponent's display (in or not yet in: rules "Targets").
def stunned_targets(state: IvanhoeState, seat: int) -> list[int]:
    return [o for o in range(state.num_players) if o != seat and state.active[o]]


def stunned_playable(state: IvanhoeState, seat: int) -> bool:
    active = state.active
    for o in range(state.num_players):
        if o != seat and active[o]:
            return True
    return False


def stunned(state: IvanhoeState, seat: int) -> None:
    state.discard.pop()
    state.stunned_seat = state.pending_target


# ------------------------------------------------------------------ Ivanhoe
# Ivanhoe: never played on one's own turn; in the window an action card opens it cancels
# that card (both stay in the discard pile).  `IvanhoeState.ivanhoe_window` offers it.
def ivanhoe(state: IvanhoeState, seat: int) -> None:
    state.take_from_hand(seat, IVANHOE)
    state.discard.append(IVANHOE)


#: Opponents each targeted card may be played against (`targets`).
TARGETS: dict[int, Callable[[IvanhoeState, int], list[int]]] = {
    BREAK_LANCE: break_lance_targets,
    RIPOSTE: riposte_targets,
    DODGE: exposed_with_two,
    KNOCK_DOWN: knock_down_targets,
    OUTWIT: outwit_targets,
    STUNNED: stunned_targets,
}


def targets(state: IvanhoeState, seat: int, card: int) -> list[int]:
    """Opponents a targeted action card can be played against right now."""
    return TARGETS[card](state, seat)


def targeted(card: int) -> tuple[int, Options]:
    return (PH_TARGET, target_actions(TARGETS[card]))


_UNITS = (
    ActionCard(UNHORSE, unhorse_playable, new_colour, [(PH_COLOUR, unhorse_colours)]),
    ActionCard(CHANGE_WEAPON, weapon_tournament, new_colour,
               [(PH_COLOUR, change_weapon_colours)]),
    ActionCard(DROP_WEAPON, weapon_tournament, drop_weapon),
    ActionCard(BREAK_LANCE, break_lance_playable, break_lance, [targeted(BREAK_LANCE)]),
    ActionCard(RIPOSTE, riposte_playable, riposte, [targeted(RIPOSTE)]),
    ActionCard(DODGE, has_exposed_with_two, dodge,
               [targeted(DODGE), (PH_THEIR_SLOT, dodge_cards)]),
    ActionCard(RETREAT, retreat_playable, retreat, [(PH_OWN_SLOT, retreat_cards)]),
    ActionCard(KNOCK_DOWN, knock_down_playable, knock_down, [targeted(KNOCK_DOWN)]),
    ActionCard(OUTMANEUVER, changes_something(OUTMANEUVER), apply_its_changes(OUTMANEUVER)),
    ActionCard(CHARGE, changes_something(CHARGE), apply_its_changes(CHARGE)),
    ActionCard(COUNTERCHARGE, changes_something(COUNTERCHARGE), apply_its_changes(COUNTERCHARGE)),
    ActionCard(DISGRACE, changes_something(DISGRACE), apply_its_changes(DISGRACE)),
    ActionCard(ADAPT, adapt_playable, adapt),
    ActionCard(OUTWIT, outwit_playable, outwit,
               [targeted(OUTWIT), (PH_OWN_SLOT, outwit_own_cards),
                (PH_THEIR_SLOT, outwit_their_cards)]),
    ActionCard(SHIELD, always, shield),
    ActionCard(STUNNED, stunned_playable, stunned, [targeted(STUNNED)]),
    ActionCard(IVANHOE, never, ivanhoe),
)

#: Every action card's unit, by card type (None for colour cards and supporters).
CARDS: tuple[ActionCard | None, ...] = tuple(
    next((u for u in _UNITS if u.card == t), None) for t in range(NUM_TYPES))
#: `CARDS[t].playable`, as one table for the legal-move loop (hot path).
PLAYABLE = tuple(u.playable if u else None for u in CARDS)
#: The cards whose first choice is an opponent.
TARGETED = tuple(u.card for u in _UNITS if u.first_choice == PH_TARGET)
assert sorted(TARGETS) == sorted(TARGETED)
assert sum(u is not None for u in CARDS) == 17
