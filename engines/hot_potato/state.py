"""Hot Potato: pay a chip to pass the potato on, or take it with its chips and offer a card
from your hand as the next potato.  The fewest penalty points win (`docs/tutorial.md`)."""

from engines.gamekit import OWNER, PUBLIC, SIZE, Actions, KitState, Layout, Zone

from .rules import MAX_CARDS

ACTIONS = Actions(("pay", 1), ("take", 1), ("offer", MAX_CARDS + 1))  # offer: by card number
PAY, TAKE, OFFER = ACTIONS.offsets

LAYOUT = Layout(
    zones=(Zone("deck", SIZE, doc="face down, drawn from the top"),
           Zone("removed", SIZE, doc="out of the game, unseen"),
           Zone("hand", OWNER, per_seat=True, sort=True),
           Zone("potato", PUBLIC, doc="the card on offer"),
           Zone("taken", PUBLIC, per_seat=True, sort=True)),
    counters=("chips",),
    values=("pot", "offering"),  # chips on the potato; 1 while the taker offers a card
    actions=ACTIONS,
)


def run_points(cards: list[int]) -> int:
    """Penalty points of taken cards (sorted): a run of numbers scores its lowest card."""
    return sum(card for i, card in enumerate(cards) if i == 0 or cards[i - 1] != card - 1)


class HotPotatoState(KitState):
    layout = LAYOUT

    def setup(self) -> None:
        self.fill("deck", list(range(1, self.rules.cards + 1)))
        self.shuffle("deck")
        for _ in range(self.rules.removed):
            self.draw("deck", "removed")
        self.deal("deck", "hand", self.rules.hand)
        self.draw("deck", "potato")
        self.counters["chips"] = [self.rules.chips + bonus for bonus in self.seat_bonus()]

    def _legal_actions(self) -> list[int]:
        seat = self.to_move
        if seat < 0:
            return []
        if self.values["offering"]:
            return [OFFER + card for card in self.cards("hand", seat)]
        return [PAY, TAKE] if self.counters["chips"][seat] else [TAKE]

    def _apply(self, action: int) -> None:
        seat = self.to_move
        if action == PAY:
            self.counters["chips"][seat] -= 1
            self.values["pot"] += 1
            self.pass_turn()
        elif action == TAKE:
            self.draw("potato", "taken", seat)
            self.counters["chips"][seat] += self.values["pot"]
            self.values["pot"] = 0
            if self.cards("hand", seat):
                self.values["offering"] = 1
            else:
                self.end_game()
        else:
            self.move(action - OFFER, "hand", "potato", seat)
            self.draw("deck", "hand", seat)
            self.values["offering"] = 0
            self.pass_turn()

    def score_breakdown(self) -> dict[str, list[float]]:
        seats = range(self.num_players)
        return {"taken cards": [float(run_points(self.cards("taken", s))) for s in seats],
                "cards in hand": [float(sum(self.cards("hand", s))) for s in seats],
                "chips": [float(-chips) for chips in self.counters["chips"]]}
