"""Repository-wide test configuration (the package's doctests run from here too)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _doctests_write_into_a_temporary_folder(request, tmp_path, monkeypatch):
    # docstring examples that write files (write_table, save_figure) must not
    # leave them in the repository
    if isinstance(request.node, pytest.DoctestItem):
        monkeypatch.chdir(tmp_path)
