"""Variant options of Time Pirates; defaults are the Rio Grande rules (T1) and our rulings."""

from __future__ import annotations

from dataclasses import dataclass, field

from engines.core import lever_option, seat_bonus_option
from engines.errors import BadInput
from engines.kit import parse_seat_bonus
from engines.time_pirates import components


@dataclass(frozen=True)
class Rules:
    """Rule options.  Piatnik differences (rules file §3) are opt-in; Rio (T1) is the default."""

    components: str = field(
        default="",
        metadata={"help": "TOML/JSON file replacing the INFERRED board and component table "
                          "(same shape as components.DEFAULT_DATA); '' = inferred-v1"},
    )
    restock_eligibility: str = field(
        default="rio",
        metadata={
            "choices": ("rio", "piatnik"),
            "help": "rio: any epoch with an empty space and no pirate (T1, default); "
                    "piatnik: only an epoch holding no artifact at all (T4/T5)",
        },
    )
    restock_extra_action: bool = field(
        default=False,
        metadata={"help": "Piatnik (T5): restocking grants a third standard action"},
    )
    patrol_effect: str = field(
        default="rio",
        metadata={
            "choices": ("rio", "flee"),
            "help": "rio: penalty, forced move, then one more action (T1, default); "
                    "flee: penalty and forced move end the turn (Piatnik reading of T5)",
        },
    )
    set_bonus: int = field(default=2, metadata={
        "range": (0, 100), "help": "P12: bonus for deeds of all 5 colours"})
    majority_bonus: int = field(default=2, metadata={
        "range": (0, 100), "help": "P10: bonus for the most points in a colour (ties all score)"})
    placement_order: str = lever_option(
        "printed", ("printed", "reversed"),
        "seat lever, setup 5: printed = pawns placed in reverse turn order, the "
        "start player (seat 1) last, then seat 1 takes the first turn; reversed = "
        "seat 1 places first, then clockwise",
    )
    game_end: str = lever_option(
        "printed", ("printed", "round"),
        "seat lever, restocking: printed = the game ends the moment the 8th police "
        "token of year 3 is drawn (mid-round); round = that restock stops, the "
        "round is played out (no more restocking) so every seat has had as many "
        "turns, then year 3 is scored",
    )
    seat_bonus: str = seat_bonus_option(
        "points", "points each seat adds to its final total",
        most=200)  # a whole game scores some 25-50 points a seat

    def __post_init__(self) -> None:
        if self.restock_eligibility not in ("rio", "piatnik"):
            raise BadInput(f"restock_eligibility must be rio or piatnik, "
                             f"got {self.restock_eligibility!r}")
        if self.patrol_effect not in ("rio", "flee"):
            raise BadInput(f"patrol_effect must be rio or flee, got {self.patrol_effect!r}")
        parse_seat_bonus(self.seat_bonus)
        components.load(self.components)  # raises ValueError on a bad file
