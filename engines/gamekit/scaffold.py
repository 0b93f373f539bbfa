"""A new game's folder, written from a template (`simulate new-game NAME [--path DIR]`).

The template is a small card game on the game kit that already keeps the whole engine
contract (it plays, bots and searches play it, both RL adapters take it), with a rules-test
stub and a property-test stub that fail until the designer writes them.  Its modules
import each other relatively, so the folder plays the same inside `engines/` and anywhere
else registered by path (`TABLETOP_GAMES`).

Everything is checked before anything is written, and the folder is written whole or not
at all (built beside its place, then renamed into it).
"""

from __future__ import annotations

import keyword
import os
import re
import shutil
import tempfile
from pathlib import Path
from string import Template

from engines.errors import BadInput

#: A game name: lower-case words of letters and digits joined by hyphens (`card-race`).
NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
#: The longest name accepted (it is a folder, a command and a column value).
MAX_NAME = 40

INIT = '''"""$title: a new game written with the game kit (`engines.gamekit`, docs/tutorial.md)."""

from engines.gamekit import kit_game

from .bots import HEURISTICS
from .rules import Rules
from .state import CARDS, ${cls}State

GAME = kit_game(
    ${cls}State, Rules, name="$name", min_players=2, max_players=4,
    description="$title: say in one line what the players do",
    heuristics=HEURISTICS,
    score_direction="highest",  # "lowest" when the fewest points win
    score_range=(0.0, None),  # the bounds of one seat's final score (None: no bound)
    max_game_length=CARDS,  # every decision plays a card (or set max_decisions, a cap)
)
'''

RULES = '''"""$title's rule options; each default is the rule as written."""

from dataclasses import dataclass, field

from engines.gamekit import KitRules


@dataclass(frozen=True)
class Rules(KitRules):
    hand: int = field(default=3, metadata={"help": "cards in each hand"})

    def __post_init__(self) -> None:
        super().__post_init__()
        if not 1 <= self.hand <= 5:
            raise ValueError(f"hand must be 1-5 cards, got {self.hand}")
'''

STATE = '''"""$title's rules: the table, the deal, the legal moves, what a move does, the score.

The template game: each seat holds a hand from a shuffled deck; in turn a seat plays a card
face up onto its row and draws; play stops when the seat to play has no card; the highest
row wins.  Replace it with your game (docs/tutorial.md shows how, step by step).
"""

from engines.gamekit import OWNER, PUBLIC, SIZE, Actions, KitState, Layout, Zone

CARDS = 20
ACTIONS = Actions(("play", CARDS + 1))  # play a card, by its number (0 is never played)
(PLAY,) = ACTIONS.offsets

LAYOUT = Layout(
    zones=(Zone("deck", SIZE, doc="face down, drawn from the top"),
           Zone("hand", OWNER, per_seat=True, sort=True),
           Zone("row", PUBLIC, per_seat=True)),
    actions=ACTIONS,
)


class ${cls}State(KitState):
    layout = LAYOUT

    def setup(self) -> None:
        self.fill("deck", list(range(1, CARDS + 1)))
        self.shuffle("deck")
        self.deal("deck", "hand", self.rules.hand)

    def _legal_actions(self) -> list[int]:
        if self.to_move < 0:
            return []
        return [PLAY + card for card in self.cards("hand", self.to_move)]

    def _apply(self, action: int) -> None:
        seat = self.to_move
        self.move(action - PLAY, "hand", "row", seat)
        self.draw("deck", "hand", seat)
        self.pass_turn()
        if not self.cards("hand", self.to_move):
            self.end_game()

    def score_breakdown(self) -> dict[str, list[float]]:
        seats = range(self.num_players)
        points = {"row": [float(sum(self.cards("row", s))) for s in seats]}
        if self.rules.seat_bonus:
            points["seat bonus"] = [float(bonus) for bonus in self.seat_bonus()]
        return points
'''

BOTS = '''"""$title's heuristic bot: a rule of thumb (`simulate tune` tunes its weights)."""

import random

from engines.gamekit import heuristic

from .state import ${cls}State


def play_highest(state: ${cls}State, rng: random.Random) -> int:
    return state.legal_actions()[-1]  # the highest card in hand


HEURISTICS = {"default": heuristic(play_highest, uses_rng=False)}
'''

GAME_FILE = '''# $title's declarations for everything outside this folder (docs/engine-contract.md,
# "The game file").

title = "$title"
notes = "$title: one line for the README's games table"
compiled = []  # the modules mypyc compiles, once the rules are written (inside engines/)

[tests]
'''

RULES_TESTS = '''"""$title's rules, one scenario test per rule, named after it: set up the
exact situation on the table, play the move, check the outcome (docs/tutorial.md, 9)."""

import pytest

from engines import get_game

GAME = get_game("$name")


def test_setup_deals_each_seat_a_hand():  # a written rule test, for the template's rule
    state = GAME.new_state(3, 1)
    assert [len(state.cards("hand", seat)) for seat in range(3)] == [3, 3, 3]


def test_write_the_rule_tests():
    pytest.fail("STUB: write a scenario test for each rule of $name (set up the position, "
                "apply the move, assert the outcome), then delete this stub")
'''

PROPERTY_TESTS = '''"""$title's invariants on random playouts (hypothesis): what no game
may break (docs/tutorial.md, 9)."""

import pytest


def test_write_the_property_tests():
    pytest.fail("STUB: write a property test for $name: an invariant of every position of "
                "random playouts (no card made or lost, scores in range, ...), then delete "
                "this stub")
'''

#: The folder's files, relative to it.
FILES = {
    "__init__.py": INIT, "rules.py": RULES, "state.py": STATE, "bots.py": BOTS,
    "game.toml": GAME_FILE, "tests/test_${package}_rules.py": RULES_TESTS,
    "tests/test_${package}_properties.py": PROPERTY_TESTS,
}


def package_of(name: str) -> str:
    """`card-race` -> `card_race`, the folder and the module under `engines`."""
    return name.replace("-", "_")


def check(name: str, parent: Path, taken: set[str]) -> Path:
    """The folder `parent/<package>` a new game `name` would get; a bad name (not lower-case
    words joined by hyphens, a keyword, a name in `taken`: the registered games and the
    `simulate` commands; a module of `engines`), a `parent` that is no directory or a folder
    that exists already raise `BadInput`."""
    if len(name) > MAX_NAME or not NAME.fullmatch(name):
        raise BadInput(f"a game name is lower-case letters and digits, words joined by "
                       f"hyphens, at most {MAX_NAME} characters (card-race), got {name!r}")
    package = package_of(name)
    if name in taken or keyword.iskeyword(package):
        raise BadInput(f"the name {name!r} is taken (a game, a simulate command or a Python "
                       f"keyword); choose another")
    import engines

    for root in map(Path, engines.__path__):
        for there in (root / package, root / f"{package}.py"):
            if there.exists():
                raise BadInput(f"the name {name!r} is taken: engines/{there.name} exists")
    if not parent.is_dir():
        raise BadInput(f"--path {parent} is not a directory")
    folder = parent / package
    if folder.exists():
        raise BadInput(f"{folder} exists already; choose another name or --path")
    return folder


def write(name: str, folder: Path) -> list[Path]:
    """Write the template game `name` into the new `folder` (checked by `check`), whole:
    built in a sibling temporary folder, then renamed into place.  Returns the files."""
    package = package_of(name)
    words = {"name": name, "package": package, "title": name.replace("-", " ").title(),
             "cls": "".join(part.title() for part in name.split("-"))}
    build = Path(tempfile.mkdtemp(prefix=f".{package}-", dir=folder.parent))
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.chmod(build, 0o777 & ~umask)  # a folder as any other, not mkdtemp's private one
        for relative, text in FILES.items():
            path = build / Template(relative).substitute(words)
            path.parent.mkdir(exist_ok=True)
            path.write_text(Template(text).substitute(words))
        os.rename(build, folder)
    except BaseException:
        shutil.rmtree(build, ignore_errors=True)
        raise
    return sorted(p for p in folder.rglob("*") if p.is_file())
