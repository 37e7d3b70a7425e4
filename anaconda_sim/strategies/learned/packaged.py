"""The npz files shipped in this package's ``data/`` folder, each read once:
the equity tables (:mod:`~.equitydata`), the show tables (:mod:`~.showdata`)
and the learned field (:mod:`~.fielddata`), each holding, per table size, its
arrays and a JSON model (``model_{players}``: how it was made)."""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

import numpy as np

__all__ = ["packaged_arrays", "packaged_model"]


@functools.cache
def packaged_arrays(file: str, skip: str | None = None) -> dict[str, np.ndarray]:
    """The arrays of ``file`` (a path inside this package, ``"data/....npz"``)
    by name, those whose name starts with ``skip`` left out; empty when the
    package holds no such file. Read once per process: treat as read-only.

    Examples
    --------
    >>> "model_6" in packaged_arrays("data/equity.npz")
    True
    >>> packaged_arrays("data/none.npz")
    {}
    """
    path = resources.files(__package__).joinpath(file)
    if not path.is_file():
        return {}
    with path.open("rb") as handle, np.load(handle) as data:
        return {name: data[name] for name in data.files
                if skip is None or not name.startswith(skip)}  # fmt: skip


def packaged_model(arrays: dict[str, np.ndarray], name: str) -> dict[str, Any]:
    """The JSON model stored as ``arrays[name]`` (a ``KeyError`` when absent).

    Examples
    --------
    >>> packaged_model(packaged_arrays("data/equity.npz"), "model_6")["players"]
    6
    """
    return dict(json.loads(str(arrays[name])))
