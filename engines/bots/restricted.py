"""Restricted play (Jaffe et al., AIIDE 2012): a bot forbidden one element of the game.

`RestrictedBot(inner, element)` plays as `inner` does wherever `inner`'s own choice is
allowed; where `inner` picks an action the element forbids (`engines.elements.Element.forbids`)
and the position offers another, it asks `inner` again with only the allowed part of the
legal list (what `state.legal_actions()` returns during that call).  Where every legal action
is forbidden (a sole option) it lets them stand: a restriction never leaves a seat without a
move.  So a restriction that never changes a choice plays the very game the unrestricted bot
plays.  A bot that decides without reading the legal list (a search that copies the position,
a shortcut table) may name a forbidden action again; the wrapper then plays the only allowed
one, or, when several remain, one drawn at random: a guess about the bot's second choice,
counted as one.

Per game (`take_counts`, read by the runner into the `b_` result columns):
`b_forbid_offered` decisions at which the restriction removed an option, `b_forbid_bit` those
at which it changed the bot's choice, `b_forbid_sole` those at which every option was
forbidden and allowed anyway, `b_forbid_guess` those at which the bot named a forbidden
action twice and the wrapper drew among several allowed ones.
"""

from __future__ import annotations

import random
from typing import Any

from engines.core import State
from engines.elements import Element

#: Result column of each count (`take_counts`).
COUNTS = ("forbid_offered", "forbid_bit", "forbid_sole", "forbid_guess")
OFFERED, BIT, SOLE, GUESS = range(len(COUNTS))


class RestrictedBot:
    """`inner` without one element (see the module doc)."""

    def __init__(self, inner: Any, element: Element) -> None:
        self.inner = inner
        self.element = element
        self.name = getattr(inner, "name", "bot")
        self._counts = [0] * len(COUNTS)

    def choose(self, state: State, rng: random.Random) -> int:
        legal = state.legal_actions()
        element = self.element
        inner = self.inner
        if element.actions.isdisjoint(legal):
            return inner.choose(state, rng)
        allowed = [a for a in legal if not element.forbids(state, a)]
        if len(allowed) == len(legal):
            return inner.choose(state, rng)
        counts = self._counts
        if not allowed:
            counts[SOLE] += 1
            return inner.choose(state, rng)
        counts[OFFERED] += 1
        action = inner.choose(state, rng)
        if action in allowed:
            return action
        counts[BIT] += 1
        state._legal_cache = allowed  # what `legal_actions()` returns until the next move
        try:
            action = inner.choose(state, rng)
        finally:
            state._legal_cache = legal
        if action in allowed:
            return action
        if len(allowed) == 1:
            return allowed[0]
        counts[GUESS] += 1
        return allowed[rng.randrange(len(allowed))]

    def take_counts(self) -> dict[str, int]:
        """The counts since the last call (one game's, as the runner calls it after each)."""
        out = dict(zip(COUNTS, self._counts))
        self._counts = [0] * len(COUNTS)
        return out
