"""Play one seat of a game against the bots in a terminal (`simulate play`).

The person at `seat` sees only that seat's view (`State.render(seat)`) and picks from the
legal moves, numbered and named by `action_to_str`; the bots play the other seats with the
same bot random stream `play_game` uses.  Bad input asks again; end of input or Ctrl-C ends
the game cleanly.  Every game, finished or not, is saved as a transcript file that
`simulate show` reads.
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from analysis.present import transcript
from analysis.present.formats import seat_order
from engines import get_game
from engines.bots import make_bot
from engines.core import BOT_SEED_SALT
from engines.errors import BadInput

HUMAN = "you"
HELP = """\
Enter the number of a move to play it.  Other commands:
  ?      this help
  v      show your view of the table again
  m      list the legal moves again
  q      stop the game here (it is saved and can be shown with `simulate show FILE`)
Seats are numbered from 1 ({order}).  Under each move: | marks a line of
your view that it changed, * the same after a move that used chance (a draw, a roll)."""


class Quit(Exception):
    """The player asked to stop (q, end of input or Ctrl-C)."""


def _ask(read: Callable[[], str], write: Callable[[str], None], prompt: str) -> str:
    write(prompt)
    try:
        line = read()
    except (EOFError, KeyboardInterrupt):
        raise Quit from None
    if line == "":  # end of input (a closed pipe) rather than an empty line
        raise Quit
    return line.strip()


def _moves(state, legal: Sequence[int]) -> str:
    return "\n".join(f"  {i:>2}) {state.action_to_str(a)}" for i, a in enumerate(legal, 1))


def play(
    game_name: str, seat: int, bots: Sequence[str], players: int | None = None,
    rules: dict[str, str] | None = None, seed: int | None = None, out: Path | None = None,
    pause: float = 0.0, step: bool = False, stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> tuple[transcript.GameSource, Path]:
    """Play `seat` (0-based) against `bots` (filling the other seats, the last repeated).

    Returns the game (finished or not) and the transcript file it was saved to.
    """
    import sys

    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    game = get_game(game_name)
    players = game.players_default if players is None else players
    game.check_players(players)
    if not 0 <= seat < players:
        raise BadInput(f"--seat must be 1-{players}, got {seat + 1}")
    specs = list(bots) or ["heuristic"]
    others = players - 1
    if len(specs) > others:
        raise BadInput(f"{len(specs)} bots given for the {others} other seats")
    specs += [specs[-1]] * (others - len(specs))
    lineup = specs[:seat] + [HUMAN] + specs[seat:]
    made = [None if spec == HUMAN else make_bot(spec, game) for spec in lineup]
    if seed is not None and seed < 0:
        raise BadInput(f"--seed must be >= 0, got {seed}")
    if not math.isfinite(pause) or not 0 <= pause <= 60:
        raise BadInput(f"--pause must be a finite number of seconds, 0..60, got {pause}")
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    rules = dict(rules or {})
    state = game.new_state(players, seed, **rules)
    order = seat_order(game_name, game.make_rules(**rules), players)
    source = transcript.GameSource(
        game=game_name, players=players, seed=seed, rules=rules, lineup=lineup, actions=[],
        label=f"played by hand at seat {seat + 1}", finished=False)
    if out is None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        out = Path("results") / f"play-{game_name}-{stamp}-s{seed}.json"

    if out.is_dir():
        raise BadInput(f"--out {out} is a directory; give a file name such as game.json")
    try:  # refuse an unwritable place before the game, not after it
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BadInput(f"cannot create {out.parent}: {exc.strerror}") from None
    if not os.access(out.parent, os.W_OK):
        raise BadInput(f"cannot write {out}: {out.parent} is not writable")

    def write(text: str) -> None:
        stdout.write(text)
        stdout.flush()

    read = stdin.readline
    bot_rng = random.Random(seed ^ BOT_SEED_SALT)
    write(f"{game_name}, {players} players, seed {seed}; you are seat {seat + 1}; "
          f"line-up: {', '.join(f'seat {s + 1} {b}' for s, b in enumerate(lineup))}\n"
          "Type ? for help.\n\n")
    view = state.render(seat)
    write(view + "\n")
    try:
        while not state.is_terminal():
            actor = state.current_player()
            legal = state.legal_actions()
            if actor == seat:
                write(f"\n{view}\nyour move ({state.round_label()}):\n{_moves(state, legal)}\n")
                action = None
                while action is None:
                    answer = _ask(read, write, f"move 1-{len(legal)}, ? for help: ")
                    if answer == "?":
                        write(HELP.format(order=order) + "\n")
                    elif answer == "v":
                        write(state.render(seat) + "\n")
                    elif answer == "m":
                        write(_moves(state, legal) + "\n")
                    elif answer == "q":
                        raise Quit
                    elif answer.isdigit() and 1 <= int(answer) <= len(legal):
                        action = legal[int(answer) - 1]
                    else:
                        write(f"not a move: {answer!r}; enter a number from 1 to {len(legal)} "
                              "(? for help)\n")
            else:
                if step:
                    _ask(read, write, f"seat {actor + 1} ({lineup[actor]}) to move; Enter: ")
                elif pause > 0:
                    time.sleep(pause)
                action = made[actor].choose(state, bot_rng)
            done = transcript.apply(state, action, seat, lineup, view)
            source.actions.append(action)
            write("\n".join(transcript.step_lines(done)) + "\n")
            view = done.view
    except (Quit, KeyboardInterrupt):  # Ctrl-C while a bot thinks ends the game the same way
        transcript.save(source, out)
        write(f"\ngame stopped after {len(source.actions)} decisions; saved to {out}\n"
              f"see it with: simulate show {out}\n")
        return source, out
    source.finished = True
    source.scores = [float(s) for s in state.scores()]
    transcript.save(source, out)
    write("\n== game over ==\n" + state.render() + "\n\n"
          + "\n".join(transcript.outcome_lines(state, source)) + "\n")
    write("\n== transcript (every seat's cards shown) ==\n" + transcript.to_text(source) + "\n")
    write(f"\nsaved to {out}; see it again with: simulate show {out}\n")
    return source, out
