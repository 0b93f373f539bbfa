"""Typed bot options: the strings of a spec (`mcts:iterations=50,c=0.7`) checked once for
every bot that takes options, so each bad value ends as the same kind of `BotSpecError`
naming the bot and the option."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engines.bots import BotSpecError

__all__ = ["Param", "check_known", "param", "parse_choice", "parse_flag", "parse_float",
           "parse_int", "typed_known", "typed_options"]


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


@dataclass(frozen=True)
class Param:
    """A documented heuristic weight or switch: its type, default and sensible range.

    `simulate list` prints a game's parameters and `simulate tune --vary NAME` searches them;
    the range is what the weight was designed for (values outside it are refused by the
    tuner).  `kind` is int, float, bool or choice; `grid` is the values a bare `--vary NAME`
    tries (default: an even spread over the range)."""

    name: str
    kind: str
    default: int | float | bool | str
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    grid: tuple[str, ...] = ()

    def describe(self) -> str:
        """`name=default [range]  help`, as `simulate list` shows it."""
        if self.kind == "bool":
            span = "true|false"
        elif self.kind == "choice":
            span = "|".join(self.choices)
        else:
            span = f"{_num(self.low)}..{_num(self.high)}"
        return f"{self.name}={_num(self.default)} [{span}]  {self.help}"

    def parse(self, bot: str, raw: str | float | bool) -> int | float | bool | str:
        """The option's typed value (no range check: the range guides tuning, and a bot
        may be played outside it)."""
        if self.kind == "bool":
            return parse_flag(bot, self.name, raw)  # type: ignore[arg-type]
        if self.kind == "choice":
            return parse_choice(bot, self.name, str(raw), self.choices)
        if self.kind == "int":
            return parse_int(bot, self.name, raw)  # type: ignore[arg-type]
        try:
            value = float(raw)
        except ValueError:
            raise BotSpecError(f"{bot} option {self.name}= expects a number, got {raw!r}") \
                from None
        if not math.isfinite(value):
            raise BotSpecError(f"{bot} option {self.name}= must be finite, got {raw!r}")
        return value

    def canonical(self, raw: str) -> str:
        """The value in its one written form (`0.50` -> `0.5`, `on` -> `true`); a value of the
        wrong type or outside the range raises `BotSpecError`."""
        where = "heuristic"
        if self.kind == "bool":
            return "true" if parse_flag(where, self.name, raw) else "false"
        if self.kind == "choice":
            return parse_choice(where, self.name, raw, self.choices)
        if self.kind == "int":
            value: float = parse_int(where, self.name, raw)
        else:
            try:
                value = float(raw)
            except ValueError:
                raise BotSpecError(f"{where} option {self.name}= expects a number, "
                                   f"got {raw!r}") from None
        assert self.low is not None and self.high is not None
        if not (self.low <= value <= self.high) or not math.isfinite(value):
            raise BotSpecError(f"{self.name}={raw} is outside its range "
                               f"{_num(self.low)}..{_num(self.high)}")
        return _num(value)

    def values(self) -> tuple[str, ...]:
        """The values a bare `--vary NAME` tries."""
        if self.grid:
            return self.grid
        if self.kind == "bool":
            return ("false", "true")
        if self.kind == "choice":
            return self.choices
        assert self.low is not None and self.high is not None
        if self.kind == "int" and self.high - self.low <= 6:
            return tuple(str(v) for v in range(int(self.low), int(self.high) + 1))
        steps = 5
        return tuple(dict.fromkeys(
            _num(round(self.low + (self.high - self.low) * i / (steps - 1), 3)
                 if self.kind == "float" else
                 round(self.low + (self.high - self.low) * i / (steps - 1)))
            for i in range(steps)))


def _num(value: object) -> str:
    """A number written shortest (2.0 -> 2, 0.50 -> 0.5); other values as they are."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:g}"
    return str(value)


def typed_options(bot: str, params: Iterable[Param], options: Mapping[str, str]
                  ) -> dict[str, int | float | bool | str]:
    """A spec's option strings as typed values; an option no parameter names is refused."""
    by_name = {p.name: p for p in params}
    check_known(bot, options, by_name)
    return {k: by_name[k].parse(bot, v) for k, v in options.items()}


def typed_known(bot: str, params: Iterable[Param], options: Mapping[str, object]
                ) -> dict[str, object]:
    """Options whose name a parameter declares, as that parameter's type (compiled bots take
    a float as a float, not as text); the others as given."""
    by_name = {p.name: p for p in params}
    return {k: by_name[k].parse(bot, v) if k in by_name else v  # type: ignore[arg-type]
            for k, v in options.items()}


def param(params: Iterable[Param], name: str) -> Param:
    """The parameter called `name`; an unknown name raises with the known ones."""
    params = tuple(params)
    for p in params:
        if p.name == name:
            return p
    known = ", ".join(p.name for p in params) or "(none)"
    raise BotSpecError(f"no heuristic parameter {name!r}; parameters: {known}")
