"""Documentation tooling: generated files are generated, never typed.

`python -m tools.generate` runs every generator in the order that works; its docstring
lists them (`tools.rules_pages` among them, for the rules pages of the site).
"""
