"""A fast maker of Kemps knowledge objects, outside the compiled modules.

`knowledge.KempsKnowledge` is made for every decision of a strategy that reads knowledge;
its dataclass `__init__` (inherited from `cards.CardKnowledge`) is Python code even when
compiled. `field_maker` writes a function that makes one through the base's own field
setters instead, as `cards.slots.slot_maker` does for a class's own fields. It reads the
classes' descriptors, which compiled code may not, so it lives here, in plain Python.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def field_maker(cls: type[T], base: type[Any]) -> Callable[..., T]:
    """A function `make(*values)` that makes a `cls` with every field of the dataclass
    `base` (its caches too: the fields `__init__` does not take) set to `values`, in order.

    `cls` adds no fields to `base`; as with `slot_maker`, nothing checks the values.
    """
    names = [f.name for f in dataclasses.fields(base)]
    compiled = hasattr(base, "__mypyc_attrs__")
    scope: dict[str, Any] = {"new": cls.__new__ if compiled else object.__new__, "cls": cls}
    lines = [f"def make({', '.join(names)}):", "    obj = new(cls)"]
    for name in names:
        scope[f"set_{name}"] = base.__dict__[name].__set__
        lines.append(f"    set_{name}(obj, {name})")
    lines.append("    return obj")
    exec("\n".join(lines), scope)  # the text is made above, from the field names
    make: Callable[..., T] = scope["make"]
    make.__qualname__ = f"field_maker.<{cls.__name__}>"
    return make
