"""Randomness: seeds, per-deal streams, uniform deals (DESIGN.md: reproducible)."""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest

from anaconda_sim.cards import mask_from_cards, parse_cards
from anaconda_sim.rng import (
    deal_cards,
    new_state,
    next_u64,
    rand_below,
    rand_float,
    root_key,
)


def chi2_upper(df: int, z: float = 4.0) -> float:
    """Wilson-Hilferty chi-square quantile z standard deviations above the mean."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


@numba.njit(cache=False)
def _position_counts(key, known, k, deals):
    counts = np.zeros((k, 52), dtype=np.int64)
    out = np.empty(k, dtype=np.int64)
    for d in range(deals):
        state = new_state(key, d, 0)
        deal_cards(state, known, k, out)
        for i in range(k):
            counts[i, out[i]] += 1
    return counts


@numba.njit(parallel=True, cache=False)
def _per_deal_draws(key, deals):
    out = np.empty((deals, 3), dtype=np.uint64)
    for d in numba.prange(deals):
        state = new_state(key, d, 2)
        for j in range(3):
            out[d, j] = next_u64(state)
    return out


def test_seed_forms_agree_and_differ():
    assert int(root_key(5)) == int(root_key(np.random.SeedSequence(5)))
    assert int(root_key(5)) != int(root_key(6))
    assert int(root_key(None)) != int(root_key(None))


@pytest.mark.parametrize("bad", [-3, 1.5, "7", True])
def test_bad_seed_is_refused(bad):
    with pytest.raises((ValueError, TypeError), match="seed"):
        root_key(bad)


def test_deal_is_uniform_by_position_chi_square():
    """Every position of a deal is uniform over the cards not known (R5)."""
    known_cards = parse_cards("Qs Qh 9c 8d 3s 4h 2c Ad Kd Td")
    known = mask_from_cards(known_cards)
    deals, k = 84_000, 7
    counts = _position_counts(root_key(2024), known, k, deals)
    available = [c for c in range(52) if c not in known_cards]
    assert counts[:, known_cards].sum() == 0
    expected = deals / len(available)
    for position in range(k):
        observed = counts[position, available]
        assert observed.sum() == deals
        chi2 = float(((observed - expected) ** 2 / expected).sum())
        assert chi2 < chi2_upper(len(available) - 1), (position, chi2)


def test_deal_cards_are_distinct_and_avoid_known():
    known = mask_from_cards("As Ks")
    state = new_state(root_key(1), 0, 0)
    out = np.empty(50, dtype=np.int64)
    drawn = deal_cards(state, known, 50, out)
    assert sorted(out.tolist()) == [c for c in range(52) if c not in (51, 47)]
    assert int(drawn) & int(known) == 0


def test_prefix_of_a_full_shuffle_is_the_short_deal():
    """Drawing 52 or 7n cards from one stream gives the same first 7n cards."""
    key = root_key(99)
    short = np.empty(21, dtype=np.int64)
    full = np.empty(52, dtype=np.int64)
    deal_cards(new_state(key, 3, 0), np.uint64(0), 21, short)
    deal_cards(new_state(key, 3, 0), np.uint64(0), 52, full)
    assert np.array_equal(short, full[:21])


def test_rand_below_and_float_ranges_and_uniformity():
    state = new_state(root_key(7), 0, 1)
    draws = np.array([rand_below(state, 7) for _ in range(70_000)])
    counts = np.bincount(draws, minlength=7)
    assert draws.min() == 0 and draws.max() == 6
    assert ((counts - 10_000) ** 2 / 10_000).sum() < chi2_upper(6)
    floats = np.array([rand_float(state) for _ in range(20_000)])
    assert 0.0 <= floats.min() and floats.max() < 1.0
    assert abs(floats.mean() - 0.5) < 4 * math.sqrt(1 / 12 / 20_000)


def test_streams_do_not_depend_on_thread_count():
    """Per-deal streams: the same numbers on 1 thread and on all threads."""
    key = root_key(11)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = _per_deal_draws(key, 5000)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = _per_deal_draws(key, 5000)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one, many)
    assert len(np.unique(one[:, 0])) == 5000


def test_streams_of_one_deal_are_distinct():
    key = root_key(0)
    firsts = {int(next_u64(new_state(key, d, s))) for d in range(50) for s in range(8)}
    assert len(firsts) == 400
