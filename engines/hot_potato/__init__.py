"""Hot Potato, the game of `docs/tutorial.md`, written with the game kit (`engines.gamekit`)."""

from engines.gamekit import kit_game

from .bots import HEURISTICS, PARAMS
from .rules import Rules
from .state import HotPotatoState

GAME = kit_game(
    HotPotatoState, Rules, name="hot-potato", min_players=3, max_players=7, default_players=4,
    description="pay a chip to pass the potato on, or take it and offer a card of your own",
    heuristics=HEURISTICS, heuristic_params=PARAMS,
    score_direction="lowest",  # penalty points: the fewest win
    score_range=(-56.0, 465.0),  # default rules: all 7 x 8 chips; every card 1..30
    max_decisions=5000,  # a safety cap: chips bound the passes (about 1,500 at 7 players)
)
