"""Variant options of The Big Cheese, defaulting to the official rules and our rulings.

Every ruling that names a flag in `shared/rules/big_cheese.md` is a field here with the
ruling as its default (B1 `all_pass`, B2 `leader_must_open`, B5 `dice`/`target`, B7
`big_cheese_chain`, B8 `veto_any_time`, B10 `final_tie`, B11 `exact`, B12 `max_rounds`), and
so is our ruling on the order of several maturing projects (`exact_order`, see
`docs/deviations.md`).
"""

from dataclasses import dataclass, field

from engines.core import lever_option, seat_bonus_option
from engines.errors import BadInput
from engines.kit import parse_seat_bonus

MAX_CHIPS = 999  # bids are actions 1..chips; 1000+ are the special actions

DEFAULT_TARGET = {"d6": 200, "polyhedral": 40}


@dataclass(frozen=True)
class Rules:
    """Options of one game; `__post_init__` rejects contradictory combinations."""

    dice: str = field(
        default="d6",
        metadata={
            "choices": ("d6", "polyhedral"),
            "help": "d6: one d6 x card value, target 200; polyhedral: the card's own die "
            "(the 2 = odd/even -> 1/2), target 40 (B5, B6)",
        },
    )
    target: int = field(
        default=0,
        metadata={"range": (0, 100_000),
                  "help": "points to win; 0 = the mode's default, 200 (d6) / 40 (polyhedral) "
                  "(B5)"},
    )
    exact: int = field(
        default=0,
        metadata={
            "range": (0, 100_000),
            "help": "exact-N variant (polyhedral only, the published one is exact=30): "
            "exactly N wins, rolls that overshoot score nothing (B11); 0 = off"
        },
    )
    exact_order: str = field(
        default="choice",
        metadata={
            "choices": ("choice", "oldest"),
            "help": "exact-N only: when one award completes several of a player's projects, "
            "choice = the owner picks which to roll next, one at a time (our ruling: the "
            "seed is silent and the order decides which roll is void; asked only "
            "when some order could void a roll or the player holds a Big Cheese); oldest = "
            "oldest first, no decision (the engine before that ruling)",
        },
    )
    chips: int = field(
        default=10,
        metadata={"range": (1, MAX_CHIPS),
                  "help": "starting chips (workers) per player (rules summary: 10 each)"},
    )
    all_pass: str = field(
        default="discard",
        metadata={
            "choices": ("discard", "leader_forced", "bury"),
            "help": "nobody bids: discard the card / the leader takes it for 1 chip if able / "
            "the card goes under the deck (B1)",
        },
    )
    leader_must_open: bool = field(
        default=False,
        metadata={"help": "the leader may not pass on the opening bid if they have a chip (B2)"},
    )
    big_cheese_chain: bool = field(
        default=True,
        metadata={"help": "several Big Cheeses may re-roll the same project in turn (B7)"},
    )
    veto_any_time: bool = field(
        default=False,
        metadata={
            "help": "besides on their bidding turn, every Veto holder (passed or not) gets one "
            "last chance to veto before the card is awarded (B8 alternative)"
        },
    )
    final_tie: str = field(
        default="draw",
        metadata={
            "choices": ("draw",),
            "help": "equal top totals when the target is reached: shared win (B10)",
        },
    )
    max_rounds: int = field(
        default=1000,
        metadata={"range": (1, 1_000_000),
                  "help": "safety cap on auctions; reaching it ends the game on scores (B12)"},
    )
    first_leader: str = lever_option(
        "random", ("random", "first", "last"),
        "seat lever, setup: random = pick the first leader at random (printed); "
        "first = seat 1 leads the first auction; last = the last seat does.  The deck is "
        "the same",
    )
    seat_bonus: str = seat_bonus_option("chips", "extra starting chips of each seat",
                                        most=MAX_CHIPS)  # and with `chips` at most MAX_CHIPS

    def __post_init__(self) -> None:
        if self.first_leader not in ("random", "first", "last"):
            raise ValueError(f"first_leader must be random, first or last, "
                             f"got {self.first_leader!r}")
        if any(self.chips + b > MAX_CHIPS for b in parse_seat_bonus(self.seat_bonus)):
            raise ValueError(f"chips plus seat_bonus must stay at most {MAX_CHIPS}")
        if self.exact:
            if self.dice != "polyhedral":
                raise BadInput(
                    f"exact={self.exact} is the polyhedral variant; it needs dice=polyhedral"
                )
            if self.target:
                raise BadInput("give either target or exact, not both (exact replaces target)")

    @property
    def goal(self) -> int:
        """The winning total: `exact` if set, else `target`, else the mode's default."""
        if self.exact:
            return self.exact
        if self.target:
            return self.target
        return DEFAULT_TARGET[self.dice]
