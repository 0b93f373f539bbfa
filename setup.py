"""Build: compile the hot engine modules with mypyc when a C compiler and mypy are present.

Metadata lives in pyproject.toml; this file only adds the compiled modules.  Which modules,
and how a run picks compiled or pure, is `engines/_build.py`.  Every outcome is recorded in
`engines/_build_info.json` (read at import), so a pure build is never mistaken for a
compiled one, and a compiled build whose engine sources changed afterwards (any `.py` under
`engines/`) is never used:

- `TABLETOP_PURE=1` at build time: pure, nothing compiled;
- no C compiler, no Python headers or no mypy: pure, with a warning (`pip install -v` shows
  it; the run says it too: `simulate bench`, the manifest, the report);
- mypyc or the C compiler fails: pure, with the error in the record and a warning per run.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("_engines_build", ROOT / "engines" / "_build.py")
assert _spec is not None and _spec.loader is not None
_build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_build)

INFO = ROOT / "engines" / _build.INFO_FILE
#: mypy checks the compiled modules alone; the rest of the project is followed silently.
MYPY_FLAGS = ["--ignore-missing-imports", "--follow-imports=silent"]
#: Name of each package's shared library of compiled code (mypyc adds `__mypyc`).
GROUP_LIBRARY = "_native"


def warn(message: str) -> None:
    print(f"warning: tabletop-sim: {message}", file=sys.stderr)


def record(build: str, reason: str, **extra: object) -> None:
    INFO.write_text(json.dumps({"build": build, "reason": reason, **extra}, indent=1) + "\n")


def remove_stale_extensions() -> None:
    """A pure build deletes the compiled modules an earlier in-place build left beside the
    sources (the run-time finder would skip them anyway; this keeps the tree honest)."""
    for module in _build.COMPILED_MODULES:
        stem = _build.source_path(module, ROOT).with_suffix("")
        for found in stem.parent.glob(f"{stem.name}.*.so"):
            found.unlink()
    for group in [*ROOT.glob("*__mypyc*.so"), *ROOT.glob(f"engines/**/{GROUP_LIBRARY}__mypyc*.so")]:
        group.unlink()


def missing_toolchain() -> str | None:
    """Why mypyc cannot run here, or None."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler} not found; on Debian: apt-get install gcc python3-dev)"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.exists():
        return f"no Python headers ({headers}; on Debian: apt-get install python3-dev)"
    if importlib.util.find_spec("mypyc") is None:
        return "mypy (mypyc) is not installed in the build environment"
    return None


class BuildExtOrPure(build_ext):
    """A compiler error leaves a working pure install (and says so) instead of no install."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:  # compile the groups side by side on every core
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # CompileError, LinkError, or a missing tool mid-way
            warn(f"compiling the engines failed ({error}); installing pure Python")
            remove_stale_extensions()
            record("pure", f"mypyc build failed: {error}; see pip install -v")
            self.extensions = []


def compiled_extensions() -> list:
    """mypyc's extensions, or [] after recording why the build is pure."""
    if _build.pure_forced():
        remove_stale_extensions()
        record("pure", f"built with {_build.PURE_ENV}=1")
        return []
    missing = missing_toolchain()
    if missing:
        warn(f"{missing}: installing pure Python (compiled engines run 2-3x faster)")
        remove_stale_extensions()
        record("pure", f"built without mypyc: {missing}")
        return []
    import mypy.version
    from mypyc.build import mypycify

    paths = [str(_build.source_path(module, ROOT).relative_to(ROOT))
             for module in _build.COMPILED_MODULES]
    # One group (shared library) per package: the C compiler runs on the groups in parallel
    # (`build_ext -j`), and an edit recompiles only its own group.  Across groups the calls go
    # through Python, as they already do between a game and core's State.  Each group's
    # library is named inside its package (`engines/ninjato/_native__mypyc...so`): mypyc's
    # default puts it at the top level, outside the packages, where an editable install
    # cannot import it from another directory.
    groups: dict[str, list[str]] = {}
    for module, path in zip(_build.COMPILED_MODULES, paths):
        groups.setdefault(module.rsplit(".", 1)[0], []).append(path)
    try:
        extensions = mypycify(MYPY_FLAGS + paths, opt_level="3", debug_level="0",
                              separate=[(group, f"{package}.{GROUP_LIBRARY}")
                                        for package, group in groups.items()])
    except SystemExit as error:  # mypy found type errors: mypyc refuses to compile
        warn(f"mypyc refused the engines (type errors above, exit {error.code}); installing "
             "pure Python")
        remove_stale_extensions()
        record("pure", "mypyc build failed: type errors (pip install -v shows them)")
        return []
    sources = {module: _build.source_digest(_build.source_path(module, ROOT))
               for module in _build.COMPILED_MODULES}
    # every engine source, not only the compiled ones: mypyc inlines imported `Final`s
    record("compiled", "mypyc", mypyc=mypy.version.__version__, sources=sources,
           depends=_build.engine_sources(ROOT / "engines"))
    return extensions


#: setuptools runs this file for metadata too (egg_info, dist_info): compile only when building.
_BUILDING = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}
setup(ext_modules=compiled_extensions() if _BUILDING & set(sys.argv) else [],
      cmdclass={"build_ext": BuildExtOrPure})
