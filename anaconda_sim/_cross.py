"""The kernel behind :func:`anaconda_sim.stats.exact_products`.

A K x K matrix of integer cross-products over a batch of per-deal values,
in int64 (exact for any batch the analyses produce). It replaces a float
BLAS product: OpenBLAS threads spin for a while after every call, and on a
2-core machine they took a core from the deal kernels' threads for most of
each batch.
"""

from __future__ import annotations

import numpy as np

from ._numba import jit


@jit
def _cross_products_into(units, out):
    """``out += units.T @ units`` for int64 ``units`` (rows x K), filling the
    upper triangle and mirroring it (the product is symmetric)."""
    rows, k = units.shape
    for r in range(rows):
        for i in range(k):
            ui = units[r, i]
            if ui == 0:
                continue
            for j in range(i, k):
                out[i, j] += ui * units[r, j]
    for i in range(k):
        for j in range(i + 1, k):
            out[j, i] = out[i, j]


def cross_products(units: np.ndarray) -> np.ndarray:
    """``units.T @ units`` of a 2-D integer array, as int64.

    Examples
    --------
    >>> import numpy as np
    >>> cross_products(np.array([[1, 2], [3, -4]])).tolist()
    [[10, -10], [-10, 20]]
    """
    values = np.ascontiguousarray(units, dtype=np.int64)
    out = np.zeros((values.shape[1], values.shape[1]), dtype=np.int64)
    _cross_products_into(values, out)
    return out
