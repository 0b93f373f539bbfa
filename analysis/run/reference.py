"""Reference play for coverage: which game systems a reference bot reaches in a configuration.

A bot that never takes a system measures a smaller game, but "available" as the bot itself saw
it misses systems the bot never unlocks (a Ninjato skill it never buys cannot be legal for it).
So a system counts as offered when a reference — random play by default — reaches it in the
same game, player count, rules and data set.  The reference is taken from the frame when it
already holds that line-up, else played once and cached per configuration as an ordinary run
directory under `cache_root()` (resumable, reused by every later summary and report).
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.results import store
from analysis.run import tournament
from analysis.stats import balance, systems, verdicts
from engines.errors import BadInput

#: The default reference bot and how many games it plays per configuration.
REFERENCE_BOT = "random"
REFERENCE_GAMES = 200
#: Fixed run seed of reference runs: the same configuration always plays the same deals.
REFERENCE_SEED = 0
#: Environment variable naming the cache directory.
CACHE_ENV = "TABLETOP_REFERENCE_CACHE"


def cache_root() -> Path:
    """Where reference runs are cached: $TABLETOP_REFERENCE_CACHE, else the user's cache
    directory (`$XDG_CACHE_HOME/tabletop-sim/reference`, `~/.cache/...`)."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "tabletop-sim" / "reference"


def reference_spec(manifest: dict[str, Any], bot: str = REFERENCE_BOT,
                   games: int = REFERENCE_GAMES) -> tournament.RunSpec:
    """The reference run of a run's configuration: its game, players, rules (and so its data
    set), `bot` in every seat."""
    spec = tournament.spec_from_manifest(manifest)
    return tournament.RunSpec(game=spec.game, players=spec.players, games=games,
                              bots=(bot,) * spec.players, seed=REFERENCE_SEED,
                              rules=dict(spec.rules)).validated()


def _cache_dir(manifest: dict[str, Any], bot: str, games: int) -> Path:
    key = "|".join(str(manifest.get(k, "")) for k in ("game", "players", "rules_str",
                                                       "dataset"))
    digest = hashlib.sha256(f"{key}|{bot}|{games}|{REFERENCE_SEED}".encode()).hexdigest()[:16]
    return cache_root() / f"{manifest['game']}-{manifest['players']}p-{digest}"


def reference_frame(manifest: dict[str, Any], bot: str = REFERENCE_BOT,
                    games: int = REFERENCE_GAMES, frame: pd.DataFrame | None = None
                    ) -> pd.DataFrame:
    """The reference's games for a run's configuration: the rows of `frame` where `bot` sat
    in every seat of that configuration if there are any (measured in the run), else the
    cached reference run (played now if missing)."""
    if frame is not None and len(frame):
        mine = frame[(frame["game"] == manifest["game"])
                     & (frame["players"] == int(manifest["players"]))
                     & (frame.get("rules", "") == manifest.get("rules_str", ""))]
        if len(mine) and "run_id" in mine:
            solo = mine.groupby("run_id")["bot"].agg(lambda b: set(b) == {bot})
            runs = solo[solo].index
            if len(runs):
                return mine[mine["run_id"].isin(runs)]
    spec = reference_spec(manifest, bot, games)
    directory = _cache_dir(manifest, bot, games)
    try:
        return tournament.run_or_resume(spec, directory, jobs=1).frame
    except (BadInput, store.RunError):
        # a cache entry this version cannot use (written by another version of the toolkit,
        # or damaged): it is only a cache, so it is played again rather than refused
        shutil.rmtree(directory, ignore_errors=True)
        return tournament.run_or_resume(spec, directory, jobs=1).frame


def reference_frames(frame: pd.DataFrame, manifests: list[dict[str, Any]],
                     bot: str = REFERENCE_BOT, games: int = REFERENCE_GAMES
                     ) -> dict[tuple, pd.DataFrame]:
    """The reference's games per configuration of `manifests` (`reference_frame` each)."""
    out: dict[tuple, pd.DataFrame] = {}
    for manifest in manifests:
        config = systems.configuration(manifest)
        if config not in out:
            out[config] = reference_frame(manifest, bot, games, frame)
    return out


def skipped_against_reference(frame: pd.DataFrame, manifests: list[dict[str, Any]],
                              reference_bot: str | None = None, games: int | None = None
                              ) -> list[tuple[dict, verdicts.Verdict]]:
    """Per configuration (game, players, rules, data set) and bot: the systems it never or
    almost never chose although the reference bot (random play by default) reaches them in
    the same configuration (`systems.skipped_against_reference`).  The reference comes
    from the frame when it holds that line-up, else from the cached reference run."""
    bot = reference_bot or REFERENCE_BOT
    if not balance.kind_columns(frame):
        return []
    references = reference_frames(frame, manifests, bot, games or REFERENCE_GAMES)
    return systems.skipped_against_reference(frame, manifests, references, bot)
