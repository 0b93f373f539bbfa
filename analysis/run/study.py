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
#: The most values one `--vary` range (`lo..hi:step`) may list, and the most settings one
#: sweep, search or tuning grid may have (each is a run of its own): counted before any is
#: listed, so `--vary KEY=0..10**12` is refused instead of filling memory.
MAX_VALUES = 1000
MAX_CELLS = 1000


#: The most bootstrap replicates an interval may ask for (the defaults are 100-200; more than
#: this narrows nothing an output shows, and each replicate is a pass over the games).
MAX_BOOTSTRAP = 10_000


def check_bootstrap(replicates: int) -> None:
    """`--bootstrap`: 0 (no intervals) up to `MAX_BOOTSTRAP` replicates."""
    if not 0 <= replicates <= MAX_BOOTSTRAP:
        raise BadInput(f"--bootstrap must be >= 0 and at most {MAX_BOOTSTRAP:,} replicates, "
                       f"got {replicates:,}")


def check_total(games: int, what: str = "--games") -> int:
    """A study of several runs (levels, cells, seatings, candidates) asks for at most
    `MAX_GAMES` in all, as one run does; checked before anything is written."""
    if games > MAX_GAMES:
        raise BadInput(f"{what} asks for {games:,} games in all; at most {MAX_GAMES:,} "
                       "(10**15)")
    return games


def check_count(count: int, most: int, what: str) -> None:
    """At most `most` of something a user's ranges and grids make (`what` names them)."""
    if count > most:
        raise BadInput(f"{what}: {count:,}, at most {most:,}")


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
