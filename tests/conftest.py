"""Shared helpers for the test suite."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

needs_chromium = pytest.mark.skipif(
    shutil.which("chromium") is None, reason="chromium not installed (apt-get install -y chromium)")


def chromium_dom(page: Path, tmp_path: Path, width: int = 1300) -> str:
    """The DOM of `page` after loading in headless Chromium with a `width`-pixel window."""
    proc = subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         f"--user-data-dir={tmp_path / 'profile'}", "--host-resolver-rules=MAP * ~NOTFOUND",
         f"--window-size={width},1000", "--virtual-time-budget=2000", "--dump-dom",
         page.as_uri()],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


@pytest.fixture(autouse=True, scope="session")
def _reference_cache(tmp_path_factory):
    """Reference runs for coverage (`analysis.run.reference`) go to a session directory, not
    the user's cache."""
    import os

    from analysis.run import reference

    path = tmp_path_factory.mktemp("reference-cache")
    old = os.environ.get(reference.CACHE_ENV)
    os.environ[reference.CACHE_ENV] = str(path)
    yield path
    if old is None:
        os.environ.pop(reference.CACHE_ENV, None)
    else:
        os.environ[reference.CACHE_ENV] = old
