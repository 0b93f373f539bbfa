"""Generate `docs/cli.md` from the `simulate` commands' own help (the click objects typer builds).

    python -m tools.cli_reference          # rewrite docs/cli.md
    python -m tools.cli_reference --check  # exit 1 when docs/cli.md is stale (tests do this)

Why generated: a hand-kept reference drifts from `--help` as options are added; this one is
the help, so it cannot.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer
from typer.main import get_command

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "docs" / "cli.md"

HEADER = """# Command reference

Generated from the commands' own `--help` by `python -m tools.cli_reference`
(a test fails when this page and the help disagree). Every command refuses bad input with
one line `error: ...` and exit code 2 before any work starts.

"""


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _option_row(param, ctx) -> str:
    """One table row from the same record `--help` prints (names with value type, help)."""
    names, help_text = param.get_help_record(ctx) or (param.name.upper(), "")
    return f"| `{_cell(names)}` | {_cell(help_text)} |"


def command_section(name: str, command, parent) -> str:
    ctx = typer.Context(command, info_name=name, parent=parent)
    lines = [f"## `simulate {name}`", ""]
    if command.help:
        lines += [command.help.strip().replace("\b\n", ""), ""]
    lines += ["```text", " ".join(command.collect_usage_pieces(ctx)).join(
        (f"simulate {name} ", "")), "```", ""]
    arguments = [p for p in command.params if p.param_type_name == "argument"]
    options = [p for p in command.params if p.param_type_name == "option" and not p.hidden]
    if arguments or options:
        lines += ["| argument or option | meaning |", "|---|---|"]
        lines += [_option_row(param, ctx) for param in [*arguments, *options]]
        lines.append("")
    return "\n".join(lines)


def meanings_section() -> str:
    """Options whose meaning depends on the command: where `--out` is not a directory of
    runs (`OUT_MEANING`), and the other options each command words its own way."""
    from analysis.cli.options import OUT_MEANING, OWN_MEANING

    lines = ["## Options that mean different things", "",
             "`--out` names a directory the command creates for the games it plays (its row "
             "says how an interrupted one is finished: `--resume DIR`, or the same `--out` "
             "again), except in these commands:", "", "| command | `--out` is |", "|---|---|"]
    lines += [f"| `simulate {name}` | {_cell(meaning)} |" for name, meaning in OUT_MEANING.items()]
    lines += ["", "Each command's own row says what these count or name there:", ""]
    for option, where in OWN_MEANING.items():
        if option == "--out":
            continue
        places = ("every `simulate GAME` command" if where == "per game" else
                  "every command that has it" if where == "every command" else
                  ", ".join(f"`simulate {name}`" for name in where))
        lines.append(f"- `{option}`: {places}")
    return "\n".join(lines) + "\n"


def render() -> str:
    from analysis.cli.app import app

    group = get_command(app)
    root = typer.Context(group, info_name="simulate")
    sections = [command_section(name, group.commands[name], root)
                for name in group.list_commands(root)]
    return HEADER + meanings_section() + "\n" + "\n".join(sections)


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if not TARGET.exists() or TARGET.read_text() != text:
            print(f"{TARGET.relative_to(ROOT)} is stale: run python -m tools.cli_reference",
                  file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
