"""Running means, standard errors and paired differences of K choices.

Choices scored on common random numbers are strongly correlated, so the
standard error of a *difference* between two choices is far smaller than
either standard error. :class:`ChoiceAccumulator` keeps the sums and the K x K
cross-products needed for both, batch by batch, in memory independent of the
number of deals.

Sums are kept exactly, in integers: per-deal values are integers after
scaling (net chips are whole chips; a pot share is a multiple of 1/k for k
tied winners, or of 1/(2k) for k tied winners of one half of a hi-lo pot, so
``share * 840`` is whole for k = 1..7). Exact sums do not
depend on how deals are grouped into batches, so the same seed gives the same
table bit for bit whatever the batch size or thread count.
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: two-sided 95% normal quantile
Z95 = 1.959963984540054
#: 2 * lcm(1..7) = 2 * 420: a pot share (a whole pot or a hi-lo half, split
#: by up to 7 tied winners) times this is a whole number
SHARE_SCALE = 840


def systematic_sample(probability: np.ndarray, n: int, offset: float) -> np.ndarray:
    """``n`` category indices by systematic sampling of ``probability`` (one
    weight per category, not necessarily summing to 1): the points
    ``(offset + i) / n`` of the total, ``i = 0 .. n - 1``, each in the
    category whose cumulative weight it falls under; ``offset`` in [0, 1).
    Each category is drawn within one of ``n`` times its share.

    Examples
    --------
    >>> systematic_sample(np.array([0.5, 0.25, 0.25]), 4, 0.5).tolist()
    [0, 0, 1, 2]
    """
    cumulative = np.cumsum(probability)
    points = (offset + np.arange(n)) / n * cumulative[-1]
    picked: np.ndarray = np.minimum(np.searchsorted(cumulative, points, side="right"),
                                    len(cumulative) - 1)  # fmt: skip
    return picked


def estimate(value: Any, se: Any) -> dict[str, Any]:
    """The columns of an estimate in every table of the library: ``value``,
    its standard error ``se`` and the 95% normal interval ``ci_low``,
    ``ci_high`` (``value -/+ Z95 se``), for numbers or arrays alike.

    Examples
    --------
    >>> row = estimate(0.5, 0.01)
    >>> list(row), round(row["ci_high"], 4)
    (['value', 'se', 'ci_low', 'ci_high'], 0.5196)
    """
    return {"value": value, "se": se, "ci_low": value - Z95 * se, "ci_high": value + Z95 * se}


def to_units(rows: np.ndarray, scale: int) -> np.ndarray:
    """Per-deal values as exact integers (``rows * scale`` must be whole)."""
    scaled = np.asarray(rows, dtype=np.float64) * scale
    units = np.rint(scaled)
    if not np.allclose(units, scaled, rtol=0, atol=1e-6):
        raise ValueError(f"values are not whole multiples of 1/{scale}")
    return units.astype(np.int64)


def exact_products(units: np.ndarray) -> np.ndarray:
    """``units.T @ units`` of per-deal integer values (rows x K), exactly, as
    int64 (a compiled loop; see :mod:`anaconda_sim._cross`)."""
    from ._cross import cross_products  # late: loads numba

    return cross_products(units)


class ChoiceAccumulator:
    """Exact sums of per-deal values of K choices and their cross-products.

    Examples
    --------
    >>> acc = ChoiceAccumulator(2)
    >>> acc.add(np.array([[1.0, 0.0], [0.0, 0.0], [1.0, 1.0], [0.0, 0.5]]))
    >>> acc.mean().tolist(), acc.deals
    ([0.5, 0.375], 4)
    >>> float(acc.se()[0]) == float(np.sqrt(1 / 3 / 4))
    True
    """

    def __init__(self, choices: int, scale: int = SHARE_SCALE):
        self.scale = scale
        self.deals = 0
        self.total = np.zeros(choices, dtype=np.int64)
        self.cross = np.zeros((choices, choices), dtype=np.int64)

    def add(self, rows: np.ndarray) -> None:
        """Add a batch: ``rows`` has one row per deal, one column per choice."""
        self.add_units(to_units(rows, self.scale))

    def add_units(self, units: np.ndarray) -> None:
        """Add a batch of whole numbers of ``1/scale`` (one row per deal)."""
        self.deals += units.shape[0]
        self.total += units.sum(axis=0, dtype=np.int64)
        self.cross += exact_products(units)

    def add_sums(self, deals: int, total: np.ndarray, cross: np.ndarray) -> None:
        """Add a batch given as its exact sums (in units of ``1/scale``)."""
        self.deals += int(deals)
        self.total += np.asarray(total, dtype=np.int64)
        self.cross += np.asarray(cross, dtype=np.int64)

    def combine(self, weights: np.ndarray) -> ChoiceAccumulator:
        """Accumulator of the averages ``weights @ x / weights.sum(1)`` (exact).

        ``weights`` is an integer (m, K) matrix whose rows have equal sums,
        e.g. 0/1 rows picking the choices to average.
        """
        weights = np.asarray(weights, dtype=np.int64)
        counts = set(weights.sum(axis=1).tolist())
        if len(counts) != 1:
            raise ValueError("every row of weights must have the same sum")
        combined = ChoiceAccumulator(weights.shape[0], self.scale * counts.pop())
        combined.deals = self.deals
        combined.total = weights @ self.total
        combined.cross = weights @ self.cross @ weights.T
        return combined

    def mean(self) -> np.ndarray:
        return self.total / (max(self.deals, 1) * self.scale)

    def covariance(self) -> np.ndarray:
        """Sample covariance between choices (per deal), in value units."""
        n = self.deals
        if n < 2:
            return np.full(self.cross.shape, np.nan)
        total = self.total.astype(np.float64)
        centred = self.cross - np.outer(total, total) / n
        return centred / ((n - 1) * self.scale**2)

    def se(self) -> np.ndarray:
        """Standard error of each choice's mean."""
        variance = np.clip(np.diag(self.covariance()), 0.0, None)
        return np.sqrt(variance / max(self.deals, 1))

    def diff_se(self, reference: int) -> np.ndarray:
        """Standard error of ``mean[k] - mean[reference]`` for every k (paired)."""
        cov = self.covariance()
        variance = np.diag(cov) + cov[reference, reference] - 2.0 * cov[:, reference]
        se: np.ndarray = np.sqrt(np.clip(variance, 0.0, None) / max(self.deals, 1))
        return se


class MeanAccumulator:
    """Exact sums and sums of squares of K per-deal quantities (no cross terms)."""

    def __init__(self, choices: int, scale: int = SHARE_SCALE):
        self.scale = scale
        self.deals = 0
        self.total = np.zeros(choices, dtype=np.int64)
        self.squares = np.zeros(choices, dtype=np.int64)

    def add_units(self, units: np.ndarray) -> None:
        """Add a batch of values already in integer units of ``1/scale``."""
        self.deals += units.shape[0]
        self.total += units.sum(axis=0)
        self.squares += (units * units).sum(axis=0)

    def add(self, rows: np.ndarray) -> None:
        self.add_units(to_units(rows, self.scale))

    def mean(self) -> np.ndarray:
        return self.total / (max(self.deals, 1) * self.scale)

    def se(self) -> np.ndarray:
        n = self.deals
        if n < 2:
            return np.full(self.total.shape, np.nan)
        total = self.total.astype(np.float64)
        variance = (self.squares - total * total / n) / ((n - 1) * self.scale**2)
        return np.sqrt(np.clip(variance, 0.0, None) / n)
