"""The compiled cross-products of the choice accumulators (stats.exact_products)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from anaconda_sim.stats import exact_products


@settings(max_examples=60, deadline=None)
@given(arrays(np.int64, st.tuples(st.integers(0, 40), st.integers(1, 9)),
              elements=st.integers(-(2**20), 2**20)))  # fmt: skip
def test_exact_products_equal_numpy_integer_products(units):
    assert np.array_equal(exact_products(units), units.T @ units)


def test_products_past_float_precision_stay_exact():
    # 1e9 squared times 4 rows is past 2**53 (a float product would round)
    # and inside int64
    units = np.full((4, 3), 1_000_000_007, dtype=np.int64)
    units[:, 1] = -7
    assert np.array_equal(exact_products(units), units.T @ units)
    assert exact_products(units)[0, 0] == 4 * 1_000_000_007**2


def test_a_non_contiguous_view_is_read_correctly():
    base = np.arange(60, dtype=np.int64).reshape(6, 10) - 30
    view = base[::2, 1::3]
    assert np.array_equal(exact_products(view), view.T @ view)
