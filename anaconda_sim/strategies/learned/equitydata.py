"""The equity estimate's tables shipped for each table size
(``anaconda_sim/strategies/learned/data/equity.npz``).

Each was fitted with the betting that reads it, against the ``"learned"``
field of its table size (:func:`~anaconda_sim.learning.readfit.fit_reads`,
:func:`~anaconda_sim.learning.estimate_equity`); the file holds the command
that regenerates it, the field, the deals and the seed
(:func:`shipped_equity_model`)::

    python -m anaconda_sim.learning.readfit
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...checks import check_players
from .packaged import packaged_arrays, packaged_model
from .reads import CURVE_SHAPE, EQUITY_SIZE, FACTOR_SHAPE

__all__ = ["EQUITY_FILE", "shipped_equity", "shipped_equity_model"]

#: the shipped tables, inside the package
EQUITY_FILE = "data/equity.npz"


def _shipped() -> dict[str, np.ndarray]:
    return packaged_arrays(EQUITY_FILE)


def shipped_equity_model(players: int) -> dict[str, Any]:
    """How the tables of ``players`` were estimated (field, deals, seed, command).

    Examples
    --------
    >>> shipped_equity_model(6)["players"]
    6
    """
    players = check_players(players)
    return packaged_model(_shipped(), f"model_{players}")


def shipped_equity(players: int) -> np.ndarray:
    """The flat equity array (:data:`~.reads.EQUITY_SIZE`) shipped for
    ``players`` (2-7): the factor table, then the curve table.

    Examples
    --------
    >>> shipped_equity(6).shape
    (4176,)
    """
    players = check_players(players)
    data = _shipped()
    factor, curve = data[f"factor_{players}"], data[f"curve_{players}"]
    if factor.shape != FACTOR_SHAPE or curve.shape != CURVE_SHAPE:
        raise ValueError(
            f"the shipped equity tables for players={players} have shapes {factor.shape} and "
            f"{curve.shape}, not {FACTOR_SHAPE} and {CURVE_SHAPE}; regenerate them with "
            "python -m anaconda_sim.learning.readfit"
        )
    out = np.concatenate([factor.ravel(), curve.ravel()]).astype(np.float64)
    assert out.size == EQUITY_SIZE
    out.setflags(write=False)
    return out
