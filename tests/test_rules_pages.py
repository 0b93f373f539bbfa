"""The rules pages: every ruling a rule option cites can be looked up, and the pages are their
notes (where the notes are at hand), with originals cited by title and anchors on every id."""

from __future__ import annotations

import re

import pytest

from engines import GAMES
from engines.core import rule_options
from tools import rules_pages

NOTES = """\
# Toy — rules, component data and rulings

Engine name: `toy` · players: 2 · original rule text (Japanese): `../seeds/000_842468ab1e704e30.txt`

How to read this file:
- It is the project's reference for this game: implement the defaults.

---

# Toy — research notes

## Sources used
- T1: the Japanese translation at `../seeds/000_842468ab1e704e30.txt`.

## 1. Rules
**Setup:**
- Deal.
  - Two cards each,
    then turn one up.

| E0 | a board row, not a ruling |
|---|---|

## 2. Ambiguities and recommended resolutions

| # | question | recommendation |
|---|---|---|
| A1 | Ties? | Shared win. |

- **A2 Passing.** *Recommend:* no.
"""


def test_every_id_a_rule_option_cites_has_an_anchor_on_its_rules_page():
    """A help text's "(B5)" or "(T1, default)" can be looked up on the game's rules page."""
    missing, cited = [], 0
    for name, game in GAMES.items():
        known = rules_pages.anchors(name)  # none: the game has no rules page
        for option in rule_options(game.Rules):
            idents = re.findall(r"\b[A-Z]\d{1,2}\b", option["help"])
            cited += len(idents)
            missing += [f"{name} {option['name']}: {i}" for i in idents if i.lower() not in known]
    assert cited and not missing, missing


def test_a_page_anchors_each_id_and_cites_the_original_by_title():
    page = rules_pages.render(NOTES)
    assert page.name == "toy" and page.title == "Toy" and page.rulings == ("A1", "A2")
    assert '| <a id="a1"></a>A1 |' in page.text
    assert '- **<a id="a2"></a>A2 Passing.**' in page.text
    assert '- <a id="t1"></a>T1: the Japanese translation *Tabula Rasa, Japanese' in page.text
    assert "| E0 |" in page.text  # ids only in the sections that define them
    assert "../seeds" not in page.text and "How to read this file" not in page.text
    assert "Rulings: [A1](#a1) · [A2](#a2)." in page.text
    assert page.text.count("\n# ") == 1  # the notes' second title is a section


def test_lists_are_indented_and_set_apart_for_python_markdown():
    text = rules_pages.render(NOTES).text
    assert "**Setup:**\n\n- Deal.\n    - Two cards each,\n        then turn one up." in text


@pytest.mark.parametrize("change, message", [
    (("`../seeds/000_842468ab1e704e30.txt`.", "`../seeds/unknown.txt`."), "no title"),
    (("- Deal.", "- Deal (see ../shared/rules/other.md)."), "outside the repository"),
    (("| A1 | Ties?", "| A2 | Ties?"), "id A2 again"),
])
def test_notes_the_generator_cannot_publish_are_refused(change, message):
    with pytest.raises(rules_pages.NotesError, match=message):
        rules_pages.render(NOTES.replace(*change))


def test_a_help_text_links_the_ids_its_rules_page_anchors():
    linked = rules_pages.link_rulings("big-cheese", "nobody bids (B1); B99 and X1 stay text")
    assert linked == "nobody bids ([B1](../rules/big-cheese.md#b1)); B99 and X1 stay text"


@pytest.mark.skipif(not rules_pages.SOURCE.is_dir(), reason="the rules notes are not beside "
                    "the repository (../shared/rules)")
def test_the_rules_pages_match_their_notes():
    for path, text in rules_pages.pages().items():
        assert path.read_text() == text, f"{path.name} is stale: run python -m tools.rules_pages"
