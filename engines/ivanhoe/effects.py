"""Pure display arithmetic shared by the rules and the bots (no state, no side effects)."""

from __future__ import annotations

from collections.abc import Sequence

from engines.ivanhoe.components import VALUE


def strip(display: list[int], doomed: Sequence[bool]) -> tuple[list[int], list[int]]:
    """Remove every card whose type is doomed; the earliest card stays if all would go."""
    kept = [c for c in display if not doomed[c]]
    if not kept and display:
        kept = [display[0]]
        removed = display[1:]
    else:
        removed = [c for c in display if doomed[c]]
    return kept, removed


def strip_many(
    displays: Sequence[list[int]], owners: Sequence[int], doomed: Sequence[bool]
) -> dict[int, tuple[list[int], list[int]]]:
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
