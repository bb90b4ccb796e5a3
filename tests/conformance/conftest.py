"""The conformance suite plays its matches with light strategy settings (`LIGHT`)."""

from __future__ import annotations

import pytest

from tests.conformance.oracles import LIGHT


@pytest.fixture(autouse=True)
def light_strategies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Set `LIGHT` for the test (undone after it)."""
    for cls, name, value in LIGHT:
        monkeypatch.setattr(cls, name, value)
