"""Class constants given as class keywords: ``class Holds(CardFact, name="holds")``."""

from __future__ import annotations


def set_given(cls: type, **constants: object) -> None:
    """Set on ``cls`` each constant that was given (not None, not the empty string).

    For a base's ``__init_subclass__``. `dataclass(slots=True)` creates each class a second
    time without the keywords, and that second call must not reset what the first set.
    """
    for key, value in constants.items():
        if value is not None and value != "":
            setattr(cls, key, value)
