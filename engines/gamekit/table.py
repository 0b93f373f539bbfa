"""`KitState`: a game position whose bookkeeping comes from its declared layout.

A game written with the kit keeps its whole position in the zones, counters and numbers
its `Layout` declares (`engines.gamekit.layout`), and writes only its rules: `setup` (the
deal), `_legal_actions`, `_apply`, `score_breakdown` (its points by source).  From the
declaration the kit gives it the rest of the engine contract (`engines/README.md`):

- `clone` and `clone_with_rng` (every zone, counter and number copied; the chance stream
  copied or taken);
- `determinize(seat, rng)`: the cards `seat` cannot see (other seats' `OWNER` zones, every
  `SIZE` zone) gathered, put in canonical order, shuffled with `rng` and dealt back into the
  same places in the same numbers (`engines.kit.deal_back`), so a world depends only on
  what the seat knows; everything public is kept; the world's chance is reseeded
  (`engines.kit.world_rng`);
- `observation(seat)` (what the seat sees, as JSON), `tensor_spec`, `render(seat)`;
- `scores` (the sum of `score_breakdown`), `winners` and `ranks` in the game's declared
  direction (`Game.score_direction`, handed over by `engines.gamekit.game.kit_game`),
  `action_kind` and `action_to_str` from the declared actions;
- the moves every card game makes, each drawing from the state's own `rng` (so a game is a
  function of its seed and actions): `shuffle`, `draw`, `deal`, `move`, `roll`, and turn
  order (`pass_turn`, `end_game`; the first seat follows the `starting_player` lever).

Cards are small ints (the game names them in `card_name`); a card leaves play by moving to a
zone (a discard pile, cards out of the game), never by being dropped, so the number of cards
on the table is fixed and the tensor layout with it.
"""

from __future__ import annotations

import random
from bisect import insort
from typing import Any, ClassVar

from engines.core import State
from engines.gamekit.layout import Layout
from engines.kit import copy_rng, deal_back, first_seat, next_seat, seat_bonus, shuffled, world_rng
from engines.position import OWNER, PUBLIC, SIZE

try:  # read by mypyc at build time; at run time the engines need nothing outside stdlib
    from mypy_extensions import mypyc_attr
except ImportError:
    def mypyc_attr(**attrs: object) -> Any:  # type: ignore[misc]
        return lambda cls: cls


@mypyc_attr(allow_interpreted_subclasses=True)
class KitState(State):
    """A position on a declared table (`layout`, a class attribute the game sets)."""

    layout: ClassVar[Layout]

    num_players: int
    rules: Any
    rng: random.Random
    #: Per zone name: its piles (one per seat, or one), each a list of cards.
    zones: dict[str, list[list[int]]]
    #: Per counter name: one int per seat (public).
    counters: dict[str, list[int]]
    #: Per value name: one int (public).
    values: dict[str, int]
    #: The seat to act, -1 once the game is over.
    to_move: int
    #: Turns passed so far (`pass_turn`): `round_label` counts rounds from them.
    turns: int
    #: The lowest score wins (the game's `score_direction`, set by `kit_game`).
    lowest_wins: bool

    def __init__(self, num_players: int = 0, seed: int = 0, rules: Any = None) -> None:
        if not num_players:  # a blank state, for clone(): a compiled class cannot skip __init__
            return
        self.num_players = num_players
        self.rules = rules
        self.rng = random.Random(seed)
        self._legal_cache = None
        layout = self.layout
        self.zones = {z.name: [[] for _ in range(num_players if z.per_seat else 1)]
                      for z in layout.zones}
        self.counters = {name: [0] * num_players for name in layout.counters}
        self.values = {name: 0 for name in layout.values}
        choice = getattr(rules, "starting_player", "first")
        self.to_move = first_seat(choice, num_players, seed)
        self.turns = 0
        self.lowest_wins = False
        self.setup()

    # --- the game's rules (its own code) ------------------------------------------------------
    def setup(self) -> None:
        """Deal: fill the zones, counters and values for the start of play."""
        raise NotImplementedError

    def card_name(self, card: int) -> str:
        """A card as the rules name it (`render`, `action_to_str`)."""
        return str(card)

    # --- cards ----------------------------------------------------------------------------------
    def cards(self, zone: str, seat: int = 0) -> list[int]:
        """The cards of `zone` (in a per-seat zone, the seat's pile), the top one last."""
        piles = self.zones[zone]
        return piles[seat] if self.layout.by_name[zone].per_seat else piles[0]

    def fill(self, zone: str, cards: list[int], seat: int = 0) -> None:
        """Put `cards` on a pile (the game's components, at setup)."""
        pile = self.cards(zone, seat)
        pile += cards
        if self.layout.by_name[zone].sort:
            pile.sort()

    def shuffle(self, zone: str, seat: int = 0) -> None:
        """Shuffle a pile in place (`engines.kit.shuffled`: Fisher-Yates on `rng.random()`)."""
        pile = self.cards(zone, seat)
        pile[:] = shuffled(pile, self.rng)

    def add(self, zone: str, card: int, seat: int = 0) -> None:
        """Put `card` on a pile (in order in a sorted zone, on top otherwise)."""
        pile = self.cards(zone, seat)
        if self.layout.by_name[zone].sort:
            insort(pile, card)
        else:
            pile.append(card)

    def move(self, card: int, source: str, target: str, seat: int = 0,
             to_seat: int = -1) -> None:
        """Move one named card from the seat's pile of `source` to `target` (to the same
        seat's pile there, unless `to_seat` names another)."""
        self.cards(source, seat).remove(card)
        self.add(target, card, seat if to_seat < 0 else to_seat)

    def draw(self, source: str, target: str, seat: int = 0, from_seat: int = 0) -> int:
        """Move the top card of `source` (`from_seat`'s pile) to the seat's pile of `target`
        and return it; -1, and nothing moved, when `source` is empty."""
        pile = self.cards(source, from_seat)
        if not pile:
            return -1
        card = pile.pop()
        self.add(target, card, seat)
        return card

    def deal(self, source: str, target: str, count: int) -> None:
        """`count` cards from the top of `source` to every seat's pile of `target`, one at a
        time around the table from seat 1 (fewer if `source` runs out)."""
        for _ in range(count):
            for seat in range(self.num_players):
                self.draw(source, target, seat)

    # --- chance, seats --------------------------------------------------------------------------
    def roll(self, sides: int = 6) -> int:
        """One die of `sides` faces, 1..sides (one `rng.random()`)."""
        return int(self.rng.random() * sides) + 1

    def seat_bonus(self) -> list[int]:
        """Each seat's `seat_bonus` compensation (all 0 when unset), in the game's unit."""
        return seat_bonus(getattr(self.rules, "seat_bonus", ""), self.num_players)

    def pass_turn(self) -> None:
        """The next seat in turn order acts."""
        self.to_move = next_seat(self.to_move, self.num_players)
        self.turns += 1

    def end_game(self) -> None:
        self.to_move = -1

    # --- the engine contract, from the layout ---------------------------------------------------
    def current_player(self) -> int:
        return self.to_move

    def is_terminal(self) -> bool:
        return self.to_move < 0

    def score_breakdown(self) -> dict[str, list[float]]:
        raise NotImplementedError

    def scores(self) -> list[float]:
        totals = [0.0] * self.num_players
        for points in self.score_breakdown().values():
            for seat in range(self.num_players):
                totals[seat] += points[seat]
        return totals

    def winners(self) -> list[int]:
        """Every seat with the best score, in the game's direction (a shared win)."""
        scores = self.scores()
        best = min(scores) if self.lowest_wins else max(scores)
        return [seat for seat in range(self.num_players) if scores[seat] == best]

    def ranks(self) -> list[int]:
        """1 + the seats with a better score (competition ranking: ties share a rank)."""
        scores = self.scores()
        sign = -1.0 if self.lowest_wins else 1.0
        return [1 + sum(1 for other in scores if sign * other > sign * score)
                for score in scores]

    def action_kind(self, action: int) -> int:
        return self.layout.actions.kind_of[action]

    def action_to_str(self, action: int) -> str:
        return self.layout.actions.name(action)

    def round_label(self) -> str:
        return f"round {self.turns // self.num_players + 1}"

    def _blank(self) -> KitState:
        """A copy of the position but for its chance stream (the caller's)."""
        try:
            new = type(self)()
        except TypeError:  # an interpreted subclass of a compiled game class (the contract
            # tests' deliberately broken engines): a copy of the compiled class, as a hand-
            # written clone makes
            new = next(k for k in type(self).__mro__ if "__mypyc_attrs__" in vars(k))()
        new.num_players = self.num_players
        new.rules = self.rules
        new._legal_cache = None
        new.zones = {name: [list(pile) for pile in piles] for name, piles in self.zones.items()}
        new.counters = {name: list(seats) for name, seats in self.counters.items()}
        new.values = dict(self.values)
        new.to_move = self.to_move
        new.turns = self.turns
        new.lowest_wins = self.lowest_wins
        return new

    def clone(self) -> KitState:
        new = self._blank()
        new.rng = copy_rng(self.rng)
        return new

    def clone_with_rng(self, rng: random.Random) -> KitState:
        new = self._blank()
        new.rng = rng
        return new

    def unseen(self, seat: int) -> list[tuple[str, int]]:
        """The piles whose cards `seat` cannot see, (zone, pile index), in layout order."""
        out: list[tuple[str, int]] = []
        for zone in self.layout.zones:
            if zone.visibility == SIZE:
                out += [(zone.name, i) for i in range(len(self.zones[zone.name]))]
            elif zone.visibility == OWNER:
                out += [(zone.name, i) for i in range(self.num_players) if i != seat]
        return out

    def determinize(self, seat: int, rng: random.Random) -> KitState:
        """A world `seat` cannot tell from this one: the cards it cannot see dealt anew."""
        world = self._blank()
        places = self.unseen(seat)
        pool = [card for name, i in places for card in self.zones[name][i]]
        parts = deal_back(pool, [len(self.zones[name][i]) for name, i in places], rng)
        for (name, i), part in zip(places, parts):
            world.zones[name][i] = sorted(part) if self.layout.by_name[name].sort else part
        world.rng = world_rng(rng)
        return world

    def observation(self, seat: int) -> dict:
        """What `seat` sees: public zones whole, its own `OWNER` piles, the sizes of the rest,
        every counter and value."""
        out: dict[str, object] = {"seat": seat, "to_move": self.to_move}
        for zone in self.layout.zones:
            piles = self.zones[zone.name]
            if zone.visibility == PUBLIC and zone.per_seat:
                out[zone.name] = [list(p) for p in piles]
            elif zone.visibility == PUBLIC:
                out[zone.name] = list(piles[0])
            elif zone.visibility == OWNER:
                out[zone.name] = list(piles[seat])
                out[zone.name + "_sizes"] = [len(p) for p in piles]
            else:
                out[zone.name] = [len(p) for p in piles] if zone.per_seat else len(piles[0])
        for name, seats in self.counters.items():
            out[name] = list(seats)
        out.update(self.values)
        return out

    def tensor_spec(self) -> tuple:
        """Caps of the observation's lists (`engines.tensor`): any pile may hold every card
        on the table, a per-seat list has one entry per seat."""
        cards = sum(len(p) for piles in self.zones.values() for p in piles)
        n = self.num_players
        spec: list[tuple[str, object]] = [("seat", "int"), ("to_move", "int")]
        for zone in self.layout.zones:
            if zone.visibility == PUBLIC:
                spec.append((zone.name, (n, cards) if zone.per_seat else (cards,)))
            elif zone.visibility == OWNER:
                spec += [(zone.name, (cards,)), (zone.name + "_sizes", (n,))]
            else:
                spec.append((zone.name, (n,) if zone.per_seat else "int"))
        spec += [(name, (n,)) for name in self.layout.counters]
        spec += [(name, "int") for name in self.layout.values]
        return tuple(spec)

    def render(self, seat: int | None = None) -> str:
        """What `seat` sees (None: everything), one line per pile, counter and value."""
        lines = ["game over" if self.to_move < 0 else f"seat {self.to_move + 1} to act"]
        for zone in self.layout.zones:
            for i, pile in enumerate(self.zones[zone.name]):
                where = f"{zone.name} seat {i + 1}" if zone.per_seat else zone.name
                shown = (seat is None or zone.visibility == PUBLIC
                         or (zone.visibility == OWNER and seat == i))
                text = (", ".join(self.card_name(c) for c in pile) or "none") if shown else (
                    f"{len(pile)} card{'' if len(pile) == 1 else 's'}")
                lines.append(f"{where}: {text}")
        for name, seats in self.counters.items():
            lines.append(f"{name}: " + ", ".join(f"seat {s + 1} {v}" for s, v in enumerate(seats)))
        lines += [f"{name}: {value}" for name, value in self.values.items()]
        return "\n".join(lines)
