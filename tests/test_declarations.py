"""A game declares what the project needs of it in its own folder (`game.toml`): the build's
compiled modules and what the per-game tests expect, read without a list of games."""

from __future__ import annotations

import pytest

import engines
from engines import _build
from engines.declarations import GameFileError, declarations, folder_of
from tests.toy_games import SHOWDOWN


def test_the_compiled_modules_are_core_and_what_each_game_declares():
    declared = [f"engines.{folder_of(name).name}.{module}"
                for name in sorted(engines.GAMES, key=lambda n: folder_of(n).name)
                for module in declarations(name).compiled]
    assert _build.COMPILED_MODULES == (*_build.CORE_MODULES, *declared)
    for module in _build.COMPILED_MODULES:
        assert _build.source_path(module).is_file(), f"{module} is declared but has no source"


def test_a_game_without_a_game_file_gets_the_defaults(monkeypatch):
    monkeypatch.setitem(engines.GAMES, SHOWDOWN.name, SHOWDOWN)
    declared = declarations(SHOWDOWN.name)
    assert (declared.title, declared.notes, declared.compiled) == (
        SHOWDOWN.name, SHOWDOWN.description, ())
    assert declared.tests.full_view_shows_hidden and not declared.tests.caches_legal_lists


@pytest.mark.parametrize("text, message", [
    ('titel = "Typo"\n', "unknown key 'titel'"),
    ("[tests]\nkind_tables = true\n", r"\[tests\]: unknown key 'kind_tables'"),
    ('compiled = "state"\n', "compiled must be a list"),
    ('[tests]\nkind_table = "yes"\n', "kind_table must be a bool"),
])
def test_a_game_file_with_a_wrong_key_or_type_is_refused_with_its_path(
        monkeypatch, tmp_path, text, message):
    """A typo would otherwise mean the default without a word."""
    (tmp_path / _build.GAME_FILE).write_text(text)
    monkeypatch.setattr("engines.declarations.folder_of", lambda name: tmp_path)
    with pytest.raises(GameFileError, match=message) as error:
        declarations("ninjato")
    assert str(tmp_path / _build.GAME_FILE) in str(error.value)


@pytest.mark.parametrize("name", sorted(engines.GAMES))
def test_every_game_file_reads(name):
    declared = declarations(name)
    assert declared.title and declared.notes
