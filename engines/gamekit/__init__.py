"""The game kit: the common parts of a card game, so that a new game is its rules alone.

    from engines.gamekit import OWNER, PUBLIC, SIZE, Actions, KitState, Layout, Zone

A game declares its table once (`Layout`: zones of cards with who sees each, counters such
as chips, public numbers, its actions) and writes its rules on a `KitState`; the kit derives
`clone`, `determinize` (a seat's worlds resample exactly the cards it cannot see),
`observation`, the tensor layout, `render`, scores, winners and action names, and gives the
moves of card games (shuffle, draw, deal, move, dice, turn order; an open auction in
`auction`) through the state's own random stream.  `kit_game` makes its `Game`,
`heuristic` a bot of a function.  `docs/tutorial.md` builds a game with it:
`engines/hot_potato/`.

Not a game package itself (no `rules` or `state` module): `engines.kit` is the lower-level
plumbing every engine shares, which this kit uses.
"""

from engines.gamekit import auction
from engines.gamekit.game import KitRules, heuristic, kit_game
from engines.gamekit.layout import Actions, Layout, Zone
from engines.gamekit.table import KitState
from engines.position import OWNER, PUBLIC, SIZE

__all__ = ["OWNER", "PUBLIC", "SIZE", "Actions", "KitRules", "KitState", "Layout", "Zone",
           "auction", "heuristic", "kit_game"]
