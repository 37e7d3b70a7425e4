"""Exhaustive and large-sample tests of the ace-to-five low evaluator (R23).

Every five-card hand is enumerated in a numba kernel and its low value
compared in order with the naive twin; the best low of 6 and 7 cards is
checked against the best of their five-card subsets on a million hands.
"""

from __future__ import annotations

from itertools import pairwise
from math import comb

import numpy as np
import pytest
from naive import all_five_card_hands, naive_best_low, naive_low_classes, naive_low_key5

from anaconda_sim._numba import jit
from anaconda_sim.hands.low import (
    LOW_CATEGORY_START,
    N_LOW_VALUES,
    evaluate_low,
    low5,
    low7,
    low_category,
    low_mask,
    low_rows,
    low_value_category,
    low_value_of,
)
from anaconda_sim.rng import deal_cards, new_state, root_key

N5 = 2_598_960


@jit(cache=False)
def _random_hands(key, n, k):
    """``n`` seeded random sets of ``k`` distinct cards (package RNG, one stream per row)."""
    hands = np.empty((n, k), np.int64)
    for i in range(n):
        deal_cards(new_state(key, i, 0), np.uint64(0), k, hands[i])
    return hands


@jit(cache=False)
def _best_of_subsets(hands):
    """Max of low5 over every five-card subset of each row (6 or 7 columns)."""
    n = hands.shape[1]
    out = np.empty(hands.shape[0], np.int64)
    for r in range(hands.shape[0]):
        h = hands[r]
        best = 0
        for i in range(n):
            for j in range(i + 1, n):
                for k in range(j + 1, n):
                    for l in range(k + 1, n):
                        for m in range(l + 1, n):
                            best = max(best, low5(h[i], h[j], h[k], h[l], h[m]))
        out[r] = best
    return out


@jit(cache=False)
def _scalar_paths(hands):
    """low7 (7 columns only), low_value_of and low_mask on each row."""
    n = hands.shape[1]
    out = np.empty((hands.shape[0], 3), np.int64)
    for r in range(hands.shape[0]):
        h = hands[r]
        out[r, 0] = low7(h[0], h[1], h[2], h[3], h[4], h[5], h[6]) if n == 7 else -1
        out[r, 1] = low_value_of(h, n)
        mask = np.uint64(0)
        for c in h:
            mask |= np.uint64(1) << np.uint64(16 * (c & 3) + (c >> 2))
        out[r, 2] = low_mask(mask)
    return out


@pytest.fixture(scope="module")
def five_card_hands():
    """Every five-card hand and its value (the batch kernel on all 2,598,960)."""
    hands = all_five_card_hands()
    return hands, evaluate_low(hands).astype(np.int64)


def _rank_class(hands):
    """Class of each hand under R23: its multiset of ranks (suits never count)."""
    ranks = np.sort(hands.astype(np.int64) >> 2, axis=1)
    return (ranks * 13 ** np.arange(5)).sum(axis=1)


def test_distinct_lows_counted_by_the_twin_r23(five_card_hands):
    """The number of distinct lows is derived twice: by the twin's keys and by counting.

    One low per multiset of five ranks with at most four of a rank: C(13, 5)
    no-pair lows, 13 * C(12, 3) pairs, C(13, 2) * 11 two pairs, 13 * C(12, 2)
    trips, 13 * 12 full houses and 13 * 12 quads. The fast values take
    exactly that many values, 1..N, and every hand with the same ranks gets
    the same value.
    """
    twin_count = len({naive_low_key5(hand) for hand in naive_low_classes()})
    counted = comb(13, 5) + 13 * comb(12, 3) + comb(13, 2) * 11 + 13 * comb(12, 2) + 2 * 13 * 12
    assert twin_count == counted == N_LOW_VALUES
    hands, values = five_card_hands
    assert len(np.unique(values)) == twin_count
    assert values.min() == 1
    assert values.max() == twin_count
    klass = _rank_class(hands)
    assert len(np.unique(klass)) == twin_count
    assert len(np.unique(klass * 10_000 + values)) == twin_count  # one value per rank class


def test_five_card_order_equals_naive_twin_r23(five_card_hands):
    """All 2,598,960 hands: the low values rank them exactly as the twin's keys do.

    (1) Each rank class has one value (previous test); (2) one representative
    per class, sorted by value, has strictly decreasing twin keys (a higher
    value is a strictly better low); (3) a random sample of hands checked one
    by one against the twin.
    """
    hands, values = five_card_hands
    klass = _rank_class(hands)
    _, first = np.unique(klass, return_index=True)
    reps = hands[first].astype(int).tolist()
    keys = [naive_low_key5(hand) for hand in reps]
    rep_values = values[first]
    order = np.argsort(rep_values)
    sorted_keys = [keys[i] for i in order]
    assert all(a > b for a, b in pairwise(sorted_keys))  # smaller key = better = higher value
    assert np.array_equal(np.sort(rep_values), np.arange(1, N_LOW_VALUES + 1))

    key_of_value = {int(v): k for v, k in zip(rep_values, keys, strict=True)}
    rng = np.random.default_rng(23)
    for i in rng.choice(N5, 20_000, replace=False):
        assert naive_low_key5(hands[i].astype(int).tolist()) == key_of_value[int(values[i])]


def test_low_categories_over_all_five_card_hands_r23(five_card_hands):
    """Category counts over all hands follow from the rank counts; kernel and API agree."""
    _, values = five_card_hands
    counts = np.bincount(low_category(values), minlength=6).tolist()
    # quads, full house, trips, two pair, pair, no pair (the high-poker counts; a
    # low no-pair hand is any five distinct ranks, straights and flushes included)
    assert counts == [624, 3_744, 54_912, 123_552, 1_098_240, 1_317_888]
    assert counts[5] == comb(13, 5) * 4**5
    every = np.arange(1, N_LOW_VALUES + 1)
    assert [low_value_category(v) for v in every] == low_category(every).tolist()
    assert LOW_CATEGORY_START.tolist() == [1, 157, 313, 1171, 2029, 4889, 6176]


def test_five_card_paths_agree(five_card_hands):
    """evaluate_low (both batch kernels), low_value_of and low_mask agree with low5."""
    hands, values = five_card_hands
    assert np.array_equal(evaluate_low(hands), values)  # parallel kernel (large input)
    out = np.empty(len(hands), np.int32)
    low_rows(hands, out)
    assert np.array_equal(out, values)
    paths = _scalar_paths(hands[::7].astype(np.int64))
    assert np.array_equal(paths[:, 1], values[::7])
    assert np.array_equal(paths[:, 2], values[::7])


@pytest.mark.parametrize("k", [6, 7])
def test_best_low_of_k_equals_best_subset_r23(k):
    """A million random 6- and 7-card hands: the value is the best of the five-card subsets."""
    hands = _random_hands(root_key(2300 + k), 1_000_000, k)
    best = _best_of_subsets(hands)
    values = evaluate_low(hands)
    assert np.array_equal(values, best)
    paths = _scalar_paths(hands[:100_000])
    if k == 7:
        assert np.array_equal(paths[:, 0], best[:100_000])
    assert np.array_equal(paths[:, 1], best[:100_000])
    assert np.array_equal(paths[:, 2], best[:100_000])
    # Which best lows six or seven cards can make: never four of a kind (with
    # two ranks a full house can be made instead); with seven cards never three
    # of a kind either (three ranks among seven cards always hold two pairs).
    # Every possible category occurs in the sample, except perhaps the rare
    # seven-card full house (four and three of two ranks, p = 6e-6).
    cats = set(low_category(values).tolist())
    possible = {1, 2, 3, 4, 5} if k == 6 else {1, 3, 4, 5}
    assert cats <= possible
    assert possible - {1} <= cats
    if k == 6:
        assert 1 in cats
    # the twin picks the same best low on a sample
    key_of_value = {int(low5(*h)): naive_low_key5(list(h)) for h in naive_low_classes()}
    for row, value in zip(hands[:3_000].tolist(), values[:3_000], strict=True):
        assert naive_best_low(row) == key_of_value[int(value)]
