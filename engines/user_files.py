"""Reading a file the user names (a components file, an experiment file, a style file, a
transcript, a run's manifest): one reader, so every such file is refused the same way when
it is missing, is not a regular file, or is too large to be what it claims to be.

Without a cap, a components file that is a symlink to /dev/zero (or just a huge file) is
read until memory runs out; here it is one `BadInput` line before anything is read.
"""

from __future__ import annotations

import os
from pathlib import Path

from engines.errors import BadInput

#: The largest user file read (the shipped data sets, experiment files and transcripts are a
#: few kB; a manifest with a whole component data table some 30 kB).
MAX_BYTES = 10 * 2**20


def read_user_bytes(path: str | os.PathLike, what: str,
                    error: type[BadInput] = BadInput) -> bytes:
    """The bytes of the file `what` (`components file`) at `path`; `error` (one line naming
    the file) when it does not exist, is not a regular file (a device such as /dev/zero, a
    pipe, a directory) or holds more than `MAX_BYTES`."""
    file = Path(path)
    if not file.exists():
        raise error(f"{what} {path} does not exist")
    if not file.is_file():
        raise error(f"{what} {path} is not a regular file (a device, a pipe or a directory)")
    try:
        with file.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)  # never more, whatever the size says
    except OSError as exc:
        raise error(f"cannot read {what} {path}: {exc.strerror}") from None
    if len(data) > MAX_BYTES:
        raise error(f"{what} {path} is larger than {MAX_BYTES // 2**20} MB, far more than "
                    f"any {what} holds; is it the right file?")
    return data


def read_user_file(path: str | os.PathLike, what: str,
                   error: type[BadInput] = BadInput) -> str:
    """`read_user_bytes` as UTF-8 text (UnicodeDecodeError for a file that is not)."""
    return read_user_bytes(path, what, error).decode("utf-8")
