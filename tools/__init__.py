"""Documentation tooling: generated files are generated, never typed.

The generators, in the order that works:

- `tools.positions`: `engines/<package>/_position.py` from each game's position declaration;
- `notebooks/make_notebooks.py`: the notebooks, one balance notebook per game;
- `tools.rules_pages`: `docs/rules/*.md` from the rules notes beside the repository (where
  they are at hand; the game pages' rule tables link to these pages' anchors);
- `tools.cli_reference`: `docs/cli.md` from the commands' help;
- `tools.examples`: the cog blocks of `README.md` and `docs/` (game page tables, example
  output).
"""
