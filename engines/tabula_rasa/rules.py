"""Variant options of Tabula Rasa; defaults are the project's rulings (rules file §2)."""

from dataclasses import dataclass, field

from engines.core import lever_option, seat_bonus_option
from engines.errors import BadInput
from engines.kit import FIRST_SEAT_CHOICES, parse_seat_bonus


@dataclass(frozen=True)
class Rules:
    """Rule options.  Defaults follow the Jacklin-derived text and the rulings A3, A5, A7, A9."""

    castle_rule: str = field(
        default="first_to_two",
        metadata={
            "choices": ("first_to_two", "two_consecutive"),
            "help": "A3: castle to the first player/team to win two number territories "
            "(default) or two number territories back to back (ludorium's wording)",
        },
    )
    majority_by: str = field(
        default="count",
        metadata={
            "choices": ("count", "value_sum"),
            "help": "A7: majority by number of cards (default) or by sum of card values "
            "(non-canonical)",
        },
    )
    final_tie: str = field(
        default="draw",
        metadata={
            "choices": ("draw", "tiebreak"),
            "help": "A9: tie for the win is shared (default) or broken by more territories, "
            "then the castle holder (non-canonical)",
        },
    )
    allow_partner_signalling: bool = field(
        default=False,
        metadata={
            "choices": (False,),
            "help": "A5: partners may not share hand information; only False is supported "
            "(documented no-op flag)",
        },
    )

    starting_player: str = lever_option(
        "first", FIRST_SEAT_CHOICES,
        "seat lever, A10: the player left of the dealer starts; first = seat 1 (default), "
        "last = the last seat, random = a seat drawn per deal (the deal is the same)",
    )
    seat_bonus: str = seat_bonus_option(
        "points", "points each seat adds to its total (4p: a team adds its seats' bonuses)",
        most=100)  # a whole game scores some 10-25 points a seat

    def __post_init__(self) -> None:
        if self.starting_player not in FIRST_SEAT_CHOICES:
            raise ValueError(f"starting_player must be one of {', '.join(FIRST_SEAT_CHOICES)}, "
                             f"got {self.starting_player!r}")
        parse_seat_bonus(self.seat_bonus)
        if self.castle_rule not in ("first_to_two", "two_consecutive"):
            raise BadInput(f"castle_rule must be first_to_two or two_consecutive, "
                             f"got {self.castle_rule!r}")
        if self.majority_by not in ("count", "value_sum"):
            raise BadInput(f"majority_by must be count or value_sum, got {self.majority_by!r}")
        if self.final_tie not in ("draw", "tiebreak"):
            raise BadInput(f"final_tie must be draw or tiebreak, got {self.final_tie!r}")
        if self.allow_partner_signalling:
            raise BadInput("allow_partner_signalling=True is not supported "
                             "(partners never share hand information)")
