"""The one exception for a mistake in what the user gave: an option, a rule, a bot spec, a
component data file, an experiment file, a transcript.

Validation raises `BadInput` with a message that names the input and says what is wrong;
`simulate` prints it as one line `error: ...` and exits 2.  Any other exception reaching the
command line is a bug in the toolkit and is reported as one (exit 1), so a broken plot or an
engine crash never passes for a typo.  It subclasses `ValueError` so that code catching
`ValueError` around a parse keeps working.
"""

from __future__ import annotations


class BadInput(ValueError):
    """A mistake in what the user gave, found before any work starts."""
