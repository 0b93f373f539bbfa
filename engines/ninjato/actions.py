"""Action and phase numbering: every decision is one small int.

A raid is a sequence of these: place on a house (force/stealth), then per guard a base
play (a dojo card or Boryaku) and modifiers (Ki +-1, skills) until the play beats the
guard (it then resolves at once) or the raider gives up; after each win, banzai or retreat.
"""

from __future__ import annotations

from typing import Final

from engines.ninjato.components import CLAN_NAMES, EFFECTS, TREASURE_NAMES

# Every number here is `Final`: compiled with mypyc, a Final int is inlined where it is used
# (a plain module global would be a dictionary look-up at every use).

# phases
PH_PLACE: Final = 0
PH_PAY: Final = 1
PH_SKILLPAY: Final = 2
PH_DISCARD: Final = 3
PH_FIGHT: Final = 4
PH_CHOICE: Final = 5
PH_KEEP: Final = 6
PH_TOKEN: Final = 7
PH_DISGUISE: Final = 8
PH_REWARD1: Final = 9
PH_REWARD2: Final = 10
PH_DRAW: Final = 11
PH_END: Final = 12

# placement: dojo (its first draw), sensei slot, house*2+approach, palace slot, pavilion
# slot; a dojo visit is a sequence of draws, the first one placing the shuriken and the
# others in phase DRAW, each a face-up card or the deck's top card
A_DOJO: Final = 0          # first of the dojo draws
A_TAKE: Final = 0          # + card value - 1: take a face-up card of that value
A_DECK: Final = 5          # draw the top card of the deck (seen by the drawer only)
A_SENSEI: Final = 8        # + slot (0..3)
A_HOUSE: Final = 12        # + house*2 + approach (0 force, 1 stealth)
A_PALACE: Final = 22       # + slot
A_PAVILION: Final = 26     # + slot
A_PAY: Final = 30          # + payment option index (0..15)
A_SKILLPAY: Final = 46     # + card value - 1
A_DISCARD: Final = 51      # + card value - 1
A_BASE: Final = 56         # + card value - 1: play a dojo card (a Ki alone counts as 3)
A_BOR2: Final = 61         # Boryaku as a 2
A_BOR4: Final = 62         # Boryaku as a 4
A_KI_PLUS: Final = 63
A_KI_MINUS: Final = 64
A_MINUS2: Final = 65
A_PLUS2: Final = 66
A_PM1_PLUS: Final = 67
A_PM1_MINUS: Final = 68
A_ZERO: Final = 69
A_SIX: Final = 70
A_SWITCH: Final = 71
A_GIVE_UP: Final = 72
A_REFRESH: Final = 73      # + effect index (0..8)
A_BANZAI: Final = 82
A_RETREAT: Final = 83
A_KEEP: Final = 84         # + treasure type
A_SWAP: Final = 89         # + give*10 + take*2 + side (0 plain, 1 red)
A_TOKEN: Final = 139       # + clan*5 + value index
A_DISGUISE: Final = 154    # + envoy id (0..20)
A_HONOUR: Final = 175
A_RUMOUR: Final = 176      # + pavilion slot
NUM_ACTIONS: Final = 180

_SIMPLE = {
    A_BOR2: "boryaku as 2", A_BOR4: "boryaku as 4", A_KI_PLUS: "ki +1", A_KI_MINUS: "ki -1",
    A_MINUS2: "shinobi-iri -2", A_PLUS2: "kenjutsu +2", A_PM1_PLUS: "taijutsu +1",
    A_PM1_MINUS: "taijutsu -1", A_ZERO: "inton-jutsu set 0", A_SIX: "set 6",
    A_SWITCH: "switch force/stealth", A_GIVE_UP: "give up (raid fails)", A_BANZAI: "banzai",
    A_RETREAT: "retreat", A_HONOUR: "take clan honour",
}


def action_to_str(a: int) -> str:
    """Human-readable name of an action (for logs and errors)."""
    if a in _SIMPLE:
        return _SIMPLE[a]
    if a < A_DECK:
        return f"dojo: take the face-up {a - A_TAKE + 1}"
    if a < A_SENSEI:
        return "dojo: draw from the deck"
    if a < A_HOUSE:
        return f"sensei slot {a - A_SENSEI}"
    if a < A_PALACE:
        h, ap = divmod(a - A_HOUSE, 2)
        return f"raid house {h} by {'stealth' if ap else 'force'}"
    if a < A_PAVILION:
        return f"palace slot {a - A_PALACE}"
    if a < A_PAY:
        return f"pavilion slot {a - A_PAVILION}"
    if a < A_SKILLPAY:
        return f"pay option {a - A_PAY}"
    if a < A_DISCARD:
        return f"pay skill with a {a - A_SKILLPAY + 1}"
    if a < A_BASE:
        return f"discard a {a - A_DISCARD + 1}"
    if a < A_BOR2:
        return f"play a {a - A_BASE + 1}"
    if A_REFRESH <= a < A_BANZAI:
        return f"refresh {EFFECTS[a - A_REFRESH]}"
    if A_KEEP <= a < A_SWAP:
        return f"keep {TREASURE_NAMES[a - A_KEEP]}"
    if A_SWAP <= a < A_TOKEN:
        g, rest = divmod(a - A_SWAP, 10)
        t, side = divmod(rest, 2)
        return f"choho: give {TREASURE_NAMES[g]}, take {'red' if side else 'plain'} " \
               f"{TREASURE_NAMES[t]}"
    if A_TOKEN <= a < A_DISGUISE:
        c, v = divmod(a - A_TOKEN, 5)
        return f"token {CLAN_NAMES[c]} #{v}"
    if A_DISGUISE <= a < A_HONOUR:
        return f"disguise envoy {a - A_DISGUISE}"
    if A_RUMOUR <= a < NUM_ACTIONS:
        return f"take rumour slot {a - A_RUMOUR}"
    return str(a)


# --- game systems: every kind of decision, named as a player would -------------
ACTION_KINDS = (
    "dojo", "dojo face-up card", "dojo deck draw", "sensei skill", "sensei disguise",
    "raid by force", "raid by stealth", "palace envoy", "pavilion rumour", "treasure payment",
    "skill payment card",
    "hand limit discard", "fight with a dojo card", "boryaku", "ki", "shinobi-iri -2",
    "kenjutsu +2", "taijutsu +1 or -1", "inton-jutsu 0", "set to 6",
    "switch force and stealth", "refresh a skill", "choho swap", "give up", "banzai",
    "retreat", "keep a treasure", "clan token", "disguise an envoy", "reward honour",
    "reward rumour",
)
K_DOJO: Final = ACTION_KINDS.index("dojo")
K_SENSEI_SKILL: Final = ACTION_KINDS.index("sensei skill")
K_SENSEI_DISGUISE: Final = ACTION_KINDS.index("sensei disguise")


def _kind_table() -> tuple[int, ...]:
    """Kind index of every action number; a Sensei slot reads as a skill and a dojo draw as
    a later draw (the state tells a Disguise tile and a placement's first draw, the dojo
    visit, apart: `NinjatoState.action_kind`)."""
    spans = (
        (A_TAKE, A_DECK, "dojo face-up card"), (A_DECK, A_SENSEI, "dojo deck draw"),
        (A_SENSEI, A_HOUSE, "sensei skill"),
        (A_PALACE, A_PAVILION, "palace envoy"), (A_PAVILION, A_PAY, "pavilion rumour"),
        (A_PAY, A_SKILLPAY, "treasure payment"), (A_SKILLPAY, A_DISCARD, "skill payment card"),
        (A_DISCARD, A_BASE, "hand limit discard"), (A_BASE, A_BOR2, "fight with a dojo card"),
        (A_BOR2, A_BOR4 + 1, "boryaku"), (A_KI_PLUS, A_KI_MINUS + 1, "ki"),
        (A_MINUS2, A_MINUS2 + 1, "shinobi-iri -2"), (A_PLUS2, A_PLUS2 + 1, "kenjutsu +2"),
        (A_PM1_PLUS, A_PM1_MINUS + 1, "taijutsu +1 or -1"), (A_ZERO, A_ZERO + 1, "inton-jutsu 0"),
        (A_SIX, A_SIX + 1, "set to 6"), (A_SWITCH, A_SWITCH + 1, "switch force and stealth"),
        (A_GIVE_UP, A_GIVE_UP + 1, "give up"), (A_REFRESH, A_BANZAI, "refresh a skill"),
        (A_BANZAI, A_BANZAI + 1, "banzai"), (A_RETREAT, A_RETREAT + 1, "retreat"),
        (A_KEEP, A_SWAP, "keep a treasure"), (A_SWAP, A_TOKEN, "choho swap"),
        (A_TOKEN, A_DISGUISE, "clan token"), (A_DISGUISE, A_HONOUR, "disguise an envoy"),
        (A_HONOUR, A_HONOUR + 1, "reward honour"), (A_RUMOUR, NUM_ACTIONS, "reward rumour"),
    )
    table = [-1] * NUM_ACTIONS
    for lo, hi, name in spans:
        table[lo:hi] = [ACTION_KINDS.index(name)] * (hi - lo)
    force, stealth = ACTION_KINDS.index("raid by force"), ACTION_KINDS.index("raid by stealth")
    for a in range(A_HOUSE, A_PALACE):
        table[a] = stealth if (a - A_HOUSE) & 1 else force
    assert -1 not in table, "an action number without a kind"
    return tuple(table)


#: action number -> index into ACTION_KINDS
KIND_OF: Final = _kind_table()
#: `State.kind_table`: KIND_OF where the action alone tells the kind, -1 for the dojo draws
#: (the first one of a visit is the placement) and the Sensei slots (skill or Disguise)
KIND_TABLE: Final = tuple(-1 if a < A_HOUSE else k for a, k in enumerate(KIND_OF))
