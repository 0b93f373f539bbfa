"""Hot Potato's rule options: the defaults are the rules of `docs/tutorial.md`."""

from dataclasses import dataclass, field

from engines.core import seat_bonus_option
from engines.gamekit import KitRules

#: The most cards a deck may have (the action ids hold one offer per card number).
MAX_CARDS = 40
#: The most players (setup must leave a potato after the hands are dealt).
MAX_PLAYERS = 7


@dataclass(frozen=True)
class Rules(KitRules):
    cards: int = field(default=30, metadata={"help": f"cards numbered 1..cards (at most "
                                                     f"{MAX_CARDS})"})
    removed: int = field(default=5, metadata={"help": "cards out of the game unseen"})
    hand: int = field(default=2, metadata={"help": "cards in each hand"})
    chips: int = field(default=8, metadata={"help": "chips each seat starts with"})
    seat_bonus: str = seat_bonus_option("chips", "chips each seat gets besides `chips`", most=100)

    def __post_init__(self) -> None:
        super().__post_init__()
        if min(self.removed, self.chips) < 0 or self.hand < 1:
            raise ValueError("removed and chips must be >= 0, hand >= 1")
        if not self.removed + MAX_PLAYERS * self.hand < self.cards <= MAX_CARDS:
            raise ValueError(f"cards must be at most {MAX_CARDS} and leave a potato after "
                             f"{MAX_PLAYERS} hands and the removed cards")
