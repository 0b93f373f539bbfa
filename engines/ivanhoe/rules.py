"""Variant options of Ivanhoe; defaults are the official rules plus our rulings (rules file §5)."""


from dataclasses import dataclass, field

from engines.core import lever_option, seat_bonus_option
from engines.ivanhoe.components import DECK_SIZE, HAND_SIZE
from engines.kit import parse_seat_bonus


@dataclass(frozen=True)
class Rules:
    """Each flag names the ambiguity of `shared/rules/ivanhoe.md` it resolves."""

    allow_ties: bool = field(
        default=False,
        metadata={"help": "I1: a tie for the highest display total is enough to stay in"},
    )
    charge_counts_shielded: bool = field(
        default=False,
        metadata={"help": "I5: Charge/Countercharge find the value over shielded displays too"},
    )
    shield_blocks_knock_down: bool = field(
        default=True,
        metadata={"help": "I6: Shield also protects the hand against Knock Down (FAQ)"},
    )
    outwit_ignores_shield: bool = field(
        default=False,
        metadata={"help": "I8: Outwit may target a shielded opponent (and take the Shield)"},
    )
    max_failed_starts: int = field(
        default=100,
        metadata={"range": (1, 10_000),
                  "help": "I14: consecutive players unable to start before the game is a draw"},
    )
    first_starter: str = lever_option(
        "random", ("random", "first", "last"),
        "seat lever, setup: the player to the dealer's left starts the first "
        "tournament, the dealer drawn at random (printed); first = seat 1 starts it, last "
        "= the last seat does.  The hands dealt are the same",
    )
    seat_bonus: str = seat_bonus_option(
        "cards", "extra cards dealt to each seat's starting hand", most=None,
        most_in_all=lambda players: DECK_SIZE - HAND_SIZE * players,
        supply=f"the deck's {DECK_SIZE} cards less a starting hand of {HAND_SIZE} per seat")

    def __post_init__(self) -> None:
        if self.first_starter not in ("random", "first", "last"):
            raise ValueError(f"first_starter must be random, first or last, "
                             f"got {self.first_starter!r}")
        parse_seat_bonus(self.seat_bonus)
