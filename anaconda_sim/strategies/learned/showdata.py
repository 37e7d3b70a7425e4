"""Show tables for ``"learned-v2"`` by table size
(``anaconda_sim/strategies/learned/data/show.npz``; none is shipped): a
reveal order (:mod:`~.show`) fitted alone against the field that plays it,
with its betting and equity tables (:mod:`anaconda_sim.learning.showfit`);
such a file holds the command that made it (:func:`shipped_show_model`)::

    python -m anaconda_sim.learning.showfit --show-out anaconda_sim/strategies/learned/data/show.npz

A table size with no show table orders by the order weights ``o_*``. The
default ``"learned"`` plays the show tables learned with the rest of its
field (:mod:`~.fielddata`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...checks import check_players
from .packaged import packaged_arrays, packaged_model
from .params import SHOW_ARRAY_SIZE, SHOW_SHAPE

__all__ = ["SHOW_FILE", "shipped_show", "shipped_show_model"]

#: the shipped tables, inside the package
SHOW_FILE = "data/show.npz"


def _shipped() -> dict[str, np.ndarray]:
    return packaged_arrays(SHOW_FILE)


def shipped_show_model(players: int) -> dict[str, Any] | None:
    """How the show table of ``players`` was fitted (field, situations, seed,
    command), or ``None`` when none is shipped for that size."""
    players = check_players(players)
    data = _shipped()
    return packaged_model(data, f"model_{players}") if f"model_{players}" in data else None


def shipped_show(players: int) -> np.ndarray | None:
    """The show array (:data:`~.params.SHOW_ARRAY_SIZE`: the temperature of
    the order's draw, the show table, flat, the keep table and the
    temperature of the discard's draw, 0 unless the file gives one) shipped
    for ``players`` (2-7), or ``None`` when none is shipped for that size."""
    players = check_players(players)
    data = _shipped()
    table = data.get(f"show_{players}")
    if table is None:
        return None
    if table.shape != SHOW_SHAPE:
        raise ValueError(
            f"the shipped show table for players={players} has shape {table.shape}, not "
            f"{SHOW_SHAPE}; regenerate it with python -m anaconda_sim.learning.showfit"
        )
    out = np.concatenate([[float(data[f"temperature_{players}"])], table.ravel(),
                          data[f"keep_{players}"],
                          [float(data.get(f"keep_temperature_{players}", 0.0))]])  # fmt: skip
    assert out.size == SHOW_ARRAY_SIZE
    out.setflags(write=False)
    return out
