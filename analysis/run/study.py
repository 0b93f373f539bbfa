"""The fields every study names — game, player count, games, one bot spec per seat, run seed,
rule options — declared and checked once.  A run, a duplicate comparison, a planned run of an
experiment, a what-if sweep and a seat explanation are each a `StudySpec` with their own
fields after these."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines import get_game, kit
from engines.bots import make_bot
from engines.errors import BadInput

#: The most games one run may ask for: a run of any size up to this is planned lazily and
#: starts at once, but 10**15 games would take some 30,000 years at a million games a
#: second, so a larger count is a typo (and game indices must fit Parquet's int64).
MAX_GAMES = 10**15


@dataclass(frozen=True, kw_only=True)
class StudySpec:
    """What to play: `bots` has one spec per seat (a run rotates them over seats); `rules`
    are rule options as given (strings from the command line or typed values); `checked`
    turns them into the game's validated `Rules`.  Every field, here and in the subclasses,
    is given by name: no call can put one field in another's place."""

    game: str
    players: int
    games: int
    bots: tuple[str, ...]
    seed: int
    rules: dict[str, Any] = field(default_factory=dict)

    def check_own(self) -> None:
        """A study's own checks, made right after the game counts (none here)."""

    def checked(self) -> Any:
        """Check everything a worker would trip over, before any process starts: the game,
        player count, game count, seed, one bot per seat, the rule options (and the data set
        they name) and every bot spec.  Returns the validated `Rules`."""
        game = get_game(self.game)
        game.check_players(self.players)
        if self.games <= 0:
            raise BadInput(f"--games must be positive, got {self.games}")
        if self.games > MAX_GAMES:
            raise BadInput(f"--games must be at most {MAX_GAMES:,} (10**15), got {self.games:,}")
        self.check_own()
        if self.seed < 0:
            raise BadInput(f"--seed must be >= 0, got {self.seed}")
        if len(self.bots) != self.players:
            raise BadInput(f"{len(self.bots)} bots for {self.players} players")
        rules = game.checked_rules(**self.rules)  # bad options or components file: ValueError
        kit.check_seat_bonus(rules, self.players)  # one value per seat (needs the players)
        for spec in self.bots:
            make_bot(spec, game)
        return rules
