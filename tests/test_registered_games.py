"""A game folder outside the checkout registers by its path (`TABLETOP_GAMES`): it plays as
`engines.<folder name>`, its game file is read, and a folder that cannot be a game (no
package, a name taken, a game name registered twice) is left out loudly while the others
play.  The compiled build compiles `engines/` only: a registered folder never changes its
module list or makes it stale."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import engines
from engines import _build
from engines.bots import make_bot
from engines.declarations import declarations, folder_of
from engines.gamekit import scaffold

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def registered(monkeypatch):
    """`register(*folders)` sets `TABLETOP_GAMES`; the folders' modules are forgotten after
    (never a built-in game's, whose name a refused folder may carry)."""
    packages: set[str] = set()

    def register(*folders: Path) -> None:
        monkeypatch.setenv(_build.GAMES_ENV, os.pathsep.join(map(str, folders)))
        packages.update(folder.name for folder in folders)

    yield register
    for package in packages - set(engines._game_packages()):
        for name in [m for m in sys.modules if m.split(".")[:2] == ["engines", package]]:
            del sys.modules[name]


def new_game(parent: Path, name: str) -> Path:
    parent.mkdir(parents=True, exist_ok=True)
    folder = scaffold.check(name, parent, set(engines.GAMES))
    scaffold.write(name, folder)
    return folder


def test_a_registered_folder_plays_as_a_package_of_engines_with_its_game_file(
        tmp_path, registered, monkeypatch):
    """Its modules import each other relatively, so it plays as `engines.<folder>`."""
    folder = new_game(tmp_path / "games", "card-race")
    registered(folder)
    broken: dict[str, str] = {}
    games = engines._discover(broken=broken)
    assert not broken and set(engines.GAMES) < set(games)
    game = games["card-race"]
    assert type(game.new_state(2, 1)).__module__ == "engines.card_race.state"
    monkeypatch.setitem(engines.GAMES, "card-race", game)
    assert folder_of("card-race") == folder
    assert declarations("card-race").title == "Card Race"
    record = engines.play_game(game, [make_bot("heuristic", game)] * 3, 1)
    assert record.winners and not record.truncated


@pytest.mark.parametrize("case", ["missing", "not a package", "name taken in engines"])
def test_a_path_that_cannot_be_a_game_is_left_out_loudly_and_the_others_play(
        tmp_path, registered, case):
    if case == "missing":
        folder = tmp_path / "nowhere"
    elif case == "not a package":
        folder = tmp_path / "loose_files"
        folder.mkdir()
        (folder / "state.py").write_text("")
    else:
        folder = new_game(tmp_path / "elsewhere", "card-race").rename(tmp_path / "tabula_rasa")
    registered(folder)
    broken: dict[str, str] = {}
    games = engines._discover(broken=broken)
    assert set(games) == set(engines.GAMES)
    [(where, error)] = broken.items()
    assert where == f"engines.{folder.name}" and "\n" not in error
    assert _build.GAMES_ENV in error and str(folder) in error


def test_a_game_name_registered_twice_is_refused_not_swapped_in(tmp_path, registered):
    first = new_game(tmp_path / "a", "card-race")
    second = new_game(tmp_path / "b", "card-race").rename(tmp_path / "b" / "card_race_two")
    registered(first, second)
    broken: dict[str, str] = {}
    games = engines._discover(broken=broken)
    assert type(games["card-race"].new_state(2, 1)).__module__ == "engines.card_race.state"
    assert broken == {"engines.card_race_two": "RegistrationError: game name 'card-race' is "
                                                "taken by another game"}


def test_a_registered_folder_is_not_compiled_and_never_makes_a_build_stale(tmp_path):
    """Even a folder whose game file lists compiled modules: the build's module list and the
    engine sources it depends on are those of `engines/`."""
    folder = new_game(tmp_path, "card-race")
    game_file = folder / "game.toml"
    game_file.write_text(game_file.read_text().replace("compiled = []", 'compiled = ["state"]'))
    code = ("import json; from engines import _build; "
            "print(json.dumps([_build.COMPILED_MODULES, sorted(_build.engine_sources())]))")
    outputs = []
    for games in ("", str(folder)):
        env = {**os.environ, _build.GAMES_ENV: games}
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=300, check=True)
        outputs.append(json.loads(done.stdout))
    assert outputs[0] == outputs[1]
    modules, sources = outputs[0]
    assert "engines.hot_potato.state" in modules  # a kit game inside engines/ is compiled
    assert not any("card_race" in m for m in modules)
    assert not any("/tests/" in s for s in sources)  # a game's tests are no engine source
