"""Ninjato variant options: official rules plus the project's rulings as defaults."""

from __future__ import annotations

from dataclasses import dataclass, field

from engines.core import lever_option, seat_bonus_option
from engines.kit import parse_seat_bonus


@dataclass(frozen=True)
class Rules:
    """Options of a Ninjato game (see ../shared/rules/ninjato.md)."""

    components: str = field(default="", metadata={
        "help": "TOML/JSON file replacing the reconstructed component data set"})
    treasure_mix: str = field(default="B", metadata={
        "choices": ("B", "A"),
        "help": "B: 20 each of fan/scroll/vase/jade + 10 gold (ruling); A: 18 of each type"})
    refill_on_zero_gain: bool = field(default=True, metadata={
        "help": "A3: add 1 treasure to a house after a failed raid even if nothing was won"})
    empty_hand_raid: bool = field(default=True, metadata={
        "help": "our ruling (seed silent): a seat with no dojo card may raid (A21: it fails "
                "at the sentry, A3 adds a treasure); false: a raid needs a card or a ready "
                "Boryaku (or a used one and a ready Tenmon)"})
    boryaku_skills: bool = field(default=True, metadata={
        "help": "A18 and seed 004 (Boryaku plays like a dojo card of 2 or 4; the skills "
                "modify a dojo card): skills (+-2, +-1, set 0/6) modify Boryaku as Ki does; "
                "false: only Ki may (the earlier reading of A18)"})
    token_choice: str = field(default="free", metadata={
        "choices": ("free", "lowest"),
        "help": "A24: a cleared house takes any token of another clan, or that clan's lowest"})
    first_round_order: str = lever_option(
        "random", ("random", "seats", "reversed"),
        "seat lever, setup 3.1: random = one marker per player drawn at random sets round-1 "
        "turn order (printed); seats = seat 1, 2, ... in order; reversed = the last seat "
        "first.  The cards dealt are the same")
    seat_bonus: str = seat_bonus_option(
        "honour", "starting honour of each seat",
        most=500)  # a whole game scores some 60-120 honour a seat

    def __post_init__(self) -> None:
        if self.first_round_order not in ("random", "seats", "reversed"):
            raise ValueError(f"first_round_order must be random, seats or reversed, "
                             f"got {self.first_round_order!r}")
        parse_seat_bonus(self.seat_bonus)
