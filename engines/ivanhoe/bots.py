"""Heuristic Ivanhoe bot: fight for colours worth a token, stop when the deficit is hopeless.

It sees only its own hand and public information (displays, tokens, hand sizes, discards).
"""

from __future__ import annotations

import random

from engines.bots.options import Param
from engines.ivanhoe import cards as card_rules
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
    PH_OWN_SLOT,
    PH_PLAY,
    PH_RETURN,
    PH_START,
    PH_TARGET,
    PH_THEIR_SLOT,
    SHIELD_SLOT,
    STUNNED_SLOT,
    slot_action,
)
from engines.ivanhoe.components import (
    ADAPT,
    BREAK_LANCE,
    CHANGE_WEAPON,
    CHARGE,
    COLOUR_OF,
    COUNTERCHARGE,
    DISGRACE,
    DODGE,
    DROP_WEAPON,
    FIRST_ACTION,
    GREEN,
    KNOCK_DOWN,
    MAIDEN6,
    OUTMANEUVER,
    OUTWIT,
    PURPLE,
    RETREAT,
    RIPOSTE,
    SHIELD,
    SQUIRE2,
    STUNNED,
    UNHORSE,
    VALUE,
)
from engines.ivanhoe.state import IvanhoeState

HURTS_TARGET = (BREAK_LANCE, RIPOSTE, DODGE, KNOCK_DOWN, OUTWIT, STUNNED)
MASS = (OUTMANEUVER, CHARGE, COUNTERCHARGE, DISGRACE)
#: Outwit: what moving a Shield or Stunned card is worth to the player who plays it, in
#: display points (taking a Shield protects; handing on the Stunned card frees the hand).
OUTWIT_TAKE = {SHIELD_SLOT: 2, STUNNED_SLOT: -3}
OUTWIT_GIVE = {SHIELD_SLOT: -2, STUNNED_SLOT: 3}


def colour_strength(hand: list[int], colour: int) -> int:
    """What the hand could put on the table in `colour` (green cards count 1)."""
    total = 0
    maiden = False
    for t in hand:
        if t >= FIRST_ACTION:
            continue
        if t == MAIDEN6:
            if maiden:
                continue
            maiden = True
        elif t < SQUIRE2 and COLOUR_OF[t] != colour:
            continue
        total += 1 if colour == GREEN else VALUE[t]
    return total


class HeuristicBot:
    """Greedy jouster that uses every action card when it pays.

    `max_cards`: the most display cards it will commit in one turn to catch up;
    `ivanhoe_min_loss`: the display-total loss (or a targeted attack) that is worth Ivanhoe;
    `swing`: the gain over the best rival (display points) that makes Outwit or Adapt worth
    playing.  Retreat takes a card back before withdrawing: a Maiden (so no token is given
    back) or a card of value 4 or more (it would be discarded).

    Cards spent on a tournament it then loses are gone for the next ones: with
    `save_actions` it plays an action card in a fight its hand cannot win only when the
    card's effect on the displays makes it winnable (Knock Down and colour changes are
    judged as before), and with `stun_entered` it plays Stunned only once it has a display
    card itself (else it helps the others' fight).  It starts the colour its hand is
    strongest in, a green card counted `green_weight` points (every card counts 1 there,
    against a printed value elsewhere), less `contest_cost` per rival who would fight for
    that colour's token (everyone fights for purple).

    Catching up over several turns, it plays its best card first; with `maiden_alone` it
    keeps the Maiden, which counts 6 in every colour but green (and costs a token if it
    withdraws with the Maiden on its display), for a turn where it alone takes the lead.
    """

    name = "heuristic"
    #: Never draws from the `rng` it is given (`mcts` then seeds no policy stream for its
    #: rollouts; `tests/test_mcts.py` plays with an rng that fails when used).
    uses_rng = False
    #: Outwit, Adapt and Retreat in play; `HeuristicV1Bot` (the old default) never plays them.
    whole_deck = True

    def __init__(self, max_cards: int | str = 3, ivanhoe_min_loss: int | str = 4,
                 swing: int | str = 3, save_actions: bool = True,
                 green_weight: float | str = 3.0, contest_cost: float | str = 1.0,
                 stun_entered: bool = True, maiden_alone: bool = False) -> None:
        self.max_cards = int(max_cards)
        self.maiden_alone = bool(maiden_alone)
        self.ivanhoe_min_loss = int(ivanhoe_min_loss)
        self.swing = int(swing)
        self.save_actions = bool(save_actions)
        self.green_weight = float(green_weight)
        self.contest_cost = float(contest_cost)
        self.stun_entered = bool(stun_entered)

    # ------------------------------------------------------------------ dispatch
    def choose(self, state: IvanhoeState, rng: random.Random) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.current_player()
        phase = state.phase
        if phase == PH_PLAY:
            return self._play(state, seat, legal)
        if phase == PH_START:
            return self._start(state, seat, legal)
        if phase == PH_IVANHOE:
            return A_IVANHOE if self._worth_ivanhoe(state, seat) else A_PASS
        if phase == PH_TARGET:
            if state.pending_card == OUTWIT and self.whole_deck:
                return A_TARGET + self._best_outwit(state, seat)[1]
            return self._target(state, seat, legal)
        if phase == PH_COLOUR:
            return max(legal, key=lambda a: colour_strength(state.hands[seat], a - A_COLOUR))
        if phase == PH_THEIR_SLOT:  # Dodge / Outwit: take or remove their best card
            if state.pending_card == OUTWIT and self.whole_deck:
                return slot_action(self._best_outwit(state, seat, state.pending_target,
                                                     state.pending_own_slot)[3])
            d = state.displays[state.pending_target]
            return max(legal, key=lambda a: VALUE[d[a - A_SLOT]] if a >= A_SLOT else 0)
        if phase == PH_OWN_SLOT:  # Retreat / Outwit: give up the weakest card
            if self.whole_deck:
                if state.pending_card == RETREAT:
                    return A_SLOT + self._retreat_slot(state, seat)
                return slot_action(self._best_outwit(state, seat, state.pending_target)[2])
            d = state.displays[seat]
            return min(legal, key=lambda a: VALUE[d[a - A_SLOT]] if a >= A_SLOT else 99)
        if phase == PH_ADAPT:
            return legal[0]
        if phase == PH_RETURN:  # give back the colour most easily won again
            hand = state.hands[seat]
            return max(legal, key=lambda a: colour_strength(hand, a - A_TOKEN))
        if phase == PH_CLAIM:  # purple first: it is the colour never chosen twice in a row
            hand = state.hands[seat]
            return min(legal, key=lambda a: (a - A_TOKEN != PURPLE,
                                             colour_strength(hand, a - A_TOKEN)))
        return legal[0]

    # ------------------------------------------------------------------ colour choice
    def _start(self, state: IvanhoeState, seat: int, legal: list[int]) -> int:
        hand = state.hands[seat]
        owned = state.tokens[seat]

        rivals = [o for o in range(state.num_players) if o != seat]

        def value(a: int) -> float:
            c = a - A_COLOUR
            gain = c == PURPLE or not (owned >> c) & 1
            strength = colour_strength(hand, c) * (self.green_weight if c == GREEN else 1)
            contest = sum(c == PURPLE or not (state.tokens[o] >> c) & 1 for o in rivals)
            return strength + (12 if gain else 0) - self.contest_cost * contest

        return max(legal, key=value)

    # ------------------------------------------------------------------ a turn
    def _wants(self, state: IvanhoeState, seat: int) -> bool:
        """Is this tournament worth winning (a new token, or denying a near-winner)?"""
        c = state.colour
        if c == PURPLE or not (state.tokens[seat] >> c) & 1:
            return True
        near = state.target - 1
        return any(o != seat and state.active[o] and state.tokens[o].bit_count() >= near
                   and not (state.tokens[o] >> c) & 1 for o in range(state.num_players))

    def _need(self, state: IvanhoeState, seat: int) -> int:
        best = 0
        for o in range(state.num_players):
            if o != seat and state.active[o]:
                best = max(best, state.total(o))
        return best + (0 if state.rules.allow_ties else 1)

    def _play(self, state: IvanhoeState, seat: int, legal: list[int]) -> int:
        cards = [a - A_PLAY for a in legal if A_PLAY <= a < A_END]
        display_cards = [t for t in cards if t < FIRST_ACTION]
        if state.opening:
            return A_PLAY + min(display_cards, key=lambda t: (self._worth(state, t), t))
        if not self._wants(state, seat):
            return self._withdraw(state, seat, cards)
        short = self._shortfall(state, seat)
        action = self._useful_action(state, seat, [t for t in cards if t >= FIRST_ACTION])
        if action is not None and self.save_actions and short > 0:
            gain = self._action_gain(state, seat, action)
            if gain is not None and gain < short:
                action = None
        if action is not None:
            return A_PLAY + action
        if A_END in legal:
            return A_END
        deficit = self._need(state, seat) - state.total(seat)
        if display_cards and short <= 0:
            worths = sorted((self._worth(state, t), t) for t in display_cards)
            enough = [t for w, t in worths if w >= deficit]
            if enough:
                return A_PLAY + enough[0]
            if self._cards_needed(state, seat, deficit) <= self.max_cards:
                best = worths[-1][1]
                if self.maiden_alone and best == MAIDEN6 and len(worths) > 1:
                    best = worths[-2][1]
                return A_PLAY + best
        return self._withdraw(state, seat, cards)

    def _shortfall(self, state: IvanhoeState, seat: int) -> float:
        """By how many points the display plus all the hand can add this turn falls short
        of beating the best rival's display (0 or less: the fight can be won)."""
        return self._need(state, seat) - state.total(seat) - self._reach(state, seat)

    def _action_gain(self, state: IvanhoeState, seat: int, card: int) -> int | None:
        """What the action card gains over the best rival (display points); None for
        cards whose worth is not on the displays (Knock Down, colour changes)."""
        if card in (SHIELD, STUNNED):
            return 0
        if card in MASS:
            return self._mass_gain(state, seat, card)
        if card == OUTWIT:
            return self._best_outwit(state, seat)[0]
        if card == ADAPT:
            return self._adapt_gain(state, seat)
        if card not in (DODGE, RIPOSTE, BREAK_LANCE):
            return None
        target = self._target(state, seat, [A_TARGET + o for o in
                                            card_rules.targets(state, seat, card)]) - A_TARGET
        after = list(state.displays)
        theirs = list(after[target])
        if card == DODGE:
            theirs.remove(max(theirs, key=lambda c: VALUE[c]))
        elif card == RIPOSTE:
            after[seat] = after[seat] + [theirs.pop()]
        else:
            theirs = card_rules.strip(theirs, card_rules.IS_PURPLE)[0]
        after[target] = theirs
        return (self._gap(state, seat, after, state.colour)
                - self._gap(state, seat, state.displays, state.colour))

    def _withdraw(self, state: IvanhoeState, seat: int, cards: list[int]) -> int:
        """Withdraw, first taking back with Retreat a card that withdrawing would cost."""
        if self.whole_deck and RETREAT in cards:
            d = state.displays[seat]
            if ((MAIDEN6 in d and state.tokens[seat])
                    or VALUE[d[self._retreat_slot(state, seat)]] >= 4):
                return A_PLAY + RETREAT
        return A_WITHDRAW

    def _retreat_slot(self, state: IvanhoeState, seat: int) -> int:
        """The display card to take back: the Maiden if a token is at stake, else the best."""
        d = state.displays[seat]
        if MAIDEN6 in d and state.tokens[seat]:
            return d.index(MAIDEN6)
        return max(range(len(d)), key=lambda i: (VALUE[d[i]], -i))

    def _worth(self, state: IvanhoeState, t: int) -> int:
        return 1 if state.colour == GREEN else VALUE[t]

    def _playable_values(self, state: IvanhoeState, seat: int) -> list[int]:
        colour = state.colour
        maiden = MAIDEN6 in state.displays[seat]
        out = []
        for t in state.hands[seat]:
            if t >= FIRST_ACTION or (t < SQUIRE2 and COLOUR_OF[t] != colour):
                continue
            if t == MAIDEN6:
                if maiden:
                    continue
                maiden = True
            out.append(self._worth(state, t))
        out.sort(reverse=True)
        if not state.can_add(seat):
            return []
        if state.stunned_seat == seat:
            return out[:1]
        return out

    def _reach(self, state: IvanhoeState, seat: int) -> int:
        return sum(self._playable_values(state, seat))

    def _cards_needed(self, state: IvanhoeState, seat: int, deficit: int) -> int:
        got = 0
        for k, v in enumerate(self._playable_values(state, seat), 1):
            got += v
            if got >= deficit:
                return k
        return 99

    def _leader(self, state: IvanhoeState, seat: int, among: list[int]) -> int:
        return max(among, key=lambda o: (state.total(o), len(state.displays[o]), -o))

    def _useful_action(self, state: IvanhoeState, seat: int, actions: list[int]) -> int | None:
        if not actions:
            return None
        others = [o for o in range(state.num_players) if o != seat and state.active[o]]
        entered = [o for o in others if state.displays[o]]
        for card in (KNOCK_DOWN, STUNNED, SHIELD, DODGE, RIPOSTE, BREAK_LANCE):
            if card not in actions:
                continue
            if card == KNOCK_DOWN:
                return card
            if card == SHIELD:
                if state.displays[seat] and entered:
                    return card
                continue
            targets = card_rules.targets(state, seat, card)
            if card == STUNNED:
                if self.stun_entered and not state.displays[seat]:
                    continue
                if [o for o in targets if state.displays[o]]:
                    return card
                continue
            leader = self._leader(state, seat, entered) if entered else -1
            if leader in targets and state.total(leader) >= state.total(seat):
                if card != RIPOSTE or VALUE[state.displays[leader][-1]] >= 3:
                    return card
        for card in MASS:
            if card in actions and self._mass_gain(state, seat, card) >= 2:
                return card
        for card in (UNHORSE, CHANGE_WEAPON, DROP_WEAPON):
            if card in actions and self._recolour_gain(state, seat, card) >= 4:
                return card
        if self.whole_deck:
            if OUTWIT in actions and self._best_outwit(state, seat)[0] >= self.swing:
                return OUTWIT
            if ADAPT in actions and self._adapt_gain(state, seat) >= self.swing:
                return ADAPT
        return None

    def _best_outwit(self, state: IvanhoeState, seat: int, target: int = -1,
                     own_slot: int | None = None) -> tuple[int, int, int, int]:
        """(gain over the best rival, opponent, own slot, their slot) of the best swap,
        among those that match the choices already made (`target`, `own_slot`)."""
        colour = state.colour
        displays = state.displays
        before = self._gap(state, seat, displays, colour)
        best = (-99, -1, 0, 0)
        for o, ms, ts in card_rules.outwit_options(state, seat):
            if (target >= 0 and o != target) or (own_slot is not None and ms != own_slot):
                continue
            after = list(displays)
            mine = list(displays[seat])
            theirs = list(displays[o])
            if ms >= 0 and ts >= 0:
                mine[ms], theirs[ts] = theirs[ts], mine[ms]
            elif ms >= 0:
                theirs.append(mine.pop(ms))
            elif ts >= 0:
                mine.append(theirs.pop(ts))
            after[seat] = mine
            after[o] = theirs
            gain = (self._gap(state, seat, after, colour) - before
                    + OUTWIT_TAKE.get(ts, 0) + OUTWIT_GIVE.get(ms, 0))
            if gain > best[0]:
                best = (gain, o, ms, ts)
        return best

    def _adapt_gain(self, state: IvanhoeState, seat: int) -> int:
        """Gain over the best rival when every touched display keeps one card per value."""
        after = list(state.displays)
        for o in card_rules.adapt_owners(state, seat):
            seen: set[int] = set()
            kept = []
            for c in after[o]:
                if VALUE[c] not in seen:
                    seen.add(VALUE[c])
                    kept.append(c)
            after[o] = kept
        return (self._gap(state, seat, after, state.colour)
                - self._gap(state, seat, state.displays, state.colour))

    def _gap(self, state: IvanhoeState, seat: int, displays: list[list[int]],
             colour: int) -> int:
        def total(d: list[int]) -> int:
            return len(d) if colour == GREEN else sum(VALUE[c] for c in d)

        best = max((total(displays[o]) for o in range(state.num_players)
                    if o != seat and state.active[o]), default=0)
        return total(displays[seat]) - best

    def _mass_gain(self, state: IvanhoeState, seat: int, card: int) -> int:
        after = list(state.displays)
        for o, (kept, _) in card_rules.mass_effect(state, seat, card).items():
            after[o] = kept
        return (self._gap(state, seat, after, state.colour)
                - self._gap(state, seat, state.displays, state.colour))

    def _recolour_gain(self, state: IvanhoeState, seat: int, card: int) -> int:
        hand = state.hands[seat]
        if card == DROP_WEAPON:
            options = [GREEN]
        elif card == UNHORSE:
            options = [2, 1, 3]
        else:
            options = [c for c in (1, 2, 3) if c != state.colour]
        now = colour_strength(hand, state.colour)
        owned = state.tokens[seat]
        best = -99
        for c in options:
            if (owned >> c) & 1:
                continue
            gain = (colour_strength(hand, c) - now
                    + self._gap(state, seat, state.displays, c)
                    - self._gap(state, seat, state.displays, state.colour))
            best = max(best, gain)
        return best

    # ------------------------------------------------------------------ sub-decisions
    def _target(self, state: IvanhoeState, seat: int, legal: list[int]) -> int:
        card = state.pending_card
        if card == KNOCK_DOWN:
            return max(legal, key=lambda a: (len(state.hands[a - A_TARGET]), -a))
        return max(legal, key=lambda a: (state.total(a - A_TARGET), -a))

    def _worth_ivanhoe(self, state: IvanhoeState, seat: int) -> bool:
        card = state.pending_card
        mine = state.displays[seat]
        if card in HURTS_TARGET:
            if state.pending_target != seat:
                return False
            return card in (KNOCK_DOWN, STUNNED) or state.total(seat) >= self.ivanhoe_min_loss
        if card in MASS:
            change = card_rules.mass_effect(state, state.turn, card).get(seat)
            if change is None:
                return False
            lost = sum(VALUE[c] for c in change[1])
            return lost >= self.ivanhoe_min_loss
        if card == SHIELD:
            return bool(mine) and state.total(state.turn) > state.total(seat)
        if card in (UNHORSE, CHANGE_WEAPON, DROP_WEAPON):
            return bool(mine) and state.total(seat) >= state.total(state.turn)
        return False


#: The default's weights (`simulate list`, `simulate tune`).
PARAMS: tuple[Param, ...] = (
    Param("max_cards", "int", 3, "most display cards committed in one turn to catch up", 1, 6),
    Param("ivanhoe_min_loss", "int", 4, "display-total loss worth cancelling with Ivanhoe",
          1, 8),
    Param("swing", "int", 3, "gain over the best rival that makes Outwit or Adapt worth "
          "playing", 0, 6),
    Param("save_actions", "bool", True, "play an action card in a fight the hand cannot win "
          "only if its effect makes it winnable"),
    Param("green_weight", "float", 3.0, "points a green card counts for when choosing the "
          "colour to start", 1.0, 4.0),
    Param("contest_cost", "float", 1.0, "points a colour loses, when choosing the colour "
          "to start, per rival who would fight for its token", 0.0, 4.0),
    Param("stun_entered", "bool", True, "play Stunned only once the own display has a card"),
    Param("maiden_alone", "bool", False, "play the Maiden to catch up only when it alone "
          "takes the lead (else build with other cards first)"),
)


class HeuristicV1Bot(HeuristicBot):
    """The earlier default heuristic: never plays Outwit, Adapt or Retreat.

    Kept as `heuristic:v1` so that figures made with it can be reproduced and compared; the
    switches added after it default to the settings it played with.
    """

    name = "heuristic:v1"
    whole_deck = False

    def __init__(self, max_cards: int | str = 3, ivanhoe_min_loss: int | str = 4,
                 swing: int | str = 3, save_actions: bool = False,
                 green_weight: float | str = 1.0, contest_cost: float | str = 0.0,
                 stun_entered: bool = False) -> None:
        # Explicit arguments, not a merged `**dict`: the compiled build checks each
        # argument's type, and a merged mapping arrives there as one dict.
        super().__init__(max_cards, ivanhoe_min_loss, swing, save_actions, green_weight,
                         contest_cost, stun_entered)
