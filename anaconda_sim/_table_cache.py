"""Tables derived at import, kept beside the compiled kernels.

The hand evaluators' lookup tables (:mod:`~anaconda_sim.hands.lookup`,
:mod:`~anaconda_sim.hands.low`) are derived from the sources alone, in
about 0.4 s of Python at every import: a fifth of a warm command's time,
paid again by every compile worker, test worker and Dask worker. They are
kept in the kernel cache's folder (:func:`~anaconda_sim._numba.cache_folder`),
in a file named after the sources' hash, so a stale table cannot be read
(the kernels that freeze these tables as constants are cached under the
same hash).

A file holds the arrays and a SHA-256 digest of their names, dtypes,
shapes and bytes. One that cannot be read, or whose digest differs
(truncated, corrupt, written by something else), is built again and
replaced, never used; a folder that cannot be written only means the
tables are built at every import, as without a cache. A file is written
to a temporary name and renamed, so two processes that build it at the
same time leave one whole file.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ._numba import cache_folder, source_hash

__all__ = ["cached_arrays", "stored_arrays", "table_path"]

#: the digest's entry in a file (not a table)
_DIGEST = "__sha256__"


def table_path(name: str) -> Path | None:
    """Where the tables ``name`` are kept, or ``None`` when the cache is off.

    Examples
    --------
    >>> path = table_path("evaluator")
    >>> path is None or path.name.startswith("tables-evaluator-")
    True
    """
    folder = cache_folder()
    if folder is None:
        return None
    return folder / f"tables-{name}-{source_hash()[:16]}.npz"


def _digest(arrays: dict[str, np.ndarray]) -> np.ndarray:
    sha = hashlib.sha256()
    for key in sorted(arrays):
        value = np.ascontiguousarray(arrays[key])
        sha.update(f"{key}|{value.dtype.str}|{value.shape}|".encode())
        sha.update(value.tobytes())
    return np.frombuffer(sha.digest(), dtype=np.uint8)


def _read(path: Path) -> dict[str, np.ndarray] | None:
    """The tables in ``path`` when it holds whole ones, else ``None``."""
    try:
        with np.load(path, allow_pickle=False) as stored:
            arrays = {key: stored[key] for key in stored.files}
    except Exception:  # missing, truncated, not a zip: build them again
        return None
    digest = arrays.pop(_DIGEST, None)
    if digest is None or not np.array_equal(digest, _digest(arrays)):
        return None
    return arrays


def _write(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Keep ``arrays`` in ``path`` (best effort: an unwritable folder is fine)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    except OSError:
        return
    try:
        entries: dict[str, Any] = {**arrays, _DIGEST: _digest(arrays)}
        with os.fdopen(handle, "wb") as out:
            np.savez(out, **entries)
        os.replace(temporary, path)
    except OSError:
        Path(temporary).unlink(missing_ok=True)


def stored_arrays(name: str) -> dict[str, np.ndarray] | None:
    """The arrays kept under ``name`` when the cache holds them whole, else
    ``None`` (nothing is built): for a caller that builds them only when
    its work is worth the building.

    Examples
    --------
    >>> stored_arrays("no-such-tables") is None
    True
    """
    path = table_path(name)
    return None if path is None else _read(path)


def cached_arrays(
    name: str, build: Callable[[], dict[str, np.ndarray]]
) -> dict[str, np.ndarray]:
    """``build()``'s arrays, read from the cache when it holds them whole,
    else built and kept there for the next process.

    ``build`` must depend on the package's sources alone (the file is
    found by their hash) and return numeric arrays by name.

    Examples
    --------
    >>> tables = cached_arrays("example", lambda: {"squares": np.arange(4) ** 2})
    >>> tables["squares"].tolist()
    [0, 1, 4, 9]
    """
    path = table_path(name)
    if path is not None:
        found = _read(path)
        if found is not None:
            return found
    arrays = build()
    if path is not None:
        _write(path, arrays)
    return arrays
