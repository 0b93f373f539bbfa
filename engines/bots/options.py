"""Typed bot options: the strings of a spec (`mcts:iterations=50,c=0.7`) checked once for
every bot that takes options, so each bad value ends as the same kind of `BotSpecError`
naming the bot and the option."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from engines.bots import BotSpecError

__all__ = ["check_known", "parse_choice", "parse_flag", "parse_float", "parse_int"]


def check_known(bot: str, options: Mapping[str, str], known: Iterable[str]) -> None:
    """Reject the first (alphabetically) option `bot` does not take."""
    known = tuple(known)
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise BotSpecError(
            f"unknown {bot} option {unknown[0]!r}; known options: {', '.join(known)}"
        )


def parse_int(bot: str, key: str, raw: str | int, minimum: int | None = None,
              maximum: int | None = None) -> int:
    """An integer in minimum..maximum (a cap keeps a typo's extra zeros from starting a run
    that never ends)."""
    try:
        value = int(raw)
    except ValueError:
        raise BotSpecError(f"{bot} option {key}= expects an integer, got {raw!r}") from None
    if minimum is not None and value < minimum:
        raise BotSpecError(f"{bot} option {key}= must be >= {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise BotSpecError(f"{bot} option {key}= must be at most {maximum:,}, got {value:,}")
    return value


def parse_float(bot: str, key: str, raw: str, positive: bool = False,
                maximum: float | None = None) -> float:
    """A finite number >= 0 (> 0 with `positive`), at most `maximum`."""
    try:
        value = float(raw)
    except ValueError:
        raise BotSpecError(f"{bot} option {key}= expects a number, got {raw!r}") from None
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        bound = "> 0" if positive else ">= 0"
        raise BotSpecError(f"{bot} option {key}= must be a finite number {bound}, got {raw!r}")
    if maximum is not None and value > maximum:
        raise BotSpecError(f"{bot} option {key}= must be at most {maximum:g}, got {raw!r}")
    return value


def parse_choice(bot: str, key: str, raw: str, choices: tuple[str, ...]) -> str:
    if raw not in choices:
        raise BotSpecError(f"{bot} option {key}= must be one of {'|'.join(choices)}, got {raw!r}")
    return raw


def parse_flag(bot: str, key: str, raw: str | bool) -> bool:
    """An on/off option: a bool, or true/false, 1/0, yes/no, on/off as text."""
    if isinstance(raw, bool):
        return raw
    text = str(raw).lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise BotSpecError(f"{bot} option {key}= expects true/false, got {raw!r}")
