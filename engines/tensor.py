"""Fixed-length numeric vectors of observations, for learning agents (PettingZoo, OpenSpiel).

An observation (`State.observation(seat)`, a dict of ints, bools, strings and nested lists) is
encoded by a per-game `TensorSchema`: an ordered list of `(key, spec)` entries where `spec` is

- `"int"`: one number (a bool is 0/1, None is -1);
- `("enum", (v0, v1, ...))`: a one-hot over the listed values (phase names and the like);
- `(c1, c2, ...)`: a list nested to that depth with at most `c1` items at the top, `c2`
  in each item, ...; every (sub)list is written as its length followed by its items, padded
  with zeros to the cap.  A number where a list is expected (a count without contents,
  e.g. how many secret placements an opponent made) fills the length slot alone; None
  writes -1 there.

The vector is a function of the observation alone, so a seat's vector never depends on
what it cannot see.  `TensorSchema.layout()` documents where each key lives.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

Spec = Any  # "int" | ("enum", values) | tuple[int, ...]


def _size(spec: Spec) -> int:
    if spec == "int":
        return 1
    if spec[0] == "enum":
        return len(spec[1])
    return _nested_size(tuple(spec))


def _nested_size(caps: tuple[int, ...]) -> int:
    if not caps:
        return 1
    return 1 + caps[0] * _nested_size(caps[1:])


def _scalar(value: Any) -> float:
    return -1.0 if value is None else float(value)


class TensorSchema:
    """How one game's observations (for a player count and rules) become a vector."""

    def __init__(self, entries: Sequence[tuple[str, Spec]]):
        self.entries = list(entries)
        self.offsets: dict[str, tuple[int, int]] = {}
        offset = 0
        for key, spec in self.entries:
            size = _size(spec)
            self.offsets[key] = (offset, size)
            offset += size
        self.size = offset

    def layout(self) -> list[tuple[str, int, int, str]]:
        """`(key, offset, size, spec)` for every entry, in vector order (documentation)."""
        return [(key, *self.offsets[key], str(spec)) for key, spec in self.entries]

    def encode(self, observation: dict) -> np.ndarray:
        """The observation as a float32 vector of length `size`; raises if a key is unknown
        or a list is longer than its cap (the schema is then wrong)."""
        extra = set(observation) - set(self.offsets)
        if extra:
            raise ValueError(f"observation keys not in the tensor schema: {sorted(extra)}")
        out = np.zeros(self.size, dtype=np.float32)
        for key, spec in self.entries:
            offset, size = self.offsets[key]
            value = observation.get(key)  # a key shown only sometimes is None when absent
            if spec == "int":
                out[offset] = _scalar(value)
            elif spec[0] == "enum":
                out[offset + spec[1].index(value)] = 1.0
            else:
                self._nested(out, offset, tuple(spec), value, key)
        return out

    def _nested(self, out: np.ndarray, offset: int, caps: tuple[int, ...], value: Any,
                key: str) -> None:
        if not caps:
            out[offset] = _scalar(value)
            return
        if value is None:
            out[offset] = -1.0
            return
        if not isinstance(value, (list, tuple)):
            out[offset] = _scalar(value)  # a count standing for contents this seat cannot see
            return
        if len(value) > caps[0]:
            raise ValueError(f"observation {key!r}: {len(value)} items, schema allows {caps[0]}")
        out[offset] = len(value)
        if len(caps) == 1 and None not in value:  # a list of numbers: one slice assignment
            out[offset + 1:offset + 1 + len(value)] = value
            return
        step = _nested_size(caps[1:])
        position = offset + 1
        for item in value:
            self._nested(out, position, caps[1:], item, key)
            position += step


@functools.cache
def schema_for(spec: tuple) -> TensorSchema:
    """The schema of a game's `tensor_spec()`, built once per distinct spec."""
    return TensorSchema(spec)
