"""The notebooks in docs/notebooks run from the first cell to the last (nbclient, one
kernel each) and are committed without outputs."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from nbformat.v4 import new_code_cell, new_notebook

NOTEBOOKS = Path(__file__).resolve().parents[2] / "docs" / "notebooks"

#: Each notebook, and the kinds of output it must show: drawn by the library's
#: `_repr_svg_` / `_repr_html_` (and matplotlib), not only printed.
SHOWS = {
    "kwartet-kripke.ipynb": {"image/svg+xml", "text/html"},
    "duplicate-deals.ipynb": {"text/html", "image/png"},
}


def execute(notebook: nbformat.NotebookNode, folder: Path) -> set[str]:
    """Run every cell in a fresh kernel working in `folder`; the output types shown.

    Raises:
        CellExecutionError: a cell raised (the message has the cell and its traceback).
    """
    client = NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": folder}}
    )
    client.execute()
    for cell in notebook.cells:
        # A cell's value is shown once: nothing it calls displays on its own (as a rich
        # console would, printing in a kernel).
        kinds = [out.output_type for out in cell.get("outputs", [])]
        if "execute_result" in kinds and "display(" not in cell.source:
            assert "display_data" not in kinds, f"shown twice: {cell.source[:60]}"
    return {
        kind
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        for kind in output.get("data", {})
    }


def test_every_notebook_is_run_here() -> None:
    assert {path.name for path in NOTEBOOKS.glob("*.ipynb")} == set(SHOWS)


@pytest.mark.parametrize("name", sorted(SHOWS))
def test_notebook_runs(name: str, tmp_path: Path) -> None:
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    shown = execute(notebook, tmp_path)
    assert SHOWS[name] <= shown, f"{name} showed only {sorted(shown)}"
    assert list(tmp_path.iterdir()) == [], "a notebook wrote into its working folder"


@pytest.mark.parametrize("name", sorted(SHOWS))
def test_notebook_is_committed_without_outputs(name: str) -> None:
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    nbformat.validate(notebook)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.source[:60]


def test_a_failing_cell_fails_the_run(tmp_path: Path) -> None:
    notebook = new_notebook(cells=[new_code_cell("x = 1"), new_code_cell("assert x == 2")])
    with pytest.raises(CellExecutionError, match="assert x == 2"):
        execute(notebook, tmp_path)
