"""Each game's position is declared once (`engines/<game>/position.py`): what a seat sees
never depends on what the declaration hides (`tests/test_generate.py` keeps the generated
modules current).

The information check is generic, driven by the declared visibility: on random playouts,
every world `determinize(seat, rng)` may differ from the real position only where the seat
cannot see (a public attribute is kept whole; an owner-only one keeps the seat's own entry
and every entry's size; a size-only one its length), and the seat's `observation` and
`render` are the same in every world.  A deliberately broken declaration fails it.
"""

from __future__ import annotations

import random

import pytest

from engines import get_game
from engines import position as P
from tests.playouts import playout
from tools import positions

GAMES = positions.games()


def _game_name(package: str) -> str:
    return package.replace("_", "-")


def leaks(declaration: P.Position, state, world, seat: int) -> list[str]:
    """Where `world` (a determinization for `seat`) differs from `state` in what the
    declaration says `seat` sees."""
    found = []
    for field in declaration.fields:
        if field.copy in (P.CACHE, P.STREAM) or field.visibility == P.HIDDEN:
            continue
        ours, theirs = getattr(state, field.name), getattr(world, field.name)
        if field.visibility == P.PUBLIC:
            same = ours == theirs
        elif field.visibility == P.OWNER:
            same = (ours[seat] == theirs[seat]
                    and [_size(x) for x in ours] == [_size(x) for x in theirs])
        else:  # SIZE
            same = len(ours) == len(theirs)
        if not same:
            found.append(f"{field.name} ({field.visibility})")
    return found


def _size(entry) -> int | None:
    """What others see of an owner-only entry: a list's length, nothing of a number."""
    return len(entry) if hasattr(entry, "__len__") else None


def information_failures(package: str, declaration: P.Position, observe=None,
                         seeds: range = range(3), worlds: int = 3) -> list[str]:
    """Every leak and every observation or render that a world changes, on playouts."""
    game = get_game(_game_name(package))
    observe = observe or (lambda state, seat: state.observation(seat))
    players = min(max(game.min_players, 3), game.max_players)
    failures = []
    for seed in seeds:
        for step, state in enumerate(playout(game, players, seed)):
            if step % 7 and not state.is_terminal():
                continue
            for seat in range(players):
                seen, shown = observe(state, seat), state.render(seat)
                for k in range(worlds):
                    world = state.determinize(seat, random.Random(1000 * seed + k))
                    failures += [f"seed {seed}: determinize changed {name}"
                                 for name in leaks(declaration, state, world, seat)]
                    if observe(world, seat) != seen:
                        failures.append(f"seed {seed}: seat {seat}'s observation depends on "
                                        "what it cannot see")
                    if world.render(seat) != shown:
                        failures.append(f"seed {seed}: seat {seat}'s render depends on what "
                                        "it cannot see")
            if failures:
                return failures
    return failures


@pytest.mark.parametrize("package", GAMES)
def test_what_a_seat_sees_never_depends_on_what_is_hidden_from_it(package):
    assert information_failures(package, positions.declaration(package)) == []


def _declared_public(declaration: P.Position, name: str, view_key: str) -> P.Position:
    """`declaration` with the owner-only `name` declared public and shown whole."""
    fields = tuple(P.Field(f.name, f.type, f.copy, P.PUBLIC, f.doc) if f.name == name else f
                   for f in declaration.fields)
    views = tuple(P.View(v.key, v.cap, name, P.WHOLE) if v.key == view_key else v
                  for v in declaration.views)
    return P.Position(declaration.base, declaration.doc, declaration.imports, fields, views,
                      declaration.records, declaration.hooks)


def test_a_declaration_that_shows_the_hands_fails_the_information_check():
    """The contract test can fail: Tabula Rasa with `hands` declared public (and its
    observation generated from that) leaks every hand, and the check says so."""
    broken = _declared_public(positions.declaration("tabula_rasa"), "hands", "hand")
    namespace: dict = {}
    exec(compile(positions.render_module("tabula_rasa", broken), "<broken>", "exec"), namespace)
    observation = vars(namespace[broken.base])["observation"]
    failures = information_failures("tabula_rasa", broken, observation, seeds=range(1))
    assert any("determinize changed hands (public)" in f for f in failures)
    assert any("observation depends" in f for f in failures)


@pytest.mark.parametrize("metrics", [True, False])
def test_a_record_declared_with_metrics_reports_each_count_by_its_declared_name(metrics):
    """`metrics()` is written from the declaration: every count under its name, each
    per-seat list that has a metric name seat by seat, a per-seat list without one left out;
    a record declared without `metrics` gets no such method."""
    record = P.Record("Tally", "Counts.", counts=(("hits", "0", ""), ("misses", "2", "")),
                      per_seat=(("seat_hits", "hits", ""), ("seat_scratch", "", "")),
                      metrics=metrics)
    namespace: dict = {}
    exec("from dataclasses import dataclass, field\n" + "\n".join(positions._record(record)),
         namespace)
    tally = namespace["Tally"](hits=3, seat_hits=[1, 2], seat_scratch=[9, 9])
    if not metrics:
        assert not hasattr(tally, "metrics")
        return
    assert tally.metrics() == {"hits": 3, "misses": 2, "hits_p0": 1, "hits_p1": 2}
    assert list(tally.metrics()) == ["hits", "misses", "hits_p0", "hits_p1"]


def test_a_view_the_visibility_forbids_is_refused():
    """The generator will not write an observation that shows an owner-only field whole."""
    declaration = positions.declaration("tabula_rasa")
    views = tuple(P.View(v.key, v.cap, "hands", P.WHOLE) if v.key == "hand" else v
                  for v in declaration.views)
    broken = P.Position(declaration.base, declaration.doc, declaration.imports,
                        declaration.fields, views)
    with pytest.raises(positions.DeclarationError, match="shows hands"):
        positions.render_module("tabula_rasa", broken)


def test_the_generator_leaves_engines_importable_when_it_is_imported_first():
    """The generator reads declarations without loading the games; a process that imports it
    before `engines` must still get the real package afterwards."""
    import subprocess
    import sys

    code = ("import tools.positions, engines; "
            "print(engines.get_game('tabula-rasa').name)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=positions.ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "tabula-rasa"


def test_a_declaration_with_an_unknown_copy_depth_is_one_error_line(tmp_path, monkeypatch):
    folder = tmp_path / "toy"
    folder.mkdir()
    (folder / "position.py").write_text(
        "from engines.position import Field\nPOSITION = Field('x', 'int', 'deep', 'public')\n")
    monkeypatch.setattr(positions, "ENGINES", tmp_path)
    with pytest.raises(positions.DeclarationError, match="copy 'deep'"):
        positions.declaration("toy")
