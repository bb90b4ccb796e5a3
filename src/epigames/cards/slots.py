"""Making values of frozen slotted dataclasses on hot paths, without their `__init__`.

A frozen dataclass's `__init__` sets each field through `object.__setattr__`, at about
twice the cost of the slot's own setter (several times, once compiled by mypyc, which
keeps the generated `__init__`); the card engine makes a `PublicInfo` for every public
fact and a `CardKnowledge` for every decision, so those go through `slot_maker`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def slot_maker(cls: type[T]) -> Callable[..., T]:
    """A function `make(*values)` that equals `cls(*values)` (every field, in order).

    It sets the values through the slots' own setters: no `__init__`, no
    `__post_init__`, so the caller must pass values `cls` would accept. The function is
    written out per class, as `dataclasses` writes `__init__`: a loop over the setters
    would cost what it saves.

    Raises:
        TypeError: `cls` is not a dataclass with a slot per field.
    """
    names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    compiled = hasattr(cls, "__mypyc_attrs__")
    # A class compiled by mypyc keeps its fields in native attributes, not `__slots__`;
    # its dataclass `__init__` is still the generated Python one, several times slower
    # than the attributes' own setters, and `object.__new__` refuses it.
    slots = set(cls.__dict__) if compiled else set(getattr(cls, "__slots__", ()))
    if not set(names) <= slots:
        raise TypeError(f"{cls.__name__} has fields without slots; expected slots=True")
    scope: dict[str, Any] = {"new": cls.__new__ if compiled else object.__new__, "cls": cls}
    lines = [f"def make({', '.join(names)}):", "    obj = new(cls)"]
    for name in names:
        scope[f"set_{name}"] = cls.__dict__[name].__set__
        lines.append(f"    set_{name}(obj, {name})")
    lines.append("    return obj")
    exec("\n".join(lines), scope)  # the text is made above, from the field names
    make: Callable[..., T] = scope["make"]
    make.__qualname__ = f"slot_maker.<{cls.__name__}>"
    make.__doc__ = f"`{cls.__name__}({', '.join(names)})` through the slots' own setters."
    return make


def rebuilt(obj: Any) -> tuple[Any, tuple[Any, ...]]:
    """A frozen dataclass's `__reduce__`: its class, called with its `__init__` fields.

    Pickling and copying restore a compiled class's attributes one `setattr` at a time,
    which a frozen dataclass refuses; a call of the constructor works both ways. Caches
    (fields `__init__` does not take) start empty in the copy.
    """
    cls = type(obj)
    return cls, tuple(getattr(obj, f.name) for f in dataclasses.fields(cls) if f.init)
