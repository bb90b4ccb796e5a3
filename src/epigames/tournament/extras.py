"""Optional extras (DuckDB and matplotlib with `tournament`, Ray with `ray`), imported on use.

Each is imported only when a command needs it, so the rest works without it; a missing
one is a user's error that says how to install it.
"""

from __future__ import annotations

import importlib
from typing import Any

from epigames.errors import InputError


def import_extra(
    module: str, extra: str, needed_by: str, error: type[InputError] = InputError
) -> Any:
    """The module `module` of the optional `extra`; `error` with the pip command if missing.

    `needed_by` begins the message: `"plots need"` gives "plots need the 'tournament'
    extra: pip install 'epigames[tournament]'".
    """
    try:
        return importlib.import_module(module)
    except ImportError:
        raise error(f"{needed_by} the {extra!r} extra: pip install 'epigames[{extra}]'") from None
