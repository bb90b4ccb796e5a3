"""Every example in docs/*.md runs and prints what the page says."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOCS = sorted((Path(__file__).parent.parent / "docs").glob("*.md"))


def test_docs_exist() -> None:
    assert any(d.name == "logic.md" for d in DOCS)


@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.name)
def test_examples_in_page(page: Path) -> None:
    result = doctest.testfile(
        str(page),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        raise_on_error=False,
        verbose=False,
    )
    assert result.attempted > 0, f"{page.name} has no examples"
    assert result.failed == 0, f"{result.failed} example(s) in {page.name} failed"
