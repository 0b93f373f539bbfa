"""Ctrl-C on every long command: exit code 130 and one line saying where the finished work
is and the command that finishes it.  Each command is asked for 10**12 games, so these
tests also show that a run of any size starts at once (it is planned lazily)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAME = "tabula-rasa"
HUGE = str(10**12)
VARY = ["--vary", "castle_rule=first_to_two,two_consecutive"]
#: command -> (argv, pattern of the hint's command); `{d}` is a scratch directory.
COMMANDS = {
    "game": ([GAME, "--games", HUGE, "--seed", "1", "--out", "{d}/out"],
             f"simulate {GAME} --resume {{d}}/out$"),
    "game-ladder": ([GAME, "--ladder", "--levels", "random,heuristic", "--games", HUGE,
                     "--seed", "1", "--out", "{d}/out"],
                    rf"simulate {GAME} --ladder --levels random,heuristic --games {HUGE} "
                    r".*--seed 1 --out {d}/out$"),
    "sweep": (["sweep", GAME, *VARY, "--games", HUGE, "--seed", "1", "--out", "{d}/out"],
              f"simulate sweep {GAME} --resume {{d}}/out$"),
    "compare": (["compare", GAME, "--bots", "heuristic,random", "--games", HUGE,
                 "--out", "{d}/out"],
                rf"simulate compare {GAME} .*--games {HUGE} .*--seed \d+ --out {{d}}/out$"),
    "balance-search": (["balance-search", GAME, *VARY, "--budget", HUGE, "--out", "{d}/out"],
                       rf"simulate balance-search {GAME} .*--budget {HUGE} .*--seed \d+ "
                       r"--out {d}/out$"),
    "tune": (["tune", GAME, "--vary", "spread=0.5,1.0", "--budget", HUGE, "--out", "{d}/out"],
             rf"simulate tune {GAME} .*--budget {HUGE} .*--seed \d+ --out {{d}}/out$"),
    "run": (["run", "{d}/exp.toml", "--games", HUGE, "--out", "{d}/out"],
            rf"simulate run {{d}}/exp.toml --games {HUGE} --out {{d}}/out"),
    "explain": (["explain", GAME, "--games", HUGE, "--out", "{d}/out", "--report",
                 "{d}/why.html"],
                f"simulate explain {GAME} --resume {{d}}/out --report {{d}}/why.html$"),
    "compensate": (["compensate", GAME, "--budget", HUGE, "--out", "{d}/out", "--replay", "50"],
                   f"simulate compensate {GAME} --resume {{d}}/out --replay 50$"),
}


def _default_sigint() -> None:
    """Ctrl-C as a terminal delivers it: a test run started in the background (CI under
    `nohup ... &`) inherits SIGINT ignored, and the child would never see the signal."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def started(directory: Path) -> bool:
    return any(directory.rglob("manifest.json"))


@pytest.mark.parametrize("name", list(COMMANDS))
def test_ctrl_c_exits_130_with_a_resume_hint(name, tmp_path):
    argv, hint = COMMANDS[name]
    (tmp_path / "exp.toml").write_text(
        f'[[study]]\ngame = "{GAME}"\nplayers = 2\nbots = ["heuristic", "random"]\n')
    args = [a.format(d=tmp_path) for a in argv] + ["--jobs", "1", "--quiet"]
    env = {**os.environ, "TABLETOP_PURE": "1", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "analysis.cli", *args], cwd=tmp_path,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=_default_sigint)
    try:
        deadline = time.monotonic() + 120
        while not started(tmp_path / "out") and proc.poll() is None:
            assert time.monotonic() < deadline, "no run started within 120 s"
            time.sleep(0.2)
        assert proc.poll() is None, proc.communicate()[1]
        time.sleep(1.0)
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal sends
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    lines = err.strip().splitlines()
    assert proc.returncode == 130, err
    assert lines and lines[-1].startswith("interrupted: "), err
    assert f"saved in {tmp_path}" in lines[-1]
    assert re.search("finish with: " + hint.format(d=tmp_path), lines[-1]), lines[-1]
    assert "Traceback" not in err
