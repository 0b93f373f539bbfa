"""Two tiny games built on `engines.core`, with positions whose best move is known.

- `NIM`: take 1..`max_take` stones from one pile; whoever takes the last stone wins
  (with `teams=true` and an even number of players, seats i and i+2, i+4... are partners and
  share the win).  Perfect information; in two-team play leaving a multiple of
  `max_take + 1` wins.
- `SHOWDOWN`: each seat is dealt one hidden card from 0..`cards`-1 (with the state rng);
  seat 0 either folds (everybody ties, a shared win) or calls (the highest card wins).
  Calling is right exactly when the chance of holding the top card beats the fold share, so
  a bot that peeked at the other hands would decide differently from one that does not.
- `PENALTY`: the lowest score wins (`score_direction="lowest"`), and its bonus source
  subtracts points: the toy for the scoring-source analysis of lowest-wins games.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engines.bots.options import Param, parse_int
from engines.core import Game, State

# --------------------------------------------------------------------------------------------
# Nim
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NimRules:
    pile: int = 10
    max_take: int = field(default=3, metadata={"help": "most stones one turn may take"})
    teams: bool = False


class NimState(State):
    """A single pile; actions are the number of stones taken."""

    def __init__(self, num_players: int, seed: int, rules: NimRules) -> None:
        self.num_players = num_players
        self.rules = rules
        self.rng = random.Random(seed)
        self.pile = rules.pile
        self.to_move = 0
        self.last_taker = -1

    def current_player(self) -> int:
        return -1 if self.pile == 0 else self.to_move

    def is_terminal(self) -> bool:
        return self.pile == 0

    def _legal_actions(self) -> list[int]:
        return list(range(1, min(self.rules.max_take, self.pile) + 1))

    def _apply(self, action: int) -> None:
        self.pile -= action
        self.last_taker = self.to_move
        self.to_move = (self.to_move + 1) % self.num_players

    def _team(self, seat: int) -> int:
        return seat % 2 if self.rules.teams else seat

    def scores(self) -> list[float]:
        if self.last_taker < 0 or self.pile:
            return [0.0] * self.num_players
        team = self._team(self.last_taker)
        return [1.0 if self._team(s) == team else 0.0 for s in range(self.num_players)]

    def winners(self) -> list[int]:
        scores = self.scores()
        return [s for s in range(self.num_players) if scores[s] == 1.0]

    def clone(self) -> NimState:
        other = NimState.__new__(NimState)
        other.__dict__.update(self.__dict__)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other._legal_cache = None
        return other

    def determinize(self, seat: int, rng: random.Random) -> NimState:
        world = self.clone()
        world.rng = random.Random(rng.getrandbits(64))
        return world

    def observation(self, seat: int) -> dict:
        return {"pile": self.pile, "to_move": self.to_move, "last_taker": self.last_taker}

    def action_kind(self, action: int) -> int:
        """take one, take two, or take three or more stones (`NIM.action_kinds`)."""
        return action - 1 if action < 3 else 2


def _nim_take_max(**_: str):
    class TakeMax:
        name = "take-max"

        def choose(self, state: State, rng: random.Random) -> int:
            return max(state.legal_actions())

    return TakeMax()


NIM = Game(
    name="toy-nim",
    min_players=2,
    max_players=6,
    Rules=NimRules,
    create_state=NimState,
    heuristics={"default": _nim_take_max},
    action_kinds=("take one", "take two", "take three or more"),
)


def nim_position(num_players: int, pile: int, to_move: int = 0, **rules) -> NimState:
    """A Nim position with `pile` stones left and `to_move` to act."""
    state = NIM.new_state(num_players, 0, **rules)
    state.pile = pile
    state.to_move = to_move
    return state


# --------------------------------------------------------------------------------------------
# Showdown
# --------------------------------------------------------------------------------------------

FOLD, CALL = 0, 1


@dataclass(frozen=True)
class ShowdownRules:
    cards: int = 10


class ShowdownState(State):
    """Hidden one-card hands; seat 0 folds or calls, then the game ends."""

    def __init__(self, num_players: int, seed: int, rules: ShowdownRules) -> None:
        self.num_players = num_players
        self.rules = rules
        self.rng = random.Random(seed)
        deck = list(range(rules.cards))
        self.rng.shuffle(deck)
        self.hands = deck[:num_players]
        self.deck = deck[num_players:]
        self.decision = -1  # -1 = not yet decided

    def current_player(self) -> int:
        return 0 if self.decision < 0 else -1

    def is_terminal(self) -> bool:
        return self.decision >= 0

    def _legal_actions(self) -> list[int]:
        return [] if self.decision >= 0 else [FOLD, CALL]

    def _apply(self, action: int) -> None:
        self.decision = action

    def scores(self) -> list[float]:
        if self.decision != CALL:
            return [0.0] * self.num_players
        top = max(self.hands)
        return [1.0 if card == top else 0.0 for card in self.hands]

    def clone(self) -> ShowdownState:
        other = ShowdownState.__new__(ShowdownState)
        other.num_players = self.num_players
        other.rules = self.rules
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.hands = list(self.hands)
        other.deck = list(self.deck)
        other.decision = self.decision
        other._legal_cache = None
        return other

    def determinize(self, seat: int, rng: random.Random) -> ShowdownState:
        world = self.clone()
        if self.decision < 0:  # after the call every hand is public
            unknown = sorted([c for s, c in enumerate(self.hands) if s != seat] + self.deck)
            rng.shuffle(unknown)
            others = [s for s in range(self.num_players) if s != seat]
            for s, card in zip(others, unknown):
                world.hands[s] = card
            world.deck = unknown[len(others):]
        world.rng = random.Random(rng.getrandbits(64))
        return world

    def observation(self, seat: int) -> dict:
        hands = list(self.hands) if self.decision >= 0 else [
            card if s == seat else None for s, card in enumerate(self.hands)
        ]
        return {"hands": hands, "decision": self.decision}

    def action_kind(self, action: int) -> int:
        return action  # FOLD = 0 = "fold", CALL = 1 = "call"


def _showdown_always_call(**_: str):
    class AlwaysCall:
        name = "always-call"

        def choose(self, state: State, rng: random.Random) -> int:
            return CALL

    return AlwaysCall()


SHOWDOWN = Game(
    name="toy-showdown",
    min_players=2,
    max_players=6,
    Rules=ShowdownRules,
    create_state=ShowdownState,
    heuristics={"default": _showdown_always_call},
    action_kinds=("fold", "call"),
)


def showdown_position(num_players: int, own_card: int, others: list[int]) -> ShowdownState:
    """Seat 0 holds `own_card`, the other seats hold `others` (the rest is the deck)."""
    state = SHOWDOWN.new_state(num_players, 0)
    hands = [own_card, *others]
    state.hands = hands
    state.deck = sorted(set(range(state.rules.cards)) - set(hands))
    return state


# --------------------------------------------------------------------------------------------
# Coin: a rule setting whose most balanced value is known in closed form
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CoinRules:
    head_start: int = field(default=0, metadata={"help": "seat 1 wins a draw below this"})
    sides: int = 20


class CoinState(State):
    """One draw u in [0, 1) from the deal; seat 0 wins if u < head_start / sides, else seat 1.

    Seat 0's win chance is head_start / sides, so the first-seat edge is
    head_start / sides − 1/2 and the most balanced setting is head_start = sides / 2.
    """

    def __init__(self, num_players: int, seed: int, rules: CoinRules) -> None:
        self.num_players = num_players
        self.rules = rules
        self.rng = random.Random(seed)
        self.draw = self.rng.random()
        self.done = False

    def current_player(self) -> int:
        return -1 if self.done else 0

    def is_terminal(self) -> bool:
        return self.done

    def _legal_actions(self) -> list[int]:
        return [0]

    def _apply(self, action: int) -> None:
        self.done = True

    def scores(self) -> list[float]:
        first = self.draw < self.rules.head_start / self.rules.sides
        return [1.0, 0.0] if first else [0.0, 1.0]

    def score_breakdown(self) -> dict[str, list[float]]:
        return {"coin": self.scores()}

    def clone(self) -> CoinState:
        other = CoinState.__new__(CoinState)
        other.__dict__.update(self.__dict__)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other._legal_cache = None
        return other

    def determinize(self, seat: int, rng: random.Random) -> CoinState:
        return self.clone()

    def observation(self, seat: int) -> dict:
        return {"done": self.done}


def _coin_pass(**_: str):
    class Pass:
        def choose(self, state: State, rng: random.Random) -> int:
            return 0

    return Pass()


COIN = Game(
    name="toy-coin",
    min_players=2,
    max_players=2,
    Rules=CoinRules,
    create_state=CoinState,
    heuristics={"default": _coin_pass},
)


# --------------------------------------------------------------------------------------------
# Komi: a first-seat edge and its exact compensation in closed form
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class KomiRules:
    faces: int = 6
    head_start: int = 1
    head_start_to: str = field(default="first", metadata={
        "choices": ("first", "none"), "lever": True,
        "help": "seat lever: the first seat's head start (printed) or none"})
    seat_bonus: str = field(default="", metadata={
        "unit": "points", "help": "variant: b1,b2 points added to each seat's total"})


class KomiState(State):
    """Two seats each roll one die 0..faces-1 (from the deal); seat 1 adds `head_start`
    points (unless the lever removes it), each seat adds its `seat_bonus`; the higher total
    wins, a tie is shared.

    Seat 1's win share is P(d1 + h > d2) + P(d1 + h = d2) / 2 with d uniform on 0..F-1:
    for F = 6, h = 1 that is (21 + 5/2) / 36 = 47/72, a first-seat edge of 47/72 − 1/2 =
    +15.28 points; `seat_bonus=0,h` (or the lever `head_start_to=none`) removes it exactly.
    Play lasts two turns (one per seat), so every seat makes one decision.
    """

    def __init__(self, num_players: int, seed: int, rules: KomiRules) -> None:
        from engines.kit import seat_bonus

        self.num_players = num_players
        self.rules = rules
        self.rng = random.Random(seed)
        self.dice = [int(self.rng.random() * rules.faces) for _ in range(num_players)]
        self.bonus = seat_bonus(rules.seat_bonus, num_players)
        self.to_move = 0

    def current_player(self) -> int:
        return -1 if self.to_move >= self.num_players else self.to_move

    def is_terminal(self) -> bool:
        return self.to_move >= self.num_players

    def _legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else [0]

    def _apply(self, action: int) -> None:
        self.to_move += 1

    def score_breakdown(self) -> dict[str, list[float]]:
        head = self.rules.head_start if self.rules.head_start_to == "first" else 0
        out = {"dice": [float(d) for d in self.dice],
               "head_start": [float(head if s == 0 else 0) for s in range(self.num_players)]}
        if self.rules.seat_bonus:
            out["seat_bonus"] = [float(b) for b in self.bonus]
        return out

    def scores(self) -> list[float]:
        parts = self.score_breakdown().values()
        return [float(sum(column)) for column in zip(*parts)]

    def clone(self) -> KomiState:
        other = KomiState.__new__(KomiState)
        other.__dict__.update(self.__dict__)
        other.dice = list(self.dice)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other._legal_cache = None
        return other

    def determinize(self, seat: int, rng: random.Random) -> KomiState:
        return self.clone()

    def observation(self, seat: int) -> dict:
        return {"to_move": self.to_move}

    def action_kind(self, action: int) -> int:
        return 0


KOMI = Game(
    name="toy-komi",
    min_players=2,
    max_players=2,
    Rules=KomiRules,
    create_state=KomiState,
    heuristics={"default": _coin_pass},
    action_kinds=("roll",),
)

#: Seat 1's exact win share in toy-komi with the defaults (faces 6, head start 1).
KOMI_FIRST_SHARE = 47 / 72


# --------------------------------------------------------------------------------------------
# Aim: a bot parameter whose best value is known in closed form
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AimRules:
    targets: int = 10


class AimState(State):
    """Each seat in turn names an aim 0..`targets`; seat i then succeeds when its draw u_i
    (fixed by the deal) is below 1 − |aim − targets/2| / (targets/2).  The seats that succeed
    share the win (all tie when none does).

    A seat's win share rises with its own success chance whatever the others aim at
    (two players: ½ + ½ (p − q)), so the best aim is `targets / 2` (p = 1)."""

    def __init__(self, num_players: int, seed: int, rules: AimRules) -> None:
        self.num_players = num_players
        self.rules = rules
        self.rng = random.Random(seed)
        self.draws = [self.rng.random() for _ in range(num_players)]
        self.aims: list[int] = []

    def current_player(self) -> int:
        return -1 if self.is_terminal() else len(self.aims)

    def is_terminal(self) -> bool:
        return len(self.aims) == self.num_players

    def _legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else list(range(self.rules.targets + 1))

    def _apply(self, action: int) -> None:
        self.aims.append(action)

    def chance(self, aim: int) -> float:
        half = self.rules.targets / 2
        return 1 - abs(aim - half) / half

    def scores(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.num_players
        return [1.0 if u < self.chance(a) else 0.0 for u, a in zip(self.draws, self.aims)]

    def clone(self) -> AimState:
        other = AimState.__new__(AimState)
        other.__dict__.update(self.__dict__)
        other.aims = list(self.aims)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other._legal_cache = None
        return other

    def determinize(self, seat: int, rng: random.Random) -> AimState:
        return self.clone()

    def observation(self, seat: int) -> dict:
        return {"aims": list(self.aims)}


class AimBot:
    """Always names `aim` (a documented parameter, 0..10)."""

    name = "heuristic"

    def __init__(self, aim: int | str = 2) -> None:
        self.aim = parse_int("toy-aim heuristic", "aim", aim, minimum=0)

    def choose(self, state: State, rng: random.Random) -> int:
        return min(self.aim, state.rules.targets)


AIM = Game(
    name="toy-aim",
    min_players=2,
    max_players=4,
    Rules=AimRules,
    create_state=AimState,
    heuristics={"default": AimBot, "v1": lambda **kw: AimBot(**{"aim": 8, **kw})},
    heuristic_params=(Param("aim", "int", 2, "the aim named", 0, 10),),
)


# --------------------------------------------------------------------------------------------
# Penalty: the lowest score wins, and one scoring source subtracts
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PenaltyRules:
    faces: int = 10
    bonus: int = 4


class PenaltyState(State):
    """Each seat draws penalty points 0..faces-1 from the deal, and with chance one half a
    bonus that takes `bonus` points off; every seat then makes one (empty) decision.  The
    lowest total wins, a tie is shared.

    With the defaults the mean penalty is 4.5 and the mean bonus −2: as a signed share of
    the mean score 2.5, penalties would be 180% of the points; counted absolute they are
    4.5 / 6.5 = 69.2%."""

    def __init__(self, num_players: int, seed: int, rules: PenaltyRules) -> None:
        self.num_players = num_players
        self.rules = rules
        self.rng = random.Random(seed)
        self.penalties = [int(self.rng.random() * rules.faces) for _ in range(num_players)]
        self.bonuses = [-rules.bonus if self.rng.random() < 0.5 else 0
                        for _ in range(num_players)]
        self.to_move = 0

    def current_player(self) -> int:
        return -1 if self.to_move >= self.num_players else self.to_move

    def is_terminal(self) -> bool:
        return self.to_move >= self.num_players

    def _legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else [0]

    def _apply(self, action: int) -> None:
        self.to_move += 1

    def score_breakdown(self) -> dict[str, list[float]]:
        return {"penalties": [float(p) for p in self.penalties],
                "bonus": [float(b) for b in self.bonuses]}

    def scores(self) -> list[float]:
        return [float(p + b) for p, b in zip(self.penalties, self.bonuses)]

    def winners(self) -> list[int]:
        scores = self.scores()
        return [seat for seat, score in enumerate(scores) if score == min(scores)]

    def ranks(self) -> list[int]:
        scores = self.scores()
        return [1 + sum(o < score for o in scores) for score in scores]

    def clone(self) -> PenaltyState:
        other = PenaltyState.__new__(PenaltyState)
        other.__dict__.update(self.__dict__)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other._legal_cache = None
        return other

    def determinize(self, seat: int, rng: random.Random) -> PenaltyState:
        return self.clone()

    def observation(self, seat: int) -> dict:
        return {"to_move": self.to_move}

    def action_kind(self, action: int) -> int:
        return 0


PENALTY = Game(
    name="toy-penalty",
    min_players=2,
    max_players=4,
    Rules=PenaltyRules,
    create_state=PenaltyState,
    heuristics={"default": _coin_pass},
    action_kinds=("pass",),
    score_direction="lowest",
    score_range=(-4.0, 9.0),
)


# --------------------------------------------------------------------------------------------
# Throw: a strategy landscape known in closed form (a rock-paper-scissors cycle, a dominant
# throw)
# --------------------------------------------------------------------------------------------

ROCK, PAPER, SCISSORS, DYNAMITE = range(4)
#: (winner, loser) of every pair of different throws: rock > scissors > paper > rock, and
#: dynamite beats each of them.
THROW_BEATS = {(ROCK, SCISSORS), (SCISSORS, PAPER), (PAPER, ROCK), (DYNAMITE, ROCK),
               (DYNAMITE, PAPER), (DYNAMITE, SCISSORS)}
#: The better throw of a pair wins a game with this chance (decided by the deal).
THROW_EDGE = 0.8


@dataclass(frozen=True)
class ThrowRules:
    edge: float = THROW_EDGE


class ThrowState(State):
    """Two seats each name a throw (their style decides); the deal draws u in [0, 1).  With
    different throws the better one wins when u < `edge` and loses otherwise; with the same
    throw seat 1 wins when u < 1/2.  So one seat of style A at a table of style B wins
    `edge` of the games when A beats B and 1 − `edge` when B beats A: as a multiple of the
    fair 1/2, 1.6x and 0.4x with the default edge."""

    def __init__(self, num_players: int, seed: int, rules: ThrowRules) -> None:
        self.num_players = num_players
        self.rules = rules
        self.rng = random.Random(seed)
        self.draw = self.rng.random()
        self.throws: list[int] = []

    def current_player(self) -> int:
        return -1 if self.is_terminal() else len(self.throws)

    def is_terminal(self) -> bool:
        return len(self.throws) == self.num_players

    def _legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else [ROCK, PAPER, SCISSORS, DYNAMITE]

    def _apply(self, action: int) -> None:
        self.throws.append(action)

    def scores(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.num_players
        a, b = self.throws
        if a == b:
            first = self.draw < 0.5
        else:
            first = ((a, b) in THROW_BEATS) == (self.draw < self.rules.edge)
        return [1.0, 0.0] if first else [0.0, 1.0]

    def clone(self) -> ThrowState:
        other = ThrowState.__new__(ThrowState)
        other.__dict__.update(self.__dict__)
        other.throws = list(self.throws)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other._legal_cache = None
        return other

    def determinize(self, seat: int, rng: random.Random) -> ThrowState:
        return self.clone()

    def observation(self, seat: int) -> dict:
        return {"throws": list(self.throws)}


def _throw_style(throw: int):
    class Throw:
        def __init__(self, **_: str) -> None:
            pass

        def choose(self, state: State, rng: random.Random) -> int:
            return throw

    return Throw


_ROCK = _throw_style(ROCK)
THROW = Game(
    name="toy-throw",
    min_players=2,
    max_players=2,
    Rules=ThrowRules,
    create_state=ThrowState,
    heuristics={"default": _ROCK, "rock": _ROCK, "paper": _throw_style(PAPER),
                "scissors": _throw_style(SCISSORS), "dynamite": _throw_style(DYNAMITE)},
)


# --------------------------------------------------------------------------------------------
# Cards: a dominant card, a useless one, one that never comes up and an action the bot never
# chooses while it has a card to play (elements)
# --------------------------------------------------------------------------------------------

DRAW, BLANK, ACE = 0, 1, 2


@dataclass(frozen=True)
class CardsRules:
    rounds: int = 3
    ace_chance: float = field(default=0.3, metadata={"help": "chance a seat is dealt the Ace"})
    blank_chance: float = field(default=0.5,
                                metadata={"help": "chance a seat is dealt a Blank"})


class CardsState(State):
    """Each seat in turn, `rounds` times: draw (a die 0..9 from the deal's stream is added to
    its points), play its Blank (the same die is added: nothing else differs, so it never
    changes the outcome), or play its Ace (it wins at once: the card always wins when
    played).  A seat holds an Ace with `ace_chance` and a Blank with `blank_chance`; the deal
    draws both chances for every seat whatever they are, so a rule of 0 keeps the deals."""

    def __init__(self, num_players: int, seed: int, rules: CardsRules) -> None:
        self.num_players = num_players
        self.rules = rules
        self.rng = random.Random(seed)
        self.ace = [self.rng.random() < rules.ace_chance for _ in range(num_players)]
        self.blank = [self.rng.random() < rules.blank_chance for _ in range(num_players)]
        self.points = [0] * num_players
        self.turn = 0
        self.ace_winner = -1

    def current_player(self) -> int:
        return -1 if self.is_terminal() else self.turn % self.num_players

    def is_terminal(self) -> bool:
        return self.ace_winner >= 0 or self.turn >= self.rules.rounds * self.num_players

    def _legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        seat = self.current_player()
        return [DRAW] + [BLANK] * self.blank[seat] + [ACE] * self.ace[seat]

    def _apply(self, action: int) -> None:
        seat = self.current_player()
        if action == ACE:
            self.ace[seat] = False
            self.ace_winner = seat
        else:
            if action == BLANK:
                self.blank[seat] = False
            self.points[seat] += int(self.rng.random() * 10)
        self.turn += 1

    def scores(self) -> list[float]:
        return [float(p + (100 if s == self.ace_winner else 0))
                for s, p in enumerate(self.points)]

    def clone(self) -> CardsState:
        other = CardsState.__new__(CardsState)
        other.__dict__.update(self.__dict__)
        other.ace, other.blank, other.points = list(self.ace), list(self.blank), list(self.points)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other._legal_cache = None
        return other

    def determinize(self, seat: int, rng: random.Random) -> CardsState:
        return self.clone()

    def observation(self, seat: int) -> dict:
        return {"points": list(self.points), "turn": self.turn}

    def action_kind(self, action: int) -> int:
        return action  # DRAW, BLANK, ACE: "draw", "play blank", "play ace"


def _cards_best_card(**_: str):
    class BestCard:
        """The Ace when it can, else the Blank, else a draw."""

        name = "heuristic"

        def choose(self, state: State, rng: random.Random) -> int:
            return max(state.legal_actions())

    return BestCard()


def _cards_elements() -> tuple:
    from engines.elements import Element

    return (
        Element("Blank", "card", frozenset({BLANK}), played=("play blank",),
                removal={"blank_chance": "0"}),
        Element("Ace", "card", frozenset({ACE}), played=("play ace",),
                removal={"ace_chance": "0"}),
        Element("Joker", "card", frozenset({3}), note="the deck has no Joker"),
        Element("Draw", "action", frozenset({DRAW}), played=("draw",),
                note="drawing is a rule, not a component"),
    )


CARDS = Game(
    name="toy-cards",
    min_players=2,
    max_players=4,
    Rules=CardsRules,
    create_state=CardsState,
    heuristics={"default": _cards_best_card},
    action_kinds=("draw", "play blank", "play ace"),
    elements=_cards_elements(),
)
