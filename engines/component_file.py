"""Reading a user's component data file (`--rule components=PATH`), for every game that has one.

One reader, so that every game refuses a missing file, a file that is not TOML/JSON and a
file of the wrong shape with the same one-line `ValueError` naming the file (the CLI prints
it as `error: ...` and exits 2 before anything runs).  Each game's `components.load` reads
with `read` and `parse`, and builds its data set inside `wrong_shape`.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from engines.errors import BadInput
from engines.user_files import read_user_bytes

FORMATS = {".toml": "TOML", ".json": "JSON"}


def read(path: str) -> bytes:
    """The file's bytes; BadInput if it does not exist, cannot be read or is far too large
    (`engines.user_files`)."""
    if Path(path).suffix.lower() not in FORMATS:
        raise BadInput(f"components file {path} must be a .toml or .json file")
    return read_user_bytes(path, "components file")


def parse(path: str, raw: bytes, known: Collection[str]) -> dict[str, Any]:
    """The file's top-level table (TOML, or JSON for `.json`), whose keys must be in `known`."""
    kind = FORMATS[Path(path).suffix.lower()]
    try:
        data = json.loads(raw) if kind == "JSON" else tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise BadInput(f"components file {path} is not valid {kind}: {exc}") from None
    if not isinstance(data, dict):
        raise BadInput(f"components file {path} has the wrong shape: the top level must be "
                         f"a table of component keys, not a {type(data).__name__}")
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise BadInput(f"components file {path} has the wrong shape: unknown key "
                         f"{unknown[0]!r}; known keys: {', '.join(known)}")
    return data


@contextmanager
def wrong_shape(path: str) -> Iterator[None]:
    """Turn what a game's data-set builder raises on misshapen tables into one ValueError."""
    try:
        yield
    except KeyError as exc:
        raise BadInput(f"components file {path} has the wrong shape: missing key {exc}") \
            from None
    except (TypeError, ValueError, IndexError, AttributeError) as exc:
        detail = str(exc).removeprefix("components: ")
        raise BadInput(f"components file {path} has the wrong shape: {detail}") from None
