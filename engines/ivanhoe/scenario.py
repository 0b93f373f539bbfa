"""Builders for exact Ivanhoe positions (scenario tests, analysis of a given situation)."""

from __future__ import annotations

from collections import Counter

from engines.ivanhoe.actions import A_PLAY, A_SLOT, A_TARGET, PH_PLAY
from engines.ivanhoe.components import COPIES, RED, SHIELD, STUNNED, full_deck
from engines.ivanhoe.rules import Rules
from engines.ivanhoe.state import IvanhoeState


def P(card: int) -> int:
    """Play a card of this type."""
    return A_PLAY + card


def T(seat: int) -> int:
    """Target this opponent."""
    return A_TARGET + seat


def S(index: int) -> int:
    """This display position (0 = earliest played)."""
    return A_SLOT + index


def make(
    n: int = 3,
    colour: int = RED,
    hands: list[list[int]] | None = None,
    displays: list[list[int]] | None = None,
    turn: int = 0,
    active: list[bool] | None = None,
    tokens: list[int] | None = None,
    shield: int = -1,
    stunned: int = -1,
    played: bool = False,
    last_final: int = -1,
    deck: list[int] | None = None,
    rules: Rules | None = None,
) -> IvanhoeState:
    """A position in the middle of `turn`'s turn (after the draw), built from the arguments.

    Unless `deck` is given, every card not placed goes to the draw pile (so all 110 cards
    are accounted for).
    """
    st = IvanhoeState(n, 0, rules or Rules())
    st.hands = [list(h) for h in hands] if hands else [[] for _ in range(n)]
    st.displays = [list(d) for d in displays] if displays else [[] for _ in range(n)]
    st.known = [[] for _ in range(n)]
    st.colour = colour
    st.active = list(active) if active else [True] * n
    st.tokens = list(tokens) if tokens else [0] * n
    st.pool = [5 - sum((t >> c) & 1 for t in st.tokens) for c in range(5)]
    st.shield_seat = shield
    st.stunned_seat = stunned
    st.turn = st.decider = st.starter = turn
    st.phase = PH_PLAY
    st.played = played
    st.added = 0
    st.opening = False
    st.last_final = last_final
    used = Counter(c for h in st.hands for c in h) + Counter(c for d in st.displays for c in d)
    if shield >= 0:
        used[SHIELD] += 1
    if stunned >= 0:
        used[STUNNED] += 1
    if deck is None:
        rest = Counter(full_deck())
        rest.subtract(used)
        assert min(rest.values()) >= 0, "scenario uses more copies than the deck has"
        deck = list(rest.elements())
    st.deck = list(deck)
    st.discard = []
    st.recount()
    st._legal_cache = None
    return st


def census(st: IvanhoeState) -> Counter:
    """Every card wherever it is: hands, draw pile, discards, displays, beside displays."""
    c = Counter(st.deck) + Counter(st.discard)
    for h in st.hands:
        c.update(h)
    for d in st.displays:
        c.update(d)
    if st.shield_seat >= 0:
        c[SHIELD] += 1
    if st.stunned_seat >= 0:
        c[STUNNED] += 1
    return c


FULL = Counter({t: k for t, k in enumerate(COPIES)})
