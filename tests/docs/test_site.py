"""The documentation site (mkdocs.yml) builds in strict mode: a broken link, a broken
anchor, a missing cross-reference or a docstring that disagrees with its signature fails
the build, and so this test."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` of a configuration into `site`."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
        capture_output=True,
        text=True,
        cwd=config.parent,
        # Without the theme's notice about its future, printed on every build.
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        check=False,
    )


def test_the_site_builds_without_a_warning(tmp_path: Path) -> None:
    done = build(ROOT / "mkdocs.yml", tmp_path)
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    # Every guide and result page, the notebooks, and an API page per subpackage.
    for page in [*ROOT.glob("docs/*.md"), *ROOT.glob("docs/results/*.md")]:
        name = "" if page.stem in ("index", "README") else page.stem
        folder = tmp_path / page.parent.relative_to(ROOT / "docs") / name
        assert (folder / "index.html").is_file(), page
    assert sorted(p.name for p in (tmp_path / "notebooks").iterdir()) == sorted(
        p.name for p in (ROOT / "docs" / "notebooks").glob("*.ipynb")
    )
    games = (tmp_path / "api" / "games" / "index.html").read_text()
    for name in ("epigames.games.core.State", "epigames.games.match.Match"):
        assert f'id="{name}"' in games
    for package in ("logic", "cards", "tournament", "adapters"):
        assert (tmp_path / "api" / package / "index.html").is_file()


def test_strict_mode_fails_on_each_kind_of_broken_reference(tmp_path: Path) -> None:
    """The project's configuration on a small site with one of each mistake."""
    config = (ROOT / "mkdocs.yml").read_text()
    # No nav: the small site's pages are found on their own.
    config = re.sub(r"^nav:\n(?:[ -].*\n)+", "", config, flags=re.MULTILINE)
    (tmp_path / "mkdocs.yml").write_text(config)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "other.md").write_text("# Other\n\n## A heading\n")
    (docs / "index.md").write_text(
        "# Home\n\n"
        "A [broken link](nowhere.md), a [broken anchor](other.md#no-such-heading), a\n"
        "[missing reference][epigames.games.NoSuchThing].\n\n"
        "::: epigames.games.turn\n\n"
        "::: sloppy\n"
    )
    src = tmp_path / "src"
    src.mkdir()
    (src / "epigames").symlink_to(ROOT / "src" / "epigames")
    (src / "sloppy.py").write_text(
        '"""A module."""\n\n\n'
        'def double(x: int) -> int:\n    """Double it.\n\n    Args:\n        y: no such.\n    """\n'
        "    return 2 * x\n"
    )
    done = build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert done.returncode != 0
    for warning in (
        "contains a link 'nowhere.md', but the target is not found",
        "does not contain an anchor '#no-such-heading'",
        "Could not find cross-reference target 'epigames.games.NoSuchThing'",
        "Parameter 'y' does not appear in the function signature",
    ):
        assert warning in done.stderr, done.stderr
