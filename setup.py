"""Build hook: compile the hot modules (`epigames.native.COMPILED`) with mypyc if it can.

Everything else is in pyproject.toml. Without mypyc or a C compiler, or with
``EPIGAMES_PURE_PYTHON=1`` at install, the package installs as plain Python and runs the
same; `epigames.native` decides at import which of the two is sound to use.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
PACKAGE = HERE / "src" / "epigames"


def _native() -> Any:
    # epigames.native uses the standard library only, so it loads without the package.
    spec = importlib.util.spec_from_file_location("_epigames_native", PACKAGE / "native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


native = _native()
record = PACKAGE / native.RECORD
# Taken before mypyc reads the sources: a module edited while it compiles then differs
# from the record, and `epigames.native` runs the plain sources instead of stale code.
digest = native.sources_digest(PACKAGE)


class OptionalBuildExt(build_ext):  # type: ignore[misc]
    """Builds the compiled modules; on any failure, leaves the install plain Python."""

    def run(self) -> None:
        record.unlink(missing_ok=True)
        # An editable install builds in the source tree: drop earlier builds, so a module
        # taken off the list is not shadowed by its old extension.
        for suffix in EXTENSION_SUFFIXES:
            for old in [*PACKAGE.rglob(f"*{suffix}"), *PACKAGE.parent.glob(f"*__mypyc{suffix}")]:
                old.unlink(missing_ok=True)
        try:
            super().run()
        except Exception as exc:
            print(f"epigames: not compiled ({exc}); the pure Python modules will run")
            return
        record.write_text(digest + "\n")
        if not self.inplace:
            # A wheel is made from build_lib, copied before this build ran: the record
            # must be there too, or an installed wheel never trusts its compiled modules.
            built = Path(self.build_lib) / "epigames" / native.RECORD
            built.parent.mkdir(parents=True, exist_ok=True)
            built.write_text(digest + "\n")


def _extensions() -> list[Any]:
    if os.environ.get(native.PURE_ENV, "") not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("epigames: mypyc is not available; the pure Python modules will run")
        return []
    paths = [str(native.source_path(m, PACKAGE).relative_to(HERE)) for m in native.COMPILED]
    try:
        compiled = list(mypycify(paths, opt_level="3", group_name="epigames_native"))
    except (Exception, SystemExit) as exc:
        print(f"epigames: mypyc failed ({exc}); the pure Python modules will run", file=sys.stderr)
        return []
    c_sources = [
        Extension(m, [str(native.source_path(m, PACKAGE).relative_to(HERE))])
        for m in native.C_MODULES
    ]
    return compiled + c_sources


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
