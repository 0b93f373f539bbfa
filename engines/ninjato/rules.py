"""Ninjato variant options: official rules plus the project's rulings as defaults."""

from __future__ import annotations

from dataclasses import dataclass, field


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
        "help": "issue 14.4 (seed silent): a seat with no dojo card may raid (A21: it fails "
                "at the sentry, A3 adds a treasure); false: a raid needs a card or a ready "
                "Boryaku"})
    boryaku_skills: bool = field(default=True, metadata={
        "help": "A18 and seed 004 (Boryaku plays like a dojo card of 2 or 4; the skills "
                "modify a dojo card): skills (+-2, +-1, set 0/6) modify Boryaku as Ki does; "
                "false: only Ki may (the earlier reading of A18)"})
    token_choice: str = field(default="free", metadata={
        "choices": ("free", "lowest"),
        "help": "A24: a cleared house takes any token of another clan, or that clan's lowest"})
